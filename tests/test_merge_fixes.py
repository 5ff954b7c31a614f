"""Fixes made while merging the session's branches, each against real JAX 0.10.2's answer."""
import numpy as np
import pytest

import core as jax
import core.numpy as jnp


def test_result_type_of_a_numpy_dtype_equal_to_a_python_type():
    # JAX: jnp.result_type(np.dtype('complex128'), np.complex64) -> complex64 (x64 off); it raised
    # because np.dtype('complex128') == complex made it look like a weak Python scalar type
    assert jnp.result_type(np.dtype("complex128"), np.complex64) == np.complex64
    # JAX: jnp.result_type(complex, np.float32) -> complex64; jnp.result_type(int, bool) -> int32
    assert jnp.result_type(complex, np.float32) == np.complex64
    assert jnp.result_type(int, bool) == np.int32


def test_poly_of_a_square_matrix_is_its_characteristic_polynomial():
    # JAX: jnp.poly(jnp.array([[1., 2.], [3., 4.]])) -> [1.+0.j, -5.0000005+0.j, -1.9999988+0.j], complex64
    r = jnp.poly(jnp.array([[1.0, 2.0], [3.0, 4.0]]))
    assert r.dtype == np.complex64
    np.testing.assert_allclose(np.asarray(r), [1, -5.0000005, -1.9999988], rtol=1e-5)
    # JAX: jnp.poly(jnp.array([[2., 0., 1.], [0., 3., 0.], [1., 0., 2.]])) -> [1, -7, 15, -9] (complex64)
    r = jnp.poly(jnp.array([[2.0, 0.0, 1.0], [0.0, 3.0, 0.0], [1.0, 0.0, 2.0]]))
    np.testing.assert_allclose(np.asarray(r), [1, -7, 15, -9], rtol=1e-5, atol=1e-5)
    # JAX: jnp.poly(jnp.array([])) -> Array(1., dtype=float32); jnp.poly(jnp.ones((1, 3))) raises
    # ValueError("input must be 1d or non-empty square 2d array.")
    assert repr(jnp.poly(jnp.array([]))) == "Array(1., dtype=float32)"
    with pytest.raises(ValueError, match="input must be 1d or non-empty square 2d array"):
        jnp.poly(jnp.ones((1, 3)))
    # JAX: jnp.poly(jnp.array([2.-1j, 3.])) -> [1.+0.j, -5.+1.j, 6.-3.j], complex64
    assert repr(jnp.poly(jnp.array([2.0 - 1j, 3.0]))) == "Array([ 1.+0.j, -5.+1.j,  6.-3.j], dtype=complex64)"


def test_lax_arithmetic_refuses_bool_and_jnp_uses_logical_ops():
    # JAX: lax.add(jnp.array([True]), jnp.array([False])) raises TypeError("add does not accept dtype
    # bool at position 0. Accepted dtypes at position 0 are subtypes of integer, floating,
    # complexfloating."); so do lax.sub and lax.mul, eagerly and under jit
    b, c = jnp.array([True]), jnp.array([False])
    for fn, name in [(jax.lax.add, "add"), (jax.lax.sub, "sub"), (jax.lax.mul, "mul")]:
        with pytest.raises(TypeError, match=f"{name} does not accept dtype bool at position 0"):
            fn(b, c)
        with pytest.raises(TypeError, match=f"{name} does not accept dtype bool"):
            jax.jit(fn)(b, c)
    # JAX: jnp.subtract on bools raises the same TypeError as lax.sub
    with pytest.raises(TypeError, match="sub does not accept dtype bool"):
        jnp.subtract(b, c)
    # JAX: jnp.add / jnp.multiply / + / * on bools are `or` / `and`:
    # make_jaxpr(lambda x: (x + x, x * x, jnp.add(x, x)))(jnp.array([True])) -> or, and, or
    x = jnp.array([True, False])
    assert np.asarray(jnp.add(x, x)).tolist() == [True, False]
    assert np.asarray(jnp.multiply(x, ~x)).tolist() == [False, False]
    assert (x + x).dtype == np.bool_
    text = str(jax.make_jaxpr(lambda v: (v + v, v * v, jnp.add(v, v)))(x))
    assert [ln.split("=")[1].split()[0] for ln in text.splitlines() if "=" in ln] == ["or", "and", "or"]


def test_loading_webgpu_leaves_the_host_fast_paths_on():
    # The page imports the WebGPU backend to plan kernels for the Jaxpr pane and to time the GPU
    # column. That used to install dispatch hooks that turned off every eager and jit fast path for
    # the rest of the session, host arrays included. They stand aside now only while new
    # computations may default to an accelerator.
    from core._engine.tracing import tracing
    from core._engine.backends import webgpu
    from core._engine.base.devices import dispatch_hooks
    assert dispatch_hooks.eager is not None and tracing.eager_fast_path_ok()
    from core._engine.api.api import _eager_plain
    assert _eager_plain()
    with jax.default_device(webgpu.DEVICE):
        assert not tracing.eager_fast_path_ok() and not _eager_plain()
        with jax.default_device(jax.devices("cpu")[0]):
            assert tracing.eager_fast_path_ok()   # (new computations go to the CPU again)
    assert tracing.eager_fast_path_ok() and _eager_plain()
    jax.config.update("jax_platforms", "webgpu")
    try:
        assert not tracing.eager_fast_path_ok()
    finally:
        jax.config.update("jax_platforms", "cpu")
    assert tracing.eager_fast_path_ok()
    # host arrays still compute on the host, with the fast path's answer
    x = jnp.arange(4.0)
    assert type(jnp.add(x, x)) is type(x) and np.asarray(jnp.add(x, x)).tolist() == [0, 2, 4, 6]
