"""The vmap pane's methods table is a pane the app keeps and updates in place (app.main
vmap_times): a rebuild of the pane must show it once, with its own text. Taken back for the
"a batch of 3, not 4" note (text_html.reusing), it showed that note twice and no table (seen
for a 10k-step lax.scan, whose one slow call bounds the batch)."""
from __future__ import annotations

import types

import numpy as np
import panel as pn

from app import pane_updates
from app.panes import vmap as vmap_pane
from app.panes.common import html


def analysis(bounded: str):
    r = {"size": 3, "rules": "floats + 0.5·k", "code": "jax.vmap(f)(x)", "bounded": bounded,
         "vmap": {"value": np.array([0.5, 1.0, 1.5])}}
    return types.SimpleNamespace(vmap=r, function=types.SimpleNamespace(name="f"))


def texts(column) -> list[str]:
    return [o.object for o in column.objects if isinstance(getattr(o, "object", None), str)]


def test_the_methods_table_shows_once_beside_the_bounded_note():
    column, shown, times = pn.Column(), pane_updates.PaneUpdates(), html("")
    note = "a batch of 3, not 4: one call of f takes 0.26 s on your input"
    for k, bounded in enumerate((note, note + " ", note)):  # rebuilds that take the shown panes back
        a = analysis(bounded)
        times.object = f"<b>Loop vs vmap vs manual batching</b> table {k}"
        shown.update(column, ("vmap", k), lambda a=a: vmap_pane.render(a, times=times), reuse=True)
        got = texts(column)
        assert sum("Loop vs vmap" in t for t in got) == 1, got
        assert sum("a batch of 3, not 4" in t for t in got) == 1, got
        assert sum(o is times for o in column.objects) == 1
        assert times.object.endswith(f"table {k}")
