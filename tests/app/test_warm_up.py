"""The post-import snapshot's maker builds the app once and drops it (app/warm_up.py): nothing of
that app may reach the Python restored from the snapshot. Under CPython, the document is made as
panel.io.pyodide._model_json makes it (that module imports Pyodide's `js`)."""
from __future__ import annotations

import json
import sys
import types

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.embed.util import standalone_docs_json_and_render_items
from panel.io.state import state

from app import bootstrap, env, page_api, warm_up

__import__("app.sandbox", fromlist=["install_jax"]).install_jax()


def _model_json(viewable, target):  # panel.io.pyodide's, without its Pyodide imports
    doc = Document()
    doc.hold()
    viewable.server_doc(doc=doc)
    docs_json, _ = standalone_docs_json_and_render_items([doc.roots[0]], suppress_callback_warning=True)
    return doc, json.dumps({"doc": list(docs_json.values())[0], "root_id": doc.roots[0].ref["id"], "target_id": target})


@pytest.fixture(autouse=True)
def page_less(monkeypatch):
    monkeypatch.setattr(env, "_memory", {})
    monkeypatch.setitem(sys.modules, "panel.io.pyodide", types.SimpleNamespace(_model_json=_model_json))
    monkeypatch.setattr(page_api, "_playground", None)


def test_the_warm_up_app_is_built_serialized_and_leaves_nothing_behind():
    views = set(state._views)
    waiting = list(env._when_linked)
    ns = dict(bootstrap.USER_NS)
    built = warm_up.build_and_forget()
    assert built["models"] > 40 and built["json_chars"] > 10_000, built  # the whole app, serialized
    assert set(state._views) == views, "its document is out of Panel's registry of views"
    assert page_api.current() is None, "the page API does not answer for the dropped app"
    assert env._when_linked == waiting and env._page_state is None
    assert bootstrap.USER_NS.keys() == ns.keys(), "nothing ran: the learner's namespace is as it was"


def test_panel_signatures_are_set_once_per_interpreter(monkeypatch):
    """A restored Python's app build does not redo the maker's (or a standby's first build's)
    signatures: 1 s of the build on a loaded machine."""
    from app import main

    main.create_app(autorun=False)  # whatever ran before: the extension is loaded now
    calls = []
    monkeypatch.setattr(type(pn.extension), "_apply_signatures", lambda self: calls.append(1), raising=False)
    monkeypatch.setattr(pn.extension, "_apply_signatures", lambda self: calls.append(1))
    main.create_app(autorun=False)
    assert calls == []
