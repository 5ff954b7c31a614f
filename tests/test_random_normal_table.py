"""The float32 normal table (core/_engine/libraries/normal_table.py): every entry is the exact path's result for its
mantissa, draws through it are the exact path's draws bit for bit, traced calls keep JAX's jaxpr,
and the lazy build rule builds it only after the exact path has done about one build's work.

The exact path's own bits are pinned to real JAX by tests/test_random.py and the golden PRNG cases
(e.g. `jax.random.normal(jax.random.PRNGKey(0), (3,))` -> [1.6226422, 2.0252647, -0.43359444]).
"""
import hashlib

import numpy as np
import pytest

import core as jax
from core._engine.libraries import normal_table, normal_table_pack, random_eager
from core._engine.libraries import random as R
from core._engine.primitives import random_bits


@pytest.fixture(scope="module", autouse=True)
def no_table_cache():
    """No copy on disk (tests/test_random_normal_table_cache.py has those): none saved by an
    earlier session is read back, and the tables built here are not saved."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GRADPAD_NORMAL_TABLE_CACHE", "off")
        yield


@pytest.fixture(scope="module", autouse=True)
def no_shipped_table(tmp_path_factory):
    """These rules are those of a package without its packed table (tests/test_random_normal_table_pack.py
    has the shipped one): its file is elsewhere, missing."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(normal_table_pack, "FILE", str(tmp_path_factory.mktemp("no_pack") / "missing.bin"))
        yield


@pytest.fixture(autouse=True)
def cpu_dispatch(monkeypatch):
    """The eager fast paths are the CPU's: a WebGPU backend loaded earlier in the session (its
    dispatch hooks stay installed) turns them off, as it does jit's eager fast path."""
    from core._engine.base.devices import dispatch_hooks
    monkeypatch.setattr(dispatch_hooks, "eager", None)
    monkeypatch.setattr(dispatch_hooks, "jit", None)

@pytest.fixture(scope="module")
def table():
    normal_table.reset()
    yield normal_table.build(R._normal_f32_of_bits)
    normal_table.reset()


@pytest.fixture
def table_off(table):
    """Draws take the exact path (the built table comes back afterwards)."""
    with normal_table.exact_path_only():
        yield


@pytest.fixture
def flags():
    saved = jax.config.read("jax_threefry_partitionable")
    yield jax.config
    jax.config.update("jax_threefry_partitionable", saved)


def _bits(x):
    return np.asarray(x).view(np.uint32)   # bit patterns: equal even where values are nan


def _every_mantissa():
    return np.arange(normal_table.SIZE, dtype=np.uint32) << np.uint32(9)


def test_table_equals_the_jitted_path_on_every_mantissa(table, table_off, monkeypatch):
    # random.normal's own jitted path (what a traced normal runs), fed all 2**23 mantissas
    # instead of threefry's bits
    every = _every_mantissa()
    monkeypatch.setattr(random_bits, "_bits_words",
                        lambda k0, k1, width, shape: every.reshape((1,) + shape))
    exact = jax.jit(lambda k: R.normal(k, (normal_table.SIZE,)))(R.PRNGKey(0))
    assert table.dtype == np.float32 and table.shape == (normal_table.SIZE,)
    assert np.array_equal(_bits(exact), _bits(table))


def test_table_equals_the_eager_numpy_path_on_every_mantissa(table):
    # what eager draws run before the table exists (core/_engine/libraries/random_eager.py)
    exact = random_eager.normal_f32_of_bits(_every_mantissa())
    assert np.array_equal(_bits(exact), _bits(table))


def test_small_draws_equal_the_table_on_every_mantissa(table):
    # draws of up to 4096 samples run erf_inv's whole-array branch (both log1p branches, one
    # Horner pass with per-element coefficients), not the masked one the table was built with:
    # every mantissa through it, in draws of a learner's size
    every = _every_mantissa()
    for n in (1000, 4096):
        for lo in range(0, normal_table.SIZE, n):
            exact = random_eager.normal_f32_of_bits(every[lo:lo + n].copy())
            assert np.array_equal(_bits(exact), _bits(table[lo:lo + n])), (n, lo)


