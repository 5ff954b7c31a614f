"""The public faces (core/<JAX's path>.py, written by tools/move_to_layers.py) hold no logic and
export JAX's names for that module, plus the few extras listed here with why: the helpers the
implementation modules import (jnp, lax, get_aval, tree_flatten, typing's Any ...) stay there.
JAX's names per module were recorded from real JAX 0.10.2 (tests/golden/record_public_names.py)."""
from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JAX_NAMES = json.loads((ROOT / "tests" / "golden" / "public_module_names.json").read_text())["modules"]

# names a face exports that JAX's module does not, each with why
FACE_EXTRAS: dict[str, dict[str, str]] = {
    "jax.numpy": {"DeviceArray": "older JAX's array class: isinstance(x, jnp.DeviceArray) keeps working "
                                 "(docs/compatibility.md)"},
    "jax.dtypes": {"EMULATED_BF16": "whether bfloat16 is emulated (no ml_dtypes, as in the page): the dtype "
                                    "tests' programs read it"},
    "jax.random": {"threefry_2x32": "in the implementation's __all__ (older JAX's jax.random had it), so "
                                    "`from jax.random import *` needs it"},
    "jax.tree": {"all_leaves": "in the implementation's __all__ (jax.tree_util.all_leaves's twin)"},
}
# faces at a path real JAX 0.10.2 has no module for: nothing to compare with
NOT_A_JAX_MODULE = {"jax.config": "JAX's config is an object (jax.config); the engine keeps the old "
                                  "`from jax.config import config` spelling working"}


def _faces() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "core").rglob("*.py")):
        if "_engine" in path.parts or not path.read_text(encoding="utf-8").startswith("# face:"):
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        name = ".".join(["jax", *parts[1:]])
        out["jax.lax.linalg" if name == "jax.lax_linalg" else name] = path
    return out


def _exported(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.asname or a.name.partition(".")[0] for a in node.names}
    return {n for n in names if not n.startswith("_")}


FACES = _faces()


def test_every_face_is_a_jax_module_or_listed():
    assert {m for m in FACES if m not in JAX_NAMES} == set(NOT_A_JAX_MODULE)


@pytest.mark.parametrize("module", sorted(m for m in FACES if m in JAX_NAMES))
def test_a_face_exports_jaxs_names_and_its_listed_extras(module):
    extra = _exported(FACES[module]) - set(JAX_NAMES[module]) - set(FACE_EXTRAS.get(module, {}))
    assert not extra, (f"{FACES[module].relative_to(ROOT)} exports names {module} does not have in JAX: "
                       f"{sorted(extra)} (import them from the implementation where they are used, or list "
                       f"them in FACE_EXTRAS with why)")


@pytest.mark.parametrize("module, name", sorted((m, n) for m, names in FACE_EXTRAS.items() for n in names))
def test_each_listed_extra_is_exported(module, name):
    assert name in _exported(FACES[module])
    face = importlib.import_module("core" + module[len("jax"):])
    assert getattr(face, name) is not None


def test_star_imports_of_the_faces_work():
    # a face's __all__ may only name what it exports
    for module in FACES:
        face = importlib.import_module("core" + module[len("jax"):].replace("lax.linalg", "lax_linalg"))
        missing = [n for n in getattr(face, "__all__", ()) if not hasattr(face, n)]
        assert not missing, (module, missing)
