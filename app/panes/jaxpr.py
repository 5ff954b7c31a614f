"""Jaxpr pane: JAX's text (highlighted) for f / grad / jit / vmap / jvp, the equation count,
a side-by-side diff of f vs grad(f), and the jaxpr as a dataflow graph."""
from __future__ import annotations

import re

import panel as pn
from bokeh.models import (ColumnDataSource, GraphRenderer, HoverTool, HTMLLabelSet, MultiLine, Scatter,
                          StaticLayoutProvider)
from bokeh.core.properties import value
from bokeh.plotting import figure

from .. import analysis, graph_layout, sourcemap
from . import common
from . import kernels as kernels_pane
from . import stepper as stepper_pane
from .common import CSS, bokeh, error_block, esc, html, readable, themed, tv
from .text_html import TextHTML, text_html

TOKEN = re.compile(r"(?P<k>\b(?:lambda|let|in)\b)|(?P<l>-?\d[\d.e+-]*:[a-z]+\d*\[[\d,]*\])"
                   r"|(?P<v>\b[a-z]{1,3}):(?P<t>[a-z]+\d*\[[\d,]*\])|(?P<p>(?<== )[a-z_]+\d*)")


def highlight(text: str) -> str:
    """JAX's jaxpr text as HTML with spans for keywords, variables, types, primitives, literals."""
    out, pos = [], 0
    for m in TOKEN.finditer(text):
        out.append(esc(text[pos:m.start()]))
        if m.group("k"):
            out.append(f'<span class="gp-jk">{esc(m.group("k"))}</span>')
        elif m.group("l"):
            out.append(f'<span class="gp-jl">{esc(m.group("l"))}</span>')
        elif m.group("v"):
            out.append(f'<span class="gp-jv">{esc(m.group("v"))}</span>:'
                       f'<span class="gp-jt">{esc(m.group("t"))}</span>')
        else:
            out.append(f'<span class="gp-jp">{esc(m.group("p"))}</span>')
        pos = m.end()
    out.append(esc(text[pos:]))
    return "".join(out)


def jaxpr_html(view: analysis.JaxprView) -> str:
    """The jaxpr, each equation's line marked with the line of code it came from (data-gp-src:
    the page links them to the editor, static/sourcemap.js)."""
    lines = sourcemap.mapped_lines(view.closed.jaxpr) if view.closed is not None else []
    if sourcemap.plain_text(lines) != view.text:  # not the jaxpr printed (never expected): no links
        return f'<pre class="gp-code gp-jaxpr">{highlight(view.text)}</pre>'
    tops = sourcemap.top_equations(lines)  # data-gp-eqn: the stepper lights and runs to an equation here
    if sum(k is not None for k in tops) != len(view.closed.jaxpr.eqns):
        tops = [None] * len(lines)
    html = [_line_html(ln, k) for ln, k in zip(lines, tops)]
    if len(html) <= 2 * BLOCK_LINES:
        return '<pre class="gp-code gp-jaxpr">' + "\n".join(html) + "</pre>"
    # a long jaxpr in blocks the browser renders only near the view (content-visibility): a change
    # to one line (the stepper's current equation) repaints its block, not a thousand lines
    blocks = ('<span class="gp-lines">' + "\n".join(html[i:i + BLOCK_LINES]) + "</span>"
              for i in range(0, len(html), BLOCK_LINES))
    return '<pre class="gp-code gp-jaxpr">' + "".join(blocks) + "</pre>"


BLOCK_LINES = 64  # a long jaxpr's lines per block (the line break between two blocks is the block's own)


def _line_html(ln, eqn: int | None) -> str:
    mark = f' data-gp-eqn="{eqn}"' if eqn is not None else ""
    if ln.src is not None:
        return f'<span class="gp-eqn" data-gp-src="{ln.src}" title="from line {ln.src}"{mark}>{highlight(ln.text)}</span>'
    return f'<span{mark}>{highlight(ln.text)}</span>' if mark else highlight(ln.text)


SOURCE_MAP_HINT = ('<p class="gp-muted gp-srchint">Source ↔ jaxpr: hover or click a line of your code and the '
                   'equations it produced light up; hover or click an equation and its line lights up in the editor. '
                   'In grad(f), each backward (cotangent) equation points at the line whose primal made it.</p>')
