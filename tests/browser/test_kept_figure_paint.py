"""A figure kept across runs (app/panes/plots.py and timing.py: `Kept`) is drawn again with the next
run's data in place. The page must show it as BokehJS would paint it from scratch: once a gallery
switch from pytrees to linear_regression_pytree (the same kind of plot, other ranges and labels)
left the line plot painted over its old layout (x tick labels above the frame, the title and y
labels gone) until something else made it paint again (static/loader.js: repaintPlotsSoon)."""
from __future__ import annotations

import io

import pytest

from .settle import settled, show_tab

pytestmark = pytest.mark.timeout(600)

# the box of the visible plot whose title starts with `title` (its element, in page pixels)
PLOT_BOX = """(title) => {
  const v = [...Bokeh.index.query((v) => !!v.canvas_view && v.model.title && v.model.title.text
             && v.model.title.text.startsWith(title) && v.el.getClientRects().length)][0];
  if (!v) return null;
  const r = v.el.getBoundingClientRect();
  return {x: r.left, y: r.top, width: r.width, height: r.height};
}"""
REPAINT_ALL = """() => { for (const v of Bokeh.index.query((v) => !!v.canvas_view && typeof v.request_paint === 'function'))
  v.request_paint(); }"""


def load(gp, example: str) -> dict:
    gp.page.set_default_timeout(180_000)
    return gp.page.evaluate("opts => window.gradpad.load(opts)", {"example": example})


def pixels(page, box) -> list:
    from PIL import Image
    png = page.screenshot(clip=box)
    return list(Image.open(io.BytesIO(png)).convert("RGB").getdata())


@pytest.mark.parametrize("tab_during_update", ["Plots", "Console"])
def test_a_kept_figure_shows_what_a_fresh_paint_of_it_shows(app_page, tab_during_update):
    gp = app_page
    page = gp.page
    load(gp, "pytrees")
    show_tab(page, "Plots")
    show_tab(page, tab_during_update)
    snap = load(gp, "linear_regression_pytree")
    assert snap["error"] is None and snap["plots"], snap
    show_tab(page, "Plots")
    box = page.evaluate(PLOT_BOX, "f and ∇f·d")
    assert box and box["width"] > 100 and box["height"] > 100, box
    # its inside: a 1-px line the page draws along the box's edge comes and goes with a repaint
    box = {"x": box["x"] + 4, "y": box["y"] + 4, "width": box["width"] - 8, "height": box["height"] - 8}
    shown = pixels(page, box)
    page.evaluate(REPAINT_ALL)
    settled(page)
    fresh = pixels(page, box)
    # a pixel that reads differently (a line's antialiased end may shift by a few levels: not that)
    differ = sum(max(abs(x - y) for x, y in zip(a, b)) > 48 for a, b in zip(shown, fresh))
    assert len(shown) == len(fresh) and differ == 0, (
        f"the kept line plot as shown differs from a fresh paint of it at {differ} of {len(shown)} pixels: "
        "it was painted over its old layout and never again")


# the pane's dataflow graph on show (a Bokeh graph renderer drawn with HTML labels): its labels'
# layer watched for changes from now on (window.gpLabelMuts)
WATCH_GRAPH = """() => {
  const v = [...Bokeh.index.query((v) => !!v.node_view && v.plot_view.el.isConnected
             && v.plot_view.el.getClientRects().length)][0];
  if (!v) return null;
  const labels = v.plot_view.canvas_view.overlays_el;
  window.gpLabelMuts = 0;
  new MutationObserver((ms) => { window.gpLabelMuts += ms.length; })
    .observe(labels, {subtree: true, childList: true, attributes: true, characterData: true});
  return labels.querySelectorAll('*').length;
}"""


def test_a_run_that_changes_no_figure_paints_none_of_them_again(app_page):
    """The repaint once a patch has settled (static/loader.js: repaintPlotsSoon) is for the figures
    that patch changed in place. A run that leaves them as they were (a print added: the same f)
    paints none again: a repaint of every figure on show was a long task per run, and it rebuilt
    the dataflow graph's HTML labels, 1,000 of them for a large jaxpr, even while a learner
    stepped through it (test_stepper_page.py: the graph is never repainted by a step)."""
    from tools.bench_page import EDIT, FIND_EDITOR, QUIET

    page = app_page.page
    page.set_default_timeout(180_000)
    snap = page.evaluate("opts => window.gradpad.load(opts)", {"example": "linear_regression_pytree", "panes": ["jaxpr"]})
    assert snap["error"] is None, snap
    settled(page)
    page.evaluate(QUIET)
    labels = page.evaluate(WATCH_GRAPH)
    assert labels and labels > 3, f"no dataflow graph with labels on show: {labels}"
    before = page.evaluate("() => window.gradpad.plotRepaints || 0")
    r = page.evaluate(EDIT, {"k": 5, "findEditor": FIND_EDITOR})
    assert "error" not in r, r
    # the run's patches have settled and the repaint after them has run
    page.wait_for_function("n => (window.gradpad.plotRepaints || 0) > n", arg=before)
    page.evaluate(QUIET)
    settled(page)
    got = page.evaluate("n => ({muts: window.gpLabelMuts, painted: (window.gradpad.plotRepainted || []).slice(-(window.gradpad.plotRepaints - n))})", before)
    assert got["muts"] == 0 and not any(got["painted"]), got
