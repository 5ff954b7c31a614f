"""Fast paths for what an MCMC kernel's jitted step runs per leapfrog (issue 24: blackjax's NUTS),
each checked against the general code path it short-cuts (golden cases from real JAX:
tests/golden/cases_mcmcops.py)."""
import numpy as np

import core as jax
import core.numpy as jnp
import pytest

from core._engine.primitives import random_bits as rb


def _general(monkeypatch, f, *args, **kw):
    with monkeypatch.context() as m:
        m.setattr(rb, "_LANES_MAX", -1)   # no lane-by-lane path: the numpy / packed-lane hash
        return f(*args, **kw)


@pytest.mark.parametrize("key_shape", [(), (1,), (1, 1)])
def test_one_key_lanes_match_the_vectorized_hash(monkeypatch, key_shape):
    rng = np.random.default_rng(sum(key_shape) + 3)
    for _ in range(40):
        words = rng.integers(0, 2**32, size=2, dtype=np.uint64).astype(np.uint32)
        key = rb.wrap_words(words).reshape(key_shape)
        msg = np.uint32(rng.integers(0, 2**32))
        got = rb._fold_in_impl(key, msg)
        want = rb.wrap_words(np.stack(rb.threefry2x32_np(words[0], words[1], np.uint32(0), msg), -1))
        assert got.dtype == rb.KEY_DTYPE and got.shape == key_shape and got.tobytes() == want.tobytes()
        for shape in [(), (1,), (3,), (2, 2), (8,), (9,)]:
            for width in (8, 16, 32, 64):
                got = rb._bits_impl(key, bit_width=width, shape=shape)
                want = _general(monkeypatch, rb._bits_impl, key, bit_width=width, shape=shape)
                assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
            got = rb._split_impl(key, shape=shape)
            want = _general(monkeypatch, rb._split_impl, key, shape=shape)
            assert got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


def _tree_builder_ops(n, x, m, v):
    a = jax.lax.shift_right_arithmetic(n, 1)
    b = jax.lax.population_count(a)
    c = (~n) & (n + 1) | (n ^ m)
    d = jax.lax.shift_right_logical(n, 3)
    e = jax.lax.rem(n, m)
    f = jax.lax.convert_element_type(b, jnp.float32) + jax.lax.integer_pow(x, 3) + jax.nn.sigmoid(x)
    g = jax.lax.dynamic_slice(jnp.concatenate([v, v]), (m,), (2,))
    h = v.at[m].set(x)
    return a, b, c, d, e, f, g, h, (x > 0.5) & (n > 0), jnp.abs(x)


def test_loop_ops_compile_to_specialised_callables_not_their_impls(monkeypatch):
    # jax.jit(_tree_builder_ops)(13, 0.75, 2, [1, 2, 3]) in JAX 0.10.2:
    #   (6, 2, 15, 1, 1, 3.1010537, [3, 1], [1, 2, 0.75], True, 0.75)
    from core._engine.backends import cpu
    from core._engine.tracing.rules import impl_rules
    args = (jnp.int32(13), jnp.float32(0.75), jnp.int32(2), jnp.array([1.0, 2.0, 3.0], jnp.float32))
    cj = jax.make_jaxpr(_tree_builder_ops)(*args)
    names = ("shift_right_arithmetic", "population_count", "shift_right_logical", "rem", "convert_element_type",
             "integer_pow", "logistic", "dynamic_slice", "concatenate", "scatter")
    prims = {e.primitive for e in cj.jaxpr.eqns if e.primitive.name in names}
    assert {p.name for p in prims} == set(names)

    def refuse(*a, **k):
        raise AssertionError("the generated code called a primitive's impl")
    for p in prims:
        monkeypatch.setitem(impl_rules, p, refuse)
    fn = cpu.compile_closed_jaxpr(cj)._build()
    assert " & " in fn.source and " | " in fn.source and " ^ " in fn.source and "~" in fn.source and "abs(" in fn.source
    got = [np.asarray(o) for o in fn(*[np.asarray(a) for a in args])]
    want = [6, 2, 15, 1, 1, 3.1010537, [3.0, 1.0], [1.0, 2.0, 0.75], True, 0.75]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-7)


def test_a_scalar_converted_to_its_own_dtype_compiles_to_nothing():
    # a weak float32 made strong (XLA drops the convert); jax.jit(f)(1.5) in JAX 0.10.2: 4.5
    from core._engine.backends import cpu

    def f(x):
        return jax.lax.convert_element_type(x, jnp.float32) * 3.0
    cj = jax.make_jaxpr(f)(1.5)
    assert [e.primitive.name for e in cj.jaxpr.eqns].count("convert_element_type") == 1
    prog = cpu.compile_closed_jaxpr(cj)
    assert "convert_element_type" not in [e.primitive.name for e in prog.eqns]
    f_jit = jax.jit(f)
    assert [float(f_jit(1.5)) for _ in range(3)] == [4.5, 4.5, 4.5]


def test_float32_scalar_exp_log_in_generated_code_call_the_scalar_algorithm(monkeypatch):
    # XLA's float32 exp/log/log1p/tanh on a scalar: generated code calls the Python-float algorithm
    # itself, not the array entry point (three wrappers deep); bits as JAX 0.10.2's jit gives them
    # for 0.3: exp 3facc82c, log bf9a1bc8, log1p 3e86549c, tanh 3e9526ed
    from core._engine.backends import cpu
    from core._engine.primitives import _xla_f32

    def f(x):
        return jnp.exp(x), jnp.log(x), jnp.log1p(x), jnp.tanh(x)
    cj = jax.make_jaxpr(f)(jnp.float32(0.3))

    def refuse(*a):
        raise AssertionError("the array entry point ran")
    monkeypatch.setattr(_xla_f32, "_by_size", refuse)
    fn = cpu.compile_closed_jaxpr(cj)._build()
    got = [np.asarray(o, np.float32).tobytes()[::-1].hex() for o in fn(np.asarray(np.float32(0.3)))]
    assert got == ["3facc82c", "bf9a1bc8", "3e86549c", "3e9526ed"]