# an embed without the editor (readonly): the equations' tooltips name their lines, the full page links them
SOURCE_MAP_HINT_NO_EDITOR = ('<p class="gp-muted gp-srchint">Source ↔ jaxpr: hover an equation to see the line of '
                             'code it came from; open in gradpad to link each line of code to its equations.</p>')
SOURCE_MAP_CSS = themed(f""".gp-eqn {{ cursor: pointer; border-radius: 3px; }}
.gp-eqn:hover {{ outline: 1px dashed #eab308; }}
.gp-eqn.gp-lit {{ background: {tv("rgba(250, 204, 21, 0.35)", "rgba(250, 204, 21, 0.22)")}; }}
.gp-jp {{ cursor: help; }}  /* a click opens the primitive's rules (static/rules.js) */
.gp-lines {{ display: block; content-visibility: auto; contain-intrinsic-size: auto 1160px; }}  /* 64 lines */
.gp-jaxpr .gp-step-now, .gp-jaxpr .gp-step-now:hover {{ outline: 2px solid #f59e0b; border-radius: 3px; background: {tv("rgba(245, 158, 11, 0.18)", "rgba(245, 158, 11, 0.25)")}; }}""")


def diff_html(left: str, right: str) -> str:
    rows = ["<tr><th>make_jaxpr(f)</th><th>make_jaxpr(grad(f))</th></tr>"]
    for tag, a, b in analysis.side_by_side(left, right):
        cls = "" if tag == "equal" else tag
        rows.append(f'<tr><td class="{cls if a else ""}">{esc(a)}</td><td class="{cls if b else ""}">{esc(b)}</td></tr>')
    # its own horizontal scroll: long lines never widen the pane
    return f'<div style="overflow-x: auto; max-width: 100%;"><table class="gp-diff">{"".join(rows)}</table></div>'


KIND_COLOURS = {"input": "#2563eb", "const": "#64748b", "eqn": "#f59e0b", "output": "#16a34a"}
GROUP_COLOURS = ["#ef4444", "#8b5cf6", "#06b6d4", "#84cc16", "#f97316", "#ec4899", "#0ea5e9", "#a16207"]
UNFUSED = "#e5e7eb"  # an equation no kernel computes (only a layout change, or dead)


def kernel_colour(k: int) -> str:
    """A colour per kernel, none repeated: the palette, then hues a golden angle apart."""
    if k < len(GROUP_COLOURS):
        return GROUP_COLOURS[k]
    import colorsys
    r, g, b = colorsys.hls_to_rgb(((k - len(GROUP_COLOURS)) * 0.381966 + 0.07) % 1.0,
                                  0.42 + 0.16 * (k % 3) / 2, 0.75)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def node_colour(n: dict, with_kernels: bool) -> str:
    if n["group"] is not None:
        return kernel_colour(n["group"])
    return UNFUSED if with_kernels and n["kind"] == "eqn" else KIND_COLOURS[n["kind"]]


def kernel_legend(kernels, eqn_count: int) -> str:
    """'N kernels for M equations' and one swatch per kernel: its kind and what it fuses."""
    items = "".join(
        f'<span class="gp-kernel"><span class="gp-swatch" style="background:{kernel_colour(k)}"></span>'
        f'{k}: {esc(kernel.kind)} <code>{esc(kernel.label)}</code></span>' for k, kernel in enumerate(kernels))
    s = "s" if len(kernels) != 1 else ""
    return (f'<div class="gp-legend"><b>WebGPU: {len(kernels)} kernel{s} for {eqn_count} equation{"s" if eqn_count != 1 else ""}</b> '
            f'(colours: which fused kernel computes each equation; grey: none does, e.g. dead code)<br>{items}</div>')


LEGEND_CSS = """.gp-legend { font-size: 12px; } .gp-kernel { display: inline-block; margin: 2px 10px 2px 0; max-width: 100%; }
.gp-kernel code { white-space: normal; overflow-wrap: anywhere; }  /* long fused labels wrap, never widen the pane */
.gp-swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 4px;
  border: 1px solid #333; vertical-align: middle; }"""


