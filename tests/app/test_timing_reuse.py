"""The Timing pane reuses the timings of an earlier run when an edit leaves f, its input and the
backend as they were (app.main.Playground._reuse_timing), says so, and measures afresh for any
change to them and for an explicit Run."""
from __future__ import annotations

import pytest

from app import analysis, main

CODE = """import jax.numpy as jnp

x0 = jnp.array([1.5, 2.0])

def f(x):
    return jnp.sum(jnp.sin(x) * 2.0)
f(x0)
"""


@pytest.fixture
def pg(monkeypatch):
    calls = []
    timings = analysis.timings

    def counted(*args, **kwargs):
        calls.append(args)
        return timings(*args, **kwargs)
    monkeypatch.setattr(analysis, "timings", counted)
    pg = main.create_app(code=CODE).playground
    pg.measured = calls
    return pg


def edited(pg, code, **run):
    pg.editor.value = code
    pg.run(**run)  # no event loop here: the timings are in before run() returns
    assert pg.pending == []
    return pg.analysis


def pane_text(pg) -> str:
    return " ".join(str(getattr(o, "object", "")) for o in pg.panes["timing"].objects)


def test_a_print_edit_shows_the_timings_of_the_same_f_and_says_which_run_measured_them(pg):
    first, run = pg.analysis.timing, pg.run_id
    assert len(pg.measured) == 1 and "Measured in run" not in pane_text(pg)
    a = edited(pg, "# a comment above\n" + CODE + 'print("edit")\n')
    assert len(pg.measured) == 1  # not timed again
    assert a.timing["reused_from"] == run and a.timing["eager"] == first["eager"]
    assert a.timing["jit_steady"] == first["jit_steady"]
    assert f"Measured in run {run}" in pane_text(pg)
    assert pg.snapshot()["timing"]["cpu"]["reused_from"] == run
    a = edited(pg, CODE + 'print("again")\n')  # still the numbers of the run that measured them
    assert len(pg.measured) == 1 and a.timing["reused_from"] == run


@pytest.mark.parametrize("change", [
    ("* 2.0", "* 3.0"),                        # f itself
    ("[1.5, 2.0]", "[0.5, 4.0]"),              # its input's values (same text `x0`, same shapes)
    ("[1.5, 2.0]", "[1.5, 2.0, 3.0]"),         # its input's shape
])
def test_an_edit_that_changes_f_or_its_input_measures_again(pg, change):
    a = edited(pg, CODE.replace(*change))
    assert len(pg.measured) == 2 and a.timing.get("reused_from") is None
    assert "Measured in run" not in pane_text(pg)
    assert pg.snapshot()["timing"]["cpu"]["reused_from"] is None


def test_run_measures_afresh_though_f_is_the_same(pg):
    a = edited(pg, CODE + 'print("edit")\n', remeasure=True)
    assert len(pg.measured) == 2 and a.timing.get("reused_from") is None
    a = edited(pg, CODE + 'print("edit 2")\n')  # the fresh numbers are the ones reused next
    assert len(pg.measured) == 2 and a.timing["reused_from"] == pg.run_id - 1


def test_the_run_button_measures_afresh(pg):
    pg.run_button.clicks += 1
    assert len(pg.measured) == 2 and pg.analysis.timing.get("reused_from") is None


def test_another_problem_size_is_measured_then_reused(pg):
    pg.size_select.value = 10
    assert len(pg.measured) == 2 and pg.analysis.timing["scale"] == 10
    a = edited(pg, CODE + 'print("edit")\n')
    assert len(pg.measured) == 2 and a.timing["scale"] == 10 and a.timing["reused_from"] is not None


EAGER_ONLY = """import jax
import jax.numpy as jnp

DELAY = 2

def helper(x):
    if not isinstance(x, jax.core.Tracer):  # eager calls only: tracing never sees this
        for _ in range(DELAY):
            pass
    return jnp.sin(x)

def f(x):
    return helper(x) * 2.0
f(1.5)
"""


@pytest.mark.parametrize("change", [
    ("range(DELAY)", "range(DELAY * 3)"),  # a helper's branch that only eager calls take
    ("DELAY = 2", "DELAY = 3"),            # a global only that branch reads
])
def test_what_only_eager_calls_run_is_part_of_the_key(monkeypatch, change):
    calls = []
    timings = analysis.timings
    monkeypatch.setattr(analysis, "timings", lambda *a, **k: calls.append(a) or timings(*a, **k))
    pg = main.create_app(code=EAGER_ONLY).playground
    edited(pg, EAGER_ONLY + "print(1)\n")
    assert len(calls) == 1  # a print: reused
    a = edited(pg, EAGER_ONLY.replace(*change))
    assert len(calls) == 2 and a.timing.get("reused_from") is None
