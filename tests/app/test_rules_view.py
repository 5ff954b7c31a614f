"""Open a primitive's rules (app/rules_view.py): the registered rule functions of core's tables as
their own source, a note each, "no transpose rule (not linear)" where there is none; and, as in
the page, whose engine wheel is bytecode only, the source read from the build's core-sources.zip."""
from __future__ import annotations

import io
import linecache
import zipfile
from pathlib import Path

import pytest

from app import page_api, rules_view


def by_table(name: str) -> dict:
    data = rules_view.rules_of(name)
    return {r["table"]: r for r in data["rules"]}


def test_sin_shows_its_jvp_rule_first_and_no_transpose():
    rules = by_table("sin")
    jvp = rules["jvp_rules"]
    assert jvp["present"] and "cos(x)" in jvp["parts"][0]["source"]  # ad.defjvp(sin_p, lambda g, x: mul(g, cos(x)))
    assert jvp["parts"][0]["where"].startswith("core/_engine/primitives/elementwise.py:")
    assert jvp["parts"][-1]["role"] == "helper" and "def jvp" in jvp["parts"][-1]["source"]
    assert not rules["transpose_rules"]["present"]
    assert rules["transpose_rules"]["note"].startswith("no transpose rule (not linear)")
    assert rules["wgsl_rules"]["parts"][0]["source"] == "sin({0})"
    assert "def " in rules["abstract_eval_rules"]["parts"][0]["source"]
    assert all(r["note"] for r in rules.values())


def test_two_rules_written_on_one_line_are_shown_once():
    # mul's jvp: ad.defjvp(mul_p, lambda xdot, x, y: ..., lambda ydot, x, y: ...), one lambda per
    # input on one line: its source was shown twice, word for word
    parts = by_table("mul")["jvp_rules"]["parts"]
    own = [(p["where"], p["source"]) for p in parts if p.get("role") == "own"]
    assert len(own) == len(set(own)) == 1, own
    assert "lambda xdot" in own[0][1] and "lambda ydot" in own[0][1] and parts[0]["count"] == 2
    assert parts[-1]["role"] == "helper"
    assert "count" not in by_table("sin")["jvp_rules"]["parts"][0]


def test_a_linear_primitive_has_its_transpose_and_an_unknown_name_says_so():
    rules = by_table("mul")
    assert rules["transpose_rules"]["present"] and "def _mul_t" in rules["transpose_rules"]["parts"][0]["source"]
    assert "def _scan_transpose" in by_table("scan")["transpose_rules"]["parts"][0]["source"]
    assert "no primitive named" in rules_view.rules_of("not_a_primitive")["error"]
    assert page_api.CALLS["rules"]({"primitive": "cos"})["primitive"] == "cos"


def test_without_source_files_the_text_comes_from_the_shipped_zip(monkeypatch):
    """The page's engine is .pyc only: inspect finds no file. The zip fills linecache under the file
    names the bytecode carries (here: a copy of a core module compiled under another root)."""
    import core
    from core._engine.primitives import elementwise
    root = "/nonexistent-site-packages/"
    real = Path(elementwise.__file__).read_text()
    code = compile(real, root + "core/_engine/primitives/elementwise.py", "exec")
    ns: dict = {"__name__": "core._engine.primitives._elementwise_copy", "__package__": "core._engine.primitives"}
    exec(code, ns)  # noqa: S102 - the engine's own module, as the page's bytecode holds it
    fn = ns["_check_kind"]
    linecache.cache.pop(root + "core/_engine/primitives/elementwise.py", None)
    monkeypatch.setattr(rules_view, "FETCH_SOURCES", None)
    monkeypatch.setattr(rules_view, "_sources_loaded", False)
    assert rules_view.source_of(fn) is None  # no file there, and nothing fetched

    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as z:
        z.writestr("core/_engine/primitives/elementwise.py", real)
    fetched = []
    monkeypatch.setattr(rules_view, "FETCH_SOURCES", lambda: fetched.append(1) or data.getvalue())
    monkeypatch.setattr(core, "__file__", root + "core/__init__.pyc")
    src = rules_view.source_of(fn)
    assert src and src.lstrip().startswith("def _check_kind") and fetched == [1]
    assert rules_view.source_of(fn) == src and fetched == [1]  # fetched once
    linecache.cache.pop(root + "core/_engine/primitives/elementwise.py", None)
    linecache.cache.pop(root + "core/_engine/primitives/elementwise.pyc", None)


def test_the_site_build_ships_core_sources_for_the_viewer(tmp_path):
    from app import lazy_files
    from tools import site

    spec = site.core_sources_zip(tmp_path)
    with zipfile.ZipFile(tmp_path / spec["file"]) as z:
        names = set(z.namelist())
    assert {"core/_engine/tracing/rules.py", "core/_engine/primitives/elementwise.py", "core/_engine/transforms/ad.py"} <= names
    assert not any(n.startswith("app/") for n in names)
    assert spec == site.core_sources_zip(tmp_path)  # the same bytes each build (content-hashed name)
    assert site.CORE_SOURCES in lazy_files.HOOKS  # the page hands the fetch to rules_view


@pytest.fixture(autouse=True)
def _fresh_sources(monkeypatch):
    monkeypatch.setattr(rules_view, "_sources_loaded", False)
