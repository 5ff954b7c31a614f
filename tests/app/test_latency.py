"""What makes an edit show quickly (python build.py bench page measures it in the page): panes
rebuilt only when what they show changed, slow measurements after the other panes and never
for a stale run, the jaxpr views and stages the shown view does not need left for later."""
from __future__ import annotations

import numpy as np
import panel as pn
import pytest

from app import analysis, main
from app.pane_updates import PaneUpdates, fingerprint

CODE = """import jax.numpy as jnp

def f(x):
    return jnp.sin(x) * x
f(1.5)
"""


def figures(column):
    return [o.object for o in column.objects if isinstance(o, pn.pane.Bokeh)]


def test_fingerprint_sees_every_element_of_a_long_array():
    a = np.arange(5000, dtype=np.float32)
    b = a.copy()
    b[2500] += 1  # numpy's repr elides the middle: a repr-based key would call these equal
    assert repr(a) == repr(b)
    assert fingerprint({"x": a}) == fingerprint({"x": a.copy()})
    assert fingerprint({"x": a}) != fingerprint({"x": b})
    assert fingerprint(a.astype(np.float64)) != fingerprint(a)  # same values, another dtype


def test_fingerprint_of_something_without_data_never_repeats():
    def g():
        return 1
    assert fingerprint(g) != fingerprint(g)  # unknown: rebuild (never a stale pane)


def test_an_unchanged_pane_is_not_rebuilt_and_html_text_is_swapped_in_place():
    updates, col, built = PaneUpdates(), pn.Column(), []

    def build(text):
        built.append(text)
        return [pn.pane.HTML(text)]

    assert updates.update(col, ("k", 1), lambda: build("one"))
    first = col.objects[0]
    assert not updates.update(col, ("k", 1), lambda: build("again"))
    assert built == ["one"] and col.objects[0] is first
    assert updates.update(col, ("k", 2), lambda: build("two"))
    assert col.objects[0] is first and first.object == "two"  # same model, new text


def test_an_edit_that_only_prints_keeps_the_figures_and_updates_the_console():
    pg = main.create_app(code=CODE).playground
    plots, vmap_figs = figures(pg.panes["plot"]), figures(pg.panes["vmap"])
    assert plots and vmap_figs
    pg.editor.value = CODE + 'print("edited")\n'
    pg.run()
    assert figures(pg.panes["plot"]) == plots and all(a is b for a, b in zip(figures(pg.panes["plot"]), plots))
    assert all(a is b for a, b in zip(figures(pg.panes["vmap"]), vmap_figs))
    assert "edited" in pg.snapshot()["console"]
    # a change to f changes what the plots show: the same figures are drawn again, from the new f
    pg.editor.value = CODE.replace("jnp.sin(x) * x", "jnp.cos(x) * x")
    pg.run()
    assert all(a is b for a, b in zip(figures(pg.panes["plot"]), plots))
    line = figures(pg.panes["plot"])[0].select_one({"name": "f"})
    x, y = np.asarray(line.data_source.data["x"]), np.asarray(line.data_source.data["y"])
    np.testing.assert_allclose(y, np.cos(x) * x, rtol=1e-5, atol=1e-6)


def test_timings_come_after_and_a_newer_run_drops_them():
    pg = main.create_app(code=CODE).playground
    snap = pg.snapshot()  # no event loop here: the slow panes were measured before run() returned
    assert snap["pending"] == [] and snap["run"] == pg.run_id
    assert snap["timing"]["cpu"]["speedup"] > 0 and snap["vmap"]["rows"]["jit(vmap)"]["ms"] > 0
    # what the page's loop does between panes: the edit's run comes before the timing is measured
    a = pg.analysis
    a.timing, pg.pending = {"pending": True, "scale": 1}, ["timing"]
    steps = pg._slow_panes(pg.run_id, sync=True)
    pg.run_id += 1
    list(steps)
    assert a.timing == {"pending": True, "scale": 1} and pg.pending == ["timing"]


def test_the_timing_pane_says_it_is_measuring_until_it_is_filled_in():
    from app.panes import timing as timing_pane
    a = analysis.Analysis(run=None, timing={"pending": True, "scale": 1})
    text = "".join(p.object for p in timing_pane.render(a))
    assert "measuring" in text


