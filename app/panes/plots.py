"""Plots pane (Bokeh, hover tools): f, f', f'' for R -> R; a heatmap with gradient arrows for
R^2 -> R; for any other float input (pytrees too) -> R, f and its directional derivative along
a line through the input and the gradient per component (or per leaf); the Jacobian as a heatmap
for vector outputs, and f(x_i) against x_i for long elementwise ones. Shows the code that
computed them.

Each figure is built once (`new_*`) and drawn (`draw_*`) with each run's data: `Kept` keeps the
figures of the last run and, when the next run's plot is of the same kind, draws the new data
into them, so the page gets new data for models it has instead of new models (a new figure makes
BokehJS lay the whole page out again: the page's main thread was busy ~1 s per edit of f)."""
from __future__ import annotations

import ast

import numpy as np
import panel as pn
from bokeh.models import ColorBar, ColumnDataSource, HoverTool, LinearColorMapper, Range1d
from bokeh.palettes import RdBu11, Viridis256, interp_palette
from bokeh.plotting import figure

from .. import fd_check, pane_bounds
from ..analysis.find import called_name
from . import common
from .common import bokeh, code_block, error_block, esc, html

CURVES = (("f", "f(x)", "#2563eb"), ("df", "f'(x)", "#dc2626"), ("d2f", "f''(x)", "#16a34a"))
PAD = 0.1  # a data range's margin on each side, a fraction of its span (Bokeh's DataRange1d default)


def data_bounds(*arrays, pad: float = PAD) -> tuple:
    """(lo, hi) over the finite values of `arrays`, padded; (-1, 1) around a single value or none.
    Ranges are set from the data in Python, not left to BokehJS: a kept figure's axes must follow
    each run's data, and the tests can read them."""
    finite = np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in arrays] or [np.zeros(0)])
    finite = finite[np.isfinite(finite)]
    if not finite.size:
        return -1.0, 1.0
    lo, hi = float(finite.min()), float(finite.max())
    margin = pad * (hi - lo) or max(1.0, abs(lo)) * pad * 10  # one value: ±1 (or ±|v|) around it
    return lo - margin, hi + margin


def set_range(r: Range1d, lo: float, hi: float) -> None:
    """The range shows [lo, hi], and the reset tool comes back to it (not to the first run's)."""
    r.start, r.end, r.reset_start, r.reset_end = lo, hi, lo, hi


def renderer(fig, name: str):
    return next(r for r in fig.renderers if r.name == name)


def legend_above(p) -> None:
    """The legend in one row above the plot, where it never hides a curve or a point (inside
    the frame, top-left, it covered the data of several gallery examples)."""
    legend = p.legend[0]
    p.center.remove(legend)
    legend.orientation, legend.click_policy, legend.location = "horizontal", "hide", "top_left"
    legend.margin, legend.padding, legend.spacing = 0, 2, 12
    p.add_layout(legend, "above")


def new_scalar(height: int = 320):
    p = figure(height=height, sizing_mode="stretch_width", tools="pan,wheel_zoom,box_zoom,reset,save",
               title="f, f' and f'' (jax.vmap of jax.grad)", x_range=Range1d(0, 1), y_range=Range1d(0, 1))
    for key, label, colour in CURVES:
        p.line("x", "y", source=ColumnDataSource(dict(x=[], y=[])), legend_label=label, color=colour,
               line_width=2, name=key)
    fd_markers(p, "fd", "f' by finite diff.")
    p.add_tools(HoverTool(tooltips=[("x", "@x{0.000}"), ("y", "@y{0.0000}")], mode="vline"))
    legend_above(p)
    return p


FD_MARKERS = 41  # finite-difference points drawn on a derivative curve (the check uses them all)


def fd_markers(p, name: str, label: str) -> None:
    """Hollow circles where finite differences put the derivative (app.fd_check): on the curve when
    the rule is right, off it when it is wrong."""
    p.scatter("x", "y", source=ColumnDataSource(dict(x=[], y=[])), size=7, line_color="#111827", line_width=1.5,
              fill_color=None, legend_label=label, name=name)


def draw_fd(p, name: str, x, fd) -> None:
    pick = pane_bounds.spread_indices(len(x), FD_MARKERS) if len(x) else []
    renderer(p, name).data_source.data = dict(x=np.asarray(x, dtype=float)[pick],
                                              y=np.asarray(fd, dtype=float)[pick])


