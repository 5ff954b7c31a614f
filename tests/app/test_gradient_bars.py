"""The per-leaf gradient bars under the Plots pane's line plot: their names are drawn in the
frame, above each bar, not as y-axis ticks, whose width the line plot's frame (aligned with
this one's) would lose on a phone."""
from __future__ import annotations

import numpy as np

from app.panes import plots as plots_pane

# what analysis.line_and_gradient reports for mlp_sin-like params: long leaf names, many values
LEAVES = [{"name": "params[1]['weights']", "shape": (32, 32), "norm": 0.025, "values": np.zeros(1024)},
          {"name": "params[1]['biases']", "shape": (32,), "norm": -0.5, "values": np.zeros(32)},
          {"name": "x", "shape": (128, 1), "norm": 0.01, "values": np.zeros(128)}]


def renderer(fig, name):
    return next(r for r in fig.renderers if r.name == name)


def test_bar_names_are_in_the_frame_not_on_the_y_axis():
    fig = plots_pane.gradient_figure(LEAVES)
    assert [axis.visible for axis in fig.yaxis] == [False]
    labels = renderer(fig, "labels").data_source.data
    assert labels["name"] == ["params[1]['weights'] (32, 32)", "params[1]['biases'] (32,)", "x (128, 1)"]
    # each name sits in its row, above its bar (row 0 on top: the y axis runs downwards)
    for label_y, bar_y, row in zip(labels["label_y"], labels["bar_y"], labels["row"]):
        assert row - 0.5 <= label_y < bar_y - 0.21 < row + 0.5
    assert fig.y_range.start > fig.y_range.end  # flipped: the first leaf on top


def test_bars_start_at_zero_inside_a_range_that_holds_every_value_and_the_labels():
    fig = plots_pane.gradient_figure(LEAVES)
    lo, hi = fig.x_range.start, fig.x_range.end
    assert lo < -0.5 and hi > 0.025  # the negative bar and the largest one fit
    assert renderer(fig, "labels").glyph.x == lo  # the names start at the frame's left edge
    assert renderer(fig, "gradient").data_source.data["colour"] == ["#2563eb", "#dc2626", "#2563eb"]


def test_value_range_of_all_zero_or_nan_gradients_is_not_empty():
    assert plots_pane.value_range([0.0, 0.0]) == (-1.0, 1.0)
    assert plots_pane.value_range([float("nan")]) == (-1.0, 1.0)
