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

import panel as pn


class TextHTML(pn.pane.HTML):
    def _update(self, ref, model) -> None:
        if self.enable_streaming:  # Panel's streamed text: its own path
            return super()._update(ref, model)
        model.update(text=self._process_param_change({"object": self.object})["text"])