# a one-row graph: its nodes right under the title, not centred in empty space; tall enough for
# the toolbar beside it (left, so that a wide graph scrolling in its box keeps its tools in view)
GRAPH_MIN_FRAME_PX = 130


def graph_spec(jaxpr, title: str, min_frame_px: int = GRAPH_MIN_FRAME_PX, kernels=None) -> dict:
    """What graph_figure draws, as plain data: the title, the frame's size, the ranges and the
    sources' columns. A kept figure takes a new jaxpr's spec as it is (Kept.graph), with no
    throwaway figure built for it (that was most of an f edit's render time in the Jaxpr tab)."""
    g = analysis.dataflow_graph(jaxpr, kernels)
    nodes = g["nodes"]
    ids = [n["id"] for n in nodes]
    xs = [n["x"] for n in nodes]
    ys = [n["y"] for n in nodes]
    width_px, height_px = graph_layout.figure_size(g["extent"])
    mx, my = graph_layout.MARGIN_LAYERS, graph_layout.MARGIN_ROWS
    x_range, y_range = [min(xs) - mx, max(xs) + mx], [min(ys) - my, max(ys) + my]
    if height_px < min_frame_px:  # a short graph: keep ROW_PX per row, centred
        extra = (min_frame_px - height_px) / graph_layout.ROW_PX / 2
        y_range = [y_range[0] - extra, y_range[1] + extra]
    if width_px < 160:
        extra = (160 - width_px) / graph_layout.LAYER_PX / 2
        x_range = [x_range[0] - extra, x_range[1] + extra]
    return {
        "title": title, "frame_width": max(width_px, 160), "frame_height": max(height_px, min_frame_px),
        "x_range": tuple(x_range), "y_range": tuple(y_range),
        "nodes": dict(index=ids, label=[n["label"] for n in nodes], kind=[n["kind"] for n in nodes],
                      colour=[node_colour(n, kernels is not None) for n in nodes],
                      kernel=["" if n["group"] is None else f'{n["group"]}: {kernels[n["group"]].kind}' for n in nodes],
                      group=[n["group"] for n in nodes]),
        "edges": dict(start=[s for s, _ in g["edges"]], end=[d for _, d in g["edges"]]),
        "layout": {n["id"]: (n["x"], n["y"]) for n in nodes},
        "labels": dict(x=xs, y=ys, text=[graph_layout.short_label(n["label"]) for n in nodes]),
    }


def graph_figure(jaxpr, title: str, min_frame_px: int = GRAPH_MIN_FRAME_PX, kernels=None):
    """The jaxpr as a left-to-right dataflow graph (Bokeh GraphRenderer), laid out in layers with
    a fixed slot per node (graph_layout) so labels never overlap; with `kernels` (the WebGPU plan)
    equations are coloured by the fused kernel that computes them. The plot frame is the layout's
    size (at least `min_frame_px` high), so a short graph stays short."""
    spec = graph_spec(jaxpr, title, min_frame_px, kernels)
    p = figure(title=title, frame_width=spec["frame_width"], frame_height=spec["frame_height"],
               sizing_mode="fixed", tools="pan,wheel_zoom,tap,reset", toolbar_location="left",
               x_range=spec["x_range"], y_range=spec["y_range"])
    p.width = p.height = None  # the frame's size decides (Bokeh's 600x600 default would win otherwise)
    p.toolbar.logo = None  # one slot less: the tools fit beside a one-row graph
    p.axis.visible = False
    p.grid.visible = False
    graph = GraphRenderer()
    graph.node_renderer.data_source.data = dict(spec["nodes"])
    graph.node_renderer.glyph = Scatter(size=16, fill_color="colour", line_color="#333")  # screen units
    graph.edge_renderer.data_source.data = dict(spec["edges"])
    graph.edge_renderer.glyph = MultiLine(line_color="#94a3b8", line_width=1.5)
    graph.layout_provider = StaticLayoutProvider(graph_layout=dict(spec["layout"]))
    p.renderers.append(graph)
    labels = ColumnDataSource(dict(spec["labels"]))
    # HTML labels: crisp at any zoom, and the page can measure them (tests: no two overlap)
    label_set = HTMLLabelSet(x="x", y="y", text="text", source=labels, text_font_size="10px",
                             text_font=value("monospace"), text_align="center", y_offset=10)
    common.theme_value(label_set, "text_color", "#1f2937", "#94a3b8")
    p.add_layout(label_set)
    p.add_tools(HoverTool(renderers=[graph.node_renderer], tooltips=[("", "@label"), ("kind", "@kind"),
                                                                               ("kernel", "@kernel")]))
    return p


