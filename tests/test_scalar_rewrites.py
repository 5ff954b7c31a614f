"""The CPU compiler's scalar rewrites and numpy-scalar makers (issue 24: blackjax's NUTS, where a
leapfrog step is ~100 scalar and short-vector ops): each gives the bits real JAX 0.10.2's jit gives
(values recorded with /work/jax-venv, below), and each shows in the generated code."""
import hashlib
import re

import numpy as np

import core as jax
import core.numpy as jnp
from core import lax
from core._engine.backends import cpu, cpu_elements, cpu_special


def _source(f, *args):
    return cpu.compile_closed_jaxpr(jax.make_jaxpr(f)(*args))._build().source


def _bits(o):
    a = np.asarray(o)
    return a.dtype.str + ":" + a.tobytes().hex()


# ---- numpy scalars made with an operator (numpy >= 2 keeps the scalar's dtype: NEP 50) --------

def _edge_floats():
    rng = np.random.default_rng(5)
    vals = [0.0, -0.0, float("inf"), -float("inf"), float("nan"), 1e-46, -1e-46, 1.4e-45, 5e-324,
            3.4028235677973366e38, 3.4028235677973362e38, 3.5e38, 1e300, -1e300, 1.0 + 2.0 ** -24,
            1.0 + 3 * 2.0 ** -24, 16777217.0]
    vals += rng.standard_normal(2000).tolist()
    vals += np.frombuffer(rng.integers(0, 2**63, size=2000, dtype=np.int64).tobytes(), np.float64).tolist()
    f32 = rng.standard_normal(2000).astype(np.float32).astype(np.float64)
    vals += (f32 * (1 + 2.0 ** -24)).tolist()   # halfway between two float32s: ties to even
    return vals


def test_scalar_makers_give_the_constructor_s_bits_and_dtype_on_edge_values():
    consts = {}

    def const(value):
        consts[f"_k{len(consts)}"] = value
        return f"_k{len(consts) - 1}"
    with np.errstate(all="ignore"):
        for dt in (np.float32, np.float64):
            make = cpu_special.scalar_maker(dt)
            expr = compile(cpu_special.made(dt, "x", const), "<made>", "eval")
            for v in _edge_floats() + [0, 1, 2**24 + 1, 2**31 - 1, -2**31, 2**32 - 1]:
                want = dt(v)
                for got in (make(v), eval(expr, dict(consts, x=v))):  # noqa: S307 (an expression of ours)
                    assert type(got) is dt and got.tobytes() == want.tobytes(), (dt, v)
        rng = np.random.default_rng(6)
        for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
            info = np.iinfo(dt)
            make = cpu_special.scalar_maker(dt)
            expr = compile(cpu_special.made(dt, "x", const), "<made>", "eval")
            for v in [info.min, info.max, 0, 1, info.max - 1, *rng.integers(info.min, info.max, 500, dtype=dt).tolist()]:
                for got in (make(v), eval(expr, dict(consts, x=v))):  # noqa: S307
                    assert type(got) is dt and got == dt(v), (dt, v)


def test_a_loop_step_s_conversions_make_no_numpy_scalar_constructor_calls():
    # a leapfrog step's dtype conversions, shifts, population counts, fma and exp/log1p: each an
    # operator with a numpy scalar constant (~70 ns), not np.uint32(...) / np.float32(...) (300-500 ns);
    # the values: JAX 0.10.2's, as test_mcmc_fast_paths checks them for the same functions
    from core._engine.primitives import random_bits as rb
    from test_mcmc_fast_paths import _UNIFORM_STEP_JAX, _tree_builder_ops, _uniform_step_ops
    args = (jnp.int32(13), jnp.float32(0.75), jnp.int32(2), jnp.array([1.0, 2.0, 3.0], jnp.float32))
    key = jax.random.key(7)
    rest = (jnp.int32(300), jnp.float32(0.25), jnp.bool_(True), jnp.bool_(False))

    def exp_log(x):
        return jnp.exp(x), jnp.log1p(x), jnp.log(x)
    sources = [_source(_tree_builder_ops, *args), _source(_uniform_step_ops, key, *rest), _source(exp_log, jnp.float32(0.3))]
    made = [line for src in sources for line in src.splitlines()
            if re.search(r"# (convert_element_type|shift_right_logical|population_count|fma|exp|log1p|log)$", line)]
    assert len(made) >= 10
    for line in made:
        assert not re.search(r"= _g\d+\(", line), line   # no call of a numpy scalar type
    fn = cpu.compile_closed_jaxpr(jax.make_jaxpr(_uniform_step_ops)(key, *rest))._build()
    out = [np.asarray(o) for o in fn(rb.fold_in_one(np.asarray(key._value), np.uint32(1)), *[np.asarray(a) for a in rest])]
    assert float(out[0]) == _UNIFORM_STEP_JAX[1][0] and rb.unwrap_words(out[1]).tolist() == _UNIFORM_STEP_JAX[1][1]
    assert [int(out[13]), int(out[14]), float(out[15])] == [301, 44, 300.0]
    assert [type(o) for o in out[13:16]] == [np.ndarray] * 3 and [o.dtype for o in out[13:16]] == [np.int32, np.uint8, np.float32]


