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
    from core._engine.tracing import jit_cache
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
    ((3,), (4,), (((), ()), ((), ()))),             # no contraction: an outer product
    ((2, 3), (4,), (((), ()), ((), ()))),
])
def test_specialised_dot_general_matches_the_generic_impl(xs, ys, dn):
    from core._engine.lax import lax
    from core._engine.primitives.dot import _dot_impl, make_dn
    rng = np.random.default_rng(0)
    x = rng.standard_normal(xs).astype(np.float32)
    y = rng.standard_normal(ys).astype(np.float32)
    x.flat[0], y.flat[-1] = -1.0, 0.0   # a -1 * 0 term: the sign of zero must agree too
    expected = _dot_impl(x, y, make_dn(dn))
    for got in _thrice(lambda a, b: lax.dot_general(a, b, dn), jnp.asarray(x), jnp.asarray(y)):
        assert got.shape == expected.shape and got.dtype == expected.dtype
        np.testing.assert_array_equal(got.view(np.uint32), expected.view(np.uint32))


def _loops():
    from core._engine.lax import lax

    def rnn(w, xs):
        def cell(h, x):
            h = jnp.tanh(h @ w + x)
            return h, (h.sum(), h)      # a y that is the new carry, one that is a reduction
        return lax.scan(cell, jnp.zeros(3), xs)

    def carry_as_output(xs):
        return lax.scan(lambda c, x: (c + x, c), jnp.zeros(3), xs)   # the y is the incoming carry

    def reverse_no_carry(xs):
        return lax.scan(lambda c, x: (c, x * 2.0), (), xs, reverse=True)

    def empty(xs):
        return lax.scan(lambda c, x: (c + x, x), jnp.ones(3), xs[:0])

    def nested(xs):
        def outer(c, row):
            inner, _ = lax.scan(lambda a, v: (a * 0.5 + v, None), c, row)  # noqa
            return inner, inner
        return lax.scan(outer, 0.0, xs)

    def fori(w):
        return lax.fori_loop(0, 5, lambda i, h: jnp.sin(h @ w) + i, jnp.ones(3))

    def while_(x):
        return lax.while_loop(lambda c: c[0] < 7, lambda c: (c[0] + 1, c[1] * 1.5 + c[0]), (0, x))

    def while_no_carry(x):
        return lax.while_loop(lambda c: False, lambda c: c, ()), x

    def scan_nothing(xs):
        return lax.scan(lambda c, x: (c, None), (), xs), xs

    def while_never(x):
        return lax.while_loop(lambda c: c.sum() > 100.0, lambda c: c * 2.0, x)

    w = jnp.asarray(np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3))
    xs = jnp.asarray(np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3))
    return [(rnn, (w, xs)), (carry_as_output, (xs,)), (reverse_no_carry, (xs,)), (empty, (xs,)),
            (nested, (xs,)), (fori, (w,)), (while_no_carry, (xs,)), (scan_nothing, (xs,)), (while_, (jnp.arange(3.0),)), (while_never, (jnp.ones(2),)),
            (jax.grad(lambda w, xs: rnn(w, xs)[1][0].sum()), (w, xs)),
            (jax.vmap(while_), (jnp.arange(6.0).reshape(2, 3),)),
            (jax.vmap(lambda n: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2.0), (0.0, 1.0))),
             (jnp.arange(4.0),))]


@pytest.mark.parametrize("case", range(len(_loops())))
def test_loops_written_into_the_generated_code_match_eager(case):
    # scan / fori_loop / while_loop bodies are inlined into the jitted function's Python loop:
    # same values, shapes and dtypes as eager evaluation (primitive by primitive)
    f, args = _loops()[case]
    expected = jax.tree_util.tree_leaves(f(*args))
    jf = jax.jit(f)
    for _ in range(3):   # the first call is interpreted, later ones run the generated code
        got = jax.tree_util.tree_leaves(jf(*args))
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            assert a.shape == b.shape and a.dtype == b.dtype and a.weak_type == b.weak_type
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=2e-6, atol=1e-6)


def test_jit_fast_path_with_static_arguments_keys_on_their_values():
    # jax.jit(f, static_argnums=1): each static value is its own trace; 2 and 2.0 are different
    # statics (JAX keys them by type and value), and an unhashable static still raises JAX's error
    traces = []

    def f(x, n):
        traces.append(n)
        return x * n

    jf = jax.jit(f, static_argnums=1)
    a = jnp.arange(3.0)
    outs = [jf(a, 2), jf(a, 3), jf(a, 2), jf(a, 2.0), jf(a, 3)]
    assert traces == [2, 3, 2.0]
    assert [o.dtype for o in outs] == [np.float32] * 5
    np.testing.assert_array_equal(np.asarray(outs[1]), [0.0, 3.0, 6.0])
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        jf(a, [1])


