"""Keyboard and screen-reader access (WCAG 2.2 AA) on the built site, in headless Chromium:
axe-core finds no serious or critical violation on the app (light and dark) and on an embed; a
keyboard alone reaches and works the editor, Run, the output tabs and the gallery; Tab in the
editor indents and Esc leaves it without touching the code."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from .a11y import axe_run, axe_violations, describe, impact_counts

pytestmark = pytest.mark.timeout(900)
SHOTS = Path(os.environ.get("GRADPAD_SCREENSHOTS", "/tmp/gradpad-screenshots"))


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def load(gp, **opts) -> dict:
    gp.page.set_default_timeout(180_000)
    return gp.page.evaluate("opts => window.gradpad.load(opts)", opts)


def settle(page):
    page.wait_for_function("() => !window.gradpad.running && !(window.gradpad.panes.pending || []).length",
                           timeout=120_000)
    page.wait_for_timeout(300)


def report(name, page) -> list[dict]:
    everything = axe_run(page)
    print(f"\n[axe] {name}: {impact_counts(everything)}", flush=True)
    return [v for v in everything if v["impact"] in ("serious", "critical")]


def set_theme(app_page, theme: str | None):
    page = app_page.page
    if theme is None:
        page.evaluate("() => localStorage.removeItem('gradpad.theme')")
    else:
        page.evaluate("t => localStorage.setItem('gradpad.theme', t)", theme)
    page.reload(wait_until="domcontentloaded", timeout=60_000)
    assert app_page.wait_ui() == "app"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_serious_violation_in_the_app(app_page, theme):
    page = app_page.page
    set_theme(app_page, theme)
    try:
        load(app_page, example="grad_value_and_grad_has_aux")
        settle(page)
        assert page.evaluate("() => document.documentElement.dataset.theme") == theme
        bad = report(f"app {theme}", page)
        assert bad == [], describe(bad)
    finally:
        set_theme(app_page, None)


def test_axe_finds_no_serious_violation_in_an_embed(browser_context, site_url, app_page):
    ctx, _ = browser_context
    page = ctx.new_page()
    try:
        page.set_viewport_size({"width": 760, "height": 560})
        page.goto(f"{site_url}?embed=1&panes=jaxpr,plot,console&autorun=1#example=jvp_and_vjp",
                  wait_until="domcontentloaded", timeout=60_000)
        page.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=360_000)
        page.get_by_text("open in gradpad").first.wait_for(state="visible", timeout=120_000)
        page.wait_for_timeout(1500)
        bad = report("embed", page)
        assert bad == [], describe(bad)
    finally:
        page.close()
