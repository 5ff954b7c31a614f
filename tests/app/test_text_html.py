"""Issue 14: the first edit of f froze the page 1.0-1.5 s. The vmap tab's "computing" note, a
pane made before the app's document, got its first text, and Panel's HTML pane sent its
stylesheets along (new models: BokehJS loaded them and laid the page out again). The app's
HTML panes send a new text as a text change alone."""
import panel as pn
from bokeh.document import Document

from app import main
from app.panes.text_html import TextHTML


def changes_of_first_and_second_text(pane_class):
    note = pane_class("", stylesheets=[".gp-muted { color: gray; }"])
    root = pn.Column(pane_class("head"), note).get_root()  # models made before there is a document
    doc = Document()
    doc.add_root(root)
    changes = []
    doc.on_change(lambda e: changes.append((type(e.model).__name__, e.attr, getattr(e, "new", None))))
    note.object = "computing <b>this</b> tab…"
    first = list(changes)
    changes.clear()
    note.object = ""
    return first, list(changes)


def test_a_new_text_is_sent_as_the_text_alone():
    first, second = changes_of_first_and_second_text(TextHTML)
    assert [(m, a) for m, a, _ in first] == [("HTML", "text")], first
    assert [(m, a) for m, a, _ in second] == [("HTML", "text")], second


def test_the_text_sent_is_the_one_panels_html_pane_sends():
    ours, _ = changes_of_first_and_second_text(TextHTML)
    panels, _ = changes_of_first_and_second_text(pn.pane.HTML)
    assert ("HTML", "stylesheets") in [(m, a) for m, a, _ in panels]  # why: Panel's pane restyles
    assert [n for m, a, n in ours if a == "text"] == [n for m, a, n in panels if a == "text"]


def test_the_apps_notes_and_status_are_text_panes():
    pg = main.create_app(code="def f(x):\n    return x * 2.0\n\nf(1.0)\n").playground
    assert all(type(n) is TextHTML for n in pg.pane_notes.values())
    assert type(pg.timing_note) is TextHTML and type(pg.status) is TextHTML and type(pg.vmap_times) is TextHTML