def draw_scalar(p, data: dict) -> None:
    p.title.text = f"f, f' and f'' (jax.vmap of jax.{data.get('derive', 'grad')})"  # jacfwd through a while_loop
    x = np.asarray(data["x"], dtype=float)
    drawn = [key for key, _, _ in CURVES if data.get(key) is not None]  # f'' may be left out (its note says why)
    for key, _, _ in CURVES:
        renderer(p, key).data_source.data = (dict(x=x, y=np.asarray(data[key], dtype=float)) if key in drawn
                                             else dict(x=[], y=[]))
    set_range(p.x_range, *data_bounds(x))
    set_range(p.y_range, *data_bounds(*(data[key] for key in drawn)))
    fd = data.get("fd") or {}
    draw_fd(p, "fd", fd.get("x", []), fd.get("fd", []))


OUTPUT_COLOURS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4d7c0f", "#be185d"]


def new_outputs(names: tuple, height: int = 320):
    """f: R -> a tuple/dict of scalars: one colour per output, solid for it, dashed for its derivative."""
    p = figure(height=height, sizing_mode="stretch_width", tools="pan,wheel_zoom,box_zoom,reset,save",
               title="f's outputs and derivatives (jacfwd)",
               x_range=Range1d(0, 1), y_range=Range1d(0, 1))
    for i, name in enumerate(names):
        colour = OUTPUT_COLOURS[i % len(OUTPUT_COLOURS)]
        p.line("x", "y", source=ColumnDataSource(dict(x=[], y=[])), legend_label=f"f(x){name}", color=colour,
               line_width=2, name=f"f{i}")
        p.line("x", "y", source=ColumnDataSource(dict(x=[], y=[])), legend_label=f"d/dx f(x){name}", color=colour,
               line_width=2, line_dash="dashed", name=f"df{i}")
    p.add_tools(HoverTool(tooltips=[("x", "@x{0.000}"), ("y", "@y{0.0000}")], mode="vline"))
    legend = p.legend[0]  # stacked inside: a row of 4+ labels above was cut at a phone's width
    legend.location, legend.click_policy, legend.background_fill_alpha = "top_left", "hide", 0.6
    legend.label_text_font_size, legend.spacing, legend.padding = "11px", 0, 4
    return p


def draw_outputs(p, data: dict) -> None:
    x = np.asarray(data["x"], dtype=float)
    for i in range(len(data["names"])):
        renderer(p, f"f{i}").data_source.data = dict(x=x, y=np.asarray(data["f"][i], dtype=float))
        renderer(p, f"df{i}").data_source.data = dict(x=x, y=np.asarray(data["df"][i], dtype=float))
    set_range(p.x_range, *data_bounds(x))
    set_range(p.y_range, *data_bounds(data["f"], data["df"]))


def new_surface(height: int = 360):
    mapper = LinearColorMapper(palette=Viridis256, low=0, high=1)
    p = figure(height=height, sizing_mode="stretch_width", title="f(x, y) with its gradient",
               x_range=Range1d(0, 1), y_range=Range1d(0, 1), tools="pan,wheel_zoom,reset,save")
    img = p.image(image="image", source=ColumnDataSource(dict(image=[])), x=0, y=0, dw=1, dh=1,
                  color_mapper=mapper, name="surface")
    p.add_tools(HoverTool(renderers=[img], tooltips=[("x", "$x{0.00}"), ("y", "$y{0.00}"), ("f", "@image{0.000}")]))
    arrows = ColumnDataSource(dict(x0=[], y0=[], x1=[], y1=[]))
    p.segment("x0", "y0", "x1", "y1", source=arrows, color="white", line_width=1.5, name="gradient")
    p.scatter("x1", "y1", source=arrows, size=4, color="white", name="arrow_heads")
    p.add_layout(ColorBar(color_mapper=mapper), "right")
    return p


