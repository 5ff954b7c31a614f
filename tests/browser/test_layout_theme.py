"""The editor/panes splitter and the theme switch in the built site: at 1400 px the editor shows
at least 88 columns; dragging the bar resizes the columns (kept in localStorage, double-click
resets); the theme follows the system until the header's button picks one, which persists and
rebuilds the app in that theme. Screenshots go to $GRADPAD_SCREENSHOTS."""
from __future__ import annotations

import pytest

from .test_app_flows import load, shot

pytestmark = pytest.mark.timeout(1200)

EDITOR_COLUMNS = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const el = all(document).find((e) => e.classList && e.classList.contains('ace_editor'));
  const r = el.env.editor.renderer;
  return r.$size.scrollerWidth / r.characterWidth;
}"""
CODE_BG = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const el = all(document).find((e) => e.classList && e.classList.contains('gp-code'));
  return el ? getComputedStyle(el).backgroundColor : null;
}"""


@pytest.fixture(scope="module")
def app_page(gp):
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    gp.page.set_viewport_size({"width": 1400, "height": 900})
    yield gp
    gp.page.evaluate("() => { localStorage.removeItem('gradpad.split'); localStorage.removeItem('gradpad.theme'); }")


def test_editor_is_88_columns_and_the_splitter_drags(app_page):
    page = app_page.page
    load(app_page, example="mlp_sin")
    assert page.evaluate(EDITOR_COLUMNS) >= 88
    w0 = page.evaluate("() => window.gradpad.splitter.width()")
    box = page.evaluate("""() => { const w = window.gradpad.splitter.width(); return w; }""")
    assert box == w0 and w0 > 600
    # the bar is the editor column's right edge
    left = page.evaluate("""() => {
      const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
        if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
      const r = all(document).find((e) => e.classList && e.classList.contains('gp-left')).getBoundingClientRect();
      return [r.right, r.top + r.height / 2];
    }""")
    x, y = left[0] - 3, left[1]
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 150, y, steps=5)
    page.mouse.up()
    w1 = page.evaluate("() => window.gradpad.splitter.width()")
    assert abs((w0 - w1) - 150) < 12, (w0, w1)
    assert abs(float(page.evaluate("() => localStorage.getItem('gradpad.split')")) - w1) < 2
    shot(page, "splitter_dragged_1400x900")
    page.mouse.dblclick(x - 150, y)
    assert abs(page.evaluate("() => window.gradpad.splitter.width()") - w0) < 2
    assert page.evaluate("() => localStorage.getItem('gradpad.split')") is None


def test_theme_follows_the_system_and_the_choice_persists(app_page):
    page = app_page.page
    page.emulate_media(color_scheme="light")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "light"
    light_bg = page.evaluate(CODE_BG)
    button = page.locator("#gp-theme")
    assert "Auto" in button.inner_text()
    button.click()  # auto -> light: already light, nothing to rebuild
    assert "Light" in button.inner_text() and page.evaluate("() => localStorage.getItem('gradpad.theme')") == "light"
    with page.expect_navigation(timeout=60_000):
        button.click()  # light -> dark: the app is rebuilt in the dark theme (the page reloads, code kept)
    assert app_page.wait_ui() == "app"
    page.wait_for_function("() => window.gradpad.snapshot && true", timeout=120_000)
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    assert "Dark" in page.locator("#gp-theme").inner_text()
    page.locator("#app .gp-code").first.wait_for(state="attached", timeout=120_000)
    dark_bg = page.evaluate(CODE_BG)
    assert dark_bg != light_bg and dark_bg == "rgb(22, 27, 34)", (light_bg, dark_bg)
    shot(page, "theme_dark_1400x900")
    with page.expect_navigation(timeout=60_000):
        page.locator("#gp-theme").click()  # dark -> auto, and the system is light
    assert app_page.wait_ui() == "app"
    assert page.evaluate("() => document.documentElement.dataset.theme") == "light"
    assert page.evaluate("() => localStorage.getItem('gradpad.theme')") == "auto"


# the shown pane's box (the tallest Column in the right column: the tabs' shown pane), viewport px
SHOWN_PANE = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const right = all(document).find((e) => e.classList && e.classList.contains('gp-right'));
  const panes = all(right.shadowRoot).filter((e) => e.classList && e.classList.contains('bk-panel-models-layout-Column')
                                         && e.getBoundingClientRect().height > 0);
  const b = panes.sort((a, c) => c.getBoundingClientRect().height - a.getBoundingClientRect().height)[0].getBoundingClientRect();
  return {top: b.top, bottom: b.bottom, height: b.height, vh: innerHeight};
}"""


@pytest.mark.parametrize("width,height", [(1920, 1080), (1400, 900)])
def test_the_panes_use_the_windows_height(app_page, width, height):
    # a fixed 700 px pane left ~180 px blank under it at 1920x1080
    page = app_page.page
    load(app_page, example="mlp_sin")
    page.set_viewport_size({"width": width, "height": height})
    try:
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(500)
        pane = page.evaluate(SHOWN_PANE)
        shot(page, f"panes_fill_{width}x{height}")
        assert pane["height"] > 700, pane
        assert 0 <= pane["vh"] - pane["bottom"] <= 30, pane  # to the window's bottom, a margin left
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
