"""Plots pane (Bokeh, hover tools): f, f', f'' for R -> R; a heatmap with gradient arrows for
R^2 -> R; for any other float input (pytrees too) -> R, f and its directional derivative along
a line through the input and the gradient per component (or per leaf); the Jacobian as a heatmap
for vector outputs, and f(x_i) against x_i for long elementwise ones. Shows the code that
computed them."""
from __future__ import annotations

import numpy as np
import panel as pn
from bokeh.models import ColorBar, ColumnDataSource, HoverTool, LinearColorMapper, Range1d
from bokeh.palettes import RdBu11, Viridis256, interp_palette
from bokeh.plotting import figure

from .common import bokeh, code_block, error_block, html

CURVES = (("f", "f(x)", "#2563eb"), ("df", "f'(x)", "#dc2626"), ("d2f", "f''(x)", "#16a34a"))


def legend_above(p) -> None:
    """The legend in one row above the plot, where it never hides a curve or a point (inside
    the frame, top-left, it covered the data of several gallery examples)."""
    legend = p.legend[0]
    p.center.remove(legend)
    legend.orientation, legend.click_policy, legend.location = "horizontal", "hide", "top_left"
    legend.margin, legend.padding, legend.spacing = 0, 2, 12
    p.add_layout(legend, "above")


def scalar_figure(data: dict, height: int = 320):
    p = figure(height=height, sizing_mode="stretch_width", tools="pan,wheel_zoom,box_zoom,reset,save",
               title="f, f' and f'' (jax.vmap of jax.grad)")
    for key, label, colour in CURVES:
        p.line(data["x"], data[key], legend_label=label, color=colour, line_width=2, name=key)
    p.add_tools(HoverTool(tooltips=[("x", "@x{0.000}"), ("y", "@y{0.0000}")], mode="vline"))
    legend_above(p)
    return p


def surface_figure(data: dict, height: int = 360):
    x, y, z = data["x"], data["y"], data["z"]
    dx, dy = x[-1] - x[0], y[-1] - y[0]
    finite = z[np.isfinite(z)]
    mapper = LinearColorMapper(palette=Viridis256, low=float(finite.min()) if finite.size else 0,
                               high=float(finite.max()) if finite.size else 1)
    p = figure(height=height, sizing_mode="stretch_width", title="f(x, y) with its gradient",
               x_range=(float(x[0]), float(x[-1])), y_range=(float(y[0]), float(y[-1])),
               tools="pan,wheel_zoom,reset,save")
    img = p.image(image=[z], x=float(x[0]), y=float(y[0]), dw=float(dx), dh=float(dy), color_mapper=mapper,
                  name="surface")
    p.add_tools(HoverTool(renderers=[img], tooltips=[("x", "$x{0.00}"), ("y", "$y{0.00}"), ("f", "@image{0.000}")]))
    gx, gy = data["gx"], data["gy"]
    norm = np.sqrt(gx ** 2 + gy ** 2)
    scale = 0.8 * (dx / max(1, int(np.sqrt(len(gx))))) / (np.nanmax(norm) if np.isfinite(norm).any() and np.nanmax(norm) > 0 else 1)
    x1, y1 = data["ax"] + scale * gx, data["ay"] + scale * gy
    p.segment(data["ax"], data["ay"], x1, y1, color="white", line_width=1.5, name="gradient")
    p.scatter(x1, y1, size=4, color="white")
    p.add_layout(ColorBar(color_mapper=mapper), "right")
    return p


# 255 shades from blue (negative) through white to red: RdBu11's 11 bins painted different
# entries the same (4 and 5 of a matrix whose largest entry is 12 were one block)
JACOBIAN_PALETTE = interp_palette(RdBu11, 255)  # low (negative) blue, high red
MAX_CELL_LABELS = 12  # a Jacobian at most this many rows and columns shows each entry's value


def cell_labels(jac: np.ndarray, lim: float) -> dict:
    """Each entry's value at its cell's centre, white on the dark ends of the palette."""
    m, n = jac.shape
    i, j = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    v = jac.ravel()
    return dict(x=j.ravel().tolist(), y=i.ravel().tolist(),
                text=[f"{x + 0.0:.3g}" for x in v],  # + 0.0: a -0.0 entry reads "0", not "-0"
                colour=["#ffffff" if np.isfinite(x) and abs(x) > 0.6 * lim else "#111827" for x in v])


