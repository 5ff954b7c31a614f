"""A lazily installed library's first import (app/lazy_wheels.py: fetching its wheels, unpacking
them, running its modules) is not charged to the run's time budget (app/sandbox.py): a gallery
example importing diffrax went red with TimeBudgetExceeded on a first visit, though its own code
fits the budget. Runaway code after the import is still stopped. Here a fake library's fetch and
its module's import each sleep past the budget."""
from __future__ import annotations

import hashlib
import io
import sys
import time
import zipfile

import pytest

from app import env, lazy_wheels, sandbox

BUDGET_S = 0.6
SLEEP_S = 0.8  # the fetch sleeps this long, and so does the library's import: each past the budget


def wheel(files: dict[str, str], dist: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
        zf.writestr(f"{dist.replace('-', '_')}-1.0.dist-info/METADATA",
                    f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    return buf.getvalue()


@pytest.fixture
def slow_library(tmp_path, monkeypatch):
    """gp_slow_lib needs gp_slow_dep (its closure: dependency first); fetching a wheel and
    importing gp_slow_lib each take SLEEP_S."""
    wheels = {
        "gp-slow-dep": wheel({"gp_slow_dep/__init__.py": "BASE = 40\n"}, "gp-slow-dep"),
        "gp-slow-lib": wheel({"gp_slow_lib/__init__.py":
                              f"import time\nimport gp_slow_dep\ntime.sleep({SLEEP_S})\n"
                              "VALUE = gp_slow_dep.BASE + 2\n"}, "gp-slow-lib"),
    }
    table = {"imports": {"gp_slow_lib": ["gp-slow-dep", "gp-slow-lib"], "gp_slow_dep": ["gp-slow-dep"]},
             "wheels": {name: {"file": f"{name.replace('-', '_')}-1.0-py3-none-any.whl",
                               "sha256": hashlib.sha256(data).hexdigest()} for name, data in wheels.items()}}
    served = {"https://site/pyodide/" + table["wheels"][n]["file"]: data for n, data in wheels.items()}

    def fetch(url):
        time.sleep(SLEEP_S / 2)  # a slow network: two wheels, SLEEP_S in all
        return served[url]
    progress = []
    monkeypatch.setattr(env, "run_output", progress.append)
    sys.path.insert(0, str(tmp_path))
    lazy = lazy_wheels.install(table, "https://site/pyodide/", fetch=fetch, site_packages=str(tmp_path))
    yield lazy, progress
    # only the page's two finders go: the first run installed jax's (`jax.extend.core...`) meanwhile
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, (lazy_wheels.LazyWheels, lazy_wheels.NotShipped))]
    sys.path.remove(str(tmp_path))
    for name in ("gp_slow_lib", "gp_slow_dep"):
        sys.modules.pop(name, None)


@pytest.fixture(params=["cpython", "pyodide"])
def budget_kind(request, monkeypatch):
    """CPython: loop ticks and the watchdog thread; Pyodide (no threads): loop ticks alone."""
    monkeypatch.setattr(sandbox, "IN_PYODIDE", request.param == "pyodide")
    return request.param


def test_a_slow_first_import_is_not_charged_to_the_run(slow_library, budget_kind):
    lazy, progress = slow_library
    code = ("import gp_slow_lib\n"
            "total = 0\n"
            "for i in range(3):\n"        # a loop of the learner's (ticks) after the import
            "    total += gp_slow_lib.VALUE\n"
            "print(total)\n")
    r = sandbox.run(code, seconds=BUDGET_S)
    assert r.error is None, r.error.headline()
    assert r.stdout == "126\n"
    assert r.seconds > BUDGET_S  # it did take longer than the budget: the install was not charged
    # the status line and the console say how much of the run was the install
    assert 2 * SLEEP_S <= r.installing_s <= r.seconds, (r.installing_s, r.seconds)
    assert r.took().endswith(f"{r.installing_s:.1f} s of it installing libraries"), r.took()
    again = sandbox.run(code, seconds=BUDGET_S)  # installed and imported now: nothing to install
    assert again.error is None and again.installing_s == 0 and again.took().endswith(" ms"), again.took()
    assert lazy.installed == ["gp-slow-dep", "gp-slow-lib"]
    # the page's progress line said what was going on, and was cleared after
    assert progress[0] == "installing gp_slow_lib with gp-slow-dep, gp-slow-lib…", progress
    assert "importing gp_slow_lib…" in progress and progress[-1] == "", progress
    # the library's module kept its own loader (importlib.resources, get_data ...)
    assert not isinstance(sys.modules["gp_slow_lib"].__loader__, lazy_wheels._Uncharged)
    assert not isinstance(sys.modules["gp_slow_lib"].__spec__.loader, lazy_wheels._Uncharged)


def test_runaway_code_after_a_slow_first_import_is_still_stopped(slow_library, budget_kind):
    t0 = time.perf_counter()
    r = sandbox.run("import gp_slow_lib\nx = 0\nwhile True:\n    x += 1\n", seconds=BUDGET_S)
    assert r.error is not None and r.error.type == "TimeBudgetExceeded", r.error
    assert r.error.line in (3, 4)
    assert time.perf_counter() - t0 < 2 * SLEEP_S + BUDGET_S + 5


def test_runaway_code_without_loops_is_still_stopped_by_the_watchdog(slow_library):
    """CPython's watchdog, paused during the install, fires again after it: a long computation
    that is not a loop of the learner's (no tick) still ends."""
    code = "import itertools\nimport gp_slow_lib\nany(i < 0 for i in itertools.count())\n"  # a generator: no tick
    r = sandbox.run(code, seconds=BUDGET_S)
    assert r.error is not None and r.error.type == "TimeBudgetExceeded", r.error


def test_the_time_left_before_the_import_is_kept_not_restarted(slow_library, budget_kind):
    """The budget is paused, not re-armed: code that used up its budget before the import is
    stopped right after it."""
    code = ("import time\nt = time.perf_counter()\n"
            f"while time.perf_counter() - t < {BUDGET_S / 2}:\n    pass\n"  # half the budget
            "import gp_slow_lib\n"
            f"t = time.perf_counter()\nwhile time.perf_counter() - t < {BUDGET_S}:\n    pass\n"
            "print('not reached')\n")
    r = sandbox.run(code, seconds=BUDGET_S)
    assert r.error is not None and r.error.type == "TimeBudgetExceeded", r.error
    assert r.error.line in (7, 8) and "not reached" not in r.stdout


def test_nested_budgets_are_paused_together():
    outer = sandbox._Deadline(0.2)
    with sandbox._LoopDeadline(outer):
        inner = sandbox._Deadline(0.2)
        with sandbox._LoopDeadline(inner):
            with sandbox.uncharged():
                assert outer.at == inner.at == float("inf")
                time.sleep(0.3)
                sandbox.tick()  # nothing is charged meanwhile, even from a library's lax.while_loop
            sandbox.tick()  # 0.2 s left, as before
        sandbox.tick()
    assert outer.at > time.perf_counter() and sandbox._deadline.get() is None
