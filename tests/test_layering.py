"""The import contract (tools/import_contract.py): core/'s layers, bottom up, base -> tracing ->
transforms -> primitives -> lax -> libraries -> api -> backends -> public faces. Imports are read
from the source (function-level ones too: a lazy import is still an arrow), so a new upward import
fails here, naming the import, until it is removed or listed in INHERENT with its reason."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tools import import_contract as contract

CORE = Path(contract.ROOT) / "core"


@pytest.fixture(scope="module")
def graph():
    return contract.graph(CORE)


def test_every_module_has_a_layer(graph):
    assert not contract.unlayered(graph), "modules in no layer (add them to LAYERS in tools/import_contract.py)"


def test_the_layer_table_names_real_modules(graph):
    for _, prefixes in contract.LAYERS:
        for p in prefixes:
            assert any(m == p or m.startswith(p + ".") for m in graph), p


def test_imports_flow_one_way(graph):
    bad = contract.violations(graph)
    assert not bad, ("imports against the layers (remove them, reach the upper layer through a table it "
                     "fills in, or list them in INHERENT with why):\n" + "\n".join(bad))


def test_no_circle_across_layers_but_the_documented_one(graph):
    across = contract.circles_across_layers(graph)
    assert not across, "\n".join(across)


def test_every_inherent_arrow_is_still_there(graph):
    # a listed exception that no import uses any more is removed from the list (it only shrinks)
    used = {key for src, arrows in graph.items() for dst, _ in arrows
            for key in contract.INHERENT if contract._within(src, key[0]) and contract._within(dst, key[1])}
    assert set(contract.INHERENT) <= used, set(contract.INHERENT) - used


@pytest.mark.parametrize("src_prefix, forbidden", [
    # the knots untied in issue 25 stay untied
    ("core._engine.primitives", "core._engine.libraries.numpy"),        # the decompositions' jnp jvps live in core/_engine/libraries/numpy/_linalg_jvp.py
    ("core._engine.primitives", "core._engine.api.api"),          # custom_root/custom_linear_solve: core/_engine/api/custom_solvers.py
    ("core._engine.primitives", "core._engine.backends"),     # sub-jaxprs run through rules.jaxpr_compiler
    ("core._engine.transforms", "core._engine.lax.lax"),          # zeros, axis moves: rules.transform_ops
    ("core._engine.transforms", "core._engine.primitives"),
    ("core._engine.base.dtypes", "core._engine.tracing.array"),
    ("core._engine.base.bf16_emulated", "core._engine.tracing.array"),
    ("core._engine.tracing.array", "core._engine.api.api"),               # Array.to_device: core/_engine/tracing/placement.py
    ("core._engine.tracing.array", "core._engine.api.shard_map_api"),     # jax.Shard: core/_engine/base/sharding.py
    ("core._engine.tracing.array", "core._engine.libraries.random"),
    ("core._engine.lax.lax", "core._engine.libraries.numpy"),
    ("core._engine.base.compat", "core._engine.tracing.array"),            # config imports compat; arrays register DeviceArray with it
])
def test_named_knots_stay_untied(graph, src_prefix, forbidden):
    found = [f"{src} line {line}" for src, arrows in graph.items() for dst, line in arrows
             if contract._within(src, src_prefix) and contract._within(dst, forbidden)]
    assert not found, f"{forbidden} imported from {src_prefix}: " + ", ".join(found)


def test_a_back_import_in_a_copy_of_core_fails_naming_it(tmp_path):
    # the contract is not vacuous: a function-level `import core._engine.api.api` added to dtypes is caught
    # (the module names are written whole so tools/move_to_layers.py rewrites them with the layout)
    dtypes_name, api_name = "core._engine.base.dtypes", "core._engine.api.api"
    shutil.copytree(CORE, tmp_path / "core", ignore=shutil.ignore_patterns("__pycache__", "*.bin"))
    dtypes = (tmp_path / Path(*dtypes_name.split("."))).with_suffix(".py")
    text = dtypes.read_text()
    dtypes.write_text(text + f"\n\ndef _sneaky():\n    import {api_name}\n    return core\n")
    line = len(dtypes.read_text().splitlines()) - 1
    bad = contract.violations(contract.graph(tmp_path / "core"))
    assert bad == [f"{dtypes_name} (line {line}) imports {api_name}: layer base -> api, which is above it"]


def test_a_new_circle_across_layers_is_caught():
    # a synthetic graph: an allowed (INHERENT) arrow plus a downward one is fine; closing a loop
    # between the api and the libraries through an exception is reported as a circle
    g = {"core._engine.libraries.numpy.x": [("core._engine.api.api", 1)], "core._engine.api.api": [("core._engine.libraries.numpy.x", 2)]}
    assert contract.violations(g) == []                 # both arrows are allowed one by one...
    across = contract.circles_across_layers(g)
    assert len(across) == 1 and "core._engine.api.api" in across[0] and "core._engine.libraries.numpy.x" in across[0]
    g2 = {"core._engine.tracing.tracing": [("core._engine.lax.lax", 7)], "core._engine.lax.lax": [("core._engine.tracing.tracing", 3)]}
    assert contract.violations(g2) == [
        "core._engine.tracing.tracing (line 7) imports core._engine.lax.lax: layer tracing -> lax, which is above it"]
