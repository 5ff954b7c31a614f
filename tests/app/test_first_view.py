"""The app's first view holds only the tab in view (app.bootstrap.render): the hidden tabs are
built and sent as changes of that same document once the page has embedded it (link), so the
page's UI comes before their models are built and serialized. Under CPython: the document is
made as panel.io.pyodide._model_json makes it (that module imports Pyodide's `js`)."""
from __future__ import annotations

import json
import sys
import types

import pytest
from bokeh.document import Document
from bokeh.models import Spacer

from app import bootstrap, env
from app import main as app_main

__import__("app.sandbox", fromlist=["install_jax"]).install_jax()


@pytest.fixture
def rendered(monkeypatch):
    """bootstrap.render("app") with a stand-in for panel.io.pyodide: (document, playground)."""
    monkeypatch.setattr(env, "_memory", {})
    monkeypatch.setattr(bootstrap, "_doc", None)
    monkeypatch.setattr(bootstrap, "_prebuilt", None)
    monkeypatch.setattr(bootstrap, "_hidden_tabs", None)
    monkeypatch.setattr(app_main, "available_backends", lambda: ["cpu"])  # no GPU probe here
    made = {}

    def model_json(viewable, target):
        doc = Document()
        doc.hold()
        viewable.server_doc(doc=doc)
        made["doc"] = doc
        return doc, json.dumps({"target_id": target})

    monkeypatch.setitem(sys.modules, "panel.io.pyodide", types.SimpleNamespace(_model_json=model_json))
    out = json.loads(bootstrap.render("app"))
    assert out["kind"] == "app"
    tabs = bootstrap._hidden_tabs
    assert tabs is not None, "render() left every tab in the first view"
    return made["doc"], tabs


def tab_children(doc):
    panels = [m for m in doc.models if type(m).__name__ == "TabPanel"]
    return {p.title: p.child for p in panels}


def test_the_first_view_has_only_the_tab_in_view_and_the_rest_follow_in_the_same_document(rendered):
    doc, tabs = rendered
    children = tab_children(doc)
    assert len(children) == len(tabs) >= 3
    in_view = tabs._names[tabs.active]
    hidden = {t for t, c in children.items() if isinstance(c, Spacer) and c.tags == ["hidden"]}
    assert hidden == set(children) - {in_view}, (in_view, hidden)

    changed = []
    doc.on_change(lambda event: changed.append(event))
    bootstrap.show_hidden_tabs()
    doc.unhold()  # (the page gets held changes as one patch: app.batching)
    children = tab_children(doc)
    assert not [t for t, c in children.items() if isinstance(c, Spacer)], "a tab is still a placeholder"
    assert changed, "the hidden tabs were not sent as changes of the document the page shows"
    assert not tabs.dynamic and bootstrap._hidden_tabs is None
    # each tab shows its pane of this playground (the same Panel objects the run filled)
    for name, pane in zip(tabs._names, tabs.objects):
        assert children[name] is pane._models[doc.roots[0].ref["id"]][0], name


def test_link_sends_the_hidden_tabs_on_the_loops_next_turn_before_the_slow_panes(rendered, monkeypatch):
    doc, tabs = rendered
    order = []

    class Loop:
        def call_soon(self, callback):
            order.append(("call_soon", callback))

    monkeypatch.setattr(app_main, "event_loop", lambda: Loop())
    monkeypatch.setattr(bootstrap, "_link_doc", lambda doc, send: order.append("linked"))
    monkeypatch.setattr(env, "_linked", False)
    monkeypatch.setattr(env, "_when_linked", [lambda: order.append("slow panes")])
    bootstrap.link(lambda events: None)
    assert order == ["linked", ("call_soon", bootstrap.show_hidden_tabs), "slow panes"], order
    assert tabs.dynamic, "the hidden tabs were built before the worker said its UI is up"