# the graph's own box scrolls; the pane keeps its width (Bokeh would pass the figure's width up as a minimum)
GRAPH_BOX_CSS = ":host { min-width: 0 !important; max-width: 100% !important; width: 100% !important; overflow-x: auto; overflow-y: hidden; }"


def graph_box(fig) -> pn.Column:
    # the figure keeps its layout's size (labels never squeezed together); wider than the pane: it scrolls
    return pn.Column(bokeh(fig, sizing_mode="fixed"), sizing_mode="stretch_width", css_classes=["gp-graph"],
                     stylesheets=[GRAPH_BOX_CSS])


def _redraw(fig, spec: dict) -> None:
    """`fig` (a graph_figure already in the page) drawn as `spec` (graph_spec's): its title,
    size, ranges (the reset tool's too) and data sources; BokehJS then repaints one plot."""
    fig.title.text = spec["title"]
    fig.frame_width, fig.frame_height = spec["frame_width"], spec["frame_height"]
    for name in ("x_range", "y_range"):
        dst = getattr(fig, name)
        dst.start, dst.end = dst.reset_start, dst.reset_end = spec[name]
    graph = fig.renderers[-1]
    if graph.node_renderer.data_source.selected.indices:  # they were the old graph's nodes
        graph.node_renderer.data_source.selected.indices = []
    graph.node_renderer.data_source.data = dict(spec["nodes"])
    graph.edge_renderer.data_source.data = dict(spec["edges"])
    graph.layout_provider.graph_layout = dict(spec["layout"])
    labels = [m for m in fig.center if isinstance(m, HTMLLabelSet)][0]
    labels.source.data = dict(spec["labels"])


class Kept:
    """The pane's parts that outlive one run: the dataflow graph and the f-vs-grad card. A new
    jaxpr redraws the figure already in the page and swaps the card's text, so the pane's
    column keeps the same children (pane_updates swaps its HTML texts): no new Bokeh models, no
    page-wide relayout. Measured in the page (f edits, `python build.py bench page`): a new figure
    and new children kept the main thread busy over a second, Bokeh laying out every plot again.
    Only a theme change (its label colour) gets a new figure."""

    def __init__(self):
        self.fig = self.box = self.theme = None
        self.tapped = None  # what a click on a node does now (this run's kernel card)
        self.diff_cards: dict = {}  # view -> (card, its HTML)
        self.kernels = None  # the kernels card (kernels_pane.KernelCard)
        self.views_diff = None  # the "Diff two views" card (jaxpr_diff.DiffCard), made when first shown

    def two_views(self):
        if self.views_diff is None:
            from .jaxpr_diff import DiffCard  # (it imports highlight from here)
            self.views_diff = DiffCard()
        return self.views_diff

    def graph(self, jaxpr, title: str, kernels=None, on_tap=None) -> pn.Column:
        """The graph's box; `on_tap(groups)`: the handler for a tap on a node, given each node's kernel."""
        if self.fig is not None and self.theme == pn.config.theme:
            _redraw(self.fig, graph_spec(jaxpr, title, kernels=kernels))
        else:
            new = graph_figure(jaxpr, title, kernels=kernels)
            self.fig, self.box, self.theme = new, graph_box(new), pn.config.theme
            self.fig.renderers[-1].node_renderer.data_source.selected.on_change(
                "indices", lambda attr, old, indices: self.tapped and self.tapped(attr, old, indices))
        nodes = self.fig.renderers[-1].node_renderer.data_source
        self.tapped = on_tap(list(nodes.data["group"])) if on_tap else None
        return self.box

    def kernel_card(self, jv: analysis.JaxprView, webgpu_here: bool):
        if self.kernels is None:
            self.kernels = kernels_pane.KernelCard(jv, kernel_colour, webgpu_here)
        else:
            self.kernels.set_webgpu_here(webgpu_here)
            self.kernels.retarget(jv)
        return self.kernels

    def diff_card(self, text: str, view: str) -> pn.Card:
        if view not in self.diff_cards:
            # its own pane, not one text_html takes back from the column (a rebuild after an error
            # block): a pane taken back into another layout loses its model when the column lets go
            body = TextHTML(text, stylesheets=[CSS], sizing_mode="stretch_width")
            self.diff_cards[view] = (pn.Card(body, title="f vs grad(f), side by side", collapsed=view != "grad",
                                             sizing_mode="stretch_width"), body)
        card, body = self.diff_cards[view]
        if body.object != text:
            body.object = text
        return card


