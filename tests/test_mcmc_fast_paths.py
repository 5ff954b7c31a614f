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


def _uniform_step_ops(key, i, x, b, c):
    k = jax.random.fold_in(key, i)
    u = jax.random.uniform(k, minval=-2.0, maxval=3.0)   # bits, shift, or, bitcast, sub, fma, max
    picks = (jnp.maximum(x, u), jnp.minimum(x, -u))
    bools = (b != c, b == c, b < c, b > c, b <= c, b >= c, ~b, jnp.maximum(b, c), jnp.minimum(b, c))
    ints = (jax.lax.convert_element_type(b, jnp.int32) + i, jax.lax.convert_element_type(i, jnp.uint8),
            jax.lax.convert_element_type(i, jnp.float32))
    v = jnp.concatenate([x.reshape(1), u.reshape(1)])
    d = jax.lax.dot_general(x, v, (((), ()), ((), ())))
    return (u, k) + picks + bools + ints + (v, d)


# jax.jit(_uniform_step_ops)(fold_in(key(7), j), int32(300), float32(0.25), True, False) in JAX
# 0.10.2 for j = 0, 1, 2: the draw, the folded key's words, then the other outputs
_UNIFORM_STEP_JAX = [
    (1.1537115573883057, [1139976613, 631377990]),
    (0.3594212532043457, [1396034360, 1636799021]),
    (2.222195625305176, [163098581, 3510228778]),
]


def test_a_sampling_step_s_scalar_ops_run_without_impls_or_ufunc_calls(monkeypatch):
    # one key folded and one uniform drawn per leapfrog step, scalar max/min and bool logic, as
    # blackjax's NUTS runs them: the generated code calls the one-key hash, a Python-float fma,
    # numpy's scalar operators (bool comparisons as xor/and/or), never the primitives' impls
    import re

    from core._engine.backends import cpu
    from core._engine.primitives import elementwise, structural
    from core._engine.tracing.rules import impl_rules
    key = jax.random.key(7)
    rest = (jnp.int32(300), jnp.float32(0.25), jnp.bool_(True), jnp.bool_(False))
    cj = jax.make_jaxpr(_uniform_step_ops)(key, *rest)

    def refuse(*a, **k):
        raise AssertionError("the generated code called a primitive's impl")
    with monkeypatch.context() as m:
        for p in (rb.random_fold_in_p, rb.random_bits_p, cpu._fma_p, elementwise.bitcast_convert_type_p,
                  structural.concatenate_p):
            m.setitem(impl_rules, p, refuse)
        fn = cpu.compile_closed_jaxpr(cj)._build()
        outs = [[np.asarray(o) for o in fn(rb.fold_in_one(np.asarray(key._value), np.uint32(j)),
                                           *[np.asarray(a) for a in rest])] for j in range(3)]
    for line in fn.source.splitlines():
        if re.search(r"# (max|min|ne|eq|lt|gt|le|ge|not)$", line):
            assert not re.search(r"= _f\d+\(", line), line   # an operator expression, not a call
    assert "_TRUE" in fn.source
    for out, (u, words) in zip(outs, _UNIFORM_STEP_JAX):
        assert float(out[0]) == u and rb.unwrap_words(out[1]).tolist() == words
        assert [float(o) for o in out[2:4]] == [u, -u]
        assert [bool(o) for o in out[4:13]] == [True, False, False, True, False, True, False, True, False]
        assert [int(out[13]), int(out[14]), float(out[15])] == [301, 44, 300.0]
        assert out[16].tolist() == [0.25, u] and out[16].dtype == np.float32
        assert out[17].tolist() == [0.0625, float(np.float32(0.25) * np.float32(u))]
    f_jit = jax.jit(_uniform_step_ops)   # the public path: the same values
    out = f_jit(jax.random.fold_in(key, 2), *rest)
    assert float(out[0]) == _UNIFORM_STEP_JAX[2][0]


# the one-expression ops of a leapfrog step, written into the generated code as expressions
_INLINED = ("shift_right_arithmetic", "population_count", "shift_right_logical", "convert_element_type", "logistic",
            "select_n", "squeeze", "slice", "stack_scalars", "fma", "reduce_sum")


