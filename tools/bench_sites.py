"""Built sites side by side in headless Chromium, for the benches that compare two builds in one run
(tools/bench_stepper.py, tools/bench_gaps.py): timings on a shared machine compare only that way.

    with bench_sites.opened({"this": dist, "compare": other}) as pages:
        for r in range(rounds):
            for name in bench_sites.order(pages, r):
                ... pages[name] ...

Each site is served on its own port and opened in its own browser profile (no shared cache or
service worker), as a return visit sees it: reloaded once its service worker controls the page.
"""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.browser import chromium  # noqa: E402
from tools import bench_page, serve  # noqa: E402


def sites(dist: str, compare: str | None) -> dict:
    """The benches' --dist and --compare: {"this": dist, "compare": other} (resolved paths)."""
    out = {"this": Path(dist).resolve()}
    if compare:
        out["compare"] = Path(compare).resolve()
    return out


def open_site(pw, url: str):
    """A fresh Chromium profile with the app at `url`, its UI ready; returns (context, page)."""
    ctx, _ = chromium.launch(pw)
    return ctx, bench_page.open_page(ctx, url)  # reloaded once isolated, its UI the app, at 1400x900


@contextlib.contextmanager
def opened(dists: dict):
    """{name: dist/ directory} -> {name: page}, in the same order; every browser and server closed after."""
    from playwright.sync_api import sync_playwright
    servers, ctxs, pages = [], [], {}
    with sync_playwright() as pw:
        try:
            for name, root in dists.items():
                srv, url = serve.start(Path(root))
                servers.append(srv)
                ctx, pages[name] = open_site(pw, url)
                ctxs.append(ctx)
            yield pages
        finally:
            for c in ctxs:
                c.close()
            for s in servers:
                s.shutdown()


def order(pages: dict, round_index: int) -> list:
    """The sites in round `round_index`'s order: alternated, so neither always runs first."""
    names = list(pages)
    return names if round_index % 2 == 0 else names[::-1]