def draw_surface(p, data: dict) -> None:
    x, y, z = data["x"], data["y"], np.asarray(data["z"], dtype=float)
    x0, y0, dx, dy = float(x[0]), float(y[0]), float(x[-1] - x[0]), float(y[-1] - y[0])
    img = renderer(p, "surface")
    img.data_source.data = dict(image=[z])
    img.glyph.update(x=x0, y=y0, dw=dx, dh=dy)
    finite = z[np.isfinite(z)]
    mapper = img.glyph.color_mapper
    mapper.low, mapper.high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    set_range(p.x_range, x0, x0 + dx)
    set_range(p.y_range, y0, y0 + dy)
    gx, gy = np.asarray(data["gx"], dtype=float), np.asarray(data["gy"], dtype=float)
    norm = np.sqrt(gx ** 2 + gy ** 2)
    longest = np.nanmax(norm) if np.isfinite(norm).any() else 0.0
    scale = 0.8 * (dx / max(1, int(np.sqrt(len(gx))))) / (longest if longest > 0 else 1)
    renderer(p, "gradient").data_source.data = dict(x0=data["ax"], y0=data["ay"], x1=data["ax"] + scale * gx,
                                                    y1=data["ay"] + scale * gy)


def surface_figure(data: dict, height: int = 360):
    p = new_surface(height)
    draw_surface(p, data)
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


def labelled(jac: np.ndarray) -> bool:
    return jac.shape[0] <= MAX_CELL_LABELS and jac.shape[1] <= MAX_CELL_LABELS


def new_jacobian(with_labels: bool, height: int = 320):
    mapper = LinearColorMapper(palette=JACOBIAN_PALETTE, low=-1, high=1)
    p = figure(height=height, sizing_mode="stretch_width", title="Jacobian",
               x_range=Range1d(0, 1), y_range=Range1d(1, 0), tools="reset,save")
    # cell (i, j) is centred on the point (j, i): the whole-number ticks sit under the cells and
    # the hover's cells are the ticks' indices. An image's anchor is its bottom-left
    # corner in data space; with the y axis flipped (row 0 on top) it still starts at the low y.
    # The hover reads each cell's indices from two more images of the same shape, as it reads the
    # value: rounding the pointer's $x, $y printed "-0" near a cell's top or left edge (and the
    # page refuses a CustomJSHover that would round them itself)
    cells = ColumnDataSource(dict(image=[], row=[], col=[]))
    img = p.image(image="image", source=cells, x=-0.5, y=-0.5, dw=1, dh=1, color_mapper=mapper, name="jacobian")
    p.add_tools(HoverTool(renderers=[img], tooltips=[("i", "@row"), ("j", "@col"), ("J[i, j]", "@image{0.0000}")]))
    if with_labels:
        p.text(x="x", y="y", text="text", text_color="colour", source=ColumnDataSource(dict(x=[], y=[], text=[], colour=[])),
               text_align="center", text_baseline="middle", text_font_size="11px", name="values")
    p.xaxis.axis_label, p.yaxis.axis_label = "input j", "output i"
    p.xaxis.ticker.min_interval = p.yaxis.ticker.min_interval = 1  # indices: no ticks at 0.5
    p.add_layout(ColorBar(color_mapper=mapper), "right")
    return p


def draw_jacobian(p, jac: np.ndarray) -> None:
    m, n = jac.shape
    lim = float(np.nanmax(np.abs(jac))) if np.isfinite(jac).any() else 1.0
    p.title.text = f"Jacobian {m}×{n}: d f_i / d x_j"
    set_range(p.x_range, -0.5, n - 0.5)
    set_range(p.y_range, m - 0.5, -0.5)
    img = renderer(p, "jacobian")
    img.glyph.color_mapper.update(low=-lim or -1, high=lim or 1)
    img.glyph.update(dw=n, dh=m)
    rows, cols = np.indices((m, n))
    img.data_source.data = dict(image=[np.ascontiguousarray(jac)], row=[rows], col=[cols])
    if labelled(jac):
        renderer(p, "values").data_source.data = cell_labels(jac, lim)


def jacobian_figure(jac: np.ndarray, height: int = 320):
    p = new_jacobian(labelled(jac), height)
    draw_jacobian(p, jac)
    return p


MAX_BARS = 64  # more gradient components than this: one bar per leaf (its norm)