def _calls_in(source, names):
    import re
    return [line for line in source.splitlines()
            if re.search(r"# (%s)$" % "|".join(names), line) and re.search(r"= _f\d+\(", line)]


def test_a_leapfrog_step_s_one_expression_ops_are_written_inline_not_called():
    # jax.jit(_tree_builder_ops)(13, 0.75, 2, [1, 2, 3]) and the uniform step's values in JAX 0.10.2
    # (above): the same values, with each op an expression in the generated code (a Python call
    # costs more than the expression; a NUTS leapfrog step runs a dozen of them)
    from core._engine.backends import cpu

    def more(x, v, i):   # a scalar select, a stack of scalars, a squeeze to a vector, a full sum, exp/log
        w = jnp.stack([x, x * 2.0])
        return (jnp.where(i > 1, x, -x), w, v.reshape(1, 3)[0], jnp.sum(v * v), jnp.exp(x), jnp.log1p(x))
    args = (jnp.int32(13), jnp.float32(0.75), jnp.int32(2), jnp.array([1.0, 2.0, 3.0], jnp.float32))
    fn = cpu.compile_closed_jaxpr(jax.make_jaxpr(_tree_builder_ops)(*args))._build()
    got = [np.asarray(o) for o in fn(*[np.asarray(a) for a in args])]
    for g, w in zip(got, [6, 2, 15, 1, 1, 3.1010537, [3.0, 1.0], [1.0, 2.0, 0.75], True, 0.75]):
        np.testing.assert_allclose(g, w, rtol=1e-7)
    assert _calls_in(fn.source, _INLINED) == []

    key = jax.random.key(7)
    rest = (jnp.int32(300), jnp.float32(0.25), jnp.bool_(True), jnp.bool_(False))
    fn = cpu.compile_closed_jaxpr(jax.make_jaxpr(_uniform_step_ops)(key, *rest))._build()
    out = [np.asarray(o) for o in fn(rb.fold_in_one(np.asarray(key._value), np.uint32(1)), *[np.asarray(a) for a in rest])]
    assert float(out[0]) == _UNIFORM_STEP_JAX[1][0] and rb.unwrap_words(out[1]).tolist() == _UNIFORM_STEP_JAX[1][1]
    assert [int(out[13]), int(out[14]), float(out[15])] == [301, 44, 300.0]
    assert _calls_in(fn.source, _INLINED) == []

    x, v, i = jnp.float32(0.3), jnp.array([1.0, 2.0, 3.0], jnp.float32), jnp.int32(2)
    fn = cpu.compile_closed_jaxpr(jax.make_jaxpr(more)(x, v, i))._build()
    out = [np.asarray(o) for o in fn(*[np.asarray(a) for a in (x, v, i)])]
    assert float(out[0]) == np.float32(0.3) and out[1].tolist() == [np.float32(0.3), np.float32(0.6)]
    assert out[2].tolist() == [1.0, 2.0, 3.0] and float(out[3]) == 14.0
    # XLA's float32 exp and log1p of 0.3 (JAX 0.10.2's jit): 3facc82c, 3e86549c
    assert [np.asarray(o, np.float32).tobytes()[::-1].hex() for o in out[4:]] == ["3facc82c", "3e86549c"]
    assert _calls_in(fn.source, _INLINED + ("exp", "log1p")) == []


def test_a_multiply_by_a_constant_of_ones_drops_out_inside_loops_and_branches_too():
    # a unit inverse mass matrix closed over by a sampler's step: XLA's simplifier drops x * ones,
    # and XLA sinks a while loop's constant operands into its body, so the multiplies in the
    # leapfrog loop drop out as well. jax.jit(f)(float32([1.5, -2])) in JAX 0.10.2: [3, -0.5], 3
    from core._engine.backends import cpu
    m = jnp.ones(2, jnp.float32)

    def f(x, p):
        def body(c):
            i, v = c
            v = jax.lax.cond(p > 0, lambda u: u * m, lambda u: -u, v)
            return i + 1, v * m + m * 0.5
        return jax.lax.while_loop(lambda c: c[0] < 3, body, (0, x * m))[::-1]
    x, p = jnp.array([1.5, -2.0], jnp.float32), jnp.float32(1.0)
    cj = jax.make_jaxpr(f)(x, p)
    fn = cpu.compile_closed_jaxpr(cj)._build()
    assert [line for line in fn.source.splitlines() if line.endswith("# mul")] == []
    v, i = fn(np.asarray(x), np.asarray(p))
    assert np.asarray(v).tolist() == [3.0, -0.5] and int(i) == 3
    f_jit = jax.jit(f)
    for _ in range(3):   # the interpreted first call and the generated code
        v, i = f_jit(x, p)
        assert np.asarray(v).tolist() == [3.0, -0.5] and int(i) == 3
    v, _ = f_jit(x, -p)   # the other branch: v -> -v + 0.5 three times
    assert np.asarray(v).tolist() == [-1.0, 2.5]