def test_without_numpy_2_s_scalar_rules_the_generated_code_calls_the_constructors(monkeypatch):
    # numpy 1.x widens `np.uint32(0) | n` to int64: there the makers are the scalar types themselves
    from core._engine.primitives import random_bits as rb
    from test_mcmc_fast_paths import _UNIFORM_STEP_JAX, _uniform_step_ops
    monkeypatch.setattr(cpu_special, "KEEPS_SCALAR_DTYPE", False)
    assert cpu_special.scalar_maker(np.uint32) is np.uint32 and cpu_special.scalar_maker(np.float32) is np.float32
    key = jax.random.key(7)
    rest = (jnp.int32(300), jnp.float32(0.25), jnp.bool_(True), jnp.bool_(False))
    fn = cpu.compile_closed_jaxpr(jax.make_jaxpr(_uniform_step_ops)(key, *rest))._build()
    assert re.search(r"= _g\d+\(\(int\(", fn.source)   # np.uint32((int(x) & ...) >> 9): a constructor call
    out = [np.asarray(o) for o in fn(rb.fold_in_one(np.asarray(key._value), np.uint32(2)), *[np.asarray(a) for a in rest])]
    assert float(out[0]) == _UNIFORM_STEP_JAX[2][0] and [int(out[13]), int(out[14]), float(out[15])] == [301, 44, 300.0]


# ---- an element of a short vector, on scalars --------------------------------------------------

def _elements(a, b, c):
    v = jnp.concatenate([a.reshape(1), b.reshape(1)])
    w = jnp.dot(c, v)                     # a scalar times a vector (no contraction)
    u = w + w
    x = jnp.maximum(u * 3.0 - v, v / 7.0)
    return x[0] * a, x[1] / b, jnp.square(x[0]), x[1] ** -2, x[0] ** 3


# jax.jit(_elements)(*args) in JAX 0.10.2, bits of each output
_ELEMENTS_JAX = [
    ((0.3, -1.7, 0.5), ["ec51383e", "2549123e", "ec51b83e", "dfa38741", "1c2f5d3e"]),
    ((1e-3, 3.25, -0.1), ["47641934", "2549123e", "094eaf32", "1f739440", "21284d2c"]),
    ((-2.5, 1e-20, 7.0), ["4a92643f", "00002442", "bc9c023e", "8f368f7c", "c4963abd"]),
]


def test_an_element_of_a_stacked_short_vector_is_computed_on_its_scalars():
    # a sampler's momentum stacked into an f32[2], scaled, and read back element by element: the
    # generated code is scalar arithmetic only (no array made, sliced or reshaped), with the bits
    # of JAX's jit; a scalar's square and integer powers are products, not calls
    args = [np.float32(v) for v in _ELEMENTS_JAX[0][0]]
    src = _source(_elements, *args)
    assert not re.search(r"# (stack_scalars|slice|reshape|squeeze|dot_general|concatenate)", src), src
    assert not [line for line in src.splitlines() if re.search(r"# (square|integer_pow)$", line) and "_f" in line]
    f = jax.jit(_elements)
    for vals, want in _ELEMENTS_JAX:
        for _ in range(3):   # the interpreted first call, then the generated code
            got = [_bits(o) for o in f(*[np.float32(v) for v in vals])]
            assert got == ["<f4:" + w for w in want], vals


