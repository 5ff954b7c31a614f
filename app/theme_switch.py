"""The page's theme changed (the header's button or the system's setting): the app follows in
place, with no new document and no reload (issue 26: a switch used to rebuild the whole UI).

The page has already restyled what it can at once (static/theme_switch.js): its CSS and the panes'
(app.panes.common.tv) follow <html data-theme>, and it changed Panel's theme stylesheet and the
editor's theme in its copy of the document. Here Python catches up: what later panes are built
with, the same two changes in Python's document (so later patches agree with the page), and the
Bokeh figures' colours (drawn on a canvas, no CSS reaches them) set in place: nothing is rebuilt.
Panes built later (their caches are keyed by the theme) are built in the new theme."""
from __future__ import annotations

import json
import re
import time

import panel as pn

from app import env

PANEL_THEMES = {"light": "default", "dark": "dark"}  # the page's theme -> Panel's
PANEL_THEME_CSS = re.compile(r"/theme/(default|dark)\.css")  # Panel's theme stylesheet (a URL)


def switch(playground, theme: str) -> dict:
    """Show the app in `theme` ("light" or "dark"); {"theme", "changed", "values": how many
    figure values changed, "ms"}."""
    t0 = time.perf_counter()
    if theme not in PANEL_THEMES:
        raise ValueError(f"theme must be 'light' or 'dark', not {theme!r}")
    env.page_changed(json.dumps({"theme": theme}))
    if pn.config.theme == PANEL_THEMES[theme]:
        return {"theme": theme, "changed": False, "values": 0, "ms": 0}
    pn.config.theme = PANEL_THEMES[theme]
    editor = getattr(playground, "editor", None)
    if editor is not None:
        from app.main import EDITOR_THEMES
        editor.theme = EDITOR_THEMES[pn.config.theme]
    values = restyle_document(theme)
    return {"theme": theme, "changed": True, "values": values, "ms": round((time.perf_counter() - t0) * 1e3)}


def restyle_document(theme: str) -> int:
    """The app's document in `theme`: Panel's theme stylesheet (one model that every model refers
    to) and the figures' theme values (app.panes.common.retheme); how many figure values changed."""
    from bokeh.models import ImportedStyleSheet

    from app import bootstrap
    from app.panes import common
    doc = bootstrap._doc
    if doc is None:
        return 0
    new = f"/theme/{PANEL_THEMES[theme]}.css"
    models = list(doc.models)
    for model in models:
        if isinstance(model, ImportedStyleSheet) and PANEL_THEME_CSS.search(model.url or ""):
            model.url = PANEL_THEME_CSS.sub(new, model.url)
    return common.retheme(models)
