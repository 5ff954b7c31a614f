"""The engine's layers (../shared/DESIGN.md) stay untangled: data flows one way, dtypes/avals ->
arrays, jaxprs and tracing -> rules -> transforms -> primitives -> lax -> jax.numpy/nn/random ->
api. Imports are read from the source (function-local ones too: a lazy import is still an edge),
so a new upward import fails here until it is either removed or listed below with its reason."""
from __future__ import annotations

import ast
import pathlib

import pytest

CORE = pathlib.Path(__file__).resolve().parent.parent / "core"

# layer -> module prefixes (a module belongs to the layer of its longest matching prefix)
LAYERS = {
    1: ["core.dtypes", "core.avals", "core.config", "core.errors", "core.tree_util", "core.pretty",
        "core.prng_dtype", "core.fp_errors", "core.compat"],
    2: ["core.array", "core.basearray", "core.jaxpr", "core.tracing"],
    3: ["core.rules"],
    4: ["core.transforms"],
    5: ["core.primitives"],
    6: ["core.lax", "core.lax_linalg"],
    7: ["core.numpy", "core.nn", "core.random", "core.scipy"],
    8: ["core.api", "core.pmap_api"],
}

# Upward imports kept on purpose, each with why (they are all function-local, run when called).
INHERENT = {
    ("core.array", "core.api"): "Array.to_device is the api's device_put",
    ("core.tracing", "core.rules"): "bind looks each primitive's rules up in the tables",
    ("core.transforms.ad", "core.primitives.elementwise"): "tangents add with add_any",
    ("core.transforms.batching", "core.primitives.structural"): "an unbatched value is broadcast to the batch",
    ("core.primitives.linalg", "core.numpy"): "as JAX's lax.linalg, its jvp rules are written with jnp",
    ("core.primitives.solves", "core.api"): "custom_root/custom_linear_solve are defined with the user-level "
                                            "custom_jvp, vjp and linearize, as JAX's solves are",
}
# Rules call lax's typed wrappers, as JAX's (whose lax.py defines the primitives and the wrappers).
CALLS_LAX = ("core.primitives", "core.transforms")
# jnp, nn and random functions are staged as nested jits (their jaxprs show jit[name=...]), and
# jax.numpy's logaddexp is a custom_jvp: jit and custom_jvp live in the api.
STAGED = ("core.numpy", "core.nn", "core.random", "core.scipy")  # (scipy: vmap, custom_jvp and jvp too)


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(CORE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: pathlib.Path):
    """(imported module, line) for every import in the file, nested ones included."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # `from . import numpy` imports the submodule core.numpy
                sub = f"{target}.{alias.name}"
                is_module = (CORE.parent / sub.replace(".", "/")).is_dir() or \
                    (CORE.parent / (sub.replace(".", "/") + ".py")).exists()
                yield (sub if is_module else target), node.lineno


def _layer(module: str):
    best = None
    for layer, prefixes in LAYERS.items():
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > len(best[1])):
                best = (layer, p)
    return best[0] if best else None


def _edges():
    for path in sorted(CORE.rglob("*.py")):
        src = _module_name(path)
        for target, line in _imports(path):
            if target.startswith("core"):
                yield src, target, line


def _within(module, prefixes):
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _allowed(src, dst):
    if any(_within(src, (a,)) and _within(dst, (b,)) for a, b in INHERENT):
        return True
    if _within(src, CALLS_LAX) and _within(dst, ("core.lax",)):
        return True
    return _within(src, STAGED) and _within(dst, ("core.api",))


def test_the_layer_table_names_real_modules():
    for prefixes in LAYERS.values():
        for p in prefixes:
            rel = p.replace(".", "/")
            assert (CORE.parent / rel).is_dir() or (CORE.parent / (rel + ".py")).exists(), p


def test_imports_flow_one_way():
    upward = [f"{src} imports {dst} (line {line}): layer {_layer(src)} -> {_layer(dst)}"
              for src, dst, line in _edges()
              if _layer(src) and _layer(dst) and _layer(dst) > _layer(src) and not _allowed(src, dst)]
    assert not upward, "imports against the layers (remove them, or list them in INHERENT with why):\n" + \
        "\n".join(upward)


@pytest.mark.parametrize("src_prefix, forbidden, exempt", [
    # primitives are below jax.numpy and the api: rules use lax, and the batching layer's vmap
    ("core.primitives", "core.numpy", {"core.primitives.linalg"}),
    # (solves: custom_root/custom_linear_solve are built from custom_jvp/vjp/linearize, see INHERENT)
    ("core.primitives", "core.api", {"core.primitives.solves"}),
    ("core.transforms", "core.numpy", set()),
    ("core.transforms", "core.api", set()),
    # arrays print typed PRNG keys through core.prng_dtype, not jax.random
    ("core.array", "core.random", set()),
    ("core.lax", "core.numpy", set()),
])
def test_named_knots_stay_untied(src_prefix, forbidden, exempt):
    found = [f"{src} line {line}" for src, dst, line in _edges()
             if _within(src, (src_prefix,)) and src not in exempt and _within(dst, (forbidden,))]
    assert not found, f"{forbidden} imported from {src_prefix}: " + ", ".join(found)


def test_compat_imports_no_array():
    # config (layer 1) imports compat for its warnings; core.array registers DeviceArray with it
    assert not [line for src, dst, line in _edges() if src == "core.compat" and _layer(dst) and _layer(dst) > 1]


def test_a_new_upward_import_is_caught(tmp_path):
    # the checker itself: a lazy `from .. import numpy` inside a primitive's rule is an edge
    pkg = tmp_path / "core" / "primitives"
    pkg.mkdir(parents=True)
    (tmp_path / "core" / "numpy").mkdir()
    (pkg / "bad.py").write_text("def rule(x):\n    from .. import numpy as jnp\n    return jnp.sin(x)\n")
    global CORE
    saved, CORE = CORE, tmp_path / "core"
    try:
        edges = list(_edges())
    finally:
        CORE = saved
    assert ("core.primitives.bad", "core.numpy", 2) in edges
    assert not _allowed("core.primitives.bad", "core.numpy")
