"""app/bootstrap.py (the page-side Python) under CPython: no browser needed."""
from __future__ import annotations

import sys

import pytest

from app import bootstrap


def test_run_returns_repr_of_last_expression():
    ns = {}
    assert bootstrap.run("a = [1, 2]\na + [3]", ns) == {
        "stdout": "", "stderr": "", "result": "[1, 2, 3]", "error": None}


def test_run_captures_stdout_stderr_and_keeps_namespace():
    ns = {}
    r = bootstrap.run("import sys\nprint('out')\nprint('err', file=sys.stderr)\nx = 5", ns)
    assert (r["stdout"], r["stderr"], r["result"]) == ("out\n", "err\n", None)
    assert bootstrap.run("x * 2", ns)["result"] == "10"


def test_run_reports_errors():
    r = bootstrap.run("print('before')\nraise ValueError('nope')", {})
    assert r["stdout"] == "before\n"
    assert r["error"]["type"] == "ValueError" and r["error"]["message"] == "nope"
    assert "Traceback" in r["error"]["traceback"]
    assert bootstrap.run("1 +", {})["error"]["type"] == "SyntaxError"


def test_alias_maps_every_submodule_to_the_engine(monkeypatch):
    # the same mechanism as `jax` -> `core`, on a stdlib package so it runs without the engine
    monkeypatch.setattr(bootstrap, "ENGINE", "email")
    monkeypatch.setattr(bootstrap, "ALIAS", "fakejax")
    finder = bootstrap._JaxAlias()
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    for name in [n for n in sys.modules if n == "fakejax" or n.startswith("fakejax.")]:
        monkeypatch.delitem(sys.modules, name)
    import email
    import email.mime.text

    import fakejax
    import fakejax.mime.text as t
    from fakejax import utils

    assert fakejax is email and t is email.mime.text and utils is sys.modules["email.utils"]
    assert email.__spec__.name == "email"  # the engine keeps its own spec
    with pytest.raises(ModuleNotFoundError):
        import fakejax.no_such_module  # noqa: F401
    for name in [n for n in sys.modules if n == "fakejax" or n.startswith("fakejax.")]:
        del sys.modules[name]
