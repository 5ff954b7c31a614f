"""The float32 normal table shipped packed with the package (core/_engine/libraries/normal_table_pack.py): it decodes
to real JAX's table, a fresh session draws from it from its second eager float32 normal on (the
first decodes it), and a damaged file is never drawn from.

JAX's table (every mantissa through real JAX 0.10.2's float32 normal) has the sha256 recorded in
tests/test_random_normal_table.py (JAX_TABLE_SHA256, with the recipe); e.g.
`jax.random.normal(jax.random.PRNGKey(0), (3,))` -> [1.6226422, 2.0252647, -0.43359444].
"""
import hashlib

import numpy as np
import pytest

from core._engine.libraries import normal_table, normal_table_pack
from core import random as R
from core._engine.base.devices import dispatch_hooks
from tests.test_random_normal_table import JAX_TABLE_SHA256


@pytest.fixture(autouse=True)
def cpu_dispatch(monkeypatch):
    """The eager normal path is the CPU's (a WebGPU backend loaded earlier turns it off)."""
    monkeypatch.setattr(dispatch_hooks, "eager", None)
    monkeypatch.setattr(dispatch_hooks, "jit", None)


@pytest.fixture
def fresh(monkeypatch):
    """A session that has drawn nothing yet, with no copy in the user's cache."""
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE_CACHE", "off")
    monkeypatch.delenv("GRADPAD_NORMAL_TABLE", raising=False)
    normal_table.reset()
    yield
    normal_table.reset()


def _bits(x):
    return np.asarray(x).view(np.uint32)


def test_the_shipped_file_is_jaxs_table():
    table = normal_table_pack.load(normal_table.SIZE)
    assert table.dtype == np.float32 and table.shape == (normal_table.SIZE,)
    assert hashlib.sha256(table.tobytes()).hexdigest() == JAX_TABLE_SHA256


def test_it_stays_small():
    # the page fetches it (apart from the package) when it decodes it
    with open(normal_table_pack.FILE, "rb") as f:
        assert len(f.read()) < 1_250_000


def test_a_fresh_session_draws_from_it_after_its_first_draw(fresh):
    keys = [R.PRNGKey(s) for s in range(5)]
    with normal_table.exact_path_only():
        exact = [R.normal(k, (1000,)) for k in keys]
    first = R.normal(keys[0], (1000,))   # the exact path, then the table is decoded
    assert normal_table.source() == "shipped"
    later = [R.normal(k, (1000,)) for k in keys]
    for a, b in zip([first] + later, exact[:1] + exact):
        assert np.array_equal(_bits(a), _bits(b))
    # jax.random.normal(jax.random.PRNGKey(0), (3,)) -> [1.6226422, 2.0252647, -0.43359444]
    assert np.asarray(R.normal(R.PRNGKey(0), (3,))).tolist() == [np.float32(v) for v in (1.6226422, 2.0252647, -0.43359444)]


def test_off_decodes_nothing(fresh, monkeypatch):
    monkeypatch.setenv("GRADPAD_NORMAL_TABLE", "off")
    for _ in range(3):
        R.normal(R.PRNGKey(0), (10,))
    assert normal_table.source() is None and normal_table.nbytes() == 0


