"""app.batching rebuilds the document's model index after a batch only when a change in it
asked for that (a model added or removed): a batch of text and style changes skips the walk of
every model (tens of ms in the page), and a new model is always found in the index after."""
from __future__ import annotations

import panel as pn
import pytest
from bokeh.document import Document
from panel.io.state import state

from app import batching


@pytest.fixture
def page_doc(monkeypatch):
    """A document linked as in the page, its sent batches collected, its index rebuilds counted."""
    a, b = pn.pane.HTML("a"), pn.pane.HTML("b")
    col = pn.Column(a, b)
    doc = Document()
    doc.add_root(col.get_root(doc))
    monkeypatch.setitem(state._connected, doc, True)
    monkeypatch.setattr(type(state), "_thread_id", property(lambda st: st._current_thread))
    sent, rebuilds = [], []
    monkeypatch.setattr(batching, "_send_events", sent.append)
    doc.on_change(lambda e: batching.collect(e))
    real = type(doc.models).recompute
    monkeypatch.setattr(type(doc.models), "recompute", lambda self: (self is doc.models and rebuilds.append(1), real(self)))
    return doc, col, a, sent, rebuilds


def test_a_batch_of_text_and_style_changes_does_not_rebuild_the_index(page_doc):
    doc, col, a, sent, rebuilds = page_doc
    count = len(doc.models)
    with batching.one_update():
        a.object = "A"
        col.styles = {"visibility": "hidden"}
    assert rebuilds == [] and len(sent) == 1 and len(doc.models) == count
    assert doc.models._freeze_count == 0
    a.object = "AA"  # outside a batch, as before
    assert doc.models._freeze_count == 0


def test_a_batch_that_adds_a_model_rebuilds_the_index_once(page_doc):
    doc, col, a, sent, rebuilds = page_doc
    new = pn.pane.HTML("new")
    with batching.one_update():
        col.objects = [a, new]  # a pane built the way PaneUpdates does it
        batching.layout_changed()
        a.object = "A"
    assert len(rebuilds) == 1 and len(sent) == 1
    model = new._models[doc.roots[0].ref["id"]][0]
    assert doc.get_model_by_id(model.id) is model  # the page's changes to it will find it


def test_a_new_model_anywhere_rebuilds_the_index_even_unannounced(page_doc):
    # bokeh asks for the rebuild itself when a property's value holds models: honoured
    doc, col, a, sent, rebuilds = page_doc
    from bokeh.models import Div
    div = Div(text="x")
    with batching.one_update():
        doc.roots[0].children = [*doc.roots[0].children, div]
    assert len(rebuilds) == 1 and doc.get_model_by_id(div.id) is div
    assert doc.models._freeze_count == 0
