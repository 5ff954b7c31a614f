"""The float32 normal table's copy in the user's cache directory (core/_engine/libraries/normal_table_cache.py): a
session that completes the table saves it, a later one reads it back, and only a file holding
exactly JAX's table is ever read (a wrong one would be a silent wrong answer in every draw).
"""
import hashlib
import os

import numpy as np
import pytest

from core._engine.libraries import normal_table, normal_table_cache
from core._engine.libraries import random as R
from core._engine.base.devices import dispatch_hooks

# the table's SHA-256 as real JAX computes it, and a package without its packed table (an
# autouse fixture: these rules are those of the table built or read, not the shipped one)
from tests.test_random_normal_table import JAX_TABLE_SHA256, no_shipped_table  # noqa: E402,F401


@pytest.fixture(autouse=True)
def cpu_dispatch(monkeypatch):
    """The eager normal path is the CPU's (a WebGPU backend loaded earlier turns it off)."""
    monkeypatch.setattr(dispatch_hooks, "eager", None)
    monkeypatch.setattr(dispatch_hooks, "jit", None)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        where = tmp_path_factory.mktemp("normal_table_cache")
        mp.setenv("GRADPAD_NORMAL_TABLE_CACHE", str(where))
        mp.delenv("XDG_CACHE_HOME", raising=False)
        normal_table.reset()
        normal_table.build(R._normal_f32_of_bits)   # completing it saves it
        normal_table.reset()
        yield where
        normal_table.reset()


@pytest.fixture
def fresh(monkeypatch):
    """A session that has drawn nothing yet."""
    normal_table.reset()
    yield
    normal_table.reset()


def _file(cache_dir):
    return os.path.join(cache_dir, normal_table_cache.FILE_NAME)


def _bits(x):
    return np.asarray(x).view(np.uint32)


def test_the_saved_copy_is_jaxs_table(cache_dir):
    with open(_file(cache_dir), "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == JAX_TABLE_SHA256
    assert not [n for n in os.listdir(cache_dir) if n != normal_table_cache.FILE_NAME]   # no temporaries


def test_a_new_session_reads_it_back_and_draws_the_same_bits(cache_dir, fresh, monkeypatch):
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE", "now")
    key = R.PRNGKey(0)
    assert normal_table.source() is None
    first = R.normal(key, (3,))   # (exact path; reading happens on the way out)
    assert normal_table._state.table is not None and normal_table._state.partial is None
    assert normal_table.source() == "read"
    # jax.random.normal(jax.random.PRNGKey(0), (3,)) -> [1.6226422, 2.0252647, -0.43359444]
    assert np.asarray(R.normal(key, (3,))).tolist() == np.array([1.6226422, 2.0252647, -0.43359444],
                                                                 np.float32).tolist()
    with normal_table.exact_path_only():
        exact = [R.normal(k, (1000,)) for k in (R.PRNGKey(1), R.PRNGKey(99), R.key(5))]
    from_disk = [R.normal(k, (1000,)) for k in (R.PRNGKey(1), R.PRNGKey(99), R.key(5))]
    for a, b in zip(from_disk, exact):
        assert np.array_equal(_bits(a), _bits(b))
    assert np.array_equal(_bits(first), _bits(R.normal(key, (3,))))


def test_auto_reads_it_only_after_about_the_reading_cost_in_exact_draws(cache_dir, fresh, monkeypatch):
    monkeypatch.delenv("GRADPAD_NORMAL_TABLE", raising=False)
    per_call = 1000 + normal_table.CALL_OVERHEAD
    calls = -(-normal_table.LOAD_AFTER // per_call)
    key = R.PRNGKey(0)
    for _ in range(calls - 1):
        R.normal(key, (1000,))
    assert normal_table._state.table is None
    R.normal(key, (1000,))
    assert normal_table._state.table is not None and normal_table.nbytes() == 4 * normal_table.SIZE


def test_off_reads_nothing(cache_dir, fresh, monkeypatch):
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE", "off")
    for _ in range(3):
        R.normal(R.PRNGKey(0), (10,))
    assert normal_table.nbytes() == 0


@pytest.mark.parametrize("spoil", ["one entry", "truncated", "not floats"])
def test_a_spoiled_file_is_ignored_and_the_table_is_built_instead(tmp_path, cache_dir, fresh, monkeypatch, spoil):
    good = np.fromfile(_file(cache_dir), np.float32)
    if spoil == "one entry":
        bad = good.copy()
        bad[12345] = np.nextafter(bad[12345], np.float32(np.inf))   # one ulp off
        bad.tofile(tmp_path / normal_table_cache.FILE_NAME)
    elif spoil == "truncated":
        good[:-1].tofile(tmp_path / normal_table_cache.FILE_NAME)
    else:
        (tmp_path / normal_table_cache.FILE_NAME).write_bytes(b"x" * good.nbytes)
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE_CACHE", str(tmp_path))
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE", "now")
    R.normal(R.PRNGKey(0), (10,))
    assert normal_table._state.table is None and normal_table._state.filled == normal_table.CHUNK


def test_only_the_true_table_is_saved(tmp_path, fresh, monkeypatch):
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE_CACHE", str(tmp_path))
    monkeypatch.setattr(normal_table, "CHUNK", normal_table.SIZE)
    normal_table.build(lambda bits: np.zeros(len(bits), np.float32))   # not the normal's values
    assert normal_table._state.table is not None and normal_table.source() == "built"
    assert os.listdir(tmp_path) == []


def test_where_it_is_kept(monkeypatch, tmp_path):
    monkeypatch.delenv("GRADPAD_NORMAL_TABLE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert normal_table_cache.path() == os.path.join(tmp_path, "gradpad", normal_table_cache.FILE_NAME)
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE_CACHE", "off")
    assert normal_table_cache.path() is None
    monkeypatch.delenv("GRADPAD_NORMAL_TABLE_CACHE")
    monkeypatch.setattr("sys.platform", "emscripten")   # Pyodide: no lasting disk, no copy
    assert normal_table_cache.path() is None
