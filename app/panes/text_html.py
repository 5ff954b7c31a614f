"""An HTML pane whose new text reaches the page as a change of its text alone.

Panel's HTML pane, when its text changes, sets every property of its Bokeh model again. Its
stylesheets come out as other models than the ones it was made with whenever the model was
made outside the document's stylesheet cache (a pane made before the document, as the app's
notes are): BokehJS then loads those stylesheets again and lays the page out again, 0.3-1.5 s
of the page's main thread, once per pane, at its first new text (issue 14: the first edit of f
froze the page on the vmap tab's "computing" note). Only the text changed, so only the text is
sent; every other property still follows its parameter as Panel's own panes do.
"""
from __future__ import annotations

import contextlib

import panel as pn


class TextHTML(pn.pane.HTML):
    def _update(self, ref, model) -> None:
        if self.enable_streaming:  # Panel's streamed text: its own path
            return super()._update(ref, model)
        model.update(text=self._process_param_change({"object": self.object})["text"])


# ------------------------------------------------------------------ panes taken back by a rebuild
# A pane rebuilt with new data (app.pane_updates) used to make all its HTML panes anew only for
# the update to copy their texts into the panes it showed: each new Panel pane costs ~1 ms in
# CPython and several in the page, a dozen per edit of f. Inside `reusing(panes)`, `text_html`
# takes back one of the shown panes made with the same parameters instead and sets its text.
LAYOUT = ("css_classes", "stylesheets", "sizing_mode", "visible", "styles", "margin", "width", "height",
          "min_height", "max_height", "min_width", "max_width", "align")  # what a builder may set on a pane
_reusable: list | None = None


def _layout(pane) -> tuple:
    """A copy (a list or dict changed in place since must not compare equal to itself)."""
    return tuple(_copied(getattr(pane, name)) for name in LAYOUT)


def _copied(value):
    return dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list) else value


def text_html(body: str, **params) -> TextHTML:
    """A TextHTML showing `body`: inside `reusing`, the first offered pane made with the same
    `params` and left as made (none of its LAYOUT changed since), its text set; else a new one."""
    if _reusable is not None:
        for i, pane in enumerate(_reusable):
            if pane._made_with == params and _layout(pane) == pane._as_made:
                del _reusable[i]
                pane.object = body
                return pane
    pane = TextHTML(body, **params)
    pane._made_with, pane._as_made = params, _layout(pane)
    return pane


def withhold(pane) -> None:
    """`pane` is placed by the builder itself (a pane the app keeps and updates in place): never
    taken back for another text, which would show that text twice and lose its own."""
    if _reusable is not None:
        _reusable[:] = [p for p in _reusable if p is not pane]


@contextlib.contextmanager
def reusing(panes):
    """`text_html` may take these panes back (those it made); yields the ones still untaken."""
    global _reusable
    previous = _reusable
    _reusable = [p for p in panes if isinstance(p, TextHTML) and hasattr(p, "_made_with")]
    try:
        yield _reusable
    finally:
        _reusable = previous
