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
