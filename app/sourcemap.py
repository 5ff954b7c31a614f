"""Source <-> jaxpr, as Compiler Explorer links source and assembly: which line of the user's
code each jaxpr equation came from, read from JAX's own record of it (the equation's
`source_info`, printed by `jaxpr.pretty_print(source_info=True)` as `# file:line:col (fn)`).

Plain data, no Panel: the jaxpr pane renders it (data-gp-src on each equation's line) and the
page's `static/sourcemap.js` links those lines to the editor in both directions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import sandbox

# what pretty_print(source_info=True) appends to an equation's first line
NOTE = re.compile(r"^(?P<text>.*?) +# (?:(?P<file>.*):(?P<line>\d+):(?P<col>\d+) \((?P<fn>[^()]*)\))?$")


@dataclass(frozen=True)
class JaxprLine:
    text: str             # the line of JAX's plain jaxpr text
    src: int | None       # the line of the user's code its equation came from (None: not an
                          # equation's first line, or traced from library code)


def mapped_lines(jaxpr, user_file: str = sandbox.USER_FILE) -> list[JaxprLine]:
    """Each line of `jaxpr`'s text with the user-code line its equation came from."""
    out = []
    for raw in jaxpr.pretty_print(source_info=True).splitlines():
        m = NOTE.match(raw)
        if m is None:
            out.append(JaxprLine(raw, None))
            continue
        src = int(m["line"]) if m["file"] == user_file else None
        out.append(JaxprLine(m["text"].rstrip(), src))
    return out


def plain_text(lines: list[JaxprLine]) -> str:
    return "\n".join(ln.text for ln in lines)


def equations_per_line(lines: list[JaxprLine]) -> dict:
    """user-code line -> how many equations it produced (the page API's snapshot reports it)."""
    counts: dict = {}
    for ln in lines:
        if ln.src is not None:
            counts[ln.src] = counts.get(ln.src, 0) + 1
    return dict(sorted(counts.items()))


def top_equations(lines: list[JaxprLine]) -> list[int | None]:
    """Per line, the index of the top-level equation whose first line it is (None for the
    header, continuation lines, nested bodies' equations and the `in` line): the stepper lights
    the current equation in the pane's text and runs to one clicked there. A jaxpr printed on one
    line (`{ lambda ; a:f32[]. let b:f32[] = sin a in (b,) }`) marks it only when it holds one equation."""
    out: list = [None] * len(lines)
    starts = [i for i, ln in enumerate(lines) if ln.text.startswith("{ lambda")]
    if not starts:
        return out
    start = starts[-1]
    if start == len(lines) - 1:  # the one-line form
        if lines[start].text.count(" = ") == 1 and " let " in lines[start].text:
            out[start] = 0
        return out
    header = next((i for i in range(start, len(lines)) if lines[i].text.endswith(". let")), None)
    if header is None:
        return out
    k = 0
    for i in range(header + 1, len(lines)):
        text = lines[i].text
        if text.startswith("  in ("):
            break
        if text.startswith("    ") and not text.startswith("     ") and not text.lstrip().startswith(("]", ")")):
            out[i] = k
            k += 1
    return out
