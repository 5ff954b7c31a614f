"""Issue 14's last layout defects, measured in the page (the shared one, see conftest): on a phone
the Plots pane's line plot keeps its width (the per-leaf gradient bars under it once widened the
shared frame alignment with long y labels).
Screenshots go to $GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots-ui)."""
from __future__ import annotations

import pytest

from .test_gallery import load, shot, tab

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def app_page(gp):
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    gp.page.set_viewport_size({"width": 1400, "height": 900})
    yield gp
    from app.main import DEFAULT_EXAMPLE
    load(gp, example=DEFAULT_EXAMPLE)


# the plot that draws a renderer of this name: its inner frame's width and its whole width (px)
FRAME = """(name) => {
  const v = Bokeh.index.query_one((v) => v.frame && v.model.renderers
                                         && v.model.renderers.some((r) => r.name === name));
  return v ? {frame: v.frame.bbox.width, plot: v.bbox.width} : null;
}"""


@pytest.mark.parametrize("name", ["mlp_sin", "linear_regression_pytree", "pytrees"])
def test_the_line_plot_keeps_its_width_on_a_phone(app_page, name):
    # mlp_sin's bar labels (`params[1]['weights'] (32, 32)`) pushed both frames ~140 px right:
    # on a 390 px phone the line plot's frame was ~150 px of its ~330
    page = app_page.page
    snap = load(app_page, example=name)
    assert set(snap["plots"]) == {"line_f", "line_df", "gradient"}, snap["plots"]
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        tab(page, "Plots").click()
        page.wait_for_timeout(800)
        line, bars = page.evaluate(FRAME, "line_f"), page.evaluate(FRAME, "gradient")
        shot(page, f"plots_line_{name}_390x844")
        assert line and bars, (line, bars)
        # the y axis's tick numbers and the paddings take ~60 px; the rest is the plot's
        assert line["frame"] >= line["plot"] - 75, line
        assert bars["frame"] >= bars["plot"] - 75, bars
    finally:
        tab(page, "Jaxpr").click()
        page.set_viewport_size({"width": 1400, "height": 900})
