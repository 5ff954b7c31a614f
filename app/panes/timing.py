"""Timing pane: eager vs jit (first call broken into trace and compile + run, then steady
state) as medians with min-max bars, one chart per backend side by side (CPU numpy, and WebGPU
when it has an adapter), plus retrace and kernel counts.

A backend still being measured shows "measuring…": the app renders this pane again when its
numbers arrive (app.main: timings come after every other pane; in the browser WebGPU's are read
back asynchronously, never blocking the page)."""
from __future__ import annotations

import math

import panel as pn
from bokeh.models import ColumnDataSource, HoverTool, LogTicker, Range1d, Whisker
from bokeh.plotting import figure

from .. import pane_bounds
from . import common
from .common import bokeh, error_block, esc, fmt_seconds, html
from .plots import set_range

BACKEND_TITLES = {"cpu": "CPU (numpy)", "webgpu": "WebGPU"}
BAR_COLOURS = {"cpu": "#60a5fa", "webgpu": "#f97316"}
# one column per backend, side by side where there is room, stacked on a phone
ROW_CSS = ":host { flex-wrap: wrap; min-width: 0 !important; }"
COLUMN_CSS = ":host { flex: 1 1 300px !important; min-width: 260px; }"


BAR_NAMES = ("eager", "jit, first call", "jit, steady state")


def bars(t: dict) -> dict:
    """name -> (median, min, max) in seconds."""
    first = t["jit_first"]["total"]
    return {BAR_NAMES[0]: (t["eager"]["median"], t["eager"]["min"], t["eager"]["max"]),
            BAR_NAMES[1]: (first, first, first),
            BAR_NAMES[2]: (t["jit_steady"]["median"], t["jit_steady"]["min"], t["jit_steady"]["max"])}


def shared_bounds(results) -> tuple:
    """One log-scale millisecond axis for every backend, so the bars compare across charts; from
    a power of ten to a power of ten, at least one decade apart: the ticks are then whole decades.
    (Inside one decade the log ticker labels 50, 60, 70, 80 ... and at a phone's width those
    labels ran together, "607080".)"""
    values = [v * 1e3 for t in results for b in bars(t).values() for v in b if v > 0]
    if not values:
        return 1e-3, 1.0
    lo, hi = math.floor(math.log10(min(values) / 2)), math.ceil(math.log10(max(values) * 2))
    return 10.0 ** lo, 10.0 ** max(hi, lo + 1)


def shared_range(results) -> Range1d:
    return Range1d(*shared_bounds(results))


WHISKER_COLOUR = {"light": "black", "dark": "#e5e7eb"}  # each bar's min-max line, readable on its figure


def new_timing(backend: str, x_range: Range1d, height: int = 220):
    src = ColumnDataSource(dict(name=[], median=[], lo=[], hi=[], label=[]))
    names = list(BAR_NAMES)
    p = figure(y_range=names[::-1], height=height, sizing_mode="stretch_width", x_axis_type="log",
               x_range=x_range, tools="reset,save",
               title="ms per call (log scale)")  # the backend is in the column head, samples under it
    # few labels: a phone's chart is ~250 px wide, and "10⁻²" labels a decade apart fit it
    p.xaxis.ticker = LogTicker(desired_num_ticks=4, num_minor_ticks=10)
    # a thin space before each bar's name: the "j" of "jit" reaches left of its text box, and the
    # axis' labels end at the canvas' left edge, so its hook was cut off
    p.yaxis.major_label_overrides = {name: "\u2009" + name for name in names}
    # log axis: bars start at the axis' left edge (0 has no place on it; draw_timing sets it)
    p.hbar(y="name", right="median", left=x_range.start, height=0.5, source=src,
           color=BAR_COLOURS.get(backend, "#60a5fa"), name="median")
    whisker = Whisker(base="name", lower="lo", upper="hi", source=src, dimension="width")
    # Bokeh's dark theme leaves a whisker black: on the dark figure its min-max line was unseen
    for part in (whisker, whisker.lower_head, whisker.upper_head):
        common.theme_value(part, "line_color", WHISKER_COLOUR["light"], WHISKER_COLOUR["dark"])
    p.add_layout(whisker)
    p.add_tools(HoverTool(tooltips=[("", "@name"), ("median", "@label"), ("min", "@lo{0.000} ms"),
                                    ("max", "@hi{0.000} ms")]))
    return p


