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
from core import random as R
from core.primitives import random_bits


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
