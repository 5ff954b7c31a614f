"""A batch's patch is cut into parts (issue 26, "never frozen"): app.batching.part() marks where
the changes of one pane end, the page's link sends where each part starts (`parts`), and the page
applies each part in a task of its own (static/patch_chunks.js). A run's patch is cut at each
pane it redraws, so no task of the page builds every pane's views at once."""
from __future__ import annotations

import panel as pn
from bokeh.document import Document
from panel.io.state import state

from app import batching, main
from tests import node_js

CODE = """import jax.numpy as jnp
def f(x):
    return jnp.sin(x) * x
print(f(1.0))
"""


def _linked(monkeypatch, root):
    """A document holding `root`, connected as in the page; returns (doc, batches sent)."""
    doc = Document()
    doc.add_root(root.get_root(doc))
    monkeypatch.setitem(state._connected, doc, True)
    monkeypatch.setattr(type(state), "_thread_id", property(lambda st: st._current_thread))
    sent = []
    monkeypatch.setattr(batching, "_send_events", sent.append)
    doc.on_change(lambda e: batching.collect(e))
    return doc, sent


def test_part_marks_where_each_part_of_a_batch_starts(monkeypatch):
    a, b, c = pn.pane.HTML("a"), pn.pane.HTML("b"), pn.pane.HTML("c")
    col = pn.Column(a, b, c)
    _doc, sent = _linked(monkeypatch, col)
    with batching.one_update():
        a.object = "A"
        col.styles = {"visibility": "hidden"}
        batching.part()
        batching.part()  # nothing changed since: no empty part
        b.object = "B"
        batching.part()
        c.object = "C"
        a.object = "AA"  # the same property again: combined into its first change (part one)
    assert len(sent) == 1
    events = sent[0]
    assert [getattr(e, "new", None) for e in events] == ["AA", {"visibility": "hidden"}, "B", "C"]
    assert batching.part_starts(events) == [2, 3]
    with batching.one_update():  # a batch never cut is one part
        a.object = "A3"
        b.object = "B3"
    assert batching.part_starts(sent[1]) == []
    class Untagged:  # a change made after the last mark (Panel's hooks at the batch's end): the last part
        pass
    assert batching.part_starts([events[1], events[2], Untagged()]) == [1, 2]
    batching.part()  # outside a batch: nothing to mark, and no error
    assert batching._held_docs == []


def test_a_run_s_patch_is_cut_at_each_pane_it_draws(monkeypatch):
    app = main.create_app(code=CODE)
    pg = app.playground
    _doc, sent = _linked(monkeypatch, app)
    monkeypatch.setattr(pg, "_fill_slow_panes", lambda run_id: None)
    pg._set_quietly(pg.editor, "value", CODE.replace("f(", "g(").replace("print(", "print('new', "))
    pg.run()
    assert len(sent) == 1  # still ONE patch (one serialisation, one message)
    events = sent[0]
    starts = batching.part_starts(events)
    # a part per pane drawn (the one in view, timing, console and its strip), the inputs and
    # status line before them, the share link after
    assert len(starts) >= 3, starts
    bounds = [0, *starts, len(events)]
    parts = [events[i:j] for i, j in zip(bounds, bounds[1:])]
    def parts_of(pane):
        inside = {m.id for m in next(iter(pane._models.values()))[0].references()}  # the pane and what it holds
        return {i for i, p in enumerate(parts) for e in p if getattr(getattr(e, "model", None), "id", None) in inside}
    status, console = parts_of(pg.status), parts_of(pg.panes["console"])
    # the status line changed, and so did the console pane (its text: g's output), each in a part
    # of its own: the page builds them in separate tasks
    assert len(status) == 1 and console and not (status & console), (status, console)


SPLIT = """
const m = await import(%s);
const ev = [{i: 0}, {i: 1}, {i: 2}, {i: 3}, {i: 4}];
const ids = (parts) => parts.map((p) => p.map((e) => e.i));
const out = {
  none: ids(m.splitAt(ev, undefined)),
  two: ids(m.splitAt(ev, [2])),
  odd: ids(m.splitAt(ev, [4, 1, 1, 0, 9, "2", 3.5])),
  guarded: ids(m.patchParts(m.splitAt(ev, [1, 3]), [ev[0], ev[2], ev[4]])),
  emptied: ids(m.patchParts(m.splitAt(ev, [1, 3]), [ev[1], ev[2]])),
};
let order = [];
const t = m.nextTask().then(() => order.push("task"));
Promise.resolve().then(() => order.push("microtask"));
await t;
out.order = order;
console.log("@@" + JSON.stringify(out));
"""


def test_the_page_splits_where_the_worker_said_and_keeps_only_what_the_guard_kept():
    out = node_js.run_script(SPLIT % node_js.static_module("patch_chunks.js"))
    assert out["none"] == [[0, 1, 2, 3, 4]]
    assert out["two"] == [[0, 1], [2, 3, 4]]
    assert out["odd"] == [[0], [1, 2, 3], [4]]  # repeated, out of order, out of range, not integers: ignored
    assert out["guarded"] == [[0], [2], [4]]
    assert out["emptied"] == [[1, 2]]  # a part the guard emptied is no part
    assert out["order"] == ["microtask", "task"]  # a task of its own, after the microtasks