def draw_timing(p, t: dict | None) -> None:
    """The bars of `t` (None: none, while it is measured again) from the left edge of the x range."""
    bar = next(r for r in p.renderers if r.name == "median")
    b = bars(t) if t else {}
    ms = lambda s: s * 1e3  # noqa: E731
    bar.data_source.data = dict(name=list(b), median=[ms(v[0]) for v in b.values()],
                                lo=[ms(v[1]) for v in b.values()], hi=[ms(v[2]) for v in b.values()],
                                label=[fmt_seconds(v[0]) for v in b.values()])
    if bar.glyph.left != p.x_range.start:
        bar.glyph.left = p.x_range.start


def timing_figure(t: dict, height: int = 220, x_range=None):
    p = new_timing(t["backend"], x_range or shared_range([t]), height)
    draw_timing(p, t)
    return p


def sample_note(t: dict) -> str:
    """How the per-call times were taken, e.g. 'median of 7 samples × 200 calls (jit)'."""
    e, j = t["eager"], t["jit_steady"]
    if e["n"] == 1 or j["n"] == 1:  # a slow f (analysis.ONE_CALL_TIMING_S): no samples of several calls
        each = lambda m: "timing measured on 1 call" if m["n"] == 1 else f"median of {m['n']} samples × {m.get('calls', 1)} calls"  # noqa: E731
        return (f"{each(e)} (eager), {each(j)} (jit): a call takes over "
                f"{fmt_seconds(pane_bounds.ONE_CALL_TIMING_S)}, so it is not repeated")
    length = f", samples sized to last ≥ {fmt_seconds(t['sample_s'])}" if t.get("sample_s") else ""  # >= 20 timer steps
    return (f"median of {e['n']} samples × {e.get('calls', 1)} calls (eager), {j['n']} × {j.get('calls', 1)} (jit)"
            + length)


def speedup(t: dict) -> float:
    return t["eager"]["median"] / t["jit_steady"]["median"]


def first_call_text(t: dict) -> str:
    """The first jit call split into tracing and compile + run; when tracing alone (timed on a
    fresh jit) took about as long as the whole first call, the split is below what the timer
    resolves and saying "compile & run 0.0 µs" would be false."""
    f = t["jit_first"]
    resolvable = max(t.get("clock_step", 0.0), 0.02 * f["total"])
    if f["compile_and_run"] <= resolvable:
        return f"first call {fmt_seconds(f['total'])}, nearly all tracing (compile &amp; run too quick to time apart)"
    return (f"first call {fmt_seconds(f['total'])} = trace {fmt_seconds(f['trace'])}"
            f" + compile &amp; run {fmt_seconds(f['compile_and_run'])}")


def facts_html(t: dict) -> str:
    ratio = speedup(t)
    verdict = "jit is faster" if ratio > 1.1 else ("jit is slower here" if ratio < 0.9 else "about the same")
    if (t["eager"]["n"] == 1 or t["jit_steady"]["n"] == 1) and 0.5 <= ratio <= 2:
        # one slow call each (a 1000x1000 matmul): one call's time varies this much from run to
        # run, so "jit is faster" would be read off noise
        verdict = "from 1 call each: within 2×, too close to call"
    host = f' + {t["host_steps"]} host step{"s" if t["host_steps"] != 1 else ""}' if t.get("host_steps") else ""
    return (f'<span class="gp-badge gp-speedup">jit speed-up {ratio:.2g}× ({verdict})</span>'
            f'<span class="gp-badge gp-first">{first_call_text(t)}</span>'
            f'<span class="gp-badge">traces: {t["retraces"]}</span>'
            f'<span class="gp-badge gp-kernels">{t["eqn_count"]} equation{"s" if t["eqn_count"] != 1 else ""}'
            f' → {t["kernels"]} kernel'
            f'{"s" if t["kernels"] != 1 else ""}{host}</span>'
            + f'<div class="gp-muted gp-samples">{esc(sample_note(t))}; first call: 1 call'
            + (f' (timer step {fmt_seconds(t["clock_step"])})' if t.get("clock_step", 0) >= 1e-5 else "")
            + '</div>'
            + (f'<div class="gp-hint">{esc(t["note"])}</div>' if t.get("note") else ""))


def backend_column(t: dict, x_range=None) -> pn.Column:
    return Kept().column(t.get("backend"), t, x_range or (shared_range([t]) if "eager" in t else Range1d(1e-3, 1)))


def backends_row(per: dict) -> pn.Row:
    return Kept().row(per)


