"""What a browser test costs, counted the same on any machine: document loads (a page or an
iframe navigated or reloaded) and Python boots (a Web Worker started: a page's Pyodide, or a
restart after Stop). conftest.py attributes the counts to each test (setup, call and teardown)
and prints them at the end; GRADPAD_COST_JSON=path also writes them there."""
from __future__ import annotations

COUNTS = {"loads": 0, "boots": 0, "contexts": 0}


def _watch_page(page) -> None:
    def on_request(req):
        if req.resource_type == "document" and req.is_navigation_request():
            COUNTS["loads"] += 1
    page.on("request", on_request)
    page.on("worker", lambda _w: COUNTS.__setitem__("boots", COUNTS["boots"] + 1))


def watch(ctx) -> None:
    """Count the loads and boots of every page of a browser context, from now on."""
    COUNTS["contexts"] += 1
    for page in ctx.pages:
        _watch_page(page)
    ctx.on("page", _watch_page)