def test_views_the_pane_does_not_show_are_computed_when_asked():
    a = analysis.analyse(CODE, views=("f",), with_stages=False, with_timing=False, vmap_timed=False)
    assert set(a.jaxprs) == {"f"} and a.stages is None
    assert a.vmap["jit(vmap)"].get("run") is not None and "value" not in a.vmap["jit(vmap)"]
    analysis.complete(a, views=("vmap",), with_stages=True)
    assert set(a.jaxprs) == {"f", "vmap"} and [s.name for s in a.stages] == ["jvp", "linearized", "transposed",
                                                                              "batched"]
    analysis.time_vmap(a.vmap)
    entry = a.vmap["jit(vmap)"]
    assert "run" not in entry and entry["time"]["median"] > 0
    np.testing.assert_allclose(entry["value"], a.vmap["vmap"]["value"])


@pytest.mark.parametrize("view", ["jit", "jvp"])
def test_switching_to_a_view_computes_it(view):
    pg = main.create_app(code=CODE).playground
    assert view not in pg.analysis.jaxprs
    pg.view_select.value = view
    snap = pg.snapshot()
    assert snap["view"] == view and "{ lambda" in snap["jaxpr"]


def test_source_segments_cut_what_the_stdlib_cuts():
    import ast

    from app import examples
    codes = [examples.load(n).code for n in examples.names()]
    codes.append("f(x, 'ä→b',\r\n  [1,\n 2])\rg(π * 2)  # ünïcode\n")
    for code in codes:
        segment = analysis.source_segments(code)
        nodes = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.expr)]
        assert nodes
        for node in nodes:
            assert segment(node) == ast.get_source_segment(code, node), ast.dump(node)


def test_code_that_parses_runs_at_once_and_half_typed_code_waits():
    assert main.autorun_pause(CODE + "print(f(2.0))\n") == main.AUTORUN_QUICK_PAUSE_S == 0
    assert main.autorun_pause(CODE + "print(f(2.0)\n") == main.AUTORUN_PAUSE_S  # ( not closed yet
    assert main.autorun_pause(CODE + "def g(x):\n") == main.AUTORUN_PAUSE_S


def test_a_pane_being_remeasured_is_hidden_by_a_style_not_by_visible():
    # BokehJS lays the whole page out again for every `visible` change (hundreds of ms each
    # in the page), and for the sizes Panel resends when a figure's pane gets a style; one
    # style on the pane's column does neither
    updates, col = PaneUpdates(), pn.Column()
    keep = pn.pane.HTML("measuring…")
    updates.update(col, ("t", 1), lambda: [pn.pane.HTML("<b>1.0 ms</b>"), pn.pane.HTML("2x")], head=[keep])
    updates.hide(col, keep=(keep,))
    assert all(o.visible for o in col.objects) and [o.styles for o in col.objects[1:]] == [{}, {}]
    assert col.styles["visibility"] == "hidden" and keep.styles["visibility"] == "visible"
    # the new numbers: shown (the same HTML models, their text swapped, the column shown again)
    updates.update(col, ("t", 2), lambda: [pn.pane.HTML("<b>3.0 ms</b>"), pn.pane.HTML("5x")], head=[keep])
    assert col.objects[0] is keep and [o.object for o in col.objects[1:]] == ["<b>3.0 ms</b>", "5x"]
    assert col.styles["visibility"] != "hidden"


def _paused_playground(monkeypatch):
    """A playground whose slow panes wait, as in the page until the event loop gets to them."""
    pg = main.create_app(code=CODE).playground
    monkeypatch.setattr(pg, "_fill_slow_panes", lambda run_id: None)
    return pg


