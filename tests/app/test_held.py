"""Code shown but not run (app/held.py): a run marks itself in the page's storage until it ends;
code whose run never ended asks before it runs on the next opening; a Python that took over
from an ended one shows the code with the reason and runs nothing. Under CPython (env's
storage stands in for localStorage)."""
import pytest

from app import env, held, main

sandbox = __import__("app.sandbox", fromlist=["install_jax"])
sandbox.install_jax()

CODE = "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x) * 2.0\n\nf(0.5)\n"


@pytest.fixture(autouse=True)
def clean_storage(monkeypatch):
    monkeypatch.setattr(env, "_memory", {})


def test_a_run_marks_itself_and_clears_the_mark_when_it_ends():
    pg = main.create_app(code=CODE).playground
    seen = []
    real_set = env.storage_set
    env.storage_set = lambda k, v: (seen.append((k, v)), real_set(k, v))
    try:
        pg.run()
    finally:
        env.storage_set = real_set
    marks = [v for k, v in seen if k == held.INFLIGHT_KEY]
    assert len(marks) == 2 and '"code"' in marks[0] and marks[1] == "", marks
    assert not held.unfinished(CODE)


def test_code_whose_run_never_ended_is_shown_not_run_on_reopen():
    held.started(CODE)  # the last session's run of CODE: no end
    env.storage_set(env.AUTOSAVE_KEY, CODE)
    pg = main.create_app().playground
    assert pg.editor.value == CODE
    assert pg.analysis is None and pg.run_id == 0  # nothing ran
    assert pg.notice.visible and "did not finish last time" in pg.notice.object
    assert pg.held_run.visible
    pg._run_held()  # the learner chooses to run it
    assert pg.run_id == 1 and pg.analysis.function.name == "f"
    assert not pg.held_run.visible and not held.unfinished(CODE)


def test_other_code_than_the_unfinished_one_runs_as_ever():
    held.started("while True:\n    pass\n")
    env.storage_set(env.AUTOSAVE_KEY, CODE)
    pg = main.create_app().playground
    assert pg.run_id == 1 and not pg.held_run.visible


@pytest.mark.parametrize("reason, words", [("stopped", "not cross-origin isolated"),
                                           ("unresponsive", "did not respond to the interrupt"),
                                           ("restarted", "restarted while your code ran"),
                                           ("crashed", "stopped working")])
def test_a_python_that_took_over_shows_the_code_and_why_and_runs_nothing(reason, words):
    root = main.create_app(autorun=False)  # a standby worker's app (app.bootstrap.prebuild)
    pg = root.playground
    assert pg.run_id == 0
    pg.take_over(CODE, reason)
    assert pg.editor.value == CODE and pg.run_id == 0
    assert words in pg.notice.object and "Variables from earlier runs are gone" in pg.notice.object
    assert "Not run" in pg.status.object and pg.held_run.visible


def test_a_take_over_without_a_reason_runs_the_code():
    pg = main.create_app(autorun=False).playground
    pg.take_over(CODE, None)
    assert pg.run_id == 1 and pg.analysis.function.name == "f" and not pg.held_run.visible


def test_loading_other_code_clears_the_held_note():
    # the note said why *that* code was not run: once other code runs (an example, a load, an
    # edit), it is no longer true, and its ▶ Run it would run the wrong thing
    from app import share
    pg = main.create_app(autorun=False).playground
    pg.take_over(CODE, "stopped")
    assert pg.notice.visible and pg.held_run.visible
    pg.apply_state(share.ShareState(code="import jax.numpy as jnp\n\ndef g(x):\n    return x * 3.0\n\ng(1.0)\n"))
    assert pg.run_id == 1 and not pg.notice.visible and not pg.held_run.visible
