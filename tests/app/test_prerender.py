"""A standby's app rendered before it is needed (app.bootstrap.prerender, static/prerender.js):
the page shows that document hidden before the Stop, so the take-over must change that very
document (the code, the note) and build no other. Under CPython: the document is made as
panel.io.pyodide._model_json makes it (its module imports Pyodide's `js`)."""
from __future__ import annotations

import pytest
from bokeh.document import Document
from panel.pane import panel as as_panel

from app import bootstrap, env

__import__("app.sandbox", fromlist=["install_jax"]).install_jax()

CODE = "x = 0\nwhile True:\n    x += 1\n"


@pytest.fixture(autouse=True)
def clean_storage(monkeypatch):
    monkeypatch.setattr(env, "_memory", {})
    monkeypatch.setattr(bootstrap, "_doc", None)
    monkeypatch.setattr(bootstrap, "_prebuilt", None)


def test_the_take_over_changes_the_document_the_page_already_shows():
    bootstrap.prebuild()  # a standby's app: built, nothing run
    app = bootstrap._prebuilt
    doc = Document()
    doc.add_root(as_panel(app).get_root(doc))  # (the root: as _model_json adds it)
    bootstrap._doc = doc
    bootstrap.take_over(CODE, "stopped")
    assert bootstrap._doc is doc and bootstrap._prebuilt is None
    pg = app.playground
    assert pg.editor.value == CODE and pg.held_run.visible, "the learner's code is shown, held"
    assert "Variables from earlier runs are gone" in pg.notice.object
    # in the document the page rendered before the Stop (the page gets these changes as patches:
    # tests/browser/test_stop_anywhere.py), not in a new one
    editors = [m for m in doc.models if type(m).__name__ == "AcePlot"]
    assert [m.code for m in editors] == [CODE], [m.code[:40] for m in editors]
    assert pg.snapshot()["run"] == 0  # nothing ran
