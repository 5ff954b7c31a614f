"""tools/pure_tree/tree.py, the pure-Python stand-in for dm-tree (whose C extension has no Pyodide
build): it must do what the real dm-tree does on the structures TFP's JAX substrate gives it, and
distrax's README workloads must match real JAX with it in dm-tree's place (issue 24)."""
from __future__ import annotations

import collections
import importlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "ecosystem"))
from install import ensure_ring2_installed  # noqa: E402

PURE = ROOT / "tools" / "pure_tree" / "tree.py"


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trees():
    """(pure, real dm-tree), both loaded under names of their own."""
    real_dir = ensure_ring2_installed() / "tree"
    sys.path.insert(0, str(real_dir.parent))
    try:
        real = importlib.import_module("tree")
    finally:
        sys.path.remove(str(real_dir.parent))
    return load(PURE, "gradpad_pure_tree"), real


Point = collections.namedtuple("Point", "x y")
STRUCTURES = [
    1.0, None, "text", [], (), {},
    [1, (2, 3), {"b": 4, "a": [5, None]}],
    {"z": Point(1, [2, 3]), "a": (4,), "m": collections.OrderedDict([("q", 5), ("p", 6)])},
    collections.defaultdict(list, {"k": [1, 2], "j": 3}),
    (Point(x={"u": 1}, y=()), [[[]]], "leaf", b"bytes"),
]


def plain(x):
    """Comparable form: types by name, containers as tuples."""
    if isinstance(x, dict):
        return (type(x).__name__, tuple((k, plain(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(plain(v) for v in x))
    return x


@pytest.mark.parametrize("i", range(len(STRUCTURES)))
def test_flatten_paths_and_rebuild_agree_with_dm_tree(trees, i):
    pure, real = trees
    s = STRUCTURES[i]
    assert pure.is_nested(s) == real.is_nested(s)
    assert pure.flatten(s) == real.flatten(s)
    assert pure.flatten_with_path(s) == real.flatten_with_path(s)
    leaves = [f"leaf{j}" for j in range(len(real.flatten(s)))]
    assert plain(pure.unflatten_as(s, leaves)) == plain(real.unflatten_as(s, leaves))
    f = lambda v: (v, "!")  # noqa: E731
    assert plain(pure.map_structure(f, s)) == plain(real.map_structure(f, s))
    assert plain(pure.traverse(lambda t: None, s)) == plain(real.traverse(lambda t: None, s))
    assert plain(pure.traverse(lambda t: len(t) if isinstance(t, list) else None, s)) == \
        plain(real.traverse(lambda t: len(t) if isinstance(t, list) else None, s))
    pure.assert_same_structure(s, real.map_structure(str, s))


def test_up_to_functions_agree_with_dm_tree(trees):
    pure, real = trees
    shallow = {"a": [1, 2], "b": 3}
    deep = {"a": [(1, 2), {"x": 3}], "b": [4, 5]}
    assert pure.flatten_up_to(shallow, deep) == real.flatten_up_to(shallow, deep)
    assert pure.flatten_with_path_up_to(shallow, deep) == real.flatten_with_path_up_to(shallow, deep)
    assert plain(pure.map_structure_up_to(shallow, lambda a, b: (a, b), deep, deep)) == \
        plain(real.map_structure_up_to(shallow, lambda a, b: (a, b), deep, deep))
    assert plain(pure.map_structure_with_path_up_to(shallow, lambda p, a: (p, a), deep)) == \
        plain(real.map_structure_with_path_up_to(shallow, lambda p, a: (p, a), deep))


@pytest.mark.parametrize("a, b, check_types", [
    ([1, 2], [1, 2, 3], True), ([1, [2]], [1, 2], True), ([1, 2], (1, 2), True), ({"a": 1}, {"b": 1}, True),
    (Point(1, 2), collections.namedtuple("Point", "x y")(1, 2), True), ([1, 2], (1, 2), False)])
def test_structure_mismatches_raise_what_dm_tree_raises(trees, a, b, check_types):
    pure, real = trees

    def outcome(mod):
        try:
            mod.assert_same_structure(a, b, check_types=check_types)
            return None
        except (TypeError, ValueError) as e:
            return type(e)
    assert outcome(pure) is outcome(real)


def test_up_to_mismatches_raise_what_dm_tree_raises(trees):
    pure, real = trees
    for shallow, deep in [([1, 2], 3), ({"a": 1}, {"b": 1}), ([1, 2], [1, 2, 3]), ([1], (1,))]:
        kinds = []
        for mod in (pure, real):
            try:
                mod.flatten_up_to(shallow, deep)
                kinds.append(None)
            except (TypeError, ValueError) as e:
                kinds.append(type(e))
        assert kinds[0] is kinds[1], (shallow, deep, kinds)


RUNNER = """
import json, sys, warnings
warnings.simplefilter("ignore")
import importlib.util
spec = importlib.util.spec_from_file_location("tree", {pure!r})
tree = importlib.util.module_from_spec(spec); spec.loader.exec_module(tree)
sys.modules["tree"] = tree  # before TFP's nest imports dm-tree
import core; core.install_as_jax()
sys.path.insert(0, {here!r})
from ring2_workloads import run
import tensorflow_probability.python.internal.backend.jax.nest as nest
assert nest.dm_tree is tree, nest.dm_tree
print(json.dumps(run({names!r})))
"""


def test_distrax_readme_workloads_match_real_jax_with_the_pure_tree():
    from install import ensure_installed
    from ring2_compare import GOLDEN_PATH, compare
    golden = json.loads(GOLDEN_PATH.read_text())["results"]
    names = [n for n in golden if n.startswith("distrax_")]
    assert len(names) >= 5
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ensure_ring2_installed()), str(ensure_installed())]))
    proc = subprocess.run([sys.executable, "-c", RUNNER.format(pure=str(PURE), here=str(GOLDEN_PATH.parent), names=names)],
                          capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in names:
        assert compare(got[name], golden[name]) is None, (name, compare(got[name], golden[name]))
