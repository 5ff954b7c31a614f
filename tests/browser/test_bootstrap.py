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


def test_run_keeps_the_first_lines_of_a_flood_and_says_so():
    # the page's console must survive `for i in range(10**6): print(i)`
    r = bootstrap.run("for i in range(20000):\n    print(i)", {})
    lines = r["stdout"].splitlines()
    assert lines[:2] == ["0", "1"] and str(bootstrap.MAX_OUTPUT_LINES - 1) in lines
    assert str(bootstrap.MAX_OUTPUT_LINES) not in lines
    assert "output truncated: 15,000 more lines not shown" in r["stdout"]
    r = bootstrap.run("print('x' * 10**6)", {})
    assert len(r["stdout"]) < bootstrap.MAX_OUTPUT_CHARS + 200 and "output truncated" in r["stdout"]
    assert bootstrap.run("print('short')", {})["stdout"] == "short\n"  # nothing added when it fits


def test_numpy_size_limit_errors_read_as_memory_errors():
    # numpy in WebAssembly (32-bit) says "iterator is too large" for jnp.ones((50000, 50000))
    r = bootstrap.run("raise ValueError('iterator is too large')", {})
    assert r["error"]["type"] == "MemoryError"
    assert "too big for the memory" in r["error"]["message"] and "iterator is too large" in r["error"]["message"]
    assert bootstrap.run("raise ValueError('other')", {})["error"]["type"] == "ValueError"


def test_a_stop_is_a_keyboard_interrupt_and_ends_the_whole_analysis(monkeypatch):
    from app import sandbox

    monkeypatch.setattr(bootstrap, "install_jax_alias", lambda: None)
    monkeypatch.setattr(sandbox, "INTERRUPTIBLE", False)
    bootstrap.install(interruptible=True)
    assert sandbox.INTERRUPTIBLE is True  # no time budget: the page's Stop ends runs
    assert isinstance(sandbox.budget(0.01), sandbox._NoBudget)
    r = bootstrap.run("raise KeyboardInterrupt", {})
    assert r["error"]["type"] == "KeyboardInterrupt" and "stopped" in r["error"]["message"]
    res = sandbox.run("def spin(x):\n    return x\nraise KeyboardInterrupt")
    assert res.error.type == "KeyboardInterrupt"
    calls = []
    value, err = sandbox.guarded_call(lambda: calls.append(1))
    assert (value, calls, err.type) == (None, [], "KeyboardInterrupt")  # skipped after the Stop
    sandbox.run("x = 1")  # the next run starts afresh
    assert sandbox.guarded_call(lambda: 5) == (5, None)
