"""Importing Bokeh's models and plotting API in the page without computing signatures nobody reads.

Every class bokeh.models defines gets an `__init__.__signature__`, and every glyph method of
`figure` (`line`, `scatter`, ...) a full `inspect.Signature` and docstring, all built by
`Model.parameters()`, which evaluates the default of each of the class's properties: about half
of the CPU time of `import bokeh.models` and three quarters of `import bokeh.plotting` (CPython,
`python -m app.bokeh_import` prints both ways). They serve help() and IDEs only; Panel and the
app never read them. While the page's worker imports Panel and the app (app/bootstrap.py:
prepare_panel -> panel_imported), `parameters()` gives the positional arguments alone (what a
glyph method needs to map `p.line(xs, ys)` onto `x` and `y`); afterwards the real one is back for
any later caller. What stays shorter: the signatures and docstrings of the classes and methods
defined meanwhile.
"""
from __future__ import annotations

from inspect import Parameter

_original = None
calls = {"quick": 0}  # parameters() answered the quick way (the tests read it)


def _positional_only_parameters(cls):
    calls["quick"] += 1
    return [(Parameter(a, Parameter.POSITIONAL_OR_KEYWORD), "", "") for a in cls._args]


def start() -> None:
    """Quick `Model.parameters()` until end(); a no-op when already started."""
    global _original
    if _original is not None:
        return
    from bokeh.model import Model

    _original = Model.__dict__["parameters"]
    Model.parameters = classmethod(_positional_only_parameters)


def end() -> None:
    global _original
    if _original is None:
        return
    from bokeh.model import Model

    Model.parameters = _original
    _original = None


if __name__ == "__main__":  # CPU time of the imports, the real way or the quick way (fresh processes)
    import subprocess
    import sys

    code = ("import sys, time; t = time.process_time(); import bokeh.model; from app import bokeh_import as q\n"
            "if sys.argv[1] == 'quick': q.start()\n"
            "import bokeh.models, panel, bokeh.plotting; q.end()\n"
            "print(sys.argv[1], f'{time.process_time() - t:.3f} s CPU')")
    for _ in range(2):
        for way in ("real", "quick"):
            subprocess.run([sys.executable, "-c", code, way], check=True)