# Real JAX 0.10.2's float32 normal on every mantissa, fed through a PRNG implementation whose
# random_bits returns them (`m << 9` for m in range(2**23)):
#   impl = jax.extend.random.define_prng_impl(key_shape=(2,), name="mantissas", tag="man",
#       seed=lambda s: jnp.zeros(2, jnp.uint32), split=lambda k, shape: jnp.zeros(shape + (2,), jnp.uint32),
#       fold_in=lambda k, d: k, random_bits=lambda k, width, shape: lax.shift_left(
#           lax.iota(jnp.uint32, math.prod(shape)).reshape(shape), jnp.uint32(9)))
#   t = np.asarray(jax.random.normal(jax.random.key(0, impl=impl), (2**23,), jnp.float32))
#   hashlib.sha256(t.tobytes()).hexdigest(); t[[0, 1, 2**22, 2**23 - 1]]
JAX_TABLE_SHA256 = "9ffa4612027d27822ae3dddd2a30a923607e79184747632c3aa9e72ff0c27bc4"
JAX_TABLE_SAMPLES = {0: -5.419983, 1: -5.1246924, 2 ** 22: 7.4703337e-08, 2 ** 23 - 1: 5.220113}


def test_table_is_jaxs_normal_on_every_mantissa(table):
    for m, value in JAX_TABLE_SAMPLES.items():
        assert table[m] == np.float32(value), m
    assert hashlib.sha256(table.tobytes()).hexdigest() == JAX_TABLE_SHA256


def test_low_mantissa_bits_do_not_matter(table):
    # the premise: uniform(-1, 1) in float32 reads only bits >> 9
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2 ** 32, 5000, dtype=np.uint32)
    exact_hi = np.asarray(R._normal_f32_of_bits(bits))
    exact_lo = np.asarray(R._normal_f32_of_bits(bits & np.uint32(0xFFFFFE00)))
    assert np.array_equal(_bits(exact_hi), _bits(exact_lo))
    assert np.array_equal(_bits(normal_table.lookup(bits.copy())), _bits(exact_hi))


@pytest.mark.parametrize("partitionable", [True, False])
@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 4), (1000,)])
def test_draws_by_table_equal_exact_draws(table, flags, partitionable, shape):
    flags.update("jax_threefry_partitionable", partitionable)
    keys = [R.PRNGKey(0), R.PRNGKey(123), R.split(R.PRNGKey(7))[1], R.key(5)]
    with_table = [R.normal(k, shape) for k in keys]
    with normal_table.exact_path_only():
        exact = [R.normal(k, shape) for k in keys]
    for a, b in zip(with_table, exact):
        assert type(a) is type(b) and a.dtype == b.dtype == np.float32 and a.shape == b.shape == shape
        assert a.weak_type is False
        assert np.array_equal(_bits(a), _bits(b))


def test_table_is_what_eager_draws_use(table, monkeypatch):
    seen = []
    real = normal_table.lookup
    monkeypatch.setattr(normal_table, "lookup", lambda bits: seen.append(bits.shape) or real(bits))
    R.normal(R.PRNGKey(0), (5,))
    R.normal(R.key(0), (2, 3), "float32")
    R.normal(R.PRNGKey(0), (5,), "float16")
    jax.jit(lambda k: R.normal(k, (5,)))(R.PRNGKey(0))
    assert seen == [(5,), (6,)]   # float32 eager only; other dtypes and traced calls: the jitted path


@pytest.mark.parametrize("partitionable", [True, False])
@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 4), (1000,)])
def test_eager_exact_draws_equal_jitted_draws(flags, partitionable, shape):
    flags.update("jax_threefry_partitionable", partitionable)
    with normal_table.exact_path_only():
        for key in (R.PRNGKey(0), R.PRNGKey(123), R.key(5)):
            eager = R.normal(key, shape)
            jitted = jax.jit(lambda k: R.normal(k, shape))(key)
            assert type(eager._value) is np.ndarray and eager.shape == shape and eager.dtype == np.float32
            assert np.array_equal(_bits(eager), _bits(jitted))


def test_traced_normal_keeps_jaxs_jaxpr(table):
    with normal_table.exact_path_only():
        text_without = str(jax.make_jaxpr(lambda k: R.normal(k, (3,)))(R.PRNGKey(0)))
    text_with = str(jax.make_jaxpr(lambda k: R.normal(k, (3,)))(R.PRNGKey(0)))
    assert text_with == text_without and "erf_inv" in text_with and "random_bits" in text_with