def test_hidden_tabs_are_computed_after_the_tab_in_view_and_say_so(monkeypatch):
    pg = _paused_playground(monkeypatch)
    assert pg.active_pane() == "jaxpr"
    old_plots = figures(pg.panes["plot"])
    pg.editor.value = CODE.replace("jnp.sin(x) * x", "jnp.cos(x) * x")
    pg.run()
    a = pg.analysis
    assert a.plot == {} and a.vmap == {} and set(a.jaxprs) >= {"f", "grad"}  # the tab in view only
    assert pg.pending[:2] == ["plot", "vmap"] and "timing" in pg.pending
    assert "cos" in pg.snapshot()["jaxpr"]
    for name in ("plot", "vmap"):  # pending, and never the old code's content
        assert pg.pane_notes[name].object == main.PENDING_NOTE
        assert pg.panes[name].styles["visibility"] == "hidden"  # but for its note and widgets:
        shown = [o for o in pg.panes[name].objects if o.styles.get("visibility") == "visible"]
        assert all(o is pg.pane_notes[name] or o is pg.in_axes_input for o in shown), shown
    list(pg._slow_panes(pg.run_id, sync=True))
    assert pg.pending == [] and pg.pane_notes["plot"].object == ""
    # the same figures (issue 14: no new Bokeh models), drawn with the new f's values
    assert figures(pg.panes["plot"]) and all(f is g for f, g in zip(figures(pg.panes["plot"]), old_plots))
    line = figures(pg.panes["plot"])[0].select_one({"name": "f"})
    x, y = np.asarray(line.data_source.data["x"]), np.asarray(line.data_source.data["y"])
    np.testing.assert_allclose(y, np.cos(x) * x, rtol=1e-5, atol=1e-6)
    snap = pg.snapshot()
    assert snap["plots"] and snap["vmap"]["rows"]["jit(vmap)"]["ms"] > 0 and snap["timing"]["cpu"]["speedup"] > 0


def test_a_hidden_tab_that_comes_out_the_same_is_shown_again_not_rebuilt(monkeypatch):
    pg = _paused_playground(monkeypatch)
    plots = figures(pg.panes["plot"])
    pg.editor.value = CODE + 'print("edited")\n'
    pg.run()
    assert "plot" in pg.pending
    list(pg._slow_panes(pg.run_id, sync=True))
    assert all(a is b for a, b in zip(figures(pg.panes["plot"]), plots))
    assert figures(pg.panes["plot"]) and pg.panes["plot"].styles["visibility"] != "hidden"


def test_the_tab_the_learner_switches_to_is_filled_in_first(monkeypatch):
    pg = _paused_playground(monkeypatch)
    pg.editor.value = CODE + "print(1)\n"
    pg.run()
    assert pg._next_slow_pane(set()) == "plot"  # SLOW_PANES order
    pg.tabs.active = list(pg.embed.panes).index("vmap")
    assert pg._next_slow_pane(set()) == "vmap"
    assert pg._next_slow_pane({"vmap"}) == "plot"
    list(pg._slow_panes(pg.run_id, sync=True))
    assert pg.pending == []


def test_a_batch_of_pane_updates_leaves_as_one_patch(monkeypatch):
    # the page's link (app.bootstrap.link) hands a batch's events to one sender call: one
    # serialisation (each walks the whole document) and one message instead of one per change
    from bokeh.document import Document
    from panel.io.state import state

    from app import batching

    a, b = pn.pane.HTML("a"), pn.pane.HTML("b")
    doc = Document()
    doc.add_root(pn.Column(a, b).get_root(doc))
    monkeypatch.setitem(state._connected, doc, True)  # as in the page once it shows the document,
    monkeypatch.setattr(type(state), "_thread_id", property(lambda st: st._current_thread))  # in Pyodide
    sent, single = [], []
    monkeypatch.setattr(batching, "_send_events", sent.append)
    doc.on_change(lambda e: None if batching.collect(e) else single.append(e))
    with batching.one_update():
        a.object, b.object = "A", "B"
    assert single == [] and len(sent) == 1
    assert sorted(e.new for e in sent[0] if hasattr(e, "new")) == ["A", "B"]
    a.object = "AA"  # outside a batch: at once, on its own
    assert len(sent) == 1 and [e.new for e in single if hasattr(e, "new")] == ["AA"]
    with pytest.raises(ZeroDivisionError):  # a failing update never leaves the link collecting
        with batching.one_update():
            b.object = "BB"
            1 / 0
    assert batching._collected is None
    a.object = "AAA"
    assert [e.new for e in single if hasattr(e, "new")][-1] == "AAA"


class RecordingLoop:
    """Stands for the page's event loop: records what the app schedules, runs it when told."""

    def __init__(self):
        self.soon, self.later = [], []

    def call_soon(self, callback):
        self.soon.append(callback)

    def call_later(self, delay, callback):
        self.later.append((delay, callback))

    def run_soon(self):
        while self.soon:
            self.soon.pop(0)()


