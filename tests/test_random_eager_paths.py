"""jax.random's eager fast paths (one concrete key, nothing traced) give exactly what the general
path gives: the same words, array types and errors. The general path runs under
`jax.disable_jit()` (primitive by primitive) and under jit (traced).

Values are pinned to real JAX by tests/test_random.py, e.g.
`np.asarray(jax.random.split(jax.random.PRNGKey(0))).tolist()` ->
[[1797259609, 2579123966], [928981903, 3453687069]].
"""
import numpy as np
import pytest

import core as jax
from core._engine.tracing.array import Array
from core._engine.libraries import random as R
from core._engine.libraries import random_eager
from core._engine.primitives import random_bits



@pytest.fixture(autouse=True)
def cpu_dispatch(monkeypatch):
    """The eager fast paths are the CPU's: a WebGPU backend loaded earlier in the session (its
    dispatch hooks stay installed) turns them off, as it does jit's eager fast path."""
    from core._engine.base.devices import dispatch_hooks
    monkeypatch.setattr(dispatch_hooks, "eager", None)
    monkeypatch.setattr(dispatch_hooks, "jit", None)

@pytest.fixture
def flags():
    saved = jax.config.read("jax_threefry_partitionable")
    yield jax.config
    jax.config.update("jax_threefry_partitionable", saved)


def _words(keys):
    return np.asarray(R.key_data(keys) if keys._value.dtype.kind == "V" else keys)   # typed keys: their words


@pytest.mark.parametrize("partitionable", [True, False])
@pytest.mark.parametrize("num", [2, 3, 1, 0, (2, 3), (), 70])
@pytest.mark.parametrize("make_key", [lambda: R.PRNGKey(42), lambda: R.key(42)], ids=["legacy", "typed"])
def test_split_fast_path_equals_traced_split(flags, partitionable, num, make_key):
    flags.update("jax_threefry_partitionable", partitionable)
    key = make_key()
    eager = R.split(key, num)
    with jax.disable_jit():
        general = R.split(key, num)
    traced = jax.jit(lambda k: R.split(k, num))(key)
    assert type(eager) is type(general) and eager.shape == general.shape and str(eager.dtype) == str(general.dtype)
    assert eager.weak_type is general.weak_type is False
    assert np.array_equal(_words(eager), _words(general)) and np.array_equal(_words(eager), _words(traced))


def test_split_of_split_keys_and_jax_values():
    # jax.random.split(jax.random.PRNGKey(0)) -> [[1797259609, 2579123966], [928981903, 3453687069]]
    assert np.asarray(R.split(R.PRNGKey(0))).tolist() == [[1797259609, 2579123966], [928981903, 3453687069]]
    _, k2 = R.split(R.key(0))   # iterating a typed key array gives typed keys the fast path takes
    legacy_k2 = R.split(R.PRNGKey(0))[1]
    assert np.array_equal(np.asarray(R.key_data(R.split(k2))), np.asarray(R.split(legacy_k2)))


def test_split_errors_are_the_general_paths():
    # jax.random.split(jax.random.PRNGKey(0), 2.0): TypeError 'float' object cannot be interpreted as an integer
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        R.split(R.PRNGKey(0), 2.0)
    # jax.random.split(jax.random.split(jax.random.key(0))): ValueError split accepts a single key, ...
    with pytest.raises(ValueError, match="split accepts a single key"):
        R.split(R.split(R.key(0)))
    # jax.random.split(jnp.zeros(3, jnp.uint32)): TypeError JAX encountered invalid PRNG key data: ...
    with pytest.raises(TypeError, match="expected key_data.shape to end with"):
        R.split(jax.numpy.zeros(3, jax.numpy.uint32))


@pytest.mark.parametrize("lanes", [1, 2, 5, 64, 65, 1000])
def test_threefry_python_lanes_equal_numpy(lanes):
    rng = np.random.default_rng(lanes)
    words = [rng.integers(0, 2 ** 32, (3, lanes), dtype=np.uint32) for _ in range(4)]
    words += [np.full((1, lanes), 0xFFFFFFFF, np.uint32)]
    for k0, k1 in ((words[0][:, :1], words[1][:, :1]), (words[4][:, :1], words[4][:, :1])):
        for x0, x1 in ((words[2], words[3]), (words[4], words[4])):
            shape = np.broadcast_shapes(k0.shape, x0.shape)
            small = random_bits._threefry_swar(k0, k1, x0, x1, shape)
            big = random_bits._threefry_numpy(k0, k1, x0, x1, shape)
            for a, b in zip(small, big):
                assert a.dtype == b.dtype == np.uint32 and a.shape == b.shape == shape
                assert np.array_equal(a, b)


def test_threefry_known_answer_on_both_paths():
    # Random123's known-answer test (JAX's tests use it): threefry2x32 of zeros
    for shape in ((), (1,), (100,)):
        zeros = np.zeros(shape, np.uint32)
        y0, y1 = random_bits.threefry2x32_np(zeros, zeros, zeros, zeros)
        assert (y0 == 0x6B200159).all() and (y1 == 0x99BA4EFE).all()


