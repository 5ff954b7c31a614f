"""Timing pane: eager vs jit (first call broken into trace and compile + run, then steady
state) as medians with min-max bars, plus retrace and kernel counts."""
from __future__ import annotations

import panel as pn
from bokeh.models import ColumnDataSource, HoverTool, Whisker
from bokeh.plotting import figure

from .common import error_block, fmt_seconds, html


def bars(t: dict) -> dict:
    """name -> (median, min, max) in seconds."""
    first = t["jit_first"]["total"]
    return {"eager": (t["eager"]["median"], t["eager"]["min"], t["eager"]["max"]),
            "jit, first call": (first, first, first),
            "jit, steady state": (t["jit_steady"]["median"], t["jit_steady"]["min"], t["jit_steady"]["max"])}


def timing_figure(t: dict, height: int = 220):
    b = bars(t)
    names = list(b)
    ms = lambda s: s * 1e3  # noqa: E731
    src = ColumnDataSource(dict(name=names, median=[ms(v[0]) for v in b.values()],
                                lo=[ms(v[1]) for v in b.values()], hi=[ms(v[2]) for v in b.values()],
                                label=[fmt_seconds(v[0]) for v in b.values()]))
    p = figure(y_range=names[::-1], height=height, sizing_mode="stretch_width", x_axis_type="log",
               title=f"median of {t['repeats']} calls, {t['backend']} backend (ms, log scale)",
               tools="reset,save")
    p.hbar(y="name", right="median", left=1e-4, height=0.5, source=src, color="#60a5fa", name="median")
    p.add_layout(Whisker(base="name", lower="lo", upper="hi", source=src, dimension="width"))
    p.add_tools(HoverTool(tooltips=[("", "@name"), ("median", "@label"), ("min", "@lo{0.000} ms"),
                                    ("max", "@hi{0.000} ms")]))
    return p


def render(a) -> list:
    t = a.timing
    if not t:
        return [html('<p class="gp-muted">No function to time yet.</p>')]
    if t.get("error") is not None:
        return [error_block(t["error"])]
    f = t["jit_first"]
    speedup = t["eager"]["median"] / t["jit_steady"]["median"] if t["jit_steady"]["median"] else float("nan")
    facts = (f'<span class="gp-badge">jit speed-up {speedup:.1f}×</span>'
             f'<span class="gp-badge">first call {fmt_seconds(f["total"])} = trace {fmt_seconds(f["trace"])}'
             f' + compile &amp; run {fmt_seconds(f["compile_and_run"])}</span>'
             f'<span class="gp-badge">traces: {t["retraces"]}</span>'
             f'<span class="gp-badge">{t["eqn_count"]} equations → {t["kernels"]} kernel'
             f'{"s" if t["kernels"] != 1 else ""}</span>')
    return [html(facts), pn.pane.Bokeh(timing_figure(t), sizing_mode="stretch_width"),
            html('<p class="gp-muted">Steady-state jit calls skip Python entirely: the traced program is '
                 'cached per input shape and dtype, so "traces" stays 1 however often it runs.</p>')]