def test_an_edit_that_parses_runs_at_once_and_edits_queued_behind_a_run_make_one_run(monkeypatch):
    pg = _paused_playground(monkeypatch)
    loop = RecordingLoop()
    monkeypatch.setattr(main.asyncio, "get_event_loop", lambda: loop)
    first = pg.run_id
    pg.editor.value = CODE + "print(1)\n"
    assert len(loop.soon) == 1 and loop.later == []  # no pause: the next free moment
    loop.run_soon()
    assert pg.run_id == first + 1 and "print(1)" in pg.analysis.code
    # three key presses typed while Python was busy reach the app one after the other; the
    # run for each is scheduled behind them, and only the newest one runs (no stale runs)
    for k in (2, 3, 4):
        pg.editor.value = CODE + f"print({k})\n"
    loop.run_soon()
    assert pg.run_id == first + 2 and "print(4)" in pg.analysis.code
    # Run (or Ctrl+Enter) before the scheduled autorun: that run is the edit's, not one more
    pg.editor.value = CODE + "print(5)\n"
    pg.run()
    loop.run_soon()
    assert pg.run_id == first + 3


def test_half_typed_code_still_waits_and_a_newer_edit_cancels_its_run(monkeypatch):
    pg = _paused_playground(monkeypatch)
    loop = RecordingLoop()
    monkeypatch.setattr(main.asyncio, "get_event_loop", lambda: loop)
    first = pg.run_id
    pg.editor.value = CODE + "print(1\n"
    assert loop.soon == [] and [d for d, _ in loop.later] == [main.AUTORUN_PAUSE_S]
    pg.editor.value = CODE + "print(1)\n"
    loop.run_soon()
    loop.later.pop(0)[1]()  # the half-typed code's run comes due: a newer edit already ran
    assert pg.run_id == first + 1 and "print(1)" in pg.analysis.code


def test_slow_panes_of_older_code_stop_for_an_edit_waiting_to_run(monkeypatch):
    pg = _paused_playground(monkeypatch)
    loop = RecordingLoop()
    monkeypatch.setattr(main.asyncio, "get_event_loop", lambda: loop)
    pg.editor.value = CODE + "print(1)\n"
    loop.run_soon()
    pending = list(pg.pending)
    assert len(pending) > 1
    steps = pg._slow_panes(pg.run_id, sync=False)  # as in the page: a step, then the loop's turn
    assert next(steps) is None  # one pane measured, then an edit arrives (between two tasks)
    pg.editor.value = CODE + "print(2)\n"
    list(steps)
    assert pg.pending == pending[1:]  # nothing more measured for the old code
    loop.run_soon()
    assert "print(2)" in pg.analysis.code
    list(pg._slow_panes(pg.run_id, sync=True))
    assert pg.pending == []


def test_a_run_reaches_the_page_as_one_patch(monkeypatch):
    # status line, function/input, panes and share link: one patch (the page walks the whole
    # document for each one), not a "running…" patch first and the share link after
    from bokeh.document import Document
    from panel.io.state import state

    from app import batching

    app = main.create_app(code=CODE)
    pg = app.playground
    doc = Document()
    doc.add_root(app.get_root(doc))
    monkeypatch.setitem(state._connected, doc, True)
    monkeypatch.setattr(type(state), "_thread_id", property(lambda st: st._current_thread))
    monkeypatch.setattr(pg, "_fill_slow_panes", lambda run_id: None)
    sent, single = [], []
    monkeypatch.setattr(batching, "_send_events", sent.append)
    doc.on_change(lambda e: None if batching.collect(e) else single.append(e))
    pg._set_quietly(pg.editor, "value", CODE.replace("f(", "g("))  # a new status line: function g
    single.clear()  # the editor's own change (the page sent it)
    pg.run()
    assert [(type(e.model).__name__, e.attr, str(e.new)[:60]) for e in single] == [] and len(sent) == 1
    texts = [str(e.new) for e in sent[0] if hasattr(e, "new")]
    # (the status line carries its "running your code…" note, hidden until the page marks a run
    # in flight: no patch of a running state of its own)
    assert any("function" in t and "g(" in t for t in texts) and not any("running" in t and "function" not in t
                                                                        for t in texts)
    assert pg.share_link.value in texts, texts  # the share link came along
