"""Keyboard and screen-reader access (WCAG 2.2 AA) on the built site, in headless Chromium:
axe-core finds no serious or critical violation on the app (light and dark) and on an embed (and
on a lesson page and in each cell frame of a per-block lesson, with the keyboard there too: test_lesson.py, in the tests that already load them; Firefox and WebKit: test_every_browser.py); a keyboard alone reaches and works the editor, Run, the output tabs and the gallery; Tab in the
editor indents and Esc leaves it without touching the code."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from . import shots
from .a11y import DARK_SHOWN, axe_run, describe, impact_counts
from .settle import settled

pytestmark = pytest.mark.timeout(900)
SHOTS = Path(os.environ.get("GRADPAD_SCREENSHOTS", "/tmp/gradpad-screenshots"))


def shot(page, name):
    if not shots.wanted():
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def load(gp, **opts) -> dict:
    gp.page.set_default_timeout(180_000)
    return gp.page.evaluate("opts => window.gradpad.load(opts)", opts)


def settle(page):
    page.wait_for_function("() => !window.gradpad.running && !(window.gradpad.panes.pending || []).length",
                           timeout=120_000)
    settled(page)


def report(name, page) -> list[dict]:
    everything = axe_run(page)
    stats = page.evaluate("() => window.gradpad.a11y && window.gradpad.a11y.stats")
    print(f"\n[axe] {name}: {impact_counts(everything)}  (static/a11y.js passes so far: {stats})", flush=True)
    return [v for v in everything if v["impact"] in ("serious", "critical")]


# the focused element, through shadow roots: "TAG|role|aria-label|text"
FOCUSED = """() => { let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a) return '';
  return [a.tagName, a.getAttribute('role') || '', a.getAttribute('aria-label') || '',
          (a.tagName === 'SELECT' || a.tagName === 'INPUT' ? '' : (a.textContent || '').trim().slice(0, 40))].join('|'); }"""
EDITOR_TEXT = """() => { const find = (root) => { for (const el of root.querySelectorAll('*')) {
    if (el.classList.contains('ace_editor') && el.env) return el.env.editor.getValue();
    const inner = el.shadowRoot && find(el.shadowRoot); if (inner != null) return inner; } return null; };
  return find(document.getElementById('app')); }"""
TABS = """() => { const all = (r, o = []) => { for (const e of r.querySelectorAll('*')) { o.push(e);
    if (e.shadowRoot) all(e.shadowRoot, o); } return o; };
  return all(document).filter((e) => e.getAttribute && e.getAttribute('role') === 'tab').map((t) => {
    const panel = t.getRootNode().getElementById(t.getAttribute('aria-controls'));
    return {title: t.textContent.trim(), selected: t.getAttribute('aria-selected'), tabindex: t.tabIndex,
            shown: t.classList.contains('bk-active'), panelRole: panel && panel.getAttribute('role'),
            panelInert: panel && panel.inert, labelled: panel && panel.getAttribute('aria-labelledby') === t.id,
            list: t.closest('[role=tablist]') !== null}; }); }"""


def focused(page) -> str:
    return page.evaluate(FOCUSED)


def tab_until(page, test, key="Tab", limit=60) -> str:
    """Press `key` until the focused element's description satisfies `test`; returns it. The
    editor is passed as a learner would: Esc, then the key again (never by typing into it)."""
    seen = []
    for _ in range(limit):
        page.keyboard.press(key)
        now = focused(page)
        seen.append(now)
        if test(now):
            return now
        if in_editor(now):
            page.keyboard.press("Escape")
    raise AssertionError(f"never reached by {key}; focus went through:\n" + "\n".join(seen))


def in_editor(desc: str) -> bool:
    return desc.startswith("TEXTAREA|") and "Escape" in desc


def set_theme(app_page, theme: str | None):
    """Pick `theme` (None: auto, the system's: light here) with the header's button, as a visitor
    does: the page switches in place (no reload; test_layout_theme.py checks that), and Python's
    side of the switch is waited for. A page loaded in the dark theme is checked by axe in
    test_pane_readability.py::test_dark_theme_text_is_readable_on_every_pane."""
    page = app_page.page
    page.emulate_media(color_scheme="light")
    want = theme or "auto"
    for _ in range(3):  # auto -> light -> dark -> auto
        if page.evaluate("() => localStorage.getItem('gradpad.theme') || 'auto'") == want:
            break
        shown = page.evaluate("() => document.documentElement.dataset.theme")
        page.locator("#gp-theme").click()
        if page.evaluate("() => document.documentElement.dataset.theme") != shown:
            page.wait_for_function("() => window.gradpad.themeSwitch.python_ms !== null", timeout=120_000)
    assert page.evaluate("() => localStorage.getItem('gradpad.theme') || 'auto'") == want
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
        focus_shots(page, theme)
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
        set_theme(app_page, None)


def focus_shots(page, theme):
    """Screenshots of the focus states (a human looks at them): the editor with its hint, the
    editor after Esc, the selected tab, and Run, at 1400x900 and on a phone."""
    for w, h in ((1400, 900), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        settled(page)
        page.locator("#gp-theme").focus()
        tab_until(page, in_editor)
        shot(page, f"a11y_{theme}_{w}x{h}_editor")
        page.keyboard.press("Escape")
        shot(page, f"a11y_{theme}_{w}x{h}_editor_esc")
        tab_until(page, lambda d: d.startswith("DIV|tab|"))
        page.keyboard.press("ArrowRight")
        page.locator("#app .bk-tab.bk-active").first.scroll_into_view_if_needed()
        shot(page, f"a11y_{theme}_{w}x{h}_tab")
        page.keyboard.press("Home")
        tab_until(page, lambda d: d.startswith("BUTTON|") and d.endswith("Run"), key="Shift+Tab")
        shot(page, f"a11y_{theme}_{w}x{h}_run")


def test_axe_finds_no_serious_violation_in_an_embed(browser_context, site_url, app_page):
    ctx, _ = browser_context
    page = ctx.new_page()
    try:
        page.set_viewport_size({"width": 760, "height": 560})
        page.goto(f"{site_url}?embed=1&panes=jaxpr,plot,console&autorun=1#example=jvp_and_vjp",
                  wait_until="domcontentloaded", timeout=60_000)
        page.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=360_000)
        page.get_by_text("open in gradpad").first.wait_for(state="visible", timeout=120_000)
        settled(page)
        bad = report("embed", page)
        assert bad == [], describe(bad)
        # the same embed in the dark theme (a visitor's system setting: an embed shows no theme button)
        page.emulate_media(color_scheme="dark")
        page.wait_for_function(f"() => ({DARK_SHOWN})()", timeout=120_000)
        settled(page)
        bad = report("embed dark", page)
        assert bad == [], describe(bad)
    finally:
        page.close()


def test_tab_in_the_editor_indents_and_after_esc_leaves_without_typing(app_page):
    page = app_page.page
    load(app_page, code="f = lambda x: x * 2.0\nf(3.0)\n")
    settle(page)
    page.locator("#gp-theme").focus()
    tab_until(page, in_editor)                  # into the editor by Tab, nothing typed on the way
    assert page.evaluate(EDITOR_TEXT) == "f = lambda x: x * 2.0\nf(3.0)\n"
    assert page.evaluate("() => window.gradpad.a11y.hint()").startswith("Tab indents")
    page.keyboard.press("Control+End")
    page.keyboard.press("Tab")                  # while editing, Tab indents (the learner's Tab key)
    indented = page.evaluate(EDITOR_TEXT)
    assert indented == "f = lambda x: x * 2.0\nf(3.0)\n    ", repr(indented)
    page.keyboard.press("Control+z")            # back to the code as it was
    settle(page)
    code = page.evaluate(EDITOR_TEXT)
    assert code == "f = lambda x: x * 2.0\nf(3.0)\n", repr(code)
    page.keyboard.press("Escape")
    assert "leave the editor" in page.evaluate("() => window.gradpad.a11y.hint()")
    page.keyboard.press("Tab")                  # leaves: focus on the next control, no indentation
    after = focused(page)
    assert not in_editor(after), after
    for _ in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate(EDITOR_TEXT) == code
    assert "\t" not in page.evaluate(EDITOR_TEXT)
    settle(page)
    assert page.evaluate("() => window.gradpad.snapshot()")["code"] == code
    # backwards too: Shift+Tab into the editor, Esc, Shift+Tab out to the control above it
    tab_until(page, in_editor, key="Shift+Tab")
    page.keyboard.press("Escape")
    page.keyboard.press("Shift+Tab")
    assert not in_editor(focused(page)), focused(page)
    assert page.evaluate(EDITOR_TEXT) == code
    # Ctrl+M is the other convention for the same
    tab_until(page, in_editor)
    page.keyboard.press("Control+m")
    page.keyboard.press("Tab")
    assert not in_editor(focused(page)) and page.evaluate(EDITOR_TEXT) == code


def test_keyboard_only_editor_run_tabs_and_gallery(app_page):
    page = app_page.page
    page.set_viewport_size({"width": 1400, "height": 900})
    load(app_page, code="g = lambda x: x + 1.0\ng(1.0)\n")
    settle(page)
    page.reload(wait_until="domcontentloaded", timeout=60_000)   # from page load, focus on nothing
    assert app_page.wait_ui() == "app"
    settle(page)
    # the editor, by Tab from the top of the page
    tab_until(page, in_editor)
    shot(page, "a11y_kb_editor_1400x900")
    page.keyboard.press("Control+End")
    page.keyboard.type("g(2.0)\n")
    settle(page)
    code = page.evaluate(EDITOR_TEXT)
    assert code.endswith("g(2.0)\n"), repr(code)
    page.keyboard.press("Escape")
    shot(page, "a11y_kb_editor_leaving_1400x900")
    # on to the output tabs: one tab stop, arrows move between them and show them
    tab_until(page, lambda d: d.startswith("DIV|tab|"))
    tabs = page.evaluate(TABS)
    assert len(tabs) == 5 and all(t["list"] and t["panelRole"] == "tabpanel" and t["labelled"] for t in tabs), tabs
    assert [t["tabindex"] for t in tabs].count(0) == 1
    first = next(t["title"] for t in tabs if t["selected"] == "true")
    titles = [t["title"] for t in tabs]
    page.keyboard.press("ArrowRight")
    want = titles[(titles.index(first) + 1) % 5]
    assert focused(page) == f"DIV|tab||{want}"
    page.wait_for_function(f"() => ({TABS})().some((t) => t.title === {want!r} && t.selected === 'true')", timeout=5_000)
    tabs = page.evaluate(TABS)
    shown = [t for t in tabs if t["shown"]]
    assert [t["title"] for t in shown] == [want] and shown[0]["selected"] == "true", tabs
    assert all(t["panelInert"] == (t["title"] != want) for t in tabs), tabs
    page.keyboard.press("End")
    assert focused(page) == "DIV|tab||Console"
    page.keyboard.press("Home")
    assert focused(page) == "DIV|tab||Jaxpr"
    page.keyboard.press("ArrowLeft")
    assert focused(page) == "DIV|tab||Console"
    assert [t["title"] for t in page.evaluate(TABS) if t["shown"]] == ["Console"]
    shot(page, "a11y_kb_tabs_1400x900")
    page.keyboard.press("Tab")                  # into the panel shown
    assert focused(page).startswith("DIV|tabpanel|"), focused(page)
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "DIV|tab||Console"
    # Run and the gallery: backwards, passing the editor with Esc
    page.keyboard.press("Home")
    runs = page.evaluate("() => window.gradpad.runs")
    run = tab_until(page, lambda d: d.startswith("BUTTON|") and d.endswith("Run"), key="Shift+Tab")
    shot(page, "a11y_kb_run_1400x900")
    page.keyboard.press("Enter")
    page.wait_for_function("n => window.gradpad.runs > n", arg=runs, timeout=60_000)
    settle(page)
    assert page.evaluate(EDITOR_TEXT) == code, run
    tab_until(page, lambda d: d.startswith("SELECT|"), key="Shift+Tab")   # the backend, then the gallery
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => { let a = document.activeElement; while (a.shadowRoot && a.shadowRoot.activeElement) "
                         "a = a.shadowRoot.activeElement; return a.tagName === 'SELECT' && a.options.length > 5; }")
    page.keyboard.press("ArrowDown")            # a closed <select> takes the next option at once
    snap = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        settle(page)
        snap = page.evaluate("() => window.gradpad.snapshot()")
        if snap.get("example"):
            break
        time.sleep(1)
    assert snap and snap.get("example"), snap
    assert page.evaluate(EDITOR_TEXT) != code and snap["error"] is None, snap
    # the page as the gallery left it (an example over edited code: the "Restore my code" banner)
    bad = report("app after a gallery load over edited code", page)
    assert bad == [], describe(bad)
