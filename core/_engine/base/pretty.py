"""A small 'strictly pretty' document printer (Lindig), the algorithm JAX uses for jaxpr text.

A group is printed flat when it fits in the remaining width, else its breaks become newlines
(at the current nesting). Jaxpr text is identical to JAX's only if the documents are built the
same way, so `jaxpr.py` mirrors JAX's document structure.
"""
from __future__ import annotations


class Doc:
    __slots__ = ()

    def __add__(self, other):
        return concat([self, other])

    def format(self, width: int = 80) -> str:
        return _format(self, width)

    def __str__(self):
        return self.format()


class _Text(Doc):
    __slots__ = ("text", "annotation")

    def __init__(self, text, annotation=None):
        self.text = text
        self.annotation = annotation  # a `# comment` for the line this text lands on (source info)


class _Concat(Doc):
    __slots__ = ("children",)

    def __init__(self, children):
        self.children = children


class _Break(Doc):
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


class _Group(Doc):
    __slots__ = ("child",)

    def __init__(self, child):
        self.child = child


class _Nest(Doc):
    __slots__ = ("n", "child")

    def __init__(self, n, child):
        self.n, self.child = n, child


def text(s: str, annotation: str | None = None) -> Doc:
    return _Text(s, annotation)


def nil() -> Doc:
    return _Concat([])


def concat(docs) -> Doc:
    flat = []
    for d in docs:
        if isinstance(d, _Concat):
            flat.extend(d.children)
        else:
            flat.append(d)
    return _Concat(flat)


def brk(t: str = " ") -> Doc:
    return _Break(t)


def group(d: Doc) -> Doc:
    return _Group(d)


def nest(n: int, d: Doc) -> Doc:
    return _Nest(n, d)


def join(sep: Doc, docs) -> Doc:
    out = []
    for i, d in enumerate(docs):
        if i:
            out.append(sep)
        out.append(d)
    return concat(out)


def _fits(doc: Doc, width: int) -> bool:
    """Whether `doc` printed flat takes at most `width` columns (and has no forced newline)."""
    stack = [doc]
    while stack:
        if width < 0:
            return False
        d = stack.pop()
        if isinstance(d, _Text):
            width -= len(d.text)
        elif isinstance(d, _Break):
            width -= len(d.text)
        elif isinstance(d, _Concat):
            stack.extend(reversed(d.children))
        elif isinstance(d, _Group):
            stack.append(d.child)
        elif isinstance(d, _Nest):
            stack.append(d.child)
    return width >= 0


def _format(doc: Doc, width: int) -> str:
    out = []
    notes: dict = {}  # line number -> annotations of the texts printed on it
    line = 0
    col = 0
    # (indent, flat?, doc)
    stack = [(0, False, doc)]
    while stack:
        indent, flat, d = stack.pop()
        if isinstance(d, _Text):
            out.append(d.text)
            col += len(d.text)
            if d.annotation is not None:
                notes.setdefault(line, []).append(d.annotation)
        elif isinstance(d, _Break):
            if flat:
                out.append(d.text)
                col += len(d.text)
            else:
                out.append("\n" + " " * indent)
                col = indent
                line += 1
        elif isinstance(d, _Concat):
            for c in reversed(d.children):
                stack.append((indent, flat, c))
        elif isinstance(d, _Nest):
            stack.append((indent + d.n, flat, d.child))
        elif isinstance(d, _Group):
            stack.append((indent, flat or _fits(d.child, width - col), d.child))
    text_out = "".join(out)
    return _annotate(text_out, notes) if notes else text_out


def _annotate(text_out: str, notes: dict) -> str:
    """Annotated lines end in `# note`, aligned one column past the widest line of the whole text
    (a nested jaxpr's header too); a line's further notes go on lines of their own at the same
    column (as JAX prints them)."""
    lines = text_out.split("\n")
    column = max(len(ln) for ln in lines)
    out = []
    for i, ln in enumerate(lines):
        if i not in notes:
            out.append(ln)
            continue
        first, *more = notes[i]
        out.append(f"{ln.ljust(column)} # {first}")
        out.extend(f"{'':{column}} # {m}" for m in more)
    return "\n".join(out)
