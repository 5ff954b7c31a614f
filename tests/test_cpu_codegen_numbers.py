"""How the CPU compiler's generated code hands numbers to numpy (issue 24: blackjax's NUTS, whose
leapfrog loop runs ~80,000 times per 100 steps): a vector's sum by numpy's default axis, a number
read by an array ufunc through a 0-d buffer, integer conversions read as the Python ints they were
made from, a ufunc's `out` by position. Each shows in the generated code and gives the bits of
the general path (the eager impls, under disable_jit)."""
import re

import numpy as np

import core as jax
import core.numpy as jnp
from core import lax
from core._engine.backends import cpu


def _fn(f, *args):
    return cpu.compile_closed_jaxpr(jax.make_jaxpr(f)(*args))._build()


def _run(fn, *args):
    return [np.asarray(o) for o in fn(*[np.asarray(a) for a in args])]


def _eager(f, *args):
    with jax.disable_jit():
        out = f(*args)
    return [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]


def _same_bits(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes(), (g, w)


def test_a_vector_s_sum_is_add_reduce_by_its_default_axis_and_one_axis_is_a_number():
    rng = np.random.default_rng(3)
    x = jnp.asarray(rng.normal(10, 20, 1000).astype(np.float32))
    m = jnp.asarray(rng.normal(0, 1, (3, 257)).astype(np.float32))

    def sums(x, m):
        return jnp.sum(x * 0.5), jnp.sum(m * 3.0, axis=1), jnp.sum(m * 3.0, axis=-1), jnp.sum(m, axis=(0, 1))
    fn = _fn(sums, x, m)
    lines = [ln for ln in fn.source.splitlines() if ln.endswith("# reduce_sum")]
    assert any(re.search(r"= _g\d+\(v\d+\)  #", ln) for ln in lines), fn.source   # no axes tuple
    assert any(re.search(r"= _g\d+\(v\d+, 1\)  #", ln) for ln in lines), fn.source
    _same_bits(_run(fn, x, m), _eager(sums, x, m))
    for axes in [(0,), (1,), (0, 1)]:   # the impl's tuple: the same sums
        a = np.asarray(m)
        want = np.add.reduce(a, axes)
        got = np.add.reduce(a, axes[0]) if len(axes) == 1 else want
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def _loop_with_numbers(c, s, k):
    def body(i, carry):
        c, k = carry
        t = s * i.astype(jnp.float32) + 0.25          # a number made in the body
        c = (c - t) * t + jnp.broadcast_to(t * t, c.shape)   # read by array ufuncs (one broadcast)
        k = k * (i + 3) - (i ^ 5)                      # an int32 number with an int32 vector
        return c, k
    return lax.fori_loop(0, 7, body, (c, k))


def test_a_number_read_by_an_array_ufunc_in_a_loop_goes_through_a_0d_buffer():
    c = jnp.asarray(np.linspace(-3, 5, 64, dtype=np.float32))
    s, k = jnp.float32(0.3), jnp.arange(10, dtype=jnp.int32)
    fn = _fn(_loop_with_numbers, c, s, k)
    writes = re.findall(r"(_b\d+)\[\(\)\] = v\d+", fn.source)
    assert len(writes) >= 3, fn.source
    for b in set(writes):   # each buffer a local made on entry, read by a ufunc call
        assert re.search(r"^    %s = np\.empty\(\(\), _g\d+\)$" % b, fn.source, re.M), fn.source
        assert re.search(r"= _f\d+\([^)]*\b%s\b" % b, fn.source), fn.source
    _same_bits(_run(fn, c, s, k), _eager(_loop_with_numbers, c, s, k))


def test_straight_line_code_reads_numbers_as_they_are():
    c, s = jnp.asarray(np.linspace(-3, 5, 64, dtype=np.float32)), jnp.float32(0.3)

    def f(c, s):
        t = s * 2.0 + 1.0
        return c * t
    fn = _fn(f, c, s)
    assert "_b" not in fn.source and "np.empty((), " not in fn.source
    _same_bits(_run(fn, c, s), _eager(f, c, s))


def _bit_chain(n, key):
    a = lax.population_count(lax.shift_right_arithmetic(n, 1))
    b = lax.convert_element_type(lax.convert_element_type(a, jnp.uint8), jnp.int32)   # (a tree builder's depth)
    folded = jax.random.key_data(jax.random.fold_in(key, n))   # n converted for the fold: read as the int
    return b + n, lax.shift_right_logical(n, 3), folded


def test_integer_conversions_read_the_python_int_they_were_made_from():
    key = jax.random.key(11)
    fn = _fn(_bit_chain, jnp.int32(13), key)
    src = fn.source
    assert "# population_count" not in src and re.search(r"bit_count\(\).*# convert_element_type", src), src
    fold = [ln for ln in src.splitlines() if ln.endswith("# random_fold_in")]
    assert len(fold) == 1 and re.search(r"\(\(\(int\(v\d+\) & 4294967295\)\) & 4294967295\)", fold[0]), src
    for n in [0, 1, 13, -1, -2, 255, 256, 2**31 - 1, -2**31, 123456789, -987654321]:
        _same_bits(_run(fn, jnp.int32(n), key._value), _eager(_bit_chain, jnp.int32(n), key))


def test_a_ufunc_writing_into_a_dead_operand_takes_out_by_position():
    x = jnp.asarray(np.linspace(0, 1, 32, dtype=np.float32))

    def f(x, y):
        return (x * y + x) * 3.0 - y
    fn = _fn(f, x, x + 1)
    assert "out=" not in fn.source and re.search(r"= _f\d+\(\w+, \w+, (v\d+)\)  # ", fn.source), fn.source
    _same_bits(_run(fn, x, x + 1), _eager(f, x, x + 1))