def jacobian_figure(jac: np.ndarray, height: int = 320):
    m, n = jac.shape
    lim = float(np.nanmax(np.abs(jac))) if np.isfinite(jac).any() else 1.0
    mapper = LinearColorMapper(palette=JACOBIAN_PALETTE, low=-lim or -1, high=lim or 1)
    p = figure(height=height, sizing_mode="stretch_width", title=f"Jacobian {m}×{n}: d f_i / d x_j",
               x_range=(-0.5, n - 0.5), y_range=(m - 0.5, -0.5), tools="reset,save")
    # cell (i, j) is centred on the point (j, i): the whole-number ticks sit under the cells and
    # the hover's cells are the ticks' indices. An image's anchor is its bottom-left
    # corner in data space; with the y axis flipped (row 0 on top) it still starts at the low y.
    # The hover reads each cell's indices from two more images of the same shape, as it reads the
    # value: rounding the pointer's $x, $y printed "-0" near a cell's top or left edge (and the
    # page refuses a CustomJSHover that would round them itself)
    rows, cols = np.indices((m, n))
    cells = ColumnDataSource(dict(image=[np.ascontiguousarray(jac)], row=[rows], col=[cols]))
    img = p.image(image="image", source=cells, x=-0.5, y=-0.5, dw=n, dh=m, color_mapper=mapper, name="jacobian")
    p.add_tools(HoverTool(renderers=[img], tooltips=[("i", "@row"), ("j", "@col"), ("J[i, j]", "@image{0.0000}")]))
    if m <= MAX_CELL_LABELS and n <= MAX_CELL_LABELS:
        p.text(x="x", y="y", text="text", text_color="colour", source=ColumnDataSource(cell_labels(jac, lim)),
               text_align="center", text_baseline="middle", text_font_size="11px", name="values")
    p.xaxis.axis_label, p.yaxis.axis_label = "input j", "output i"
    p.xaxis.ticker.min_interval = p.yaxis.ticker.min_interval = 1  # indices: no ticks at 0.5
    p.add_layout(ColorBar(color_mapper=mapper), "right")
    return p


MAX_BARS = 64  # more gradient components than this: one bar per leaf (its norm)


def line_figure(data: dict, height: int = 280):
    """f(x + t·d) and its derivative in t (the directional derivative) along the gradient's direction."""
    p = figure(height=height, sizing_mode="stretch_width", tools="pan,wheel_zoom,box_zoom,reset,save",
               title="f and ∇f·d along x + t·d",  # short title, legend and axis label: longer ones
               x_axis_label="t (t = 0 is the input)")  # widened the plot past a phone (d: the code below)
    p.line(data["t"], data["f"], legend_label="f(x+t·d)", color="#2563eb", line_width=2, name="line_f")
    p.line(data["t"], data["df"], legend_label="∇f·d", color="#dc2626", line_width=2, name="line_df")
    mid = len(data["t"]) // 2
    p.scatter([0.0], [data["f"][mid]], size=8, color="#2563eb", legend_label="input")
    p.add_tools(HoverTool(tooltips=[("t", "@x{0.000}"), ("value", "@y{0.0000}")], mode="vline"))
    legend_above(p)
    return p


def gradient_bars(leaves: list) -> tuple:
    """(labels, values, title): one bar per component when few, else one per leaf (its norm)."""
    total = sum(len(leaf["values"]) for leaf in leaves)
    if total <= MAX_BARS:
        labels, values = [], []
        for leaf in leaves:
            many = len(leaf["values"]) > 1 or leaf["shape"]
            for i, v in enumerate(leaf["values"]):
                labels.append(f"{leaf['name']}[{i}]" if many else leaf["name"])
                values.append(float(v))
        return labels, values, "∂f/∂x per component"
    labels = [f"{leaf['name']} {tuple(leaf['shape'])}" if leaf["shape"] else leaf["name"] for leaf in leaves]
    # short: the title starts where the long y labels end, and a phone leaves little room after them
    return labels, [leaf["norm"] for leaf in leaves], f"|∂f/∂leaf| ({total} values)"


ROW_PX = 32  # one bar and its label above it
LABEL_COLOUR = {"dark": "#e6edf3"}  # the bar labels' text, by page theme (default: dark grey)


