"""vmap pane: the batched outputs (table and plot) and the tutorial's three ways to batch,
a Python loop, jax.vmap (also under jit) and f applied to the batch directly, with timings."""
from __future__ import annotations

from html import escape as html_attr

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, Range1d
from bokeh.plotting import figure

from .. import pane_bounds
from . import text_html
from .common import bokeh, code_block, error_block, esc, fmt_seconds, html
from .plots import data_bounds, set_range

METHODS = ("loop", "vmap", "jit(vmap)", "manual")
# a method's result against vmap's, short: at 1400 px the long "✓ same as vmap" pushed this last
# column behind the table's sideways scroll
VERDICTS = {True: "✓ same", False: "✗ differs"}


def table_html(value: np.ndarray, max_rows: int = 12, max_cols: int = 8) -> str:
    v = np.asarray(value)
    v2 = v.reshape(v.shape[0], -1) if v.ndim else v.reshape(1, 1)
    head = "".join(f"<th>[{j}]</th>" for j in range(min(v2.shape[1], max_cols)))
    rows = []
    for i, row in enumerate(v2[:max_rows]):
        cells = "".join(f"<td>{x:.5g}</td>" if np.issubdtype(type(x), np.number) else f"<td>{esc(x)}</td>"
                        for x in row[:max_cols])
        rows.append(f"<tr><th>batch {i}</th>{cells}</tr>")
    note = f'<div class="gp-muted">showing {min(v2.shape[0], max_rows)}×{min(v2.shape[1], max_cols)} of {v.shape}</div>' \
        if v2.shape[0] > max_rows or v2.shape[1] > max_cols else ""
    return f'<div class="gp-scroll-x"><table class="gp-table"><tr><th></th>{head}</tr>{"".join(rows)}</table></div>{note}'


PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4d7c0f", "#be185d"]
MAX_SERIES = 8  # batch elements drawn


def rows_of(value) -> np.ndarray:
    """The batched output as (batch, flattened output) floats; a complex output as its real and
    imaginary parts, interleaved (casting it to float would drop the imaginary part unseen)."""
    v = np.asarray(value)
    v = v.reshape(v.shape[0], -1) if v.ndim else v.reshape(1, 1)
    return v.astype(np.complex128).view(np.float64) if np.iscomplexobj(v) else v.astype(float)


def drawn_as(v2: np.ndarray) -> tuple:
    """What the figure's models depend on: a point or a line per element, and how many."""
    return ("point" if v2.shape[1] == 1 else "line"), min(len(v2), MAX_SERIES)


COMPLEX_AXIS = "output index (flattened; re, im of each value side by side)"


def new_outputs(per: str, series: int, height: int = 240, complex_parts: bool = False):
    p = figure(height=height, sizing_mode="stretch_width", title=f"batched outputs, one {per} per element",
               tools="hover,pan,wheel_zoom,reset", tooltips=[("index", "$x{0}"), ("value", "$y{0.0000}")],
               x_range=Range1d(0, 1), y_range=Range1d(0, 1))
    for i in range(series):  # a scalar per element is drawn as a point
        source = ColumnDataSource(dict(x=[], y=[]))
        if per == "point":
            p.scatter("x", "y", source=source, size=9, color=PALETTE[i % 8], name=f"batch{i}")
        else:
            p.line("x", "y", source=source, color=PALETTE[i % 8], line_width=2, name=f"batch{i}")
    p.xaxis.axis_label = COMPLEX_AXIS if complex_parts else \
        "batch element" if per == "point" else "output index (flattened)"
    p.xaxis.ticker.min_interval = 1  # indices: no ticks at 0.5
    return p


def draw_outputs(p, v2: np.ndarray) -> None:
    """The first elements' outputs; the ranges follow them (set here: a kept figure's axes must
    not stay at the last run's)."""
    per, series = drawn_as(v2)
    pick = pane_bounds.spread_indices(v2.shape[1])  # a long output: evenly spaced points of it
    for i, row in enumerate(v2[:series]):
        xs = [float(i)] if per == "point" else pick.astype(float)
        ys = row if per == "point" else row[pick]
        next(r for r in p.renderers if r.name == f"batch{i}").data_source.data = dict(x=xs, y=ys)
    last = series - 1 if per == "point" else v2.shape[1] - 1
    set_range(p.x_range, *data_bounds(np.array([0.0, last])))
    set_range(p.y_range, *data_bounds(v2[:series]))


def outputs_figure(value: np.ndarray, height: int = 240):
    v2 = rows_of(value)
    p = new_outputs(*drawn_as(v2), height=height, complex_parts=np.iscomplexobj(value))
    draw_outputs(p, v2)
    return p