def new_line(height: int = 280):
    """f(x + t·d) and its derivative in t (the directional derivative) along the gradient's direction."""
    p = figure(height=height, sizing_mode="stretch_width", tools="pan,wheel_zoom,box_zoom,reset,save",
               title="f and ∇f·d along x + t·d",  # short title, legend and axis label: longer ones
               x_axis_label="t (t = 0 is the input)",  # widened the plot past a phone (d: the code below)
               x_range=Range1d(0, 1), y_range=Range1d(0, 1))
    p.line("x", "y", source=ColumnDataSource(dict(x=[], y=[])), legend_label="f(x+t·d)", color="#2563eb",
           line_width=2, name="line_f")
    p.line("x", "y", source=ColumnDataSource(dict(x=[], y=[])), legend_label="∇f·d", color="#dc2626",
           line_width=2, name="line_df")
    p.scatter("x", "y", source=ColumnDataSource(dict(x=[], y=[])), size=8, color="#2563eb", legend_label="input",
              name="input")
    fd_markers(p, "line_fd", "FD")  # (short: a longer label hid the row's labels on a phone)
    p.add_tools(HoverTool(tooltips=[("t", "@x{0.000}"), ("value", "@y{0.0000}")], mode="vline"))
    legend_above(p)
    return p


def draw_line(p, data: dict) -> None:
    t = np.asarray(data["t"], dtype=float)
    f, df = np.asarray(data["f"], dtype=float), np.asarray(data["df"], dtype=float)
    renderer(p, "line_f").data_source.data = dict(x=t, y=f)
    renderer(p, "line_df").data_source.data = dict(x=t, y=df)
    renderer(p, "input").data_source.data = dict(x=[0.0], y=[float(f[len(t) // 2])])
    check = data.get("fd") or {}
    draw_fd(p, "line_fd", check.get("t", []), check.get("fd", []))
    set_range(p.x_range, *data_bounds(t))
    set_range(p.y_range, *data_bounds(f, df))


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
LABEL_COLOUR = {"light": "#374151", "dark": "#e6edf3"}  # the bar labels' text, by page theme


def fd_on_bars(leaves: list, dirs: dict | None, per_component: bool) -> tuple:
    """The finite-difference check on the bars (fd_check.line's `dirs`): per bar its estimate
    (NaN: none) and whether it disagrees; with one bar per leaf (norms) no estimate is drawn, and
    the label suffix says how many of the leaf's components were checked and how many disagree."""
    n_bars = sum(len(leaf["values"]) for leaf in leaves) if per_component else len(leaves)
    fd, bad, suffix = [float("nan")] * n_bars, [False] * n_bars, [""] * n_bars
    if not dirs or not dirs.get("index"):
        return fd, bad, suffix
    if per_component:
        for i, v, b in zip(dirs["index"], dirs["fd"], dirs["bad"]):
            if i < n_bars:
                fd[i], bad[i] = float(v), bool(b)
                suffix[i] = f"  ✗ finite diff. {float(v):.4g}" if b else ""
        return fd, bad, suffix
    ends = np.cumsum([len(leaf["values"]) for leaf in leaves])
    for k in range(n_bars):
        start = ends[k - 1] if k else 0
        mine = [b for i, b in zip(dirs["index"], dirs["bad"]) if start <= i < ends[k]]
        if mine:
            wrong = sum(mine)
            suffix[k] = (f"  ✗ finite diff.: {wrong} of {len(mine)} checked disagree" if wrong
                         else f"  ✓ finite diff. ({len(mine)} checked)")
            bad[k] = bool(wrong)
    return fd, bad, suffix


def gradient_rows(labels: list, values: list, fd=None, bad=None) -> dict:
    """Row i (top to bottom) has its label at the top of its slot and its bar under the label.
    The labels are drawn in the frame, not as y-axis ticks: long tick labels (`params[1]['weights']
    (32, 32)`) widened the axis, and the line plot above, whose frame lines up with this one's,
    lost ~140 px of a phone's width to it."""
    rows = list(range(len(labels)))
    nan = float("nan")
    fd = list(fd) if fd is not None else [nan] * len(rows)
    bad = list(bad) if bad is not None else [False] * len(rows)
    return dict(row=rows, label_y=[i - 0.46 for i in rows], bar_y=[i + 0.24 for i in rows],
                name=list(labels), value=list(values),
                colour=["#2563eb" if v >= 0 else "#dc2626" for v in values],
                fd_ok=[f if not b else nan for f, b in zip(fd, bad)],  # the estimate beside its bar
                fd_bad=[f if b else nan for f, b in zip(fd, bad)],     # ... marked where it disagrees
                fd_text=[f"{f:.5g}" + (" ✗" if b else "") if np.isfinite(f) else "" for f, b in zip(fd, bad)])


def value_range(values: list) -> tuple:
    """The x range: 0 and every value, padded; the labels start at its left end."""
    finite = [v for v in values if np.isfinite(v)]
    lo, hi = min([0.0, *finite]), max([0.0, *finite])
    pad = 0.06 * (hi - lo) or 1.0
    return lo - pad, hi + pad


def bars_height(n: int) -> int:
    return max(160, ROW_PX * n + 70)


def new_gradient():
    rows = ColumnDataSource(gradient_rows([], []))
    p = figure(y_range=Range1d(0.5, -0.55), x_range=Range1d(0, 1), height=bars_height(1),
               sizing_mode="stretch_width", tools="reset,save", title="")
    bars = p.hbar(y="bar_y", right="value", left=0, height=0.42, color="colour", source=rows, name="gradient")
    labels = p.text(x=0, y="label_y", text="name", source=rows, x_offset=3, text_baseline="top",
                    text_font_size="11px", name="labels")
    common.theme_value(labels.glyph, "text_color", LABEL_COLOUR["light"], LABEL_COLOUR["dark"])
    # finite differences (app.fd_check) on each bar: a hollow diamond where they agree, a red ✗ where not
    p.scatter(x="fd_ok", y="bar_y", source=rows, marker="diamond", size=13, fill_color=None, line_color="#111827",
              line_width=1.5, name="gradient_fd")
    p.scatter(x="fd_bad", y="bar_y", source=rows, marker="x", size=13, line_color="#b91c1c", line_width=2.5,
              name="gradient_fd_bad")
    p.add_tools(HoverTool(renderers=[bars], tooltips=[("", "@name"), ("value", "@value{0.00000}"),
                                                      ("finite diff.", "@fd_text")]))
    p.yaxis.visible = False  # the rows are named by their labels
    p.ygrid.visible = False
    return p


def draw_gradient(p, leaves: list, dirs: dict | None = None) -> None:
    """`dirs`: the finite-difference check per component (fd_check.line), drawn on the bars."""
    labels, values, title = gradient_bars(leaves)
    fd, bad, suffix = fd_on_bars(leaves, dirs, title.startswith("∂f/∂x per component"))
    labels = [label + s for label, s in zip(labels, suffix)]
    lo, hi = value_range(values + [v for v in fd if np.isfinite(v)])
    p.title.text = title
    if p.height != bars_height(len(labels)):  # only when the number of bars changed (a relayout)
        p.height = bars_height(len(labels))
    set_range(p.x_range, lo, hi)
    set_range(p.y_range, len(labels) - 0.5, -0.55)
    renderer(p, "gradient").data_source.data = gradient_rows(labels, values, fd, bad)  # labels', markers' too
    renderer(p, "labels").glyph.x = lo


def gradient_figure(leaves: list):
    p = new_gradient()
    draw_gradient(p, leaves)
    return p


def new_elementwise(height: int = 300):
    p = figure(height=height, sizing_mode="stretch_width", tools="pan,wheel_zoom,box_zoom,reset,save",
               title="f(x)_i against x_i", x_axis_label="x_i", x_range=Range1d(0, 1), y_range=Range1d(0, 1))
    p.scatter("x", "y", source=ColumnDataSource(dict(x=[], y=[])), size=3, color="#2563eb", legend_label="f(x)_i",
              name="f")
    p.scatter("x", "y", source=ColumnDataSource(dict(x=[], y=[])), size=3, color="#dc2626", legend_label="(J·1)_i",
              name="df")
    legend_above(p)
    return p


def draw_elementwise(p, data: dict) -> None:
    x = np.asarray(data["x"], dtype=float)
    total = data.get("total", len(x))  # a long x is sampled (analysis.elementwise)
    # sampled: a short title (with the counts, 57 characters, it ran past a phone's 359 px figure)
    p.title.text = (f"f(x)_i vs x_i ({len(x):,} of {total:,} plotted)" if len(x) < total
                    else f"f(x)_i against x_i ({total:,} components)")
    for key in ("f", "df"):
        renderer(p, key).data_source.data = dict(x=x, y=np.asarray(data[key], dtype=float))
    set_range(p.x_range, *data_bounds(x))
    set_range(p.y_range, *data_bounds(data["f"], data["df"]))


def drawn(new, draw):
    """A figure function: a new figure drawn with `data` (tests and one-off uses)."""
    def build(data, *args):
        p = new(*args)
        draw(p, data)
        return p
    return build


scalar_figure = drawn(new_scalar, draw_scalar)
line_figure = drawn(new_line, draw_line)
elementwise_figure = drawn(new_elementwise, draw_elementwise)

# plot kind (analysis.plot_kind) -> (what the figures' models depend on beyond the kind, the new
# figures, how to draw the data in them)
FIGURES = {
    "scalar": (lambda d: None, lambda d: [new_scalar()], lambda figs, d: draw_scalar(figs[0], d)),
    "outputs": (lambda d: tuple(d["names"]), lambda d: [new_outputs(tuple(d["names"]))],
                lambda figs, d: draw_outputs(figs[0], d)),
    "r2": (lambda d: None, lambda d: [new_surface()], lambda figs, d: draw_surface(figs[0], d)),
    "rn": (lambda d: None, lambda d: [new_line(), new_gradient()],
           lambda figs, d: (draw_line(figs[0], d), draw_gradient(figs[1], d["leaves"], (d.get("fd") or {}).get("dirs")))),
    "vector": (lambda d: labelled(d["jac"]), lambda d: [new_jacobian(labelled(d["jac"]))],
               lambda figs, d: draw_jacobian(figs[0], d["jac"])),
    "elementwise": (lambda d: None, lambda d: [new_elementwise()], lambda figs, d: draw_elementwise(figs[0], d)),
}


class Kept:
    """The figures of the last run (and their panes), drawn again with the next run's data when
    its plot has the same models (kind, layout and page theme); else new ones."""

    def __init__(self):
        self.models = None  # (kind, layout, theme) of the kept figures
        self.figs: list = []
        self.panes: list = []

    def figures(self, kind: str, data: dict) -> list:
        layout, new, draw = FIGURES[kind]
        models = (kind, layout(data), pn.config.theme)
        if models != self.models:
            self.figs = new(data)
            draw(self.figs, data)
            self.panes = [bokeh(fig, sizing_mode="stretch_width") for fig in self.figs]
            self.models = models
        else:
            draw(self.figs, data)
        return self.panes


def finite(values) -> int:
    """How many of `values` a chart draws (a NaN or an infinity is no point on it)."""
    return int(np.isfinite(np.asarray(values, dtype=float)).sum())


def point_counts(kind: str | None, data: dict) -> dict:
    """What the page API's snapshot reports: plot name -> number of finite points drawn."""
    if not data or "error" in data or kind is None:
        return {}
    if kind == "scalar":
        return {k: finite(data[k]) for k, _, _ in CURVES if data.get(k) is not None}
    if kind == "r2":
        return {"surface": finite(data["z"]), "gradient": finite(np.asarray(data["gx"]) + np.asarray(data["gy"]))}
    if kind == "rn":
        labels, _, _ = gradient_bars(data["leaves"])
        return {"line_f": finite(data["f"]), "line_df": finite(data["df"]), "gradient": len(labels)}
    if kind == "elementwise":
        return {"f": finite(data["f"]), "df": finite(data["df"])}
    if kind == "outputs":  # f(x)[0], d/dx f(x)[0], ... one curve each
        return {f"{pre}f(x){name}": finite(values[i]) for i, name in enumerate(data["names"])
                for pre, values in (("", data["f"]), ("d/dx ", data["df"]))}
    return {"jacobian": finite(data["jac"])}


# plot kind -> (data key, what the chart calls it) for the note on values it cannot draw
DRAWN_VALUES = {
    "scalar": [(k, label) for k, label, _ in CURVES],
    "r2": [("z", "f(x, y)"), ("gx", "∂f/∂x"), ("gy", "∂f/∂y")],
    "rn": [("f", "f(x+t·d)"), ("df", "∇f·d")],
    "elementwise": [("f", "f(x)_i"), ("df", "(J·1)_i")],
    "vector": [("jac", "J")],
}



def fd_bar_counts(kind: str | None, data: dict) -> dict:
    """The finite-difference marks on the gradient bars, for the snapshot: {"checked": bars with an
    estimate drawn, "bad": those marked ✗}; {} where no bars are drawn. Kept apart from
    point_counts, whose every entry is a curve or bars that must not be empty."""
    if kind != "rn" or not data or "error" in data:
        return {}
    _, _, title = gradient_bars(data["leaves"])
    fd, bad, _ = fd_on_bars(data["leaves"], (data.get("fd") or {}).get("dirs"), title.startswith("∂f/∂x per"))
    return {"checked": finite(fd), "bad": int(sum(bad))}

def not_drawn_note(kind: str, data: dict) -> str:
    """'' when every value is finite, else which curves have NaN or inf where (those points are
    not drawn: without this a curve that is inf everywhere just is not there)."""
    parts = []
    drawn = DRAWN_VALUES.get(kind, ())
    if kind == "outputs":
        data = {**data, **{f"{pre}{i}": values[i] for i in range(len(data["names"]))
                           for pre, values in (("f", data["f"]), ("df", data["df"]))}}
        drawn = [(f"{pre}{i}", f"{label}f(x){name}") for i, name in enumerate(data["names"])
                 for pre, label in (("f", ""), ("df", "d/dx "))]
    for key, label in drawn:
        if data.get(key, ()) is None:  # a curve left out: the pane's own note says why
            continue
        v = np.asarray(data.get(key, ()), dtype=float).ravel()
        bad = {name: int(n) for name, n in (("nan", np.isnan(v).sum()), ("inf", np.isinf(v).sum())) if n}
        if bad:
            what = " and ".join(f"{name} at {n}" for name, n in bad.items())
            parts.append(f"{label} is {what} of its {v.size} points")
    if not parts:
        return ""
    return "Not drawn where not finite: " + "; ".join(parts) + "."


def fd_note(data: dict) -> list:
    """The finite-difference check's line (app.fd_check): red when the derivative is wrong."""
    check = data.get("fd")
    if not check:
        return []
    text, wrong = fd_check.note(check)
    if not text:
        return []
    body = "<br>".join(esc(line) for line in text.split("\n"))
    return [html(f'<p class="gp-fd {"gp-err" if wrong else "gp-muted"}">{body}</p>')]


def guess_note() -> str:
    """On a guessed input (common.guessed_input): why the plots may not apply, and the fix."""
    guess = common.current_guess()
    return f'<div class="gp-hint gp-guess-hint">{esc(common.guess_hint(*guess))}</div>' if guess else ""


def differentiated(a) -> list:
    """The other functions of the menu that the chosen one differentiates (`jax.grad(loss)` in a
    training step `update(params, x, y)`): a course's loss, whose plots the step does not have."""
    try:
        tree = ast.parse(a.code)
    except (SyntaxError, ValueError, TypeError):
        return []
    menu = {f.name for f in a.functions} - {a.function.name}
    found = []
    for node in ast.walk(tree):
        # `def step(...)`, or `step = jax.jit(lambda p, x, y: ... jax.grad(loss)(p, x, y))`
        defined = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == a.function.name
        assigned = isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == a.function.name
                                                        for t in node.targets)
        if not (defined or assigned):
            continue
        for call in ast.walk(node):
            if not (isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Name)):
                continue
            if called_name(call.func) in ("grad", "value_and_grad") \
                    and call.args[0].id in menu and call.args[0].id not in found:
                found.append(call.args[0].id)
    return found


def render(a, kept: Kept | None = None) -> list:
    """The pane's parts; `kept`: the last run's figures, drawn with this run's data where they fit."""
    if a.function is None:
        return [html('<p class="gp-muted">No function to plot yet.</p>')]
    data, kind = a.plot, a.plot_kind
    if kind is None:
        return [html('<p class="gp-muted">Plots apply to functions with float inputs and a number out (f, '
                     'its derivatives and gradient), and to vector outputs of one vector (the Jacobian). '
                     f'<code>{a.function.name}({a.args_source})</code> is none of these.'
                     + (f' {esc(data["why"])}' if data.get("why") else "") + '</p>'
                     + "".join(f'<p class="gp-hint gp-pick-loss">It differentiates <code>{esc(name)}</code>: pick '
                               f'{esc(name)} in the Function menu to plot it and its gradient.</p>'
                               for name in differentiated(a))
                     + guess_note())]
    if "error" in data:
        return [error_block(data["error"])]
    note = not_drawn_note(kind, data)
    sampled = pane_bounds.plotted_note(len(data["x"]), data["total"]) if "total" in data else ""
    return [*(kept or Kept()).figures(kind, data), *fd_note(data),
            *([html(f'<p class="gp-warn gp-skipped">{esc(data["skipped"])}</p>')] if data.get("skipped") else []),
            *([html(f'<p class="gp-warn">{esc(note)}</p>')] if note else []),
            *([html(f'<p class="gp-muted gp-sampled">{esc(sampled)}.</p>')] if sampled else []),
            code_block(data["code"])]
