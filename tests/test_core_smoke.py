"""Fast sanity checks of the engine's main paths (the golden tests hold the JAX-checked cases)."""
import numpy as np
import pytest

import core as jax
import core.numpy as jnp


def test_grad_of_cube():
    # jax.grad(lambda x: x**3)(2.0) -> Array(12., dtype=float32, weak_type=True)
    g = jax.grad(lambda x: x ** 3)(2.0)
    assert float(g) == 12.0
    assert g.dtype == np.float32


def test_make_jaxpr_text_short_form():
    # str(jax.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(1.0)) in JAX 0.10.2
    text = str(jax.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(1.0))
    assert text == "{ lambda ; a:f32[]. let b:f32[] = sin a; c:f32[] = mul b 2.0:f32[] in (c,) }"


def test_nested_transforms_agree_with_calculus():
    x = 0.7
    assert np.isclose(jax.grad(jax.grad(jax.grad(jnp.sin)))(x), -np.cos(x), atol=1e-6)
    assert np.isclose(jax.jit(jax.grad(jnp.sin))(x), np.cos(x), atol=1e-6)
    assert np.isclose(jax.grad(jax.jit(jnp.sin))(x), np.cos(x), atol=1e-6)
    xs = jnp.linspace(0.0, 1.0, 5)
    np.testing.assert_allclose(jax.vmap(jax.grad(jnp.sin))(xs), np.cos(np.linspace(0, 1, 5)), atol=1e-6)


def test_jit_caches_and_retraces_on_new_shapes():
    calls = []

    def f(x):
        calls.append(1)
        return x * 2

    jf = jax.jit(f)
    jf(jnp.ones(3))
    jf(jnp.ones(3))
    assert len(calls) == 1
    jf(jnp.ones(4))
    assert len(calls) == 2


def test_tracer_bool_error_under_jit():
    @jax.jit
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(jax.errors.TracerBoolConversionError) as e:
        f(1.0)
    assert isinstance(e.value, jax.errors.ConcretizationTypeError)
    assert str(e.value).startswith("Attempted boolean conversion of traced array with shape bool[]")


def test_arrays_are_immutable():
    x = jnp.arange(3)
    with pytest.raises(TypeError):
        x[0] = 1
