"""Timing pane: eager vs jit (first call broken into trace and compile + run, then steady
state) as medians with min-max bars, one chart per backend side by side (CPU numpy, and WebGPU
when it has an adapter), plus retrace and kernel counts.

A backend still being measured shows "measuring…": the app renders this pane again when its
numbers arrive (app.main: timings come after every other pane; in the browser WebGPU's are read
back asynchronously, never blocking the page)."""
from __future__ import annotations

import panel as pn
from bokeh.models import ColumnDataSource, HoverTool, Range1d, Whisker
from bokeh.plotting import figure

from .common import bokeh, error_block, esc, fmt_seconds, html

BACKEND_TITLES = {"cpu": "CPU (numpy)", "webgpu": "WebGPU"}
BAR_COLOURS = {"cpu": "#60a5fa", "webgpu": "#f97316"}
# one column per backend, side by side where there is room, stacked on a phone
ROW_CSS = ":host { flex-wrap: wrap; min-width: 0 !important; }"
COLUMN_CSS = ":host { flex: 1 1 300px !important; min-width: 260px; }"


def bars(t: dict) -> dict:
    """name -> (median, min, max) in seconds."""
    first = t["jit_first"]["total"]
    return {"eager": (t["eager"]["median"], t["eager"]["min"], t["eager"]["max"]),
            "jit, first call": (first, first, first),
            "jit, steady state": (t["jit_steady"]["median"], t["jit_steady"]["min"], t["jit_steady"]["max"])}


def shared_range(results) -> Range1d:
    """One log-scale millisecond axis for every backend, so the bars compare across charts."""
    values = [v * 1e3 for t in results for b in bars(t).values() for v in b]
    return Range1d(min(values) / 2, max(values) * 2)


def timing_figure(t: dict, height: int = 220, x_range=None):
    b = bars(t)
    names = list(b)
    ms = lambda s: s * 1e3  # noqa: E731
    src = ColumnDataSource(dict(name=names, median=[ms(v[0]) for v in b.values()],
                                lo=[ms(v[1]) for v in b.values()], hi=[ms(v[2]) for v in b.values()],
                                label=[fmt_seconds(v[0]) for v in b.values()]))
    x_range = x_range or shared_range([t])
    p = figure(y_range=names[::-1], height=height, sizing_mode="stretch_width", x_axis_type="log",
               x_range=x_range, tools="reset,save",
               title="ms per call (log scale)")  # the backend is in the column head, samples under it
    # log axis: bars start at the axis' left edge (0 has no place on it)
    p.hbar(y="name", right="median", left=x_range.start, height=0.5, source=src,
           color=BAR_COLOURS.get(t["backend"], "#60a5fa"), name="median")
    p.add_layout(Whisker(base="name", lower="lo", upper="hi", source=src, dimension="width"))
    p.add_tools(HoverTool(tooltips=[("", "@name"), ("median", "@label"), ("min", "@lo{0.000} ms"),
                                    ("max", "@hi{0.000} ms")]))
    return p


def sample_note(t: dict) -> str:
    """How the per-call times were taken, e.g. 'median of 7 samples × 200 calls (jit)'."""
    e, j = t["eager"], t["jit_steady"]
    return f"median of {e['n']} samples × {e.get('calls', 1)} calls (eager), {j['n']} × {j.get('calls', 1)} (jit)"


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
    f = t["jit_first"]
    ratio = speedup(t)
    verdict = "jit is faster" if ratio > 1.1 else ("jit is slower here" if ratio < 0.9 else "about the same")
    host = f' + {t["host_steps"]} host step{"s" if t["host_steps"] != 1 else ""}' if t.get("host_steps") else ""
    return (f'<span class="gp-badge gp-speedup">jit speed-up {ratio:.2g}× ({verdict})</span>'
            f'<span class="gp-badge gp-first">{first_call_text(t)}</span>'
            f'<span class="gp-badge">traces: {t["retraces"]}</span>'
            f'<span class="gp-badge gp-kernels">{t["eqn_count"]} equations → {t["kernels"]} kernel'
            f'{"s" if t["kernels"] != 1 else ""}{host}</span>'
            + f'<div class="gp-muted gp-samples">{esc(sample_note(t))}; first call: 1 call'
            + (f' (timer step {fmt_seconds(t["clock_step"])})' if t.get("clock_step", 0) >= 1e-5 else "")
            + '</div>'
            + (f'<div class="gp-hint">{esc(t["note"])}</div>' if t.get("note") else ""))


def backend_column(t: dict, x_range=None) -> pn.Column:
    title = BACKEND_TITLES.get(t.get("backend"), t.get("backend"))
    if t.get("pending"):
        return pn.Column(html(f'<b>{esc(title)}</b> <span class="gp-muted">measuring…</span>'),
                         sizing_mode="stretch_width")
    if t.get("error") is not None:
        message = getattr(t["error"], "message", "")
        if message.startswith("Unable to initialize backend"):  # no adapter here: not the user's error
            return pn.Column(html(f'<b>{esc(title)}</b> <span class="gp-muted">not available: {esc(message)}</span>'),
                             sizing_mode="stretch_width")
        return pn.Column(html(f"<b>{esc(title)}</b>"), error_block(t["error"]), sizing_mode="stretch_width")
    return pn.Column(html(f"<b>{esc(title)}</b> <span class='gp-muted'>{esc(t.get('device', ''))}</span><br>"
                          + facts_html(t)),
                     bokeh(timing_figure(t, x_range=x_range), sizing_mode="stretch_width"),
                     sizing_mode="stretch_width", stylesheets=[COLUMN_CSS])


def backends_row(per: dict) -> pn.Row:
    done = [t for t in per.values() if "eager" in t]
    x_range = shared_range(done) if done else None
    return pn.Row(*[backend_column(t, x_range) for t in per.values()], sizing_mode="stretch_width",
                  stylesheets=[ROW_CSS])


def render(a, measuring_note_shown: bool = False) -> list:
    """The pane's parts; `measuring_note_shown`: the app shows "measuring…" itself."""
    t = a.timing
    if not t:
        return [html('<p class="gp-muted">No function to time yet.</p>')]
    if t.get("pending") and not t.get("backends"):  # the other panes come first; this one follows
        return [] if measuring_note_shown else [html('<p class="gp-muted">measuring eager vs jit…</p>')]
    per = t.get("backends") or {t.get("backend", "cpu"): t}
    if t.get("error") is not None and not any("eager" in r for r in per.values()):
        return [error_block(t["error"])]
    row = backends_row(per)
    scale = t.get("scale", 1)
    size = html(f'<p class="gp-muted">problem size ×{scale}: ' + (
        f'<code>jax.vmap(f)</code> over {scale} copies of the input, eager vs jit</p>' if scale > 1 else
        'f on its input; larger sizes batch it with <code>jax.vmap</code> to show where jit starts to win</p>'))
    return [row, size, html('<p class="gp-muted">Each backend runs on its own device (inputs are '
                      '<code>jax.device_put</code> there). Steady-state jit calls skip Python entirely: the '
                      'traced program is cached per input shape and dtype, so "traces" stays 1 however often '
                      'it runs. On WebGPU, jit fuses the jaxpr into few kernels; eager launches one per '
                      'operation.</p>')]