def test_an_element_of_a_vector_it_cannot_see_through_is_read_by_index():
    # a vector from a non-elementwise op (a cumulative sum): its element is one index read (no
    # slice and reshape), the values as op by op
    def f(a, b):
        v = jnp.cumsum(jnp.stack([a, b]))
        return v[1] * 2.0
    src = _source(f, np.float32(1.5), np.float32(2.25))
    assert "# slice" not in src and re.search(r"= v\d+\[1\]  # vector_element", src), src
    g = jax.jit(f)
    for _ in range(3):   # the interpreted first call, then the generated code
        assert _bits(g(np.float32(1.5), np.float32(2.25))) == _bits(np.float32(7.5))


# ---- a uniform constant op a scalar: one scalar op, broadcast by numpy -------------------------

def _uniform(x, s):
    c = jnp.ones(1000, jnp.float32) / -2.0   # folded: 1000 equal constants (a sum's cotangent)
    return (c * s) * x, x - (c - s), jnp.maximum(c * s, x)


# sha256 (first 32 hex digits) of the bytes of each output of jax.jit(_uniform) in JAX 0.10.2
_UNIFORM_JAX = [
    (lambda: (np.linspace(-3, 5, 1000, dtype=np.float32), np.float32(0.7)),
     ["e1c4205f3646910f3895d069d1554f8c", "c6be76b262308722b18e7cee6f0f25ae", "d123361461d116ebf09dd4b68c19695a"]),
    (lambda: (np.cos(np.arange(1000, dtype=np.float32)), np.float32(-1.3)),
     ["0b0f14a2f82a2e2d713f01465dd52b05", "a4b46580093f1b6b3d94d0c5fae86818", "90949c613ebe1bc0fc1d3193fb32d4ef"]),
]


def test_a_uniform_constant_op_a_scalar_is_one_scalar_op_that_numpy_broadcasts():
    x, s = _UNIFORM_JAX[0][0]()
    src = _source(_uniform, x, s)
    array_ops = [line for line in src.splitlines() if re.search(r"= _f\d+\(", line)]
    assert len(array_ops) == 3, src   # (c * s) * x, x - (c - s), max(c * s, x): one ufunc call each
    assert re.search(r"= _s\d+ \* v\d+  # mul", src) and re.search(r"= _s\d+ - v\d+  # sub", src), src
    f = jax.jit(_uniform)
    for make, want in _UNIFORM_JAX:
        for _ in range(3):
            outs = [np.asarray(o) for o in f(*make())]
            assert [o.shape for o in outs] == [(1000,)] * 3
            assert [hashlib.sha256(o.tobytes()).hexdigest()[:32] for o in outs] == want


def test_uniform_constants_need_equal_bits():
    assert cpu_elements._uniform_value(np.full(8, -0.5, np.float32)) == np.float32(-0.5)
    assert cpu_elements._uniform_value(np.array([0.0, -0.0], np.float32)) is None   # equal, not the same bits
    assert cpu_elements._uniform_value(np.array([np.nan, np.nan], np.float32)) is not None
    assert cpu_elements._uniform_value(np.arange(4, dtype=np.float32)) is None
    assert cpu_elements._uniform_value(np.zeros((), np.float32)) is None   # (a scalar already)


# ---- common subexpressions see equal 0-d constants as one operand ------------------------------

def _two_zero_starts(m, i):
    z1 = jnp.int32(3) - jnp.int32(3)   # two folded zeros (a U-turn check's row starts)
    z2 = jnp.int32(3) - jnp.int32(3)
    a = lax.dynamic_slice(m, (i, z1), (1, 2)).reshape(2)
    b = lax.dynamic_slice(m, (i, z2), (1, 2)).reshape(2)
    return a * 2.0 + b


