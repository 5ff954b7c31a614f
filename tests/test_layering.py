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


def test_each_upward_import_says_why_where_it_is_made(graph):
    # the rule: an inherent back import is named in a comment where it is made, too
    mods = contract.modules(CORE)
    silent = []
    for src, arrows in graph.items():
        lines = mods[src].read_text(encoding="utf-8").splitlines()
        for dst, line in arrows:
            if contract.layer_of(dst) > contract.layer_of(src) and "INHERENT" not in lines[line - 1]:
                silent.append(f"{mods[src].relative_to(contract.ROOT)}:{line} imports {dst}")
    assert not silent, "upward imports without an `# INHERENT: ...` comment:\n" + "\n".join(silent)


def test_a_new_primitive_module_calling_lax_is_not_covered_by_the_old_ones():
    # INHERENT names each primitives module whose rules call lax: a new one must be added by name
    g = {"core._engine.primitives.brand_new": [("core._engine.lax.lax", 5)],
         "core._engine.primitives.elementwise": [("core._engine.lax.lax", 9)]}
    assert contract.violations(g) == [
        "core._engine.primitives.brand_new (line 5) imports core._engine.lax.lax: layer primitives -> lax, "
        "which is above it"]


def test_every_circle_is_documented(graph):
    bad = contract.undocumented_circles(graph)
    assert not bad, "\n".join(bad)


def test_a_grown_circle_fails_naming_the_import_that_closes_it(graph):
    # jnp's statistics module imports the kernel; a kernel module importing it back joins the circle
    kernel, stats = "core._engine.libraries.numpy._creation", "core._engine.libraries.numpy._statistics"
    g = {m: list(arrows) for m, arrows in graph.items()}
    g[kernel].append((stats, 999))
    bad = contract.undocumented_circles(g)
    assert len(bad) == 1 and bad[0].startswith("the documented circle \"jnp's kernel\" grew"), bad
    assert f"{kernel} (line 999) imports {stats}" in bad[0]


def test_a_new_circle_and_a_stale_entry_fail():
    g = {"core._engine.base.a": [("core._engine.base.b", 3)], "core._engine.base.b": [("core._engine.base.a", 4)]}
    bad = contract.undocumented_circles(g)
    assert bad[0].startswith("2 modules import each other in a circle no one documented: core._engine.base.a, "
                             "core._engine.base.b")
    # every documented circle is missing from this graph: each is reported, so the list follows the code
    assert len(bad) == 1 + len(contract.DOCUMENTED_CIRCLES)


def test_app_keeps_its_place(graph):
    bad = contract.app_violations()
    assert not bad, "\n".join(bad)


def test_app_contract_catches_each_kind_of_import(tmp_path):
    files = {
        "core/__init__.py": "",
        "core/_engine/__init__.py": "",
        "core/_engine/tracing/__init__.py": "",
        "core/_engine/tracing/jaxpr.py": "def f():\n    import app.stepper\n",
        "core/_engine/tracing/rules.py": "",
        "app/__init__.py": "",
        "app/stepper.py": "from core._engine.tracing.jaxpr import Literal\n",
        "app/rules_view.py": "from core._engine.tracing import rules\nfrom core._engine.tracing import jaxpr\n",
        "app/panes/__init__.py": "",
        "app/panes/plots.py": "",
        "app/analysis/__init__.py": "",
        "app/analysis/plots.py": "import core\n\n\ndef g():\n    from app.panes import plots\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert contract.app_violations(tmp_path) == [
        "core._engine.tracing.jaxpr (line 2) imports app.stepper: the engine imports nothing of app/, tests/ or tools/",
        "app.analysis.plots (line 5) imports app.panes.plots: " + contract.APP_FORBIDDEN[("app.analysis", "app.panes")],
        "app.rules_view (line 2) imports core._engine.tracing.jaxpr: app/ uses the engine's public faces "
        "(core.*, jax.*); an internal needs its entry in APP_INTERNALS with why",
    ]


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
