"""The editor/panes splitter and the theme switch in the built site: at 1400 px the editor shows
at least 88 columns; dragging the bar resizes the columns (kept in localStorage, double-click
resets); the theme follows the system until the header's button picks one, which persists and
switches the app in place (no reload: the document and its panes stay). Screenshots go to $GRADPAD_SCREENSHOTS."""
from __future__ import annotations

import pytest

from .test_app_flows import load, shot
from .settle import settled, show_tab

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


# One click of the theme button, timed in the page: what it shows right after the click's task
# (getComputedStyle brings the styles up to date), the views on show, and the switch's record
CLICK_THEME = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const views = () => [...window.Bokeh.index.roots].map((v) => v.model.id).join(',');
  const before = views();
  const t0 = performance.now();
  document.getElementById('gp-theme').click();
  const els = all(document);
  const code = els.find((e) => e.classList && e.classList.contains('gp-code'));
  const links = els.filter((e) => e.tagName === 'LINK' && /[/]theme[/](default|dark)[.]css/.test(e.getAttribute('href')));
  return {code_bg: getComputedStyle(code).backgroundColor, ms: performance.now() - t0, reloads: window.gpNoReload,
          same_views: views() === before,
          theme_css: [...new Set(links.map((l) => l.getAttribute('href').split('/').pop()))],
          record: window.gradpad.themeSwitch};
}"""
ACE_DARK = """(dark) => { const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  return all(document).find((e) => e.classList && e.classList.contains('ace_editor')).classList.contains('ace_dark') === dark; }"""
# the jaxpr pane's graph (drawn on a canvas: Python sets its colours in place, app/theme_switch.py)
GRAPH_BG = """() => [...[...window.Bokeh.index.roots][0].model.document.all_models].filter((m) => m.type === 'Figure'
  && m.title && String(m.title.text).startsWith('dataflow graph')).map((m) => m.background_fill_color)"""


def test_theme_switches_in_place_and_the_choice_persists(app_page):
    page = app_page.page
    page.emulate_media(color_scheme="light")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "light"
    light_bg = page.evaluate(CODE_BG)
    button = page.locator("#gp-theme")
    assert "Auto" in button.inner_text()
    button.click()  # auto -> light: already light, nothing changes
    assert "Light" in button.inner_text() and page.evaluate("() => localStorage.getItem('gradpad.theme')") == "light"
    jaxpr = app_page.page.evaluate("() => window.gradpad.snapshot()")["jaxpr"]
    light_graph, = page.evaluate(GRAPH_BG)
    page.evaluate("() => { window.gpNoReload = 'same page' }")
    dark = page.evaluate(CLICK_THEME)  # light -> dark, in place
    assert dark["code_bg"] == "rgb(22, 27, 34)" != light_bg, dark
    assert dark["theme_css"] == ["dark.css"] and dark["same_views"], dark
    # the editor's theme: Ace loads its file (once) and then restyles
    page.wait_for_function(ACE_DARK, arg=True, timeout=30_000)
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    assert "Dark" in page.locator("#gp-theme").inner_text()
    # Python follows: the figures' colours, and nothing rebuilt or reloaded
    page.wait_for_function("() => window.gradpad.themeSwitch.python_ms !== null", timeout=120_000)
    record = page.evaluate("() => window.gradpad.themeSwitch")
    assert record["python"]["changed"] and record["sheets_ms"] is not None, record
    assert page.evaluate("() => window.gpNoReload") == "same page"
    assert page.evaluate("() => window.gradpad.snapshot()")["jaxpr"] == jaxpr
    assert page.evaluate(GRAPH_BG) == ["#2b3035"]
    print(f"\n[theme] light -> dark: {dark['ms']:.0f} ms in the click's task (page part {record['ms']} ms, "
          f"stylesheet model {record['sheets_ms']} ms later), Python's side {record['python_ms']} ms", flush=True)
    shot(page, "theme_dark_1400x900")
    light = page.evaluate(CLICK_THEME)  # dark -> auto, and the system is light
    assert light["code_bg"] == light_bg and light["theme_css"] == ["default.css"], light
    page.wait_for_function(ACE_DARK, arg=False, timeout=30_000)
    assert light["same_views"] and light["reloads"] == "same page", light
    assert page.evaluate("() => document.documentElement.dataset.theme") == "light"
    assert page.evaluate("() => localStorage.getItem('gradpad.theme')") == "auto"
    page.wait_for_function("() => window.gradpad.themeSwitch.python_ms !== null", timeout=120_000)
    assert page.evaluate(GRAPH_BG) == [light_graph]
    print(f"[theme] dark -> light: {light['ms']:.0f} ms in the click's task, Python's side "
          f"{page.evaluate('() => window.gradpad.themeSwitch.python_ms')} ms", flush=True)
    shot(page, "theme_light_after_switch_1400x900")


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
        settled(page)
        pane = page.evaluate(SHOWN_PANE)
        shot(page, f"panes_fill_{width}x{height}")
        assert pane["height"] > 700, pane
        assert 0 <= pane["vh"] - pane["bottom"] <= 30, pane  # to the window's bottom, a margin left
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})


# The Plots pane's figures, viewport px: each figure's box, the width BokehJS last laid its frame,
# axes and title out for (its drawing), and the pane's box
PLOT_FIGURES = """() => {
  const inPane = (v) => { for (let x = v; x; x = x.parent) if (x.model && (x.model.css_classes || []).includes('gp-pane-plot')) return x; return null; };
  const figs = [...Bokeh.index.query(() => true)].filter((v) => v.canvas_view && inPane(v) && v.el.getClientRects().length);
  const pane = figs.length ? inPane(figs[0]).el.getBoundingClientRect() : null;
  return {pane: pane && {left: pane.left, right: pane.right, width: pane.width},
          figs: figs.map((v) => { const b = v.canvas_view.el.getBoundingClientRect();
            return {left: b.left, right: b.right, width: v.bbox.width, laid_out: v.layout.bbox.width}; })};
}"""


def test_the_plots_follow_the_windows_width(app_page):
    # A figure kept the layout of the window size it was first drawn at: at 390 px its 894 px
    # drawing was cut (title and x axis past the pane's edge) on a 359 px canvas; at 1920 one laid
    # out on a phone used ~360 px of the pane's ~900
    page = app_page.page
    load(app_page, example="mlp_sin")  # two figures: the line and the gradient bars
    try:
        for width, height in ((1920, 1080), (390, 844), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            show_tab(page, "Plots")
            settled(page)
            try:  # the layouts run in tasks of their own after the resize: on a loaded machine, later
                page.wait_for_function(f"() => {{ const g = ({PLOT_FIGURES})(); return g.figs.length === 2 && "
                                       "g.figs.every((f) => f.laid_out === f.width && f.right <= g.pane.right + 1); }",
                                       timeout=30_000)
            except Exception:  # noqa: BLE001 - the asserts below say what is wrong
                pass
            got = page.evaluate(PLOT_FIGURES)
            shot(page, f"plots_follow_the_window_{width}x{height}")
            assert len(got["figs"]) == 2, (width, got)
            pane = got["pane"]
            for fig in got["figs"]:
                assert fig["laid_out"] == fig["width"], (width, got)  # drawn for the size it has
                assert pane["left"] - 1 <= fig["left"] and fig["right"] <= pane["right"] + 1, (width, got)
                assert fig["width"] >= 0.85 * pane["width"], (width, got)  # and filling the pane
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
        settled(page)