STAGE_VIEWS = {"grad": ("How grad is built: jvp → linearize → transpose", ("jvp", "linearized", "transposed")),
               "vmap": ("How vmap batches: each value's batch axis", ("batched",))}


def stages_card(stages, view: str) -> pn.Card:
    from . import stages as stages_pane  # it reuses highlight() from here
    title, names = STAGE_VIEWS[view]
    body = TextHTML(stages_pane.stages_html(stages, names), stylesheets=[CSS, stages_pane.STAGES_CSS, SOURCE_MAP_CSS],
                     sizing_mode="stretch_width")
    return pn.Card(body, title=title, sizing_mode="stretch_width", css_classes=["gp-how"])


def render(a: analysis.Analysis, view: str, editor: bool = True, kept: Kept | None = None) -> list:
    """The pane's parts for `view`; `editor`: the page shows the code beside it (not a readonly embed);
    `kept`: the parts of the last run, updated in place for this one."""
    kept = kept or Kept()
    jv = a.jaxprs.get(view)
    if jv is None:
        return [html('<p class="gp-muted">Run some code that defines a function to see its jaxpr.</p>')]
    code = analysis.view_code(view, a.args_source, a.has_aux)
    guess = common.current_guess()
    head = html(f'<span class="gp-badge">{esc(code)}</span>'
                + (f'<span class="gp-badge gp-guess-note">guessed input {esc(guess[1])}</span>' if guess else "")
                + (f'<span class="gp-badge gp-eqns">{jv.eqn_count} equation{"s" if jv.eqn_count != 1 else ""}</span>'
                   if jv.error is None else ""))
    if jv.error is not None:
        if view != "grad" or not a.stages:
            return [head, error_block(jv.error)]
        # grad(f) itself fails (e.g. f returns a vector): one sentence says why, the stages still teach
        why = readable(jv.error.message.strip().splitlines()[0]) if jv.error.message.strip() else jv.error.type
        parts = [head, html(f'<p class="gp-hint">grad(f) cannot be built here: {esc(why)} The stages below are '
                            'built anyway; the backward pass starts from a cotangent of ones (the gradient of '
                            'sum(f(x))).</p>'), stages_card(a.stages, view)]
        return parts
    hint = SOURCE_MAP_HINT if editor else SOURCE_MAP_HINT_NO_EDITOR
    parts = [head, text_html(hint + jaxpr_html(jv), stylesheets=[CSS, SOURCE_MAP_CSS],
                             sizing_mode="stretch_width"), stepper_pane.slot(a, view)]
    if view in STAGE_VIEWS and a.stages:
        parts.append(stages_card(a.stages, view))
    f_view, g_view = a.jaxprs.get("f"), a.jaxprs.get("grad")
    if f_view and g_view and f_view.error is None and g_view.error is None:
        parts.append(kept.diff_card(diff_html(f_view.text, g_view.text), view))
    parts.append(kept.two_views().card)
    title = "dataflow graph of f" if view == "f" else f"dataflow graph of {view}(f)"
    card = None
    if jv.kernels is not None:
        parts.append(text_html(kernel_legend(jv.kernels, jv.eqn_count), stylesheets=[CSS, LEGEND_CSS],
                               sizing_mode="stretch_width"))
        card = kept.kernel_card(jv, "webgpu" in analysis.available_backends())
    elif jv.kernels_note:
        parts.append(html(f'<p class="gp-muted">{esc(jv.kernels_note)}</p>'))
    # clicking a kernel's node shows its WGSL
    parts.append(kept.graph(jv.closed.jaxpr, title, kernels=jv.kernels,
                            on_tap=card.on_graph_tap if card is not None else None))
    if card is not None:
        parts.append(card.card)
    return parts
