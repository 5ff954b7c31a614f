"""The cpu backend's compiler passes (CSE, interpreter) keep JAX's results."""
import numpy as np

import core as jax
import core.numpy as jnp


def test_cse_keeps_signed_zero_literals_apart():
    # JAX 0.10.2: jax.jit(lambda x: (x * 0.0, x * -0.0))(jnp.float32(1.0))
    #   -> (Array(0., dtype=float32), Array(-0., dtype=float32))
    a, b = jax.jit(lambda x: (x * 0.0, x * -0.0))(jnp.float32(1.0))
    assert not np.signbit(np.asarray(a)) and np.signbit(np.asarray(b))


def test_first_call_interpreter_matches_compiled_code():
    # the first call interprets (dropping dead values), later calls run generated code
    x = jnp.asarray(np.linspace(-2, 2, 50, dtype=np.float32))

    def chain(x):
        for i in range(20):
            x = jnp.sin(x) * 1.01 + 0.5 if i % 2 else jnp.cos(x) - x
        return x, x * 2.0
    f = jax.jit(chain)
    first = [np.asarray(o) for o in f(x)]
    second = [np.asarray(o) for o in f(x)]
    eager = [np.asarray(o) for o in chain(x)]
    for a, b, c in zip(first, second, eager):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(a, c, rtol=1e-6, atol=1e-6)


def test_first_call_sums_columns_in_the_later_calls_order():
    # jax.jit(lambda x: jnp.sum(x, axis=0)) returns the same bits on every call (XLA compiles
    # once); here the first call is interpreted and later ones run generated code, whose column
    # sums of a large float array go through BLAS: the interpreter must add in that order too
    x = jnp.asarray((np.cos(np.arange(256 * 64) * 0.37) * 1e3).astype(np.float32).reshape(256, 64))
    f = jax.jit(lambda x: (jnp.sum(x, axis=0), jnp.var(x, axis=0), jnp.mean(x * x, axis=(0, 1))))
    first = [np.asarray(o) for o in f(x)]
    for _ in range(2):
        for a, b in zip(first, f(x)):
            np.testing.assert_array_equal(a, np.asarray(b))
