"""'How grad is built' / 'How vmap batches': each stage's jaxpr with one sentence, side by side on
wide screens and stacked on narrow ones (a CSS grid), residuals and batch axes marked."""
from __future__ import annotations

import re

from .common import esc
from .jaxpr import highlight

TITLES = {"jvp": "1 · jvp", "linearized": "2 · linearized", "transposed": "3 · transposed (backward)",
          "batched": "vmap(f): the batched jaxpr"}
STAGES_CSS = """.gp-stages { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 8px; }
.gp-stage { border: 1px solid #cbd5e1; border-radius: 6px; padding: 6px; min-width: 0; }
.gp-stage h4 { margin: 0 0 4px 0; font-size: 13px; } .gp-stage pre { overflow-x: auto; font-size: 11px; }
.gp-res { background: #fde68a; color: #78350f; border-radius: 3px; padding: 0 2px; font-weight: bold; }
.gp-axis { color: #7c3aed; font-style: italic; }"""
RESIDUAL_SPAN = '<span class="gp-jv">{name}</span>'
BINDER = re.compile(r"\b([a-z]+):[a-z]+\d*\[[\d,]*\]")


def _mark_residuals(body: str, residuals) -> str:
    for name in residuals:
        body = body.replace(RESIDUAL_SPAN.format(name=name), f'<span class="gp-jv gp-res" title="residual">{name}</span>')
    return body


def _with_axes(text: str, axes: dict) -> str:
    """Each line of the jaxpr with the batch axis of every value it defines."""
    lines = []
    for line in text.splitlines():
        names = [n for n in BINDER.findall(line) if n in axes]
        note = ", ".join(f"{n}: {'axis ' + str(axes[n]) if axes[n] is not None else 'unbatched'}" for n in names)
        lines.append(highlight(line) + (f'  <span class="gp-axis"># {esc(note)}</span>' if note else ""))
    return "\n".join(lines)


def _link_sources(body: str, sources) -> str:
    """Each equation's line marked with its line of code (data-gp-src), as in the jaxpr above:
    the page links both to the editor (static/sourcemap.js)."""
    lines = body.split("\n")
    if len(lines) != len(sources):
        return body
    return "\n".join(f'<span class="gp-eqn" data-gp-src="{src}" title="from line {src}">{ln}</span>'
                     if src is not None else ln for ln, src in zip(lines, sources))


def stage_html(stage) -> str:
    head = f'<h4>{esc(TITLES[stage.name])}</h4><p class="gp-muted">{esc(stage.note)}</p>'
    code = f'<span class="gp-badge">{esc(stage.code)}</span>'
    if stage.eqn_count is None:
        return f'<div class="gp-stage">{head}{code}</div>'
    body = _with_axes(stage.text, stage.batch_axes) if stage.batch_axes else \
        _mark_residuals(highlight(stage.text), stage.residuals)
    body = _link_sources(body, stage.sources)
    res = ""
    if stage.name == "linearized":
        res = (f' · residuals: <span class="gp-res">{esc(", ".join(stage.residuals))}</span>' if stage.residuals
               else " · no residuals (the linear map needs nothing from the forward pass)")
    count = f'<span class="gp-badge gp-eqns">{stage.eqn_count} equations</span>{res}'
    return f'<div class="gp-stage">{head}{code}<br>{count}<pre class="gp-code gp-jaxpr">{body}</pre></div>'


def stages_html(stages, names) -> str:
    chosen = [s for s in stages if s.name in names]
    intro = ('<p class="gp-muted">g(x) = f(x, *other arguments): grad(f) differentiates the first argument; '
             'x is its value in the Input box.</p>' if "jvp" in names else "")
    return f'{intro}<div class="gp-stages">{"".join(stage_html(s) for s in chosen)}</div>'
