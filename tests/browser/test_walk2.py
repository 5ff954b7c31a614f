"""A new user's pastes from JAX's documentation, round 2 (issue 14), in the built page (the shared
page, see conftest) one after another: each asserts, through gradpad.snapshot() and the visible
pane text, what the page showed wrong before (the same programs pinned in CPython:
tests/app/test_walk2.py). With $GRADPAD_WALK2_SHOTS set, every tab of every paste is saved there
as a screenshot (1400x900, and 390x844 for the first), for a human to look at."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.app.test_walk2 import BUILDER, POINT, REDEFINED, REDEFINED_JAXPR_HEAD

from .test_gallery import VISIBLE_TEXT, tab
from .test_learner_pastes import app_page, load  # noqa: F401 (app_page: the fixture)
from .settle import show_tab

pytestmark = pytest.mark.timeout(300)
SHOTS = os.environ.get("GRADPAD_WALK2_SHOTS")
TABS = ("Jaxpr", "Plots", "vmap", "Timing", "Console")


def tab_text(page, title: str, needle: str, seconds: float = 15.0) -> str:
    """The page's visible text once the tab `title` shows `needle` (or `seconds` have passed): a
    tab hidden while the load ran fills in after its click."""
    tab(page, title).click()
    text = ""
    for _ in range(int(seconds / 0.1)):
        page.wait_for_timeout(100)
        text = page.evaluate(VISIBLE_TEXT)
        if needle in text:
            break
    tab(page, "Jaxpr").click()
    return text


def shots(page, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    for title in TABS:
        show_tab(page, title)
        page.screenshot(path=f"{SHOTS}/{name}-{title}.png", full_page=True)
    tab(page, "Jaxpr").click()


def test_a_function_defined_again_is_analysed_on_its_own_input(app_page):
    snap = load(app_page, REDEFINED)
    # before: the first f's call f(2.) was the last f's input, and every pane said "TypeError:
    # f() missing 2 required positional arguments: 'b' and 'x'"
    assert snap["error"] is None and snap["console"].startswith("x: 2.0")  # JAX prints x: 2.0
    assert snap["function"] == "f" and snap["args_guessed"]
    assert snap["jaxpr"].startswith(REDEFINED_JAXPR_HEAD), snap["jaxpr"]  # JAX: make_jaxpr(f)(1.0, 1.0, 1.0)
    rows = snap["vmap"]["rows"]
    assert {"loop", "vmap", "jit(vmap)"} <= set(rows) and not [m for m, r in rows.items() if "error" in r], rows
    assert snap["timing"]["cpu"]["speedup"] > 0
    shots(app_page.page, "redefined")
    if SHOTS:
        app_page.page.set_viewport_size({"width": 390, "height": 844})
        shots(app_page.page, "redefined-phone")
        app_page.page.set_viewport_size({"width": 1400, "height": 900})


def test_a_function_that_makes_a_function_is_not_the_default(app_page):
    snap = load(app_page, BUILDER)
    # before: hessian(sum_logistic), a function: "TypeError: function returned a value of type
    # <class 'core._engine.api.api.PjitFunction'>, which is not a valid JAX type" in the Jaxpr, Plots, Timing panes
    assert snap["error"] is None and snap["function"] == "first_finite_differences"
    assert snap["jaxpr"].startswith("{ lambda ; a:f32[3]. let"), snap["jaxpr"]
    assert snap["plots"] == {"jacobian": 9} and snap["timing"]["cpu"]["speedup"] > 0
    shots(app_page.page, "builder")


def test_a_namedtuple_input_is_plotted_along_its_gradient(app_page):
    snap = load(app_page, POINT)
    # JAX prints grad(fun)(pt): Point(x=Array(2.5403023, dtype=float32, weak_type=True), y=Array(-0., ...))
    assert snap["error"] is None and snap["console"].startswith("Point(x=Array(2.5403023")
    # before: Point(1., 2.) taken for a (2,) vector: "AttributeError: 'BatchTracer' object has no
    # attribute 'x'" and no plot
    assert snap["function"] == "fun" and snap["plots"] == {"line_f": 61, "line_df": 61, "gradient": 2}
    text = tab_text(app_page.page, "Plots", "vdot(grad(f)(x + t * d), d)")
    # the slope along d comes from the gradient: JAX refuses jvp of a custom_vjp function
    assert "# jvp refuses a custom_vjp function" in text and "vdot(grad(f)(x + t * d), d)" in text, text[-1500:]
    shots(app_page.page, "point")
