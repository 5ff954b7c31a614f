"""Issue 11, area "special2": what the golden cases cannot record from real JAX 0.10.2 on its CPU
(pbroadcast and ragged_all_to_all have no CPU lowering there), and the Schur kernel's
properties on matrices beyond the golden ones."""
from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax
from core._engine.primitives.schur_kernel import schur as schur_kernel


def test_pbroadcast_is_jax_documented_equivalent():
    # JAX's docstring: pbroadcast(x, axis_name, source) ==
    #   psum(where(axis_index(axis_name) == source, x, zeros_like(x)), axis_name)
    x = jnp.arange(6.0).reshape(3, 2)
    got = jax.vmap(lambda a: lax.pbroadcast(a, "i", 1), axis_name="i")(x)
    want = jax.vmap(lambda a: lax.psum(jnp.where(lax.axis_index("i") == 1, a, 0.0), "i"), axis_name="i")(x)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_array_equal(np.asarray(got), np.tile([2.0, 3.0], (3, 1)))


def test_pcast_passes_values_through_under_a_named_axis():
    x = jnp.arange(4.0)
    out = jax.vmap(lambda a: lax.pcast(a, "i", to="varying"), axis_name="i")(x)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(x))
    with pytest.raises(NameError, match="unbound axis name: j"):
        jax.vmap(lambda a: lax.pcast(a, "j", to="varying"), axis_name="i")(x)


@pytest.mark.parametrize("call", [
    lambda: lax.psend(jnp.ones(2), "x", [(0, 0)]),
    lambda: lax.precv(None, jnp.ones(2), "x", [(0, 0)]),
    lambda: lax.ragged_all_to_all(jnp.ones(4), jnp.zeros(4), jnp.zeros(1, jnp.int32), jnp.ones(1, jnp.int32),
                                  jnp.zeros(1, jnp.int32), jnp.ones(1, jnp.int32), axis_name="x"),
])
def test_collectives_without_cpu_support_say_so(call):
    with pytest.raises(NotImplementedError, match="not available in gradpad"):
        call()


def test_shard_map_over_several_devices_says_why():
    dev = jax.devices()[0]
    mesh = jax.sharding.Mesh(np.array([dev, dev], dtype=object), ("x",))
    f = jax.shard_map(lambda a: a, mesh=mesh, in_specs=jax.P("x"), out_specs=jax.P("x"))
    with pytest.raises(NotImplementedError, match="mesh of 2 devices"):
        f(jnp.arange(4.0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("n", [1, 2, 3, 6, 9])
def test_schur_kernel_gives_a_schur_form(dtype, n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((n, n))
    a = a.astype(dtype)
    t, z, ok = schur_kernel(a)
    assert ok and t.dtype == a.dtype and z.dtype == a.dtype
    tol = 1e-4 if np.dtype(dtype).itemsize <= 8 and dtype != np.complex128 else 1e-10
    np.testing.assert_allclose(z @ t @ z.conj().T, a, atol=tol * 10 * n)
    np.testing.assert_allclose(z.conj().T @ z, np.eye(n), atol=tol * 10 * n)
    below = np.tril(t, -1 if np.dtype(dtype).kind == "c" else -2)
    assert not below.any()
    if np.dtype(dtype).kind == "f":   # 2x2 blocks only for complex pairs, in standard form
        for i in range(n - 1):
            if t[i + 1, i] != 0:
                assert t[i, i] == t[i + 1, i + 1] and t[i, i + 1] * t[i + 1, i] < 0
                assert i + 2 >= n or t[i + 2, i + 1] == 0


@pytest.mark.parametrize("flag", ["debug_key_reuse", "no_execution", "no_tracing", "thread_guard"])
def test_flags_asking_for_unperformed_checks_raise(flag):
    # JAX: jax.debug_key_reuse(True) makes reusing a key raise KeyReuseError; gradpad does not
    # track key reuse, so it refuses the setting rather than silently not checking.
    with pytest.raises(NotImplementedError, match="not supported by gradpad"):
        with getattr(jax, flag)(True):
            pass
    assert getattr(jax, flag).value is False