# ---- a key folded by consecutive messages: the next keys and their draws hashed a block at a time

def _folded_draws(key, start):
    def body(c, i):
        k = jax.random.fold_in(key, start + i)
        return c, (jax.random.bits(k), jax.random.key_data(k))
    return jax.lax.scan(body, 0, jnp.arange(700, dtype=jnp.uint32))[1]


# jax.jit(_folded_draws)(jax.random.key(seed), np.uint32(start)) in JAX 0.10.2: sha256 (first 32 hex
# digits) of the draws' and the folded keys' bytes (the second start wraps past 2**32 - 1)
_FOLDED_JAX = [((0, 0), "76b1f14e6b35824400ab81da3485fc95", "3643f43048190f54031a650449506e74"),
               ((7, 0xFFFFFFFF - 300), "abfcc317b3eaa265aaf38d760d10ed53", "8ce42e32c9f239bac6415080d409eee2")]


def test_a_key_folded_by_a_counter_is_hashed_a_block_at_a_time_with_jax_s_bits(monkeypatch):
    import hashlib
    from core._engine.primitives import random_bits as rb
    lanes = []
    lane = rb._threefry_lane
    monkeypatch.setattr(rb, "_threefry_lane", lambda *a: lanes.append(a) or lane(*a))
    monkeypatch.setattr(rb, "_fold_block", None)
    f = jax.jit(_folded_draws)
    for (seed, start), want_bits, want_keys in _FOLDED_JAX:
        for _ in range(3):   # the interpreted first call, then the generated code (fold_in_one, bits32_one)
            lanes.clear()
            bits, keys = f(jax.random.key(seed), np.uint32(start))
            assert hashlib.sha256(np.asarray(bits).tobytes()).hexdigest()[:32] == want_bits
            assert hashlib.sha256(np.asarray(keys).tobytes()).hexdigest()[:32] == want_keys
        # the generated code's 700 folds and draws: a few lanes before the first block, none after
        assert len(lanes) <= 2 * rb._FOLD_STREAK + 2, len(lanes)


def test_folds_in_and_out_of_a_block_give_the_lane_s_bits():
    # keys that change, messages that jump back, wrap past 2**32 - 1 or run past a block's end,
    # and draws of keys no block made: each fold and draw as the one-lane hash gives it
    from core._engine.base.prng_dtype import KEY_DTYPE
    from core._engine.primitives import random_bits as rb
    seq = []
    for kw in ((1, 2), (0xFFFFFFFF, 7), (123, 456)):
        for start in (0, 0xFFFFFFFF - 300, 1000):
            seq += [(kw, (start + j) & 0xFFFFFFFF) for j in range(600)]
    seq += [((1, 2), 5), ((9, 9), 6), ((1, 2), 6), ((1, 2), 7), ((9, 9), 7), ((1, 2), 8), ((1, 2), 9), ((1, 2), 3)]
    same = {}   # a loop's key: one object throughout (the identity path); else a new array each time
    for n, (kw, m) in enumerate(seq):
        key = same.setdefault(kw, np.array(kw, KEY_DTYPE)) if n % 3 else np.array(kw, KEY_DTYPE)
        got = rb.fold_in_one(key, np.uint32(m))
        assert got.shape == () and got.dtype == KEY_DTYPE and got.item() == rb._threefry_lane(kw[0], kw[1], 0, m)
        y0, y1 = rb._threefry_lane(*got.item(), 0, 0)
        draw = rb.bits32_one(got)
        assert type(draw) is np.uint32 and int(draw) == y0 ^ y1
    assert rb._fold_block is not None
