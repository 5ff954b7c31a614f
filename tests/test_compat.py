"""Seed-era names: accepted, behave like the old JAX the tutorials used, warn once naming the
modern spelling. (Real JAX 0.10.2 has none of them: `hasattr(jax, 'tree_map')` is False and
`from jax.config import config` raises ModuleNotFoundError.)"""
import os
import subprocess
import sys
import warnings

import pytest

import core as jax
import core.numpy as jnp
from core._engine.base import compat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def fresh_warnings():
    compat.reset_warnings()
    yield
    compat.reset_warnings()


def _legacy_warnings(record):
    return [str(w.message) for w in record if issubclass(w.category, compat.LegacyNameWarning)]


def test_tree_names_work_and_warn_once():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        # old JAX: jax.tree_map(lambda x: x * 2, [1, {'a': 2}]) -> [2, {'a': 4}]
        assert jax.tree_map(lambda x: x * 2, [1, {"a": 2}]) == [2, {"a": 4}]
        assert jax.tree_map(lambda x: x + 1, (1, 2)) == (2, 3)
        # old JAX: jax.tree_multimap(lambda x, y: x + y, [1, 2], [3, 4]) -> [4, 6]
        assert jax.tree_multimap(lambda x, y: x + y, [1, 2], [3, 4]) == [4, 6]
        assert jax.tree_leaves([1, (2, {"b": 3})]) == [1, 2, 3]
        leaves, tree = jax.tree_flatten({"a": 1, "b": (2, 3)})
        assert leaves == [1, 2, 3]
        assert jax.tree_unflatten(tree, [4, 5, 6]) == {"a": 4, "b": (5, 6)}
        assert jax.tree_structure([1, 2]) == jax.tree_util.tree_structure([0, 0])
    msgs = _legacy_warnings(w)
    assert len(msgs) == 6  # one per name, not per use
    assert msgs[0] == ("`jax.tree_map` is an old JAX name (removed in current JAX); gradpad accepts it for "
                       "the tutorials. Use `jax.tree.map (or jax.tree_util.tree_map)` instead.")
    assert any("jax.tree_multimap" in m and "jax.tree.map" in m for m in msgs)


def test_warning_points_at_user_code():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        jax.tree_leaves([1])
    assert w and w[0].filename == __file__


def test_device_array_isinstance():
    # old JAX: isinstance(jnp.ones(2), jnp.DeviceArray) -> True
    assert isinstance(jnp.ones(2), jnp.DeviceArray)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert isinstance(jnp.ones(2), compat.DeviceArray)
    assert any("jax.Array" in m for m in _legacy_warnings(w))


def test_unknown_names_still_fail():
    with pytest.raises(AttributeError, match="has no attribute 'tree_frobnicate'"):
        jax.tree_frobnicate  # noqa: B018


def _run(code):
    env = dict(os.environ, PYTHONPATH=ROOT)
    prog = "import warnings; warnings.simplefilter('always'); import core; core.install_as_jax()\n" + code
    return subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True, text=True, check=True)


def test_from_jax_config_import_config():
    # the tutorials: `from jax.config import config; config.update("jax_enable_x64", True)`
    out = _run("from jax.config import config\nconfig.update('jax_enable_x64', True)\n"
               "import jax, jax.numpy as jnp\nprint(config is jax.config, jnp.array(1.).dtype)")
    assert out.stdout.strip() == "True float64"
    assert "LegacyNameWarning: `from jax.config import config` is an old JAX name" in out.stderr
    assert "import jax; jax.config.update(...)" in out.stderr


def test_internal_config_imports_do_not_warn():
    out = _run("import jax; jax.config.update('jax_enable_x64', False); print('ok')")
    assert out.stdout.strip() == "ok" and "LegacyNameWarning" not in out.stderr


def test_platform_name_flag():
    # older tutorials: jax.config.update('jax_platform_name', 'cpu') (gone in current JAX)
    out = _run("import jax\njax.config.update('jax_platform_name', 'cpu')\nprint(jax.config.jax_platforms)")
    assert out.stdout.strip() == "cpu"
    assert "Use `jax.config.update('jax_platforms', ...)` instead." in out.stderr


def test_device_method_call():
    # old JAX: arr.device() -> the device; JAX 0.10.2: arr.device is a property, and calling it
    # raises (tests/golden/cases_engine.py records the message)
    x = jnp.ones(2)
    with pytest.raises(TypeError, match="'Device' object is not callable"):
        x.device()