class Kept:
    """The timing charts of the last run, one column per backend, drawn again with the next
    run's numbers: the page gets new data for models it has (a new chart makes BokehJS lay the
    whole page out again, hundreds of ms of the page's main thread). While a backend is measured
    again its chart is emptied (never the last function's bars under this one's name)."""

    def __init__(self):
        self.models = None  # (backends, theme) of the kept row
        self.x_range = Range1d(1e-3, 1)  # shared by every backend's chart
        self.heads: dict = {}   # backend -> the column's head (HTML)
        self.charts: dict = {}  # backend -> (figure, its pane)
        self.columns: dict = {}
        self.row_ = None

    def row(self, per: dict) -> pn.Row:
        models = (tuple(per), pn.config.theme)
        if models != self.models:
            self.__init__()
            self.models = models
        done = [t for t in per.values() if "eager" in t]
        if done:
            set_range(self.x_range, *shared_bounds(done))
        columns = [self.column(b, t, self.x_range) for b, t in per.items()]
        if self.row_ is None:
            self.row_ = pn.Row(*columns, sizing_mode="stretch_width", stylesheets=[ROW_CSS])
        return self.row_

    def column(self, backend: str, t: dict, x_range: Range1d) -> pn.Column:
        title = esc(BACKEND_TITLES.get(backend, backend))
        head = self.heads.get(backend) or self.heads.setdefault(backend, html(""))
        chart = self.charts.get(backend)
        if t.get("pending"):
            text, parts = f'<b>{title}</b> <span class="gp-muted">measuring…</span>', [head]
            if chart is not None:  # kept, emptied: the column keeps its children and its height
                draw_timing(chart[0], None)
                parts.append(chart[1])
        elif t.get("unavailable"):  # not measurable in this page (analysis.timing.NEEDS_SYNC_READ)
            text, parts = f'<b>{title}</b> <span class="gp-muted gp-unmeasured">{esc(t["unavailable"])}</span>', [head]
        elif t.get("error") is not None:
            message = getattr(t["error"], "message", "")
            if message.startswith("Unable to initialize backend"):  # no adapter here: not the user's error
                text, parts = f'<b>{title}</b> <span class="gp-muted">not available: {esc(message)}</span>', [head]
            else:
                text, parts = f"<b>{title}</b>", [head, error_block(t["error"])]
        else:
            text = f"<b>{title}</b> <span class='gp-muted'>{esc(t.get('device', ''))}</span><br>" + facts_html(t)
            if chart is None:
                fig = new_timing(backend, x_range)
                chart = self.charts[backend] = (fig, bokeh(fig, sizing_mode="stretch_width"))
            draw_timing(chart[0], t)
            parts = [head, chart[1]]
        if head.object != text:
            head.object = text
        column = self.columns.get(backend)
        if column is None:
            column = self.columns[backend] = pn.Column(*parts, sizing_mode="stretch_width", stylesheets=[COLUMN_CSS])
        elif [id(o) for o in column.objects] != [id(o) for o in parts]:
            column.objects = parts
        return column


def reused_note(run: int) -> str:
    """Said over timings taken in an earlier run: this edit left f, its input and the backend as
    they were (app.main.Playground._reuse_timing), so they were not measured again."""
    return (f'<p class="gp-hint gp-reused">Measured in run {run}: this edit left f, its input and the '
            'backend unchanged, so the same program was not timed again. ▶ Run measures afresh.</p>')


def render(a, measuring_note_shown: bool = False, kept: Kept | None = None) -> list:
    """The pane's parts; `measuring_note_shown`: the app shows "measuring…" itself; `kept`: the
    last run's charts, drawn with these numbers."""
    t = a.timing
    if not t:
        return [html('<p class="gp-muted">No function to time yet.</p>')]
    if t.get("pending") and not t.get("backends"):  # the other panes come first; this one follows
        return [] if measuring_note_shown else [html('<p class="gp-muted">measuring eager vs jit…</p>')]
    per = t.get("backends") or {t.get("backend", "cpu"): t}
    if t.get("error") is not None and not any("eager" in r for r in per.values()):
        return [error_block(t["error"])]
    row = (kept or Kept()).row(per)
    scale = t.get("scale", 1)
    size = html(f'<p class="gp-muted">problem size ×{scale}: ' + (
        f'<code>jax.vmap(f)</code> over {scale} copies of the input, eager vs jit</p>' if scale > 1 else
        'f on its input; larger sizes batch it with <code>jax.vmap</code> to show where jit starts to win</p>'))
    if t.get("reused_from") is not None:  # in the same HTML pane: the pane keeps its models
        size.object = reused_note(t["reused_from"]) + size.object
    return [row, size, html('<p class="gp-muted">Each backend runs on its own device (inputs are '
                      '<code>jax.device_put</code> there). Steady-state jit calls skip Python entirely: the '
                      'traced program is cached per input shape and dtype, so "traces" stays 1 however often '
                      'it runs. On WebGPU, jit fuses the jaxpr into few kernels; eager launches one per '
                      'operation.</p>')]
