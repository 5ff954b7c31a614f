"""The fast paths (eager jnp calls on concrete arrays, jit's per-function cache) keep what the
general paths guarantee. Values and weak types against real JAX are in golden/cases_speed.py."""
import numpy as np
import pytest

import core as jax
import core.numpy as jnp


@pytest.fixture
def debug_nans():
    saved = jax.config.read("jax_debug_nans")
    jax.config.update("jax_debug_nans", True)
    yield
    jax.config.update("jax_debug_nans", saved)


@pytest.mark.parametrize("call", [lambda x: jnp.log(x), lambda x: jnp.add(jnp.log(x), x),
                                  lambda x: jnp.sum(jnp.log(x))])
def test_debug_nans_sees_eager_calls_on_arrays(debug_nans, call):
    # jax.config.update('jax_debug_nans', True); jnp.log(jnp.array([-1.0]))
    #   -> FloatingPointError: invalid value (nan) encountered in log
    with pytest.raises(FloatingPointError, match=r"invalid value \(nan\) encountered in log"):
        call(jnp.array([-1.0]))


def test_eager_calls_warn_nothing_on_inf_and_nan():
    # JAX computes 1/0 and log(-1) silently: jnp.divide(jnp.ones(2), jnp.zeros(2)) -> [inf, inf]
    with np.errstate(all="raise"):
        out = jnp.divide(jnp.ones(2), jnp.zeros(2))
        assert np.isinf(np.asarray(out)).all()
        assert np.isnan(np.asarray(jnp.log(jnp.array([-1.0])))).all()
        assert np.isinf(np.asarray(jnp.sum(jnp.array([np.inf, 1.0]))))


def test_eager_binary_shape_errors_unchanged():
    # jnp.add(jnp.ones(3), jnp.ones(4)) -> TypeError: add got incompatible shapes for broadcasting: (3,), (4,).
    with pytest.raises(TypeError, match=r"add got incompatible shapes for broadcasting: \(3,\), \(4,\)"):
        jnp.add(jnp.ones(3), jnp.ones(4))


def test_jit_cache_lives_and_dies_with_the_function():
    # JAX keys jit's cache weakly on the function: a second jax.jit(f) reuses the first's trace
    import gc
    import weakref
    from core import jit_cache
    traces = []

    def f(x):
        traces.append(x)
        return x * 2

    jax.jit(f)(1.0)
    jax.jit(f)(2.0)
    assert len(traces) == 1
    ref = weakref.ref(f)
    del f
    gc.collect()
    assert ref() is None
    assert all(k is not None for k in jit_cache._by_function.keys())


def test_jit_of_an_unhashable_callable_still_caches_per_wrapper():
    class Unhashable:
        __hash__ = None
        calls = 0

        def __call__(self, x):
            Unhashable.calls += 1
            return x + 1

    j = jax.jit(Unhashable())
    j(1.0), j(2.0)
    assert Unhashable.calls == 1


def _thrice(f, *args):
    """A jitted call's result on its first (interpreted) and later (generated code) calls."""
    jf = jax.jit(f)
    return [np.asarray(jf(*args)) for _ in range(3)]


@pytest.mark.parametrize("f, args", [
    (lambda x: x + jnp.zeros(2), (1.0,)),                                  # both operands broadcast
    (lambda x, y: x[:, None] + y[None, :], (jnp.arange(3.0), jnp.arange(4.0))),
    (lambda x, b: jnp.tanh(x @ jnp.ones((1, 4)) + b), (jnp.ones((5, 1)), jnp.arange(4.0))),
    (lambda x: jnp.broadcast_to(x, (3, 2)), (jnp.arange(2.0),)),           # returned as it is
    (lambda x: jnp.broadcast_to(x, (3, 2)) @ jnp.ones((2, 2)), (jnp.arange(2.0),)),  # feeds a dot
    (lambda x: jnp.sum(x * jnp.ones((4, 3)), axis=0), (jnp.arange(3.0),)),
])
def test_generated_code_broadcasts_like_the_interpreter(f, args):
    # the generated code leaves some broadcasts to numpy: same shapes and values as the first,
    # interpreted call (and as eager evaluation)
    first, second, third = _thrice(f, *args)
    expected = np.asarray(f(*args))
    for got in (first, second, third):
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("xs, ys, dn", [
    ((5, 3), (3, 4), (((1,), (0,)), ((), ()))),
    ((5, 3), (4, 3), (((1,), (1,)), ((), ()))),
    ((3, 5), (3, 4), (((0,), (0,)), ((), ()))),
    ((3, 5), (4, 3), (((0,), (1,)), ((), ()))),
    ((5, 1), (1, 4), (((1,), (0,)), ((), ()))),     # outer product
    ((5, 1), (4, 1), (((1,), (1,)), ((), ()))),
    ((3,), (3,), (((0,), (0,)), ((), ()))),
    ((3,), (3, 4), (((0,), (0,)), ((), ()))),
    ((2, 5, 3), (2, 3, 4), (((2,), (1,)), ((0,), (0,)))),
    ((5, 2, 3), (3, 4, 2), (((2,), (0,)), ((1,), (2,)))),
    ((2, 3, 4), (4, 3), (((1, 2), (1, 0)), ((), ()))),
])
def test_specialised_dot_general_matches_the_generic_impl(xs, ys, dn):
    from core import lax
    from core.primitives.dot import _dot_impl, make_dn
    rng = np.random.default_rng(0)
    x = rng.standard_normal(xs).astype(np.float32)
    y = rng.standard_normal(ys).astype(np.float32)
    expected = _dot_impl(x, y, make_dn(dn))
    for got in _thrice(lambda a, b: lax.dot_general(a, b, dn), jnp.asarray(x), jnp.asarray(y)):
        assert got.shape == expected.shape and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