def gradient_rows(labels: list, values: list) -> dict:
    """Row i (top to bottom) has its label at the top of its slot and its bar under the label.
    The labels are drawn in the frame, not as y-axis ticks: long tick labels (`params[1]['weights']
    (32, 32)`) widened the axis, and the line plot above, whose frame lines up with this one's,
    lost ~140 px of a phone's width to it."""
    rows = list(range(len(labels)))
    return dict(row=rows, label_y=[i - 0.46 for i in rows], bar_y=[i + 0.24 for i in rows],
                name=list(labels), value=list(values),
                colour=["#2563eb" if v >= 0 else "#dc2626" for v in values])


def value_range(values: list) -> tuple:
    """The x range: 0 and every value, padded; the labels start at its left end."""
    finite = [v for v in values if np.isfinite(v)]
    lo, hi = min([0.0, *finite]), max([0.0, *finite])
    pad = 0.06 * (hi - lo) or 1.0
    return lo - pad, hi + pad


def gradient_figure(leaves: list):
    labels, values, title = gradient_bars(leaves)
    rows = ColumnDataSource(gradient_rows(labels, values))
    lo, hi = value_range(values)
    p = figure(y_range=Range1d(len(labels) - 0.5, -0.55), x_range=Range1d(lo, hi),
               height=max(160, ROW_PX * len(labels) + 70), sizing_mode="stretch_width",
               tools="reset,save", title=title)
    bars = p.hbar(y="bar_y", right="value", left=0, height=0.42, color="colour", source=rows, name="gradient")
    p.text(x=lo, y="label_y", text="name", source=rows, x_offset=3, text_baseline="top",
           text_font_size="11px", text_color=LABEL_COLOUR.get(pn.config.theme, "#374151"), name="labels")
    p.add_tools(HoverTool(renderers=[bars], tooltips=[("", "@name"), ("value", "@value{0.00000}")]))
    p.yaxis.visible = False  # the rows are named by their labels
    p.ygrid.visible = False
    return p


def elementwise_figure(data: dict, height: int = 300):
    p = figure(height=height, sizing_mode="stretch_width", tools="pan,wheel_zoom,box_zoom,reset,save",
               title=f"f(x)_i against x_i ({len(data['x'])} components)", x_axis_label="x_i")
    p.scatter(data["x"], data["f"], size=3, color="#2563eb", legend_label="f(x)_i", name="f")
    p.scatter(data["x"], data["df"], size=3, color="#dc2626", legend_label="(J·1)_i", name="df")
    legend_above(p)
    return p


def point_counts(kind: str | None, data: dict) -> dict:
    """What the page API's snapshot reports: plot name -> number of points drawn."""
    if not data or "error" in data or kind is None:
        return {}
    if kind == "scalar":
        return {k: int(len(data[k])) for k, _, _ in CURVES}
    if kind == "r2":
        return {"surface": int(data["z"].size), "gradient": int(len(data["gx"]))}
    if kind == "rn":
        return {"line_f": int(len(data["f"])), "line_df": int(len(data["df"])),
                "gradient": len(gradient_bars(data["leaves"])[0])}
    if kind == "elementwise":
        return {"f": int(len(data["f"])), "df": int(len(data["df"]))}
    return {"jacobian": int(data["jac"].size)}


def render(a) -> list:
    if a.function is None:
        return [html('<p class="gp-muted">No function to plot yet.</p>')]
    data, kind = a.plot, a.plot_kind
    if kind is None:
        return [html('<p class="gp-muted">Plots apply to functions with float inputs and a number out (f, '
                     'its derivatives and gradient), and to vector outputs of one vector (the Jacobian). '
                     f'<code>{a.function.name}({a.args_source})</code> is none of these.</p>')]
    if "error" in data:
        return [error_block(data["error"])]
    figures = FIGURES[kind](data)
    return [bokeh(fig, sizing_mode="stretch_width") for fig in figures] + [code_block(data["code"])]


FIGURES = {  # plot kind (analysis.plot_kind) -> the figures that show it
    "scalar": lambda d: [scalar_figure(d)],
    "r2": lambda d: [surface_figure(d)],
    "rn": lambda d: [line_figure(d), gradient_figure(d["leaves"])],
    "vector": lambda d: [jacobian_figure(d["jac"])],
    "elementwise": lambda d: [elementwise_figure(d)],
}