def test_slices_at_two_equal_constant_starts_are_one_slice():
    m = np.arange(20, dtype=np.float32).reshape(10, 2) / 3
    src = _source(_two_zero_starts, m, np.int32(4))
    assert src.count("# dynamic_slice") == 1, src
    f = jax.jit(_two_zero_starts)
    for _ in range(3):   # jax.jit(_two_zero_starts)(m, 4) in JAX 0.10.2: [8, 9]
        assert _bits(f(m, np.int32(4))) == "<f4:" + "00000041" + "00001041"


# ---- the one-lane threefry (x1 rotated as one shift of itself doubled) -------------------------

def test_the_one_lane_threefry_gives_the_known_answers_and_the_numpy_hash_on_edge_words():
    from core._engine.primitives import random_bits as rb
    # Threefry-2x32-20's known-answer vectors (Salmon et al. 2011; JAX's tests use them)
    assert rb._threefry_lane(0, 0, 0, 0) == (0x6B200159, 0x99BA4EFE)
    assert rb._threefry_lane(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF) == (0x1CB996FC, 0xBB002BE7)
    assert rb._threefry_lane(0x13198A2E, 0x03707344, 0x243F6A88, 0x85A308D3) == (0xC4923A9C, 0x483DF7A0)
    edges = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF, 0x1BD11BDA, 0xE42EE425]
    words = np.array([(a, b, c, d) for a in edges for b in edges for c in edges[::3] for d in edges], np.uint32)
    y0, y1 = rb._threefry_numpy(*(words[:, j] for j in range(4)), (len(words),))
    got = [rb._threefry_lane(*map(int, w)) for w in words]
    assert got == list(zip(y0.tolist(), y1.tolist()))


# ---- a short dot of vectors stacked from scalars: XLA's fma chain on the scalars ---------------

def _dots(a, b, c):
    v = jnp.stack([a, b])
    w = jnp.stack([c, a, b])
    u = jnp.stack([b * 3.0, c, a])
    return jnp.dot(v, v), jnp.dot(w, u), jnp.dot(0.5 * v, v + 1.0)


# _dots(*args) in JAX 0.10.2 op by op (XLA's fma chain per dot), bits of each output. (JAX's jit
# fuses the stack into the first dot and gets 52b83e40 there, one ulp off: a fusion this engine does
# not emulate, before or after this rewrite)
_DOTS_JAX = [
    ((0.3, -1.7, 1e-4), ["53b83e40", "d2ae02bf", "723d4a3f"]),
    ((3.1e5, 2.7e-3, -7.25), ["0d00b351", "1c2009ca", "33003351"]),
    ((1.0000001, -0.99999994, 3.0), ["01000040", "fdffdfc0", "0100803f"]),
]


def test_a_short_dot_of_stacked_scalars_is_xla_s_fma_chain_on_the_scalars():
    src = _source(_dots, *[np.float32(v) for v in _DOTS_JAX[0][0]])
    assert "# dot_general" not in src and "# stack_scalars" not in src, src
    assert src.count("# fma") == 1 + 2 + 1, src   # k - 1 fused multiply-adds per dot
    f = jax.jit(_dots)
    for vals, want in _DOTS_JAX:
        for _ in range(3):
            assert [_bits(o) for o in f(*[np.float32(v) for v in vals])] == ["<f4:" + w for w in want], vals


# ---- elements of rows read out of a matrix (a tree builder's U-turn checks over its checkpoints) --

def _uturn_rows(m_p, m_r, p, r, i):
    pr = lax.dynamic_slice(m_p, (i, 0), (1, 2)).reshape(2)
    rr = lax.dynamic_slice(m_r, (i, 0), (1, 2)).reshape(2)
    rho = r - rr + pr
    d = rho - 0.5 * (p + pr)
    return jnp.dot(pr, d), jnp.dot(p, d), pr[1] * rr[0]


def _uturn_args():
    m_p = np.arange(20, dtype=np.float32).reshape(10, 2) / 3 - np.float32(2.5)
    m_r = np.cos(np.arange(20, dtype=np.float32)).reshape(10, 2)
    return m_p, m_r, np.array([0.7, -1.3], np.float32), np.array([2.1, 0.4], np.float32)