class Kept:
    """The outputs figure of the last run (and its pane), drawn again with the next run's
    outputs when they are drawn alike (same point/line and count, same page theme): new data
    for models the page has, instead of a new figure and a page-wide relayout."""

    def __init__(self):
        self.models = None
        self.fig = self.pane = None

    def outputs(self, value) -> pn.pane.Bokeh:
        v2 = rows_of(value)
        complex_parts = bool(np.iscomplexobj(value))
        models = (*drawn_as(v2), pn.config.theme, complex_parts)
        if models != self.models:
            self.fig = new_outputs(*drawn_as(v2), complex_parts=complex_parts)
            draw_outputs(self.fig, v2)
            self.pane = bokeh(self.fig, sizing_mode="stretch_width", min_height=240)
            self.models = models
        else:
            draw_outputs(self.fig, v2)
        return self.pane


def timing_html(result: dict) -> str:
    rows = []
    for m in METHODS:
        e = result.get(m)
        if not e:
            continue
        if m == "manual" and not e.get("shown"):
            continue  # not a right way to batch this f: the note under the table says why
        if e.get("error") is not None:
            rows.append(f'<tr><th>{m}</th><td colspan="3" class="gp-err" style="white-space: normal">{esc(e["error"].headline()[:120])}</td></tr>')
            continue
        t = e.get("time") or {}
        same = e.get("matches_vmap")
        check = "" if same is None else VERDICTS[same]
        label = m
        if m == "manual":  # the call can be long: a second, smaller line, cut with "…" (whole in its tooltip)
            label += f'<div class="gp-call" title="{html_attr(e["call"])}">{esc(e["call"])}</div>'
        if "run" in e:  # computed, its time still being measured (analysis.time_vmap)
            median, spread = '<span class="gp-muted">measuring…</span>', ""
        else:
            median = fmt_seconds(t["median"]) if t else "-"
            spread = ("" if not t else '<span class="gp-muted">one call (a slow one)</span>' if t.get("n") == 1
                      else fmt_seconds(t["min"]) + " – " + fmt_seconds(t["max"]))
        rows.append(f'<tr><th>{label}</th><td>{median}</td><td class="gp-spread">{spread}</td>'
                    f'<td class="gp-verdict">{check}</td></tr>')
    return ('<div class="gp-scroll-x gp-methods-box"><table class="gp-table gp-methods"><tr><th>method</th><th>median</th>'
            '<th class="gp-spread">min – max</th><th class="gp-verdict">vs vmap</th></tr>' + "".join(rows) + "</table></div>")


def times_html(result: dict) -> str:
    return "<b>Loop vs vmap vs manual batching</b>" + timing_html(result)


def values_key(result: dict) -> dict:
    """What `render` draws apart from the times (those change on every measurement and live in
    their own pane, updated in place: app.main)."""
    return {m: ({k: v for k, v in e.items() if k not in ("time", "run") and (k != "value" or m == "vmap")}
                if isinstance(e, dict) else e)  # only vmap's value is drawn; the others are compared to it
            for m, e in (result or {}).items()}


def render(a, times=None, kept: Kept | None = None) -> list:
    """The pane's parts; `times`: the HTML pane to show the methods table in (kept by the app
    and updated in place as the times come), else a new one; `kept`: the last run's figure."""
    r = a.vmap
    if times is not None:  # shown as it is below, not taken back for the notes' text
        text_html.withhold(times)
    if r and r.get("held"):
        return [html(f'<p class="gp-muted">{esc(a.function.name)} has no argument vmap could batch: '
                     f'{esc(", ".join(r["held"]))} stays fixed (JAX traces only the others).</p>')]
    if not r:
        return [html('<p class="gp-muted">No function input to batch yet.</p>')]
    if r.get("error") is not None:
        return [error_block(r["error"])]
    if r.get("skipped"):  # too big or too slow to batch (app.pane_bounds.batch_size)
        return [html(f'<p class="gp-muted gp-skipped">vmap comparison skipped: {esc(r["skipped"])}</p>')]
    # two short comment lines: one long line was cut at a phone's width
    parts = [code_block(f"# a batch of {r['size']}; element k is your input,\n#   {r.get('rules') or 'each leaf + k'}\n"
                        + r["code"])]
    v = r.get("vmap", {})
    if v.get("error") is not None:
        parts.append(error_block(v["error"]))
    elif v.get("value") is not None:
        # stacked, not side by side: the plot gets the pane's whole width whatever its size
        parts.append(html(table_html(v["value"])))
        parts.append((kept or Kept()).outputs(v["value"]))
        width = rows_of(v["value"]).shape[1]
        sampled = pane_bounds.plotted_note(min(width, pane_bounds.MAX_PLOT_POINTS), width, "outputs of each element")
        if sampled:
            parts.append(html(f'<p class="gp-muted gp-sampled">{esc(sampled)}.</p>'))
    parts.append(times if times is not None else html(times_html(r)))
    if r.get("bounded"):
        parts.append(html(f'<p class="gp-muted gp-sampled">{esc(r["bounded"])}.</p>'))
    manual = r.get("manual") or {}
    if manual and not manual.get("shown"):
        parts.append(html(f'<p class="gp-muted gp-manual-note">manual batching: {esc(manual["why"])}</p>'))
    return parts
