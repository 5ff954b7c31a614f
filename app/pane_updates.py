"""Update a pane only where what it shows changed.

An edit reruns the code and recomputes every pane's data, but most edits change few panes: a
new comment or print leaves the jaxpr, plots and vmap outputs as they were. Building Bokeh
figures again and sending them to the page costs far more (in Pyodide) than comparing the
data they are drawn from, so each pane remembers a fingerprint of its inputs and is rebuilt
only when that changes; a rebuilt pane of only HTML keeps its HTML models and swaps their text.

A fingerprint covers everything its renderer reads; what it cannot read as data (a function,
an object without a data representation) makes it differ every time, so the worst case is a
needless rebuild, never a stale pane.
"""
from __future__ import annotations

import dataclasses
import hashlib
import itertools

import numpy as np
import panel as pn

from app import batching
from app.panes import common, text_html

_fresh = itertools.count()


def fingerprint(*parts) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    _feed(h, parts)
    return h.digest()


def _feed(h, x) -> None:
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes)):
        h.update(f"{type(x).__name__}:{x!r};".encode())
    elif isinstance(x, dict):
        h.update(b"{")
        for k, v in x.items():
            _feed(h, k)
            _feed(h, v)
        h.update(b"}")
    elif isinstance(x, (list, tuple)):
        h.update(b"[" if isinstance(x, list) else b"(")
        for v in x:
            _feed(h, v)
        h.update(b"]")
    elif isinstance(x, (np.ndarray, np.generic)):
        a = np.asarray(x)
        h.update(f"nd:{a.dtype}:{a.shape};".encode())
        h.update(np.ascontiguousarray(a).tobytes() if a.dtype.kind != "O" else repr(a.tolist()).encode())
    elif hasattr(x, "__array__") and not isinstance(x, type):  # an engine Array: all of it (its
        _feed(h, np.asarray(x))                                    # repr elides long ones)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        h.update(type(x).__name__.encode())
        _feed(h, tuple(getattr(x, f.name) for f in dataclasses.fields(x)))
    else:  # an engine Array, a jaxpr, a function...: its text if it has a stable one, else always new
        text = repr(x)
        stable = " at 0x" not in text and not callable(x)
        h.update((f"{type(x).__name__}:{text}" if stable else f"new:{next(_fresh)}").encode())


class PaneUpdates:
    """Per pane (a Column): the fingerprint of what it shows, and the in-place update."""

    def __init__(self):
        self.shown: dict = {}

    def update(self, column: pn.Column, key: tuple, build, head=(), reuse: bool = False) -> bool:
        """Rebuild `column` as [*head, *build()] unless `key` fingerprints as last time.
        `reuse`: `build` may take back the column's HTML panes (text_html.reusing) instead of
        making new ones. Returns whether it changed."""
        fp = fingerprint(key, common.current_guess())  # a guessed input's errors say so (common.error_block)
        if self.shown.get(id(column)) == fp:
            _unhide(column)  # hidden while recomputed, and it came out the same
            return False
        old = list(column.objects)
        try:
            new = [*head, *(_build_reusing(build, old, head) if reuse else build())]
        except Exception as e:  # noqa: BLE001 - a builder's bug: the pane says so, never shows old output
            self.fail(column, e, head)
            return True
        # the figures drawn again with new data (a kept figure repaints on the page as its data
        # arrives) and the column's new children: each a part of the batch's patch, a task of its
        # own on the page (app.batching.part)
        batching.part()
        if not _swap_html(old, new):
            column.objects = new
            batching.layout_changed()
        _unhide(column)
        self.shown[id(column)] = fp
        return True

    def fail(self, column: pn.Column, error: BaseException, head=()) -> None:
        """`column` could not be built for this run: it shows `head` and a message naming the
        error (the last run's content goes), and its next `update` builds it afresh."""
        self.shown.pop(id(column), None)
        column.objects = [*head, failure_message(error)]
        batching.layout_changed()
        _unhide(column)

    def hide(self, column: pn.Column, keep=()) -> None:
        """Hide what `column` shows but `keep` (its results are being recomputed); the next
        `update` shows it again if its fingerprint is the same, else rebuilds it.

        Hidden by one style on the column (CSS visibility, which `keep` overrides for itself),
        not by `visible`: BokehJS lays the whole page out again for each `visible` change
        (hundreds of ms in the page with its figures), and a style set on a figure's pane makes
        Panel resend its sizes (the same). A style on a plain column only changes its CSS, and
        the space stays (no jump)."""
        for k in keep:
            if k.styles.get("visibility") != "visible":  # set once (SHOWN_OVER_HIDDEN at creation)
                k.styles = {**k.styles, "visibility": "visible"}
        if column.styles.get("visibility") != "hidden":
            column.styles = {**column.styles, "visibility": "hidden"}


SHOWN_OVER_HIDDEN = {"visibility": "visible"}  # styles of what a hidden column keeps showing
FAILED_CLASS = "gp-pane-failed"  # the message of a pane that could not be built (tests find it)


def failure_message(error: BaseException) -> pn.pane.HTML:
    """What a pane shows when building it raised: its own bug, not the learner's code."""
    CSS, esc = common.CSS, common.esc
    text = f"{type(error).__name__}: {error}".strip()
    return pn.pane.HTML(
        f'<div class="gp-err">This pane could not be drawn for this code.</div>'
        f'<pre class="gp-code gp-console">{esc(text)}</pre>'
        f'<p class="gp-muted">The other panes are unaffected. This is a gradpad bug, not a problem in '
        f'your code: the message above says where it went wrong.</p>',
        stylesheets=[CSS], sizing_mode="stretch_width", css_classes=[FAILED_CLASS])


def _build_reusing(build, old: list, head) -> list:
    """`build()`, its HTML panes taken back from `old` (but `head`) where they can be. A pane
    taken back must stay in the column itself: put inside another layout, Panel would drop its
    model when the column lets go of it, and its text would no longer reach the page. Then the
    build is done again with new panes (rare: the Jaxpr pane's cards, made the first time)."""
    shown = [o for o in old if not any(o is h for h in head)]
    with text_html.reusing(shown) as untaken:
        body = build()
    taken = {id(p) for p in shown} - {id(p) for p in untaken}
    if taken - {id(p) for p in body}:
        return build()
    return body


def _unhide(column) -> None:
    if column.styles.get("visibility") == "hidden":  # "inherit", not the key removed: Panel keeps
        column.styles = {**column.styles, "visibility": "inherit"}  # a styles dict set to {}


def _own_styles(obj) -> dict:
    """An object's styles but the visibility `hide` sets."""
    return {k: v for k, v in obj.styles.items() if k != "visibility"}


def _swap_html(old: list, new: list) -> bool:
    """When old and new are the same widgets plus HTML panes alike but for their text, set the
    texts (no new models). Returns whether it did."""
    if len(old) != len(new):
        return False
    pairs = []
    olds = {id(o) for o in old}
    for o, n in zip(old, new):
        if o is n:
            continue
        if id(n) in olds:  # a shown pane taken back (text set) in another place: not a text swap
            return False
        if type(o) is not type(n) or not isinstance(o, pn.pane.HTML):
            return False
        if (o.css_classes, o.stylesheets, o.sizing_mode, o.visible, _own_styles(o)) != (
                n.css_classes, n.stylesheets, n.sizing_mode, n.visible, _own_styles(n)):
            return False
        pairs.append((o, n))
    for o, n in pairs:
        if o.object != n.object:
            o.object = n.object
    return True
