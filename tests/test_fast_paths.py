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