# jax.jit(_uturn_rows)(*_uturn_args(), np.int32(i)) in JAX 0.10.2, bits of each output (a negative
# row counts from the end, one past the last clamps to it)
_UTURN_JAX = {4: ["3bbab73f", "eba0bebf", "f6fd94bd"], -3: ["98de5741", "30c205c0", "0e06af3e"],
              12: ["2b2b8c41", "046515bf", "6aff2140"], 9: ["2b2b8c41", "046515bf", "6aff2140"],
              0: ["4e8b1f40", "9e9cca3e", "abaa0ac0"]}


def test_elements_of_a_dynamically_sliced_row_are_index_reads_and_the_dots_fma_chains():
    # each row's elements read as x[row, j] (the row clamped as dynamic_slice clamps), the vectors
    # an input brings as x[j], and the short dots the fma chain on them: no dynamic_slice,
    # reshape, vector ufunc or dot call is left; the bits are JAX's jit's and the op-by-op path's
    args = _uturn_args()
    src = _source(_uturn_rows, *args, np.int32(4))
    assert not re.search(r"# (dynamic_slice|squeeze|reshape|dot_general|slice)$", src), src
    assert src.count("# row_element") == 4 and src.count("# row_index") == 1 and src.count("# vector_element") == 4, src
    assert not re.search(r"= _f\d+\(", src), src   # (no call at all: every line is an expression)
    f = jax.jit(_uturn_rows)
    for i, want in _UTURN_JAX.items():
        eager = [_bits(o) for o in _uturn_rows(*args, np.int32(i))]
        assert eager == ["<f4:" + w for w in want], i
        for _ in range(3):   # the interpreted first call, then the generated code
            assert [_bits(o) for o in f(*args, np.int32(i))] == eager, i


# ---- a checkpoint write at a number, C's remainder and a bitcast on scalars: no calls ---------

def _checkpoint_write(m, a, b, i):
    v = jnp.stack([a, b])
    return (m.at[i].set(v), m.at[i].set(v * 2.0, mode="clip"), lax.rem(i, jnp.int32(3)), lax.rem(jnp.int32(-7), i),
            lax.bitcast_convert_type(i, jnp.float32))


# jax.jit(_checkpoint_write)(m, 1.5, -2.25, np.int32(i)) in JAX 0.10.2: sha256 (first 16 hex digits) of
# each output's bytes (an index past the end drops the write, or clips to the last row; rem by 0
# gives the dividend)
_CHECKPOINT_JAX = {
    4: ["7e756b9dd9573b2e", "436e0c948dae76cf", "67abdd721024f0ff", "23e9829bfb4e23fb", "fb5e512425fc9449"],
    -3: ["037c7c4c4f39f22a", "f5a966ce0b0a3055", "df3f619804a92fdb", "ad95131bc0b799c0", "23e9829bfb4e23fb"],
    12: ["bad28458f01b1b18", "5b2e07f4f33bf326", "df3f619804a92fdb", "dd834710f8167e94", "42f4aeb81c1ef81f"],
    0: ["a8e812a365520716", "5648bb6550824eb6", "df3f619804a92fdb", "dd834710f8167e94", "df3f619804a92fdb"],
    9: ["28ec60e872594f47", "5b2e07f4f33bf326", "df3f619804a92fdb", "dd834710f8167e94", "9f076b7eb7fdc031"],
    -11: ["bad28458f01b1b18", "5648bb6550824eb6", "b4248c210a2905b9", "dd834710f8167e94", "b1fa467bf9b47dd9"],
}


def test_a_row_write_at_a_number_a_remainder_and_a_bitcast_are_written_without_index_vectors_or_calls():
    # the index vector a broadcast makes of the row number is not made (scatter_at: out[i] = v),
    # rem and bitcast_convert_type on scalars are expressions (math.fmod, struct), not calls
    m = np.arange(20, dtype=np.float32).reshape(10, 2) / 3
    src = _source(_checkpoint_write, m, np.float32(1.5), np.float32(-2.25), np.int32(4))
    assert "# broadcast_in_dim" not in src and "# scatter\n" not in src and src.count("# scatter_at") == 2, src
    assert not [line for line in src.splitlines() if re.search(r"= _f\d+\(.*# (rem|bitcast_convert_type)$", line)], src
    f = jax.jit(_checkpoint_write)
    for i, want in _CHECKPOINT_JAX.items():
        eager = [hashlib.sha256(np.asarray(o).tobytes()).hexdigest()[:16]
                 for o in _checkpoint_write(jnp.asarray(m), np.float32(1.5), np.float32(-2.25), np.int32(i))]
        assert eager == want, i
        for _ in range(3):   # the interpreted first call, then the generated code
            outs = f(m, np.float32(1.5), np.float32(-2.25), np.int32(i))
            assert [hashlib.sha256(np.asarray(o).tobytes()).hexdigest()[:16] for o in outs] == eager, i