# ---- uniform and randint: the numpy bodies (core/_engine/libraries/random_eager.py) against the jitted samplers

def _general(sampler, key, *args):
    """What uniform/randint ran before their fast paths: the jitted `_uniform`/`_randint`."""
    typed, _ = R._check_prng_key("general", key)
    return np.asarray(sampler(typed, *args))


KEYS = [lambda: R.PRNGKey(0), lambda: R.PRNGKey(2 ** 31 + 7), lambda: R.key(3)]
SHAPES = [(), (1,), (7,), (3, 4), (1000,)]
UNIFORM_BOUNDS = [(0.0, 1.0), (-2.0, 3.0), (0.1, 0.7), (5.0, 5.0), (3.0, -1.0), (-1e30, 1e30), (1e-3, 1e38),
                  (float("nan"), 1.0), (0.0, float("inf")), (-1.0 + 2 ** -24, 1.0)]


@pytest.mark.parametrize("partitionable", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_uniform_fast_path_equals_jitted_uniform(flags, partitionable, shape):
    flags.update("jax_threefry_partitionable", partitionable)
    for make_key in KEYS:
        for lo, hi in UNIFORM_BOUNDS:
            got = R.uniform(make_key(), shape, minval=lo, maxval=hi)
            want = _general(R._uniform, make_key(), lo, hi, shape, np.dtype(np.float32))
            assert type(got) is Array and type(got._value) is np.ndarray
            assert got.dtype == np.float32 and got.shape == shape and not got.weak_type
            assert np.array_equal(np.asarray(got).view(np.uint32), want.view(np.uint32)), (lo, hi)


INT_BOUNDS = [(0, 10), (-5, 5), (0, 1), (7, 7), (9, 3), (-2 ** 31, 2 ** 31 - 1), (0, 2 ** 31 - 1),
              (-2 ** 31, 0), (1, 65537), (0, 3 * 2 ** 29), (-1000, 2 ** 30 + 12345)]


@pytest.mark.parametrize("partitionable", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_randint_fast_path_equals_jitted_randint(flags, partitionable, shape):
    flags.update("jax_threefry_partitionable", partitionable)
    for make_key in KEYS:
        for lo, hi in INT_BOUNDS:
            got = R.randint(make_key(), shape, lo, hi)
            want = _general(R._randint, make_key(), lo, hi, shape, np.dtype(np.int32))
            assert type(got) is Array and type(got._value) is np.ndarray
            assert got.dtype == np.int32 and got.shape == shape and not got.weak_type
            assert np.array_equal(np.asarray(got), want), (lo, hi)


@pytest.mark.parametrize("partitionable", [True, False])
@pytest.mark.parametrize("shape", [None, *SHAPES])
def test_bernoulli_fast_path_equals_jitted_bernoulli(flags, partitionable, shape):
    flags.update("jax_threefry_partitionable", partitionable)
    for make_key in KEYS:
        for p in (0.5, 0.0, 1.0, 0.1, 0.9999999, -0.5, 2.0, float("nan")):
            got = R.bernoulli(make_key(), p, shape)
            typed, _ = R._check_prng_key("general", make_key())
            want = np.asarray(R._bernoulli(typed, jax.numpy.float32(p), shape=shape, mode="low"))
            assert type(got) is Array and type(got._value) is np.ndarray
            assert got.dtype == np.bool_ and got.shape == want.shape and not got.weak_type
            assert np.array_equal(np.asarray(got), want), p


def test_uniform_and_randint_jax_values():
    # jax.random.uniform(jax.random.PRNGKey(0), (4,)) -> [0.947667, 0.9785799, 0.33229148, 0.46866846]
    assert np.asarray(R.uniform(R.PRNGKey(0), (4,))).tolist() == \
        np.array([0.947667, 0.9785799, 0.33229148, 0.46866846], np.float32).tolist()
    # jax.random.randint(jax.random.PRNGKey(0), (5,), 0, 10) -> [9, 0, 2, 3, 1]
    assert np.asarray(R.randint(R.PRNGKey(0), (5,), 0, 10)).tolist() == [9, 0, 2, 3, 1]


def test_other_arguments_take_the_general_path(monkeypatch):
    calls = []
    for name in ("uniform_f32", "randint_i32"):   # (bernoulli's fast path draws with uniform_f32)
        real = getattr(random_eager, name)
        monkeypatch.setattr(random_eager, name, lambda *a, _real=real, _n=name: calls.append(_n) or _real(*a))
    k = R.PRNGKey(0)
    R.uniform(k, (3,), minval=0, maxval=1.0)                  # an int bound
    R.uniform(k, (3,), "float16")
    R.uniform(k, (3,), minval=jax.numpy.zeros(3))            # array bounds
    R.randint(k, (3,), 0, np.int32(10))                       # a numpy bound
    R.randint(k, (3,), 0, 10, "int16")
    R.randint(k, (3,), 0.0, 10)
    R.bernoulli(k, 0.5, (3,), mode="high")
    R.bernoulli(k, jax.numpy.float32(0.5), (3,))
    jax.jit(lambda k: (R.uniform(k, (3,)), R.randint(k, (3,), 0, 4), R.bernoulli(k, 0.5, (3,))))(k)
    assert calls == []
    R.uniform(k, (3,))
    R.randint(k, (3,), 0, 4)
    assert calls == ["uniform_f32", "randint_i32"]


# ---- the golden cases of tests/golden/cases_rng.py and cases_normal2.py marked `cpu_exact`: JAX's
# bits, on the CPU

def _golden():
    import importlib.util
    import os
    spec = importlib.util.spec_from_file_location("gradpad_golden_runner_rng",
                                                  os.path.join(os.path.dirname(__file__), "test_golden.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_EXACT_MODULES = ("cases_rng.py", "cases_normal2.py")


def _cpu_exact_names():
    """Names of the cases that the case modules (the source of truth; the JSON keeps only the
    generator's known options) mark `cpu_exact`."""
    import importlib.util
    import os
    import sys
    sys_path = os.path.join(os.path.dirname(__file__), "golden")
    names = set()
    sys.path.insert(0, sys_path)
    try:
        for file in _EXACT_MODULES:
            spec = importlib.util.spec_from_file_location("gradpad_" + file[:-3], os.path.join(sys_path, file))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            names |= {c["name"] for c in mod.CASES if c.get("cpu_exact")}
    finally:
        sys.path.remove(sys_path)
    return names


_GOLDEN = _golden()
_EXACT_NAMES = _cpu_exact_names()
EXACT_CASES = [c for c in _GOLDEN.CASES if c["name"] in _EXACT_NAMES]


def test_some_golden_cases_are_cpu_exact():
    assert len(EXACT_CASES) == len(_EXACT_NAMES) >= 25   # (each one recorded in rng_cases.json)


@pytest.mark.parametrize("case", EXACT_CASES, ids=[c["name"] for c in EXACT_CASES])
def test_golden_case_bit_for_bit_on_cpu(case):
    ns, reset, _top = _GOLDEN._engine()
    _GOLDEN.check_case(dict(case, rtol=0, atol=0), ns, reset, reset, where=" (bit for bit)")


@pytest.mark.parametrize("partitionable", [True, False])
@pytest.mark.parametrize("data", [0, 7, 2 ** 31, 2 ** 32 - 1])
@pytest.mark.parametrize("make_key", [lambda: R.PRNGKey(42), lambda: R.key(42)], ids=["legacy", "typed"])
def test_fold_in_fast_path_equals_traced_fold_in(flags, partitionable, data, make_key):
    flags.update("jax_threefry_partitionable", partitionable)
    key = make_key()
    eager = R.fold_in(key, data)
    with jax.disable_jit():
        general = R.fold_in(key, np.uint32(data))   # (a numpy scalar: not the fast path)
    traced = jax.jit(lambda k: R.fold_in(k, data))(key)
    assert type(eager) is type(general) and eager.shape == general.shape == () + (2,) * (not isinstance(eager, R.PRNGKeyArray))
    assert str(eager.dtype) == str(general.dtype) and eager.weak_type is general.weak_type is False
    assert np.array_equal(_words(eager), _words(general)) and np.array_equal(_words(eager), _words(traced))


def test_fold_in_jax_values_and_errors():
    # np.asarray(jax.random.fold_in(jax.random.PRNGKey(0), 7)).tolist() -> [2716826189, 292468403]
    assert np.asarray(R.fold_in(R.PRNGKey(0), 7)).tolist() == [2716826189, 292468403]
    # jax.random.fold_in(jax.random.PRNGKey(42), 2**32 - 1) -> [2398536845, 3890976714]
    assert np.asarray(R.fold_in(R.PRNGKey(42), 2 ** 32 - 1)).tolist() == [2398536845, 3890976714]
    # jax.random.key_data(jax.random.fold_in(jax.random.key(1), 0)) -> [507451445, 1853169794]
    assert np.asarray(R.key_data(R.fold_in(R.key(1), 0))).tolist() == [507451445, 1853169794]
    # jax.random.fold_in(jax.random.PRNGKey(0), True) -> [928981903, 3453687069] (data 1)
    assert np.asarray(R.fold_in(R.PRNGKey(0), True)).tolist() == [928981903, 3453687069]
    # jax.random.fold_in(jax.random.PRNGKey(0), -1): OverflowError Python integer -1 out of bounds for uint32
    for bad in (-1, 2 ** 32):
        with pytest.raises(OverflowError, match="out of bounds for uint32"):
            R.fold_in(R.PRNGKey(0), bad)