def _spoil_byte(data):   # one bit of the compressed differences: decodes, to a wrong table
    data = bytearray(data)
    data[len(data) // 2] ^= 0x10
    return bytes(data)


@pytest.mark.parametrize("spoil", [_spoil_byte, lambda d: d[:len(d) // 2], lambda d: b"XXXX" + d[4:],
                                   lambda d: d[:8] + b"\x00" * 16 + d[24:]],
                         ids=["one bit", "truncated", "not a pack", "escapes"])
def test_a_damaged_file_is_never_drawn_from(fresh, monkeypatch, tmp_path, spoil):
    with open(normal_table_pack.FILE, "rb") as f:
        data = f.read()
    bad = tmp_path / "normal_table_f32.bin"
    bad.write_bytes(spoil(data))
    monkeypatch.setattr(normal_table_pack, "FILE", str(bad))
    key = R.PRNGKey(3)
    with normal_table.exact_path_only():
        exact = R.normal(key, (500,))
    for _ in range(3):
        assert np.array_equal(_bits(R.normal(key, (500,))), _bits(exact))
    assert normal_table.source() is None


def test_missing_file_means_the_exact_path(fresh, monkeypatch, tmp_path):
    monkeypatch.setattr(normal_table_pack, "FILE", str(tmp_path / "absent.bin"))
    R.normal(R.PRNGKey(0), (10,))
    assert normal_table.source() is None


def test_encode_decode_round_trip_with_escapes():
    # differences too big for a byte (the table's ends and sign change) go to the escape list
    x = np.concatenate([np.linspace(-3, 3, 1000, dtype=np.float32), [np.float32(1e30), np.float32(-0.0)],
                        np.linspace(5, 6, 50, dtype=np.float32)])
    assert np.array_equal(_bits(normal_table_pack.decode(normal_table_pack.encode(x), x.size)), _bits(x))
    assert normal_table_pack.decode(normal_table_pack.encode(x), x.size + 1) is None


def test_pyodide_decodes_it_after_about_its_cost_in_exact_draws(fresh, monkeypatch):
    # measured in the page: decoding ~0.5 s, an exact f32[1000] draw 6.9 ms: ~85 such draws
    assert normal_table._shipped_after("linux") == 0
    after = normal_table._shipped_after("emscripten")
    per_call = 1000 + normal_table.CALL_OVERHEAD
    assert 60 <= after / per_call <= 120
    monkeypatch.setattr(normal_table, "SHIPPED_AFTER", after)
    key = R.PRNGKey(1)
    calls = -(-after // per_call)
    for _ in range(calls - 1):
        R.normal(key, (1000,))
    assert normal_table.source() is None
    R.normal(key, (1000,))
    assert normal_table.source() == "shipped"


@pytest.fixture
def fetched_instead(fresh, monkeypatch, tmp_path):
    """No file beside the module (the page's wheel ships none): FETCH gives what `serve` holds."""
    with open(normal_table_pack.FILE, "rb") as f:
        served = {"bytes": f.read(), "calls": 0}
    monkeypatch.setattr(normal_table_pack, "FILE", str(tmp_path / "absent.bin"))

    def fetch():
        served["calls"] += 1
        got = served["bytes"]
        if isinstance(got, Exception):
            raise got
        return got
    monkeypatch.setattr(normal_table_pack, "FETCH", fetch)
    return served


def test_without_the_file_the_hook_fetches_it_once_when_the_table_is_wanted(fetched_instead, monkeypatch):
    # the page's rule: the table is wanted after about its decoding's cost in exact draws
    per_call = 1000 + normal_table.CALL_OVERHEAD
    monkeypatch.setattr(normal_table, "SHIPPED_AFTER", 3 * per_call)
    key = R.PRNGKey(2)
    with normal_table.exact_path_only():
        exact = R.normal(key, (1000,))
    for _ in range(2):
        assert np.array_equal(_bits(R.normal(key, (1000,))), _bits(exact))
    assert fetched_instead["calls"] == 0 and normal_table.source() is None
    R.normal(key, (1000,))
    assert fetched_instead["calls"] == 1 and normal_table.source() == "shipped"
    for _ in range(2):
        assert np.array_equal(_bits(R.normal(key, (1000,))), _bits(exact))
    assert fetched_instead["calls"] == 1
    # jax.random.normal(jax.random.PRNGKey(0), (3,)) -> [1.6226422, 2.0252647, -0.43359444]
    assert _bits(R.normal(R.PRNGKey(0), (3,))).tolist() == [0x3fcfb2bd, 0x40019df0, 0xbede0017]


@pytest.mark.parametrize("served", [None, OSError("HTTP 404"), b"", "one bit"],
                         ids=["none", "raises", "empty", "one bit"])
def test_a_failed_or_wrong_fetch_means_the_exact_path(fetched_instead, served):
    fetched_instead["bytes"] = _spoil_byte(fetched_instead["bytes"]) if served == "one bit" else served
    key = R.PRNGKey(4)
    with normal_table.exact_path_only():
        exact = R.normal(key, (500,))
    for _ in range(3):
        assert np.array_equal(_bits(R.normal(key, (500,))), _bits(exact))
    assert normal_table.source() is None and fetched_instead["calls"] == 1
