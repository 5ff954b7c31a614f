"""A share link's code is its own document (issue 29): opening one never writes the visitor's
saved code, and "Back to my code" brings the saved code back in one click."""
import pytest

from app import env, main, share

OWN = "import jax\n\nf = lambda x: x * 3.0\njax.grad(f)(2.0)\n"
LINKED = "import jax\n\ng = lambda x: x ** 2\njax.grad(g)(1.0)\n"


@pytest.fixture
def stored(monkeypatch):
    saved = {env.AUTOSAVE_KEY: OWN}
    monkeypatch.setattr(env, "storage_set", saved.__setitem__)
    monkeypatch.setattr(env, "storage_get", saved.get)
    return saved


def test_a_link_runs_without_writing_the_saved_code_and_back_to_my_code_restores_it(monkeypatch, stored):
    monkeypatch.setattr(env, "location_hash", lambda: share.state_hash(share.ShareState(code=LINKED)))
    pg = main.Playground()
    assert pg.editor.value == LINKED and pg.snapshot()["error"] is None  # the link ran
    assert stored[env.AUTOSAVE_KEY] == OWN  # ... and the visitor's code is still theirs
    assert pg.restore_button.visible and pg.restore_button.name == "Back to my code"
    pg._restore_previous()
    assert pg.editor.value == OWN and not pg.restore_button.visible


def test_an_edit_of_the_links_code_is_the_visitors_from_then_on(monkeypatch, stored):
    monkeypatch.setattr(env, "location_hash", lambda: share.state_hash(share.ShareState(code=LINKED)))
    monkeypatch.setattr(main.asyncio, "get_event_loop", lambda: (_ for _ in ()).throw(RuntimeError()))
    pg = main.Playground()
    pg.editor.value = LINKED + "# mine now\n"
    pg.run()
    assert stored[env.AUTOSAVE_KEY] == LINKED + "# mine now\n"


def test_a_bare_visit_shows_and_keeps_the_saved_code(monkeypatch, stored):
    monkeypatch.setattr(env, "location_hash", lambda: "")
    pg = main.Playground()
    assert pg.editor.value == OWN and not pg.restore_button.visible
    assert stored[env.AUTOSAVE_KEY] == OWN
