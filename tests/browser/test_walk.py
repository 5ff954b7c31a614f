"""A new user's own pastes in the built page (the shared page, see conftest), one after another:
each asserts, through gradpad.snapshot() and the visible pane text, what the page showed wrong
before (the same programs pinned in CPython: tests/app/test_walk.py)."""
from __future__ import annotations

import pytest

from tests.app.test_walk import CUSTOM_JVP, RANDOM_ARG, SYS_EXIT, VMAP_ALIAS, WHILE_LOOP

from .test_learner_pastes import app_page, load, pane_text  # noqa: F401 (app_page: the fixture)

pytestmark = pytest.mark.timeout(300)

INTEGER_INDEX = "import jax.numpy as jnp\ndef f(i):\n    return jnp.arange(5)[i]\nprint(f(2))\n"


def test_sys_exit_and_input_end_the_run_with_a_message_and_a_live_page(app_page):
    snap = load(app_page, SYS_EXIT)
    # before: SystemExit escaped the page's load call (no snapshot; the panes kept the last run)
    assert snap is not None and snap["code"] == SYS_EXIT
    assert snap["error"]["type"] == "SystemExit" and snap["error"]["line"] == 9
    assert snap["console"].startswith("0.0 2.25\n")  # JAX prints 0.0 2.25
    assert snap["function"] == "f" and snap["plots"] == {"f": 201, "df": 201, "d2f": 201}
    code = "name = input('name? ')\nprint('hi', name)\n"
    snap = load(app_page, code)
    # before: Pyodide's "OSError: [Errno 29] I/O error"
    assert snap["error"]["type"] == "EOFError" and "the page has no terminal" in snap["error"]["message"]
    assert app_page.page.evaluate("() => window.gradpad.runPython('6 * 7')")["result"] == "42"


def test_a_random_key_argument_is_batched_in_the_vmap_pane(app_page):
    snap = load(app_page, RANDOM_ARG)
    assert snap["error"] is None and snap["function"] == "noisy"
    rows = snap["vmap"]["rows"]
    # before: the whole pane was "KeyError: dtype([('k0', '<u4'), ('k1', '<u4')])"
    assert {"loop", "vmap", "jit(vmap)"} <= set(rows) and rows["loop"]["matches_vmap"] is True, rows
    assert "keys fold_in(key, k)" in pane_text(app_page.page, "vmap")


def test_a_while_loop_is_plotted_and_non_finite_curves_are_named(app_page):
    snap = load(app_page, WHILE_LOOP)
    # before: the Plots pane was grad's "ValueError: Reverse-mode differentiation does not work"
    assert snap["error"] is None and snap["plots"] == {"f": 201, "df": 201, "d2f": 201}
    assert "jax.vmap(jax.jacfwd(f))(xs)" in pane_text(app_page.page, "Plots")
    snap = load(app_page, CUSTOM_JVP)
    # JAX: log1pexp is inf on [97, 103] (float32), its second derivative nan: before, the
    # snapshot counted 201 points for each and the chart just had no blue or green line
    assert snap["plots"] == {"f": 0, "df": 201, "d2f": 0}
    assert "Not drawn where not finite: f(x) is inf at 201 of its 201 points" in pane_text(app_page.page, "Plots")


def test_the_function_behind_a_vmap_alias_is_analysed(app_page):
    snap = load(app_page, VMAP_ALIAS)
    # before: auto_batch_convolve (vmap of an already-batched function)
    assert snap["function"] == "convolve" and not snap["args_guessed"]
    assert snap["jaxpr"].startswith("{ lambda ; a:i32[5] b:f32[3]. let")  # JAX: make_jaxpr(convolve)(x, w)
    snap = load(app_page, INTEGER_INDEX)
    # before: a red "TypeError: Indexer must have integer or boolean type" in the Plots pane
    assert snap["error"] is None and snap["plots"] == {}
    assert "Its input is integers only" in pane_text(app_page.page, "Plots")


def test_a_dict_of_outputs_is_drawn_as_curves(app_page):
    code = "import jax.numpy as jnp\ndef f(x):\n    return {'sq': x ** 2, 'cube': x ** 3}\nprint(f(2.0))\n"
    snap = load(app_page, code)
    # JAX prints f(2.0) as {'sq': 4.0, 'cube': 8.0}; before, the Plots pane said "f(2.0) is none of these"
    assert snap["console"].startswith("{'sq': 4.0, 'cube': 8.0}")
    assert snap["error"] is None and snap["plots"] == {
        "f(x)['cube']": 201, "d/dx f(x)['cube']": 201, "f(x)['sq']": 201, "d/dx f(x)['sq']": 201}
