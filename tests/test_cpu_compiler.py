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


def _views_then_overwrite(x):
    t = x * 2.0
    s = t.reshape(2, 2)            # a view of t's buffer
    u = t + 1.0                    # t's last direct use: the generated code may write u into t's buffer
    w = jnp.transpose(t.reshape(2, 2))[0]   # a view of a view
    v = t - 5.0
    return u, s * 3.0, w + 0.5, v, s   # (s returned: t's buffer must stay as it is)


def test_generated_code_never_writes_into_a_buffer_a_live_view_reads():
    # jax.jit(_views_then_overwrite)(jnp.arange(4.0)) in JAX 0.10.2:
    #   ([1, 3, 5, 7], [[0, 6], [12, 18]], [0.5, 4.5], [-5, -3, -1, 1], [[0, 2], [4, 6]])
    f = jax.jit(_views_then_overwrite)
    want = [[1.0, 3.0, 5.0, 7.0], [[0.0, 6.0], [12.0, 18.0]], [0.5, 4.5], [-5.0, -3.0, -1.0, 1.0],
            [[0.0, 2.0], [4.0, 6.0]]]
    for _ in range(3):   # the first call is interpreted, the later ones run the generated code
        assert [np.asarray(o).tolist() for o in f(jnp.arange(4.0))] == want


def test_unbroadcasting_reshapes_and_size_one_sums_compile_to_nothing():
    # a bias gradient's reduce_sum over a size-1 axis and the reshapes around it: XLA simplifies
    # them away, so does the numpy compiler (jax.jit(f)(x) below in JAX 0.10.2: the values as eager,
    # -0.0 kept)
    from core._engine.backends import cpu

    def f(x, b):
        s = jnp.sum(x, axis=0)                      # (1, 4) -> (4,): a size-1 axis
        r = jnp.reshape(jnp.reshape(s, (1, 4)), (4,))
        return r * 2.0, jnp.sum(b[None], axis=0) + 0.0 * r

    x, b = jnp.array([[-0.0, 1.0, -2.5, 3.0]]), jnp.array([1.5, -0.0, 2.0, 4.0])
    f_jit = jax.jit(f)
    for _ in range(3):
        got = [np.asarray(o) for o in f_jit(x, b)]
        for g, w in zip(got, f(x, b)):
            np.testing.assert_array_equal(g, np.asarray(w))
        assert np.signbit(got[0][0])
    cj = jax.make_jaxpr(f)(x, b)
    names = [e.primitive.name for e in cpu.compile_closed_jaxpr(cj).eqns]
    assert "reduce_sum" not in names and "reshape" in names and names.count("reshape") <= 2


def test_a_cond_is_written_inline_as_an_if():
    # blackjax's NUTS step runs three conds per leapfrog inside its while loops: each is written
    # out as an if/else around its branches' equations, not a call through the cond primitive's
    # impl (which clamped the index with np.clip and called a separately compiled branch);
    # values: jax.jit(f)(k, 2.5) in JAX 0.10.2 for k = -3, 0, 1, 2, 7 -> 3.5, 3.5, 7.5, -2.5, -2.5
    from core._engine.backends import cpu

    def f(i, x):
        return jax.lax.switch(i, [lambda x: x + 1.0, lambda x: x * 3.0, lambda x: -x], x)
    f_jit = jax.jit(f)
    for _ in range(2):
        assert [float(f_jit(k, jnp.float32(2.5))) for k in (-3, 0, 1, 2, 7)] == [3.5, 3.5, 7.5, -2.5, -2.5]
    src = cpu.compile_closed_jaxpr(jax.make_jaxpr(f)(0, jnp.float32(2.5)))._build().source
    assert "cond branch 0" in src and "elif" in src and "# cond\n" not in src and "_cond_impl" not in src