def test_the_remainder_and_bitcast_expressions_give_the_impl_s_bits_on_edge_values():
    rem = jax.jit(lambda a, b: (lax.rem(a, b), lax.rem(a.astype(jnp.uint32), b.astype(jnp.uint32))))
    vals = [-7, 7, 0, -2**31, 2**31 - 1, 5, -5, 3, -3, 1, -1]
    for a in vals:
        for b in vals:
            want = [_bits(lax.rem(jnp.int32(a), jnp.int32(b))),
                    _bits(lax.rem(jnp.uint32(a & 0xFFFFFFFF), jnp.uint32(b & 0xFFFFFFFF)))]
            for _ in range(3):
                assert [_bits(o) for o in rem(np.int32(a), np.int32(b))] == want, (a, b)
    cast = jax.jit(lambda u: (lax.bitcast_convert_type(u, jnp.float32),
                              lax.bitcast_convert_type(u.astype(jnp.int32), jnp.float32)))
    words = [0, 1, 0x3F800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFFFFFFF, 0x80000000,
             0x3FFFFFFF, 0x7F7FFFFF, 0x807FFFFF]
    words += np.random.default_rng(3).integers(0, 2**32, 300).tolist()
    for u in words:
        want = [_bits(lax.bitcast_convert_type(jnp.uint32(u), jnp.float32)),
                _bits(lax.bitcast_convert_type(jnp.uint32(u).astype(jnp.int32), jnp.float32))]
        for _ in range(3):
            assert [_bits(o) for o in cast(np.uint32(u))] == want, hex(u)


# ---- a vector stacked from scalars goes into a while loop's body and a cond's branches as them ---

def _stacked_into_bodies(m, a, b, n):
    v = jnp.stack([a, b])
    def body(c):
        i, acc = c
        return i + 1, acc + jnp.dot(v, v + 1.0) * i
    _, acc = lax.while_loop(lambda c: c[0] < n, body, (0, jnp.float32(0)))
    m2 = lax.cond(n > 2, lambda: m.at[1].set(v), lambda: m)
    return acc, m2


# jax.jit(_stacked_into_bodies)(m, a, b, np.int32(n)) in JAX 0.10.2: the sum's bits, sha256 (first
# 16 hex digits) of the matrix's bytes
_STACKED_JAX = [((0.3, -1.7, 5), "cfcc7c41", "9e167677f8c3770f"), ((2.5, 1e-3, 1), "00000000", "b2460638a838b59f")]


def test_a_stacked_vector_enters_loop_and_branch_bodies_as_its_scalars():
    # the loop body's dot is the fma chain on a and b themselves (no element read of a vector made
    # before the loop), and the vector is stacked only inside the branch that writes it
    m = np.arange(6, dtype=np.float32).reshape(3, 2) / 3
    src = _source(_stacked_into_bodies, m, np.float32(0.3), np.float32(-1.7), np.int32(5))
    assert "# vector_element" not in src and "# dot_general" not in src, src
    stacks = [line for line in src.splitlines() if re.search(r"# stack(_scalars)?$", line)]
    assert len(stacks) == 1 and len(stacks[0]) - len(stacks[0].lstrip()) > 4, src   # (inside the branch)
    f = jax.jit(_stacked_into_bodies)
    for (a, b, n), want_acc, want_m in _STACKED_JAX:
        for _ in range(3):   # the interpreted first call, then the generated code
            acc, m2 = f(m, np.float32(a), np.float32(b), np.int32(n))
            assert _bits(acc) == "<f4:" + want_acc and hashlib.sha256(np.asarray(m2).tobytes()).hexdigest()[:16] == want_m
