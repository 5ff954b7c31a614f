"""app/bokeh_import.py: the page imports Bokeh's models and plotting API without building the
signatures nobody reads (issue 26: the UI stage on every visit). Each check runs in a fresh
interpreter (bokeh imports once per process)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# every glyph method of figure: the names a positional argument binds to, in order
PROBE = r"""
import inspect, json, sys
from app import bokeh_import, bootstrap
if sys.argv[1] == "quick":
    bootstrap.prepare_panel("panel/")  # what the page's worker does before importing panel
    started = bokeh_import._original is not None
else:
    started = None
import bokeh.models, panel
from bokeh.plotting import figure
from bokeh.plotting.glyph_api import GlyphAPI
bootstrap.panel_imported()  # ... and after importing the app
positional = {name: [p.name for p in inspect.signature(getattr(figure, name)).parameters.values()
                     if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD][1:]
              for name in sorted(vars(GlyphAPI)) if not name.startswith("_") and callable(getattr(figure, name))}
p = figure()
line = p.line([1, 2], [3, 4], line_width=2)
dots = p.scatter([1.5], [2.5], 7)
bars = p.vbar([1], 0.5, [2])
from bokeh.embed import json_item
from bokeh.models import Circle
out = {"started": started, "quick_calls": bokeh_import.calls["quick"], "positional": positional,
       "line": line.data_source.data, "line_glyph": [line.glyph.x, line.glyph.y, line.glyph.line_width],
       "dots": [dots.glyph.x, dots.glyph.y, dots.glyph.size], "bars": [bars.glyph.x, bars.glyph.width, bars.glyph.top],
       "serialized": len(json.dumps(json_item(p))) > 1000,
       # after the imports the real parameters() is back: keyword properties included
       "circle_parameters_after": len(Circle.parameters()), "circle_args": len(Circle._args),
       "validates_documents": __import__("bokeh.settings").settings.settings.perform_document_validation()}
print("@@" + json.dumps(out, default=str))
"""


def probe(way: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROBE, way], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert "@@" in proc.stdout, proc.stderr[-3000:]
    return json.loads(proc.stdout.split("@@", 1)[1])


def test_the_quick_import_maps_every_glyph_methods_positional_arguments_as_bokeh_does():
    real, quick = probe("real"), probe("quick")
    assert real["quick_calls"] == 0 and quick["started"] is True
    # the models and glyph methods imported meanwhile were built without evaluating their defaults
    assert quick["quick_calls"] > 300, quick["quick_calls"]
    assert len(quick["positional"]) > 30 and quick["positional"] == real["positional"]
    for key in ("line", "line_glyph", "dots", "bars", "serialized"):
        assert quick[key] == real[key], key
    assert quick["line"] == {"x": [1, 2], "y": [3, 4]} and quick["line_glyph"] == ["x", "y", 2], quick
    # the page skips Bokeh's document checks (about a third of turning the app into JSON); outside
    # the page (panel serve, these tests) they stay on
    assert real["validates_documents"] is True and quick["validates_documents"] is False
    assert quick["dots"] == ["x", "y", 7] and quick["bars"] == ["x", 0.5, "top"], quick
    assert quick["serialized"] is True
    # and the real Model.parameters is back afterwards
    assert quick["circle_parameters_after"] == real["circle_parameters_after"] > quick["circle_args"]
