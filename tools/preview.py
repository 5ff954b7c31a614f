"""The first view, rendered when the site is built: the app's Bokeh document for the default
example, made by the real app and engine in CPython (the same Panel, Bokeh and engine code the
page's worker runs), in the light and the dark theme.

    python -m tools.preview OUT_DIR [THEME]    # writes preview-light.json, preview-dark.json

The page (static/preview.js) shows it the moment BokehJS is parsed, with a banner saying that
Python is still loading, and swaps in the live document when the worker renders it. Panes that
measure (timings) are rendered before their measurement runs, so they show their own
"measuring" state, never numbers from the build machine. URLs of the site's files are written
with BASE_MARK for the page to replace with its own base.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

BASE_MARK = "__GRADPAD_BASE__/"
THEMES = ("light", "dark")


def _as_page(theme: str) -> None:
    """The app's view of the page: this theme, no link, nothing autosaved (a first visit)."""
    from app import env

    env.theme = lambda: theme
    import app.main as main

    main.system_prefers_dark = lambda: theme == "dark"
    # the browser's backends are known only there: the live document adds WebGPU where it exists
    main.available_backends = lambda: ["cpu"]
    # in the page, loader.js listens for Ctrl+Enter and the app has a plain Spacer there (the
    # JSComponent that `panel serve` uses needs an inline script, which the page's CSP refuses)
    import panel as pn
    import param

    class PageKeys(pn.Spacer):
        runs = param.Integer(default=0)
        _rename = {"runs": None}

    main.KeyBridge = PageKeys


async def _render(theme: str) -> dict:
    # inside a running loop, the app schedules its slow panes (timings) instead of measuring at
    # once; the document is serialised before they could run
    import panel as pn
    from bokeh import __version__ as bokeh_version
    from bokeh.document import Document
    from bokeh.embed.util import standalone_docs_json_and_render_items

    _as_page(theme)
    import app.main as main
    from app import bootstrap, examples

    from panel.io.resources import set_resource_mode

    with set_resource_mode("cdn"):  # as under Pyodide: the site's own files, under PANEL_CDN_ROOT
        obj = main.create_app()
        doc = Document()
        doc.hold()
        pn.panel(obj).server_doc(doc=doc)
        model = doc.roots[0]
        docs_json, _ = standalone_docs_json_and_render_items([model], suppress_callback_warning=True)
        resources = bootstrap._model_resources(doc)
    item = {"target_id": "app", "root_id": model.ref["id"], "doc": list(docs_json.values())[0],
            "version": bokeh_version}
    return {"theme": theme, "example": main.DEFAULT_EXAMPLE, "code": examples.load(main.DEFAULT_EXAMPLE).code,
            "model": json.dumps(item), "resources": resources}


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    if len(args) == 1:  # each theme in a process of its own (the app and Panel keep global state)
        import subprocess
        procs = [subprocess.Popen([sys.executable, "-m", "tools.preview", str(out), theme]) for theme in THEMES]
        return max(p.wait() for p in procs)
    theme = args[1]
    os.environ["PANEL_CDN_ROOT"] = BASE_MARK + "panel/"
    result = asyncio.run(_render(theme))
    (out / f"preview-{theme}.json").write_text(json.dumps(result, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