def test_scalar_arithmetic_in_generated_code_wraps_and_compares_like_the_ufuncs():
    # jax.jit(lambda x, y: (x + y, x * y, x - y, x < y, x == y))(jnp.int32(2**31 - 1), jnp.int32(2))
    #   -> (-2147483647, -2, 2147483645, False, False), all int32/bool, no warning; nan compares False
    import warnings
    f = lambda x, y: (x + y, x * y, x - y, x < y, x == y, x != y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ints = _thrice(lambda x, y: jnp.stack([jnp.asarray(o, jnp.int32) for o in f(x, y)]),
                       jnp.int32(2**31 - 1), jnp.int32(2))
        nans = _thrice(lambda x, y: jnp.stack(f(x, y)[3:]), jnp.float32(np.nan), jnp.float32(1.0))
    for got in ints:
        np.testing.assert_array_equal(got, [-2147483647, -2, 2147483645, 0, 0, 1])
    for got in nans:
        np.testing.assert_array_equal(got, [False, False, True])
    out = jax.jit(f)(jnp.int32(3), jnp.int32(4))
    assert [o.dtype for o in out] == [np.int32] * 3 + [np.bool_] * 3


def test_scan_outputs_passed_through_from_xs_and_unread_xs():
    # lax.scan(lambda c, x: (c + 1.0, (x, 2.0 * c)), 0.0, (xs, unused)) -> ys[0] is xs itself
    from core._engine.lax import lax
    xs = jnp.arange(5.0)
    unused = jnp.ones((5, 2))
    f = lambda xs, u: lax.scan(lambda c, x: (c + 1.0, (x[0], 2.0 * c)), 0.0, (xs, u), reverse=True)
    for c, (y0, y1) in (f(xs, unused), *[jax.jit(f)(xs, unused) for _ in range(3)]):
        assert float(c) == 5.0
        np.testing.assert_array_equal(np.asarray(y0), np.arange(5.0))
        np.testing.assert_array_equal(np.asarray(y1), [8.0, 6.0, 4.0, 2.0, 0.0])


def test_eager_max_min_propagate_nan():
    # jnp.max(jnp.array([1.0, jnp.nan, 2.0])) -> nan; jnp.min(...) -> nan (JAX 0.10.2, CPU)
    x = jnp.array([1.0, np.nan, 2.0])
    assert np.isnan(float(jnp.max(x))) and np.isnan(float(jnp.min(x)))
    assert np.isnan(float(jax.jit(jnp.max)(x)))


def test_jit_options_given_as_ints_still_share_the_function_cache():
    # jax.jit(f, static_argnums=1) and jax.jit(f, static_argnums=(1,)) are the same options
    traces = []

    def f(x, n):
        traces.append(n)
        return x * n

    jax.jit(f, static_argnums=1)(1.0, 2)
    jax.jit(f, static_argnums=(1,))(1.0, 2)
    jax.jit(f, donate_argnums=0, static_argnums=1)(1.0, 2)
    assert traces == [2]


def test_jit_fast_path_with_python_scalars_and_none():
    # jax.jit(f)(x, 0.5) then (x, 2): a float and an int argument are weakly typed f32 / i32
    # leaves (two traces); None is an empty subtree; values flow through unchanged
    traces = []

    def f(x, s, opt=None):
        traces.append(s.dtype)
        return x * s, s

    jf = jax.jit(f)
    x = jnp.arange(3.0)
    for _ in range(3):
        y, s = jf(x, 0.5, None)
        np.testing.assert_array_equal(np.asarray(y), [0.0, 0.5, 1.0])
        assert s.dtype == np.float32 and s.weak_type and float(s) == 0.5
    y, s = jf(x, 2, None)
    assert s.dtype == np.int32 and s.weak_type and int(s) == 2
    np.testing.assert_array_equal(np.asarray(jf(x, 0.25, None)[0]), [0.0, 0.25, 0.5])
    assert traces == [np.float32, np.int32]
    with pytest.raises(OverflowError):   # JAX: Python int too large for int32
        jf(x, 2**40, None)


@pytest.fixture
def cpu_only(monkeypatch):
    """No accelerator hook (a WebGPU test earlier in the session may have left one installed):
    the fast paths are the CPU's."""
    from core._engine.base.devices import dispatch_hooks
    monkeypatch.setattr(dispatch_hooks, "eager", None)
    monkeypatch.setattr(dispatch_hooks, "jit", None)


def _general_path_only(monkeypatch):
    """Make the general eager path the only one left (the fast paths must not be needed)."""
    from core._engine.tracing import tracing
    from core._engine.libraries.numpy import _statistics
    monkeypatch.setattr(tracing, "_EAGER_FAST", {})
    monkeypatch.setattr(tracing, "_eager_fast", lambda prim: None)
    from core._engine.libraries.numpy import _reductions
    monkeypatch.setattr(_statistics, "eager_fast_path_ok", lambda: False)   # jnp.mean's own
    monkeypatch.setattr(_reductions, "eager_fast_path_ok", lambda: False)   # jnp.argmax's


_EAGER_CALLS = {   # jnp call -> its operands (f32[8] unless named)
    "add": lambda a, b, w, i: jnp.add(a, b), "multiply": lambda a, b, w, i: jnp.multiply(w, w),
    "divide": lambda a, b, w, i: jnp.divide(a, b), "int floor_divide": lambda a, b, w, i: jnp.floor_divide(i, i + 1),
    "maximum": lambda a, b, w, i: jnp.maximum(a, b), "less": lambda a, b, w, i: jnp.less(a, b),
    "sin": lambda a, b, w, i: jnp.sin(a), "exp weak": lambda a, b, w, i: jnp.exp(w),
    "tanh": lambda a, b, w, i: jnp.tanh(a), "sum": lambda a, b, w, i: jnp.sum(a),
    "sum weak axis": lambda a, b, w, i: jnp.sum(w.reshape(2, 4), axis=1), "int sum": lambda a, b, w, i: jnp.sum(i),
    "mean": lambda a, b, w, i: jnp.mean(a), "mean weak keepdims": lambda a, b, w, i: jnp.mean(w, keepdims=True),
    "mean axis": lambda a, b, w, i: jnp.mean(a.reshape(2, 4), axis=0),
    "mean axes keepdims": lambda a, b, w, i: jnp.mean(a.reshape(2, 2, 2), axis=(0, 2), keepdims=True),
    "max": lambda a, b, w, i: jnp.max(a), "min": lambda a, b, w, i: jnp.min(a),
    "prod": lambda a, b, w, i: jnp.prod(a), "argmax": lambda a, b, w, i: jnp.argmax(a),
    "argmin axis keepdims": lambda a, b, w, i: jnp.argmin(a.reshape(2, 4), axis=-1, keepdims=True),
    "argmax 2-d keepdims": lambda a, b, w, i: jnp.argmax(a.reshape(2, 4), keepdims=True),
    "argmax int nan": lambda a, b, w, i: jnp.argmax(i) + jnp.argmax(jnp.where(i == 3, jnp.nan, a)),
    "var": lambda a, b, w, i: jnp.var(a), "std weak ddof": lambda a, b, w, i: jnp.std(w, ddof=1),
    "var axis keepdims": lambda a, b, w, i: jnp.var(a.reshape(2, 4), axis=1, keepdims=True),
    "int var": lambda a, b, w, i: jnp.var(i),
}


@pytest.mark.parametrize("name", sorted(_EAGER_CALLS))
def test_eager_fast_paths_give_the_general_paths_values_dtypes_and_weak_types(name, monkeypatch, cpu_only):
    # e.g. jnp.exp(jnp.asarray(2.0) * jnp.ones(8)) is weak f32 in JAX; jnp.sum(w) of a weak w is strong
    rng = np.random.default_rng(0)
    a, b = (jnp.asarray(rng.standard_normal(8).astype(np.float32)) for _ in range(2))
    from core._engine.tracing.array import Array
    weak = Array(rng.standard_normal(8).astype(np.float32), True)   # a weakly typed f32[8]
    args = (a, b, weak, jnp.arange(8, dtype=jnp.int32))
    fast = _EAGER_CALLS[name](*args)
    _general_path_only(monkeypatch)
    slow = _EAGER_CALLS[name](*args)
    assert (fast.dtype, fast.shape, fast.weak_type) == (slow.dtype, slow.shape, slow.weak_type)
    np.testing.assert_array_equal(np.asarray(fast), np.asarray(slow))


def test_eager_elementwise_and_reductions_skip_the_generic_dispatch(monkeypatch, cpu_only):
    # what makes jnp.add / jnp.sum on small arrays cheap: they never reach _eval_impl
    from core._engine.tracing import tracing

    def generic(*a, **k):
        raise AssertionError("took the generic eager path")
    x, y, i = jnp.arange(8.0), jnp.arange(1.0, 9.0), jnp.arange(8)
    monkeypatch.setattr(tracing, "_eval_impl", generic)
    for out in (jnp.add(x, y), jnp.sin(x), jnp.divide(x, y), jnp.sum(x), jnp.max(x), jnp.prod(x), jnp.mean(x)):
        assert out.dtype == np.float32
    with pytest.raises(AssertionError, match="generic"):   # mixed dtypes are still validated there
        jax.lax.add(x, i)


def test_jit_fast_path_with_keyword_arguments(cpu_only):
    # jax.jit(f, static_argnames="k")(x, k=2, y=y): static keywords key the trace by value and type,
    # dynamic ones are leaves in sorted-name order (tree_flatten of the kwargs dict)
    traces = []

    def f(x, *, k, y, a):
        traces.append(k)
        return x * k - y + 10 * a

    jf = jax.jit(f, static_argnames="k")
    x, y, a = jnp.arange(3.0), jnp.ones(3), jnp.full(3, 2.0)
    want = lambda k: np.arange(3.0) * k - 1 + 20
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(jf(x, k=2, y=y, a=a)), want(2))
        np.testing.assert_array_equal(np.asarray(jf(x, a=a, y=y, k=3)), want(3))
    np.testing.assert_array_equal(np.asarray(jf(x, k=2.0, y=y, a=a)), want(2))
    assert traces == [2, 3, 2.0]
    jf._get = None   # warm calls with keywords need neither signature building nor the trace cache
    np.testing.assert_array_equal(np.asarray(jf(x, y=y, k=3, a=a)), want(3))
    del jf._get
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        jf(x, k=[1], y=y, a=a)


