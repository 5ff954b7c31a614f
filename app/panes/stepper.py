"""The Jaxpr pane's stepper: a slot under the jaxpr with a start button. The page
(static/stepper.js) asks for the steps once (page API "stepper" -> `steps_for`), then walks them
by lookup alone: next / previous / step over / run to a clicked equation, each step's values,
its equation lit in the listing and its line lit in the editor.

The slot carries a token of what it steps (the view, its jaxpr text, the input's values): a run
that changes any of them changes the slot's text, so the page drops a stepper of an earlier
program, and `steps_for` refuses a token that is no longer the pane's."""
from __future__ import annotations

from .. import analysis, pane_updates, sandbox, stepper
from .common import CSS, esc, themed, tv
from .text_html import text_html

LABELS = {"f": "f", "grad": "grad(f)", "jit": "jit(f)", "vmap": "vmap(f)", "jvp": "jvp(f)"}
TRACE_BUDGET_S = 30.0
_last: dict = {}  # token -> the page's JSON (a second start of the same stepper costs nothing)


def token(a: analysis.Analysis, view: str) -> str:
    jv = a.jaxprs.get(view)
    return pane_updates.fingerprint(view, jv.text if jv else "", a.args_source, a.args).hex()


def slot_html(view: str, tok: str) -> str:
    label = LABELS.get(view, view)
    hint = {"grad": " The forward pass comes first, then the backward pass: each cotangent as it arrives.",
            "jvp": " Each primal and its tangent are computed side by side.",
            "vmap": " The inputs are the batched (stacked) ones."}.get(view, "")
    return (f'<div class="gp-stepper" data-gp-view="{esc(view)}" data-gp-token="{esc(tok)}">'
            f'<button type="button" class="gp-step-start">▶ Step through {esc(label)} with its values</button> '
            f'<span class="gp-muted gp-step-hint">Evaluates this jaxpr one equation at a time with the engine’s '
            f'interpreter; loops and branches are stepped into.{esc(hint)} Click a primitive’s name in a '
            f'jaxpr to read its rules.</span></div>')


STEPPER_CSS = themed(f"""
.gp-stepper {{ font-size: 13px; margin: 4px 0; }}
.gp-step-start, .gp-step-bar button {{ font: inherit; padding: 3px 10px; border-radius: 6px; cursor: pointer;
  border: 1px solid {tv("#94a3b8", "#475569")}; background: {tv("#f8fafc", "#1e293b")}; color: {tv("#0f172a", "#e2e8f0")}; }}
.gp-step-start:focus-visible, .gp-step-bar button:focus-visible {{ outline: 2px solid #2563eb; outline-offset: 1px; }}
.gp-step-bar {{ display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }}
.gp-step-pos {{ font-variant-numeric: tabular-nums; }}
.gp-step-body {{ display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; }}  /* the listing full width: lines whole */
.gp-step-list {{ margin: 0; padding: 0; list-style: none; max-height: 240px; overflow: auto; font-family: monospace;
  font-size: 12px; border: 1px solid {tv("#e2e8f0", "#334155")}; border-radius: 6px; }}
.gp-step-list li {{ padding: 1px 6px; white-space: pre; cursor: pointer; border-left: 3px solid transparent; }}
.gp-step-list li.gp-back {{ border-left-color: #c026d3; }}
.gp-step-list li.gp-inner {{ color: {tv("#475569", "#94a3b8")}; }}
.gp-step-list li.gp-now {{ background: {tv("rgba(250, 204, 21, 0.45)", "rgba(250, 204, 21, 0.25)")}; }}
.gp-step-list li .gp-where {{ color: #64748b; font-style: italic; }}
/* the boxes a step changes have a fixed size: a step lays out nothing outside them (static/stepper.js) */
.gp-step-vals {{ min-width: 0; overflow-wrap: anywhere; height: 300px; overflow: auto; contain: strict; }}
.gp-step-graph {{ height: 160px; overflow: auto; contain: strict; border-top: 1px solid {tv("#e2e8f0", "#334155")}; }}
.gp-step-graph p {{ margin: 4px 0; }}
.gp-bg-edge {{ stroke: #94a3b8; stroke-width: 1.5; }}
.gp-bg-node circle {{ stroke: #333; stroke-width: 1; fill: #f59e0b; }}
.gp-bg-input circle {{ fill: #2563eb; }} .gp-bg-const circle {{ fill: #64748b; }} .gp-bg-output circle {{ fill: #16a34a; }}
.gp-bg-node text {{ font: 10px monospace; fill: {tv("#1f2937", "#cbd5e1")}; }}
.gp-bg-node.gp-bg-now circle {{ stroke: #dc2626; stroke-width: 4; r: 9px; }}
.gp-bg-node.gp-bg-now text {{ font-weight: bold; }}
.gp-step-vals h4 {{ margin: 4px 0; font-size: 13px; }}
.gp-step-vals .gp-jp {{ cursor: help; text-decoration: underline dotted; }}
.gp-step-vals pre {{ white-space: pre-wrap; margin: 2px 0 6px; font-size: 12px; }}
.gp-val {{ display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 3px 0; font-family: monospace; font-size: 12px; }}
.gp-val .gp-vn {{ font-weight: bold; }}
.gp-val svg {{ flex: none; }}
.gp-tag {{ display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; background: {tv("#f5d0fe", "#4a044e")}; color: {tv("#701a75", "#f5d0fe")}; }}
.gp-tag.gp-fwd {{ background: {tv("#dbeafe", "#1e3a8a")}; color: {tv("#1e3a8a", "#dbeafe")}; }}
""")



def slot(a: analysis.Analysis, view: str):
    return text_html(slot_html(view, token(a, view)), stylesheets=[CSS, STEPPER_CSS], sizing_mode="stretch_width")


def steps_for(a: analysis.Analysis | None, view: str | None, tok: str | None) -> dict:
    """The steps of the jaxpr the pane shows for `view`, as JSON-able data (or {"error": ...})."""
    if a is None or view not in a.jaxprs:
        return {"error": "Run some code that defines a function first."}
    jv = a.jaxprs[view]
    if jv.error is not None or jv.closed is None:
        return {"error": f"{LABELS.get(view, view)} has no jaxpr here: {jv.error.message if jv.error else ''}".strip()}
    if tok != token(a, view):
        return {"error": "The code or its input changed since this stepper was shown: press the button again.",
                "stale": True}
    if tok in _last:
        return _last[tok]
    # the learner's function runs again here: under the run's time budget, and Stop ends it
    data, err = sandbox.guarded_call(lambda: stepper.trace(jv, a.args).to_json(), seconds=TRACE_BUDGET_S)
    if err is not None:
        return {"error": f"evaluating the jaxpr step by step failed: {err.type}: {err.message.strip()}"}
    _last.clear()
    _last[tok] = data
    return data
