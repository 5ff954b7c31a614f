"""A pane rebuilt with new data takes back its own HTML panes (app.pane_updates, reuse=True;
app.panes.text_html.reusing) instead of making new Panel panes only to copy their texts over:
each new pane cost ~1 ms of CPython and several of the page's Python, a dozen per edit of f.
Taken back only where that is invisible: same parameters, layout as made, and in the column
itself (a pane put inside another layout is made anew)."""
from __future__ import annotations

import sys

import panel as pn

from app import main, pane_updates
from app.panes.common import html
from app.panes.text_html import TextHTML


def texts(column) -> list:
    return [o.object for o in column.objects]


def test_a_rebuilt_pane_takes_back_its_html_panes_with_the_new_texts():
    col, shown = pn.Column(), pane_updates.PaneUpdates()
    shown.update(col, ("a",), lambda: [html("<p>one</p>"), html("<p>two</p>", css_classes=["x"])], reuse=True)
    before = [id(o) for o in col.objects]
    assert shown.update(col, ("b",), lambda: [html("<p>ONE</p>"), html("<p>TWO</p>", css_classes=["x"])], reuse=True)
    assert [id(o) for o in col.objects] == before and texts(col) == ["<p>ONE</p>", "<p>TWO</p>"]


def test_panes_taken_back_in_another_order_show_their_new_texts_in_that_order():
    col, shown = pn.Column(), pane_updates.PaneUpdates()
    shown.update(col, ("a",), lambda: [html("<p>one</p>"), html("<p>two</p>")], reuse=True)
    first, second = col.objects

    def swapped():  # made in one order, shown in the other
        a, b = html("<p>A</p>"), html("<p>B</p>")
        return [b, a]
    shown.update(col, ("b",), swapped, reuse=True)
    assert col.objects == [second, first] and texts(col) == ["<p>B</p>", "<p>A</p>"]


def test_a_pane_whose_layout_changed_or_other_parameters_is_made_anew():
    col, shown = pn.Column(), pane_updates.PaneUpdates()
    shown.update(col, ("a",), lambda: [html("<p>one</p>"), html("<p>two</p>")], reuse=True)
    first, second = col.objects
    first.visible = False  # changed after it was made: a new pane would be visible
    shown.update(col, ("b",), lambda: [html("<p>1</p>"), html("<p>2</p>", css_classes=["y"])], reuse=True)
    new_first, new_second = col.objects
    assert new_first is not first and new_first.visible and new_first.object == "<p>1</p>"
    assert new_second is not second and new_second.css_classes == ["y"]


def test_a_pane_taken_back_into_another_layout_is_made_anew_instead():
    # Panel drops the model of a pane its column lets go of: inside a new Row it would show
    # its text no more; the build is done again with new panes
    col, shown = pn.Column(), pane_updates.PaneUpdates()
    shown.update(col, ("a",), lambda: [html("<p>one</p>")], reuse=True)
    (first,) = col.objects
    shown.update(col, ("b",), lambda: [pn.Row(html("<p>nested</p>"))], reuse=True)
    (row,) = col.objects
    assert isinstance(row, pn.Row) and row.objects[0] is not first and row.objects[0].object == "<p>nested</p>"


def test_without_reuse_every_rebuild_makes_new_panes():
    col, shown = pn.Column(), pane_updates.PaneUpdates()
    made = []
    shown.update(col, ("a",), lambda: made.append(html("<p>one</p>")) or made[-1:])
    shown.update(col, ("b",), lambda: made.append(html("<p>two</p>")) or made[-1:])
    assert made[0] is not made[1] and col.objects == made[:1] and texts(col) == ["<p>two</p>"]  # text swapped in


def made_by(monkeypatch) -> list:
    """The pane module (plots, vmap, ...) of every TextHTML made from now on."""
    made = []
    init = TextHTML.__init__

    def counted(self, *a, **kw):
        frame = sys._getframe(1)
        while frame is not None and "/app/panes/" not in frame.f_code.co_filename.replace("\\", "/") or (
                frame is not None and frame.f_code.co_filename.endswith(("common.py", "text_html.py"))):
            frame = frame.f_back
        made.append(frame.f_code.co_filename.rsplit("/", 1)[-1][:-3] if frame is not None else "?")
        init(self, *a, **kw)
    monkeypatch.setattr(TextHTML, "__init__", counted)
    return made


def test_a_rebuild_that_takes_every_pane_back_makes_none(monkeypatch):
    col, shown = pn.Column(), pane_updates.PaneUpdates()
    shown.update(col, ("a",), lambda: [html("<p>one</p>"), html("<p>two</p>")], reuse=True)
    made = made_by(monkeypatch)
    shown.update(col, ("b",), lambda: [html("<p>ONE</p>"), html("<p>TWO</p>")], reuse=True)
    assert made == [] and texts(col) == ["<p>ONE</p>", "<p>TWO</p>"]


def test_an_edit_of_f_makes_no_new_html_panes_for_the_panes_that_reuse(monkeypatch):
    pg = main.create_app(example="jnp_basics_and_immutability").playground
    assert "return 2 * jnp.sin" in pg.editor.value  # f = double_sin_cos, edited as the page bench does
    pg.editor.value = pg.editor.value.replace("return 2 * jnp.sin", "return 2.5 * jnp.sin")
    pg.run()
    made = made_by(monkeypatch)
    pg.editor.value = pg.editor.value.replace("return 2.5 *", "return 3.5 *") + '\nprint("edited")'
    pg.run()
    assert "edited" in "".join(str(o.object) for o in pg.panes["console"].objects)
    assert "3.5" in "".join(str(getattr(o, "object", "")) for o in pg.panes["plot"].objects)  # its code shows the edit
    reusing = {"jaxpr", "plots", "vmap", "timing", "console"}
    assert not reusing & set(made), made


def all_panes(obj) -> list:
    """obj and every pane inside it (cards, rows, columns)."""
    out = [obj]
    for child in getattr(obj, "objects", None) or []:
        out += all_panes(child)
    return out


def test_the_jaxpr_pane_switching_views_shows_each_views_parts_once():
    # f -> grad (its stages card and the f vs grad card, made inside cards) -> f: a pane taken
    # back never ends up inside a card (made anew instead), and none shows twice
    pg = main.create_app(example="jnp_basics_and_immutability").playground
    for view, code in (("grad", "jax.make_jaxpr(jax.grad(f))"), ("f", "jax.make_jaxpr(f)"),
                       ("grad", "jax.make_jaxpr(jax.grad(f))")):
        pg.view_select.value = view
        column = pg.panes["jaxpr"]
        html_panes = [p for p in all_panes(column) if isinstance(p, TextHTML)]
        assert len({id(p) for p in html_panes}) == len(html_panes)
        head = next(p for p in column.objects if isinstance(p, TextHTML) and "gp-badge" in p.object)
        assert code in head.object.replace("&quot;", '"'), head.object
        cards = [o for o in column.objects if isinstance(o, pn.Card)]
        if view == "grad":
            assert any("jvp" in p.object for c in cards for p in all_panes(c) if isinstance(p, TextHTML))