def test_jit_fast_path_rebuilds_nested_outputs_with_their_weak_types(cpu_only):
    # jax.jit(lambda p, s: ([(p[0][0] * 2, s)], (p[0][1],)))(params, 1.0): a weak float stays weak
    # in its place on every call; dict outputs keep their keys
    f = jax.jit(lambda p, s: ([(p[0][0] * 2, s)], (p[0][1],), {"b": s, "a": p[0][1]}))
    params = [(jnp.ones(2), jnp.arange(3))]
    for _ in range(3):
        (((w, s),), (b,), d) = out = f(params, 1.0)
        assert type(out) is tuple and type(out[0]) is list and type(out[0][0]) is tuple
        assert (w.weak_type, s.weak_type, b.weak_type) == (False, True, False)
        np.testing.assert_array_equal(np.asarray(w), [2.0, 2.0])
        assert sorted(d) == ["a", "b"] and d["b"].weak_type and d["a"].dtype == np.int32


_VAR_CASES = [   # (shape, axis, correction, keepdims): 0-d, vectors, every axis form, the BLAS-summed columns
    ((), None, 0, False), ((8,), None, 0, False), ((8,), 0, 1, True), ((8,), None, 2.5, False),
    ((8,), None, 8, False), ((8,), None, 9, False), ((4, 5), 0, 0, False), ((4, 5), -1, 1, True),
    ((4, 5), (0, 1), 0, True), ((4, 5), [1, 0], 0, False), ((2, 3, 4), (0, 2), 1, False),
    ((0,), None, 0, False), ((2, 0), 0, 0, False), ((256, 64), 0, 0, False), ((256, 64), 0, 1, True),
    ((64, 8, 8), (0, 1), 0, False), ((256, 64), 1, 0, False),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,axis,correction,keepdims", _VAR_CASES)
def test_eager_var_and_std_match_their_compiled_general_path_bit_for_bit(shape, axis, correction, keepdims,
                                                                       dtype, cpu_only):
    # jnp.var / jnp.std are jitted functions in JAX; their eager fast path must give what the
    # compiled jaxpr gives (e.g. jnp.var(x, axis=0) of f32[256, 64] sums the columns with BLAS)
    from core._engine.libraries.numpy import _statistics
    saved = jax.config.read("jax_enable_x64")
    jax.config.update("jax_enable_x64", dtype == np.float64)
    try:
        x = np.cos(np.arange(int(np.prod(shape))) * 0.37).astype(dtype).reshape(shape)
        if x.ndim:
            x[..., :1] *= 3   # (uneven values)
        a = jnp.asarray(x)
        general_axis = tuple(axis) if isinstance(axis, list) else axis
        def general(staged):   # its second call: the generated code (the first is interpreted)
            staged(a, axis=general_axis, correction=correction, keepdims=keepdims)
            return staged(a, axis=general_axis, correction=correction, keepdims=keepdims)
        for fast, general in ((jnp.var(a, axis, ddof=correction, keepdims=keepdims), general(_statistics._var)),
                              (jnp.std(a, axis, correction=correction, keepdims=keepdims), general(_statistics._std))):
            assert (fast.dtype, fast.shape, fast.weak_type) == (general.dtype, general.shape, general.weak_type)
            np.testing.assert_array_equal(np.asarray(fast), np.asarray(general))
    finally:
        jax.config.update("jax_enable_x64", saved)


def test_eager_var_skips_the_jit_call(monkeypatch, cpu_only):
    # what makes jnp.var on f32[8] cheap: no jit dispatch; other arguments still take the general path
    from core._engine.libraries.numpy import _statistics

    def staged(*a, **k):
        raise AssertionError("took the staged path")
    monkeypatch.setattr(_statistics, "_var", staged)
    monkeypatch.setattr(_statistics, "_std", staged)
    x = jnp.arange(8.0)
    assert float(jnp.var(x)) == 5.25 and float(jnp.std(x, ddof=0)) == np.sqrt(np.float32(5.25))
    for call in (lambda: jnp.var(x, where=x > 1), lambda: jnp.var(jnp.arange(8)), lambda: jnp.std(x, mean=2.0),
                 lambda: jnp.var(x, dtype=jnp.float32), lambda: jnp.var(x, ddof=2**40)):
        with pytest.raises(AssertionError, match="staged"):
            call()


@pytest.mark.parametrize("call", [lambda: jax.lax.exp(jnp.arange(3)), lambda: jax.lax.sin(jnp.arange(3)),
                                  lambda: jax.lax.tanh(jnp.array([True]))])
def test_eager_lax_unary_ops_refuse_the_dtypes_their_shape_rule_refuses(call, cpu_only):
    # JAX 0.10.2: lax.exp(jnp.arange(3)) -> TypeError: exp does not accept dtype int32. Accepted
    # dtypes are subtypes of floating, complexfloating. (numpy's ufunc would answer in float64)
    with pytest.raises(TypeError, match=r"does not accept dtype (int32|bool)\. Accepted dtypes are subtypes "
                                        r"of floating, complexfloating\."):
        call()


# make_jaxpr(f)(np.ones(3, np.float32)) in JAX 0.10.2, for each f
_SCALAR_OPERAND_JAXPRS = [
    (lambda x: x * 1.0001, "{ lambda ; a:f32[3]. let b:f32[3] = mul a 1.000100016593933:f32[] in (b,) }"),
    (lambda x: 2 - x, "{ lambda ; a:f32[3]. let b:f32[3] = sub 2.0:f32[] a in (b,) }"),
    (lambda x: x * 1e40, "{ lambda ; a:f32[3]. let b:f32[3] = mul a inf:f32[] in (b,) }"),
    (lambda x: x + float("nan"), "{ lambda ; a:f32[3]. let b:f32[3] = add a nan:f32[] in (b,) }"),
    (lambda x: jnp.float32(1) * 2.5, "{ lambda ; a:f32[3]. let b:f32[] = mul 1.0:f32[] 2.5:f32[] in (b,) }"),
    # zeros keep their sign; a repeated constant is its value each time (the shortcut reuses them)
    (lambda x: (x * 0.0) * -0.0 + 0 - 0.0 + 2.0 * (x * 2.0),
     "{ lambda ; a:f32[3]. let\n    b:f32[3] = mul a 0.0:f32[]\n    c:f32[3] = mul b -0.0:f32[]\n"
     "    d:f32[3] = add c 0.0:f32[]\n    e:f32[3] = sub d 0.0:f32[]\n    f:f32[3] = mul a 2.0:f32[]\n"
     "    g:f32[3] = mul 2.0:f32[] f\n    h:f32[3] = add e g\n  in (h,) }"),
    (lambda x: jax.jit(lambda y: y * 3.0)(x) + x * 0.5,
     "{ lambda ; a:f32[3]. let\n    b:f32[3] = jit[\n      name=<lambda>\n"
     "      jaxpr={ lambda ; a:f32[3]. let b:f32[3] = mul a 3.0:f32[] in (b,) }\n    ] a\n"
     "    c:f32[3] = mul a 0.5:f32[]\n    d:f32[3] = add b c\n  in (d,) }"),
]


@pytest.mark.parametrize("f, expected", _SCALAR_OPERAND_JAXPRS)
def test_python_scalar_operands_while_tracing_print_jaxs_literals(f, expected):
    with np.errstate(over="ignore"):   # (1e40 -> inf in float32 warns in JAX too)
        assert str(jax.make_jaxpr(f)(np.ones(3, np.float32))) == expected


def test_python_float_operand_of_a_traced_float_skips_the_array_conversion(monkeypatch):
    # x * 1.0001 while tracing makes its literal directly (the bench's first-call chain is half
    # such ops); the general conversion stays for what the shortcut leaves (overflow, other traces)
    from core._engine.lax import lax
    from core._engine.tracing.jaxpr import Literal

    def refuse(*args, **kwargs):
        raise AssertionError("took the general scalar conversion")
    monkeypatch.setattr(lax, "_convert_element_type", refuse)
    jaxpr = jax.make_jaxpr(lambda x: 3 * (x * 1.0001 + 2) - 0.5)(np.ones(3, np.float32))
    literals = [(v.val, v.aval.dtype, v.aval.weak_type) for e in jaxpr.eqns for v in e.invars
                if isinstance(v, Literal)]
    f32 = np.dtype(np.float32)
    assert literals == [(np.float32(1.0001), f32, False), (2, f32, False), (3, f32, False), (0.5, f32, False)]
    assert all(type(val) is np.float32 for val, _, _ in literals)
    with pytest.raises(AssertionError, match="general scalar conversion"):
        jax.make_jaxpr(lambda x: x * 1e40)(np.ones(3, np.float32))


# make_jaxpr(f)(x) in JAX 0.10.2: traced operators with a Python scalar or a second tracer
_F32, _I32 = np.ones(3, np.float32), np.arange(3, dtype=np.int32)
_TRACED_OPERATOR_JAXPRS = [
    (lambda x: x * x, np.array([True, False]), "{ lambda ; a:bool[2]. let b:bool[2] = and a a in (b,) }"),
    (lambda x: x + True, np.array([True, False]), "{ lambda ; a:bool[2]. let b:bool[2] = or a True:bool[] in (b,) }"),
    (lambda x: x * 2, _I32, "{ lambda ; a:i32[3]. let b:i32[3] = mul a 2:i32[] in (b,) }"),
    (lambda x: x * 2.5, _I32, "{ lambda ; a:i32[3]. let\n    b:f32[3] = convert_element_type[new_dtype=float32 "
                              "weak_type=True] a\n    c:f32[3] = mul b 2.5:f32[]\n  in (c,) }"),
    (lambda x: x < 1.0, _F32, "{ lambda ; a:f32[3]. let b:bool[3] = lt a 1.0:f32[] in (b,) }"),
    (lambda x: 1 != x, _F32, "{ lambda ; a:f32[3]. let b:bool[3] = ne a 1.0:f32[] in (b,) }"),
    (lambda x: x + 300, np.ones(3, np.uint8), "{ lambda ; a:u8[3]. let b:u8[3] = add a 44:u8[] in (b,) }"),
]


@pytest.mark.parametrize("f, x, expected", _TRACED_OPERATOR_JAXPRS)
def test_traced_operators_print_jaxs_jaxprs(f, x, expected):
    assert str(jax.make_jaxpr(f)(x)) == expected


def test_traced_arithmetic_operators_skip_the_ufunc_objects(monkeypatch):
    # `x * 1.0001`, `x + y`, `x < 0.5` while tracing bind their primitive directly: every
    # frame between the user's line and the primitive is walked again for its source info
    from core._engine.libraries.numpy._ufunc_class import ufunc

    def refuse(self, *args, **kwargs):
        raise AssertionError(f"went through the ufunc object {self.__name__}")
    monkeypatch.setattr(ufunc, "__call__", refuse)
    jaxpr = jax.make_jaxpr(lambda x, y: (x * 1.0001 + y - 2) < 0.5)(_F32, _F32)
    assert [e.primitive.name for e in jaxpr.eqns] == ["mul", "add", "sub", "lt"]