def test_bad_keys_still_get_the_general_paths_errors(table):
    # jax.random.normal(jnp.zeros(3, jnp.uint32)): TypeError naming the key data's shape
    with pytest.raises(TypeError, match="expected key_data.shape to end with"):
        R.normal(jax.numpy.zeros(3, jax.numpy.uint32), (2,))
    # jax.random.normal(jax.random.split(jax.random.key(0)), (2,)): ValueError, a single key only
    with pytest.raises(ValueError, match="accepts a single key"):
        R.normal(R.split(R.key(0)), (2,))
    with pytest.raises(TypeError, match="unexpected PRNG key type"):
        R.normal([0, 0], (2,))


def test_build_rule_waits_for_one_builds_worth_of_exact_work(monkeypatch):
    monkeypatch.delenv("GRADPAD_NORMAL_TABLE", raising=False)
    normal_table.reset()
    monkeypatch.setattr(normal_table, "CHUNK", normal_table.SIZE // 4)
    built = []

    def fake_exact(bits):   # the rule, not the values: record which bits each chunk asked for
        built.append((int(bits[0]), len(bits)))
        return np.zeros(len(bits), np.float32)

    try:
        per_call = 1000 + normal_table.CALL_OVERHEAD
        calls_before_build = -(-normal_table.BUILD_AFTER // per_call)
        for _ in range(calls_before_build - 1):
            normal_table.note_exact_call(1000, fake_exact)
        assert built == [] and normal_table.nbytes() == 0
        for _ in range(3):
            normal_table.note_exact_call(1000, fake_exact)
            assert normal_table._state.table is None
        normal_table.note_exact_call(1000, fake_exact)   # the fourth chunk completes it
        quarter = normal_table.SIZE // 4
        assert built == [(i * quarter << 9, quarter) for i in range(4)]
        assert normal_table._state.table is not None and normal_table.nbytes() == 4 * normal_table.SIZE
    finally:
        normal_table.reset()


def test_eager_float32_draws_count_toward_the_build_and_traced_ones_do_not(monkeypatch):
    monkeypatch.delenv("GRADPAD_NORMAL_TABLE", raising=False)
    normal_table.reset()
    try:
        R.normal(R.PRNGKey(0), (10,))
        after_one = normal_table._state.credit
        assert after_one == 10 + normal_table.CALL_OVERHEAD
        jax.jit(lambda k: R.normal(k, (10,)))(R.PRNGKey(1))
        R.normal(R.PRNGKey(0), (10,), "float16")
        with jax.disable_jit():
            R.normal(R.PRNGKey(0), (10,))
        assert normal_table._state.credit == after_one
    finally:
        normal_table.reset()


def test_the_table_eager_draws_build_is_jaxs(monkeypatch):
    # the production route: eager draws past the threshold build it chunk by chunk
    normal_table.reset()
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE", "now")
    try:
        first = np.asarray(R.normal(R.PRNGKey(0), (3,)))
        for _ in range(normal_table.SIZE // normal_table.CHUNK - 1):
            assert normal_table._state.table is None
            R.normal(R.PRNGKey(0), (3,))
        assert normal_table._state.table is not None
        assert hashlib.sha256(normal_table._state.table.tobytes()).hexdigest() == JAX_TABLE_SHA256
        # jax.random.normal(jax.random.PRNGKey(0), (3,)) -> [1.6226422, 2.0252647, -0.43359444]
        assert np.array_equal(np.asarray(R.normal(R.PRNGKey(0), (3,))), first)
        assert first.tolist() == np.array([1.6226422, 2.0252647, -0.43359444], np.float32).tolist()
    finally:
        normal_table.reset()


@pytest.mark.parametrize("mode, builds_at_once", [("now", True), ("off", False), ("auto", False)])
def test_env_var_picks_when_to_build(monkeypatch, mode, builds_at_once):
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE", mode)
    normal_table.reset()
    try:
        R.normal(R.PRNGKey(0), (3,))
        assert (normal_table.nbytes() > 0) is builds_at_once   # (the first chunk is under way)
    finally:
        normal_table.reset()


def test_env_var_typo_is_named(monkeypatch):
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE", "yes")
    normal_table.reset()
    try:
        with pytest.raises(ValueError, match="GRADPAD_NORMAL_TABLE='yes': expected one of auto, now, off"):
            R.normal(R.PRNGKey(0), (3,))
    finally:
        normal_table.reset()
