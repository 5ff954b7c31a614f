"""Every gallery example in the built site, through the page API only (`gradpad.load({example})`
and `gradpad.snapshot()`), on the shared page (see conftest): no pane is empty, NaN or in error
(unless the example is about that error), at the sizes people use. Screenshots of every pane go
to $GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots-ui) for a human to look at."""
from __future__ import annotations

import io
import math
import os
from pathlib import Path

import pytest

from app import examples

from .settle import settled, show_tab

pytestmark = pytest.mark.timeout(1800)
SHOTS = Path(os.environ.get("GRADPAD_SCREENSHOTS", "/tmp/gradpad-screenshots-ui"))
TABS = ("Jaxpr", "Plots", "vmap", "Timing", "Console")
SIZES = ((1400, 900), (1920, 1080), (390, 844))
ABOUT_AN_ERROR: dict = {}  # example -> the error class it exists to show (none of today's 15)

# the page's DOM, shadow roots included (Panel renders every widget in one)
METRICS = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const els = all(document);
  const ace = els.find((el) => el.classList && el.classList.contains('ace_editor') && el.env);
  const r = ace && ace.env.editor.renderer;
  const run = els.find((el) => el.tagName === 'BUTTON' && el.textContent.includes('Run'));
  const rb = run && run.getBoundingClientRect();
  return {scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth,
          appWidth: document.querySelector('#app').getBoundingClientRect().width,
          editorColumns: r ? Math.floor(r.scroller.clientWidth / r.characterWidth) : 0,
          run: rb ? {left: rb.left, right: rb.right, top: rb.top, width: rb.width} : null};
}"""


# what a reader sees in the app, shadow roots included (Panel renders every pane in one)
VISIBLE_TEXT = """() => {
  const out = [];
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = it.nextNode(); n; n = it.nextNode()) {
      const el = n.parentElement;
      if (el && !['STYLE', 'SCRIPT'].includes(el.tagName) && el.getClientRects().length) out.push(n.textContent);
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document.querySelector('#app'));
  return out.join(' ');
}"""
# text that must never show on one of our own examples (compared with spaces removed)
ALARMS = ("nan×", "✗differs", "compile&run0.0µs", "Traceback(mostrecentcalllast)")


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def load(gp, **opts) -> dict:
    gp.page.set_default_timeout(180_000)
    return gp.page.evaluate("opts => window.gradpad.load(opts)", opts)


_LAST_LOAD: dict = {}  # example -> the snapshot its last load() returned (to tell if anything ran since)


def load_or_keep(gp, example: str) -> dict:
    """gradpad.load({example}), unless the page still shows that example's last load: nothing ran
    since (the same run, code and view; a test in between only resized, switched tabs, looked).
    Tests that only look at an example's panes share its load this way."""
    last = _LAST_LOAD.get(example)
    if last is not None:
        now = gp.page.evaluate("() => window.gradpad.snapshot()")
        if all(now.get(k) == last.get(k) for k in ("run", "code", "view", "example")) and not now.get("pending") \
                and not gp.page.evaluate("() => window.gradpad.running"):
            return now
    snap = load(gp, example=example)
    _LAST_LOAD.clear()
    _LAST_LOAD[example] = snap
    return snap


def tab(page, title):
    return page.locator("#app .bk-tab").filter(has_text=title).first


@pytest.fixture(scope="module")
def app_page(gp):
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    gp.page.set_viewport_size({"width": 1400, "height": 900})
    yield gp
    # the page is shared: leave it as a fresh visit shows it, for the test modules after this one
    from app.main import DEFAULT_EXAMPLE
    load(gp, example=DEFAULT_EXAMPLE)


def finite_positive(x) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x) and x > 0


@pytest.mark.parametrize("name", examples.names())
def test_every_pane_shows_something_true(app_page, name):
    ex = examples.load(name)
    snap = load(app_page, example=name)
    if name in ABOUT_AN_ERROR:
        assert snap["error"]["type"] == ABOUT_AN_ERROR[name]
        return
    assert snap["error"] is None, snap["error"]
    assert snap["function"] == ex.function and snap["example"] == name
    assert "{ lambda" in snap["jaxpr"] and snap["eqn_count"] > 0  # shared sub-jaxprs come first as "let"
    assert snap["plots"] and all(n > 0 for n in snap["plots"].values()), snap["plots"]
    cpu = snap["timing"]["cpu"]
    for key in ("eager_ms", "jit_first_ms", "jit_steady_ms", "speedup"):
        assert finite_positive(cpu[key]), (key, cpu)
    assert cpu["calls"]["eager"] >= 1 and cpu["calls"]["jit"] >= 1
    rows = snap["vmap"]["rows"]
    assert {"loop", "vmap", "jit(vmap)"} <= set(rows), rows
    assert not [m for m, r in rows.items() if "error" in r], rows
    assert all(r.get("matches_vmap") in (None, True) for r in rows.values()), rows
    if "manual" not in rows:
        assert snap["vmap"]["manual_note"]  # why batching by hand is not right for this f
    page = app_page.page
    try:
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            for title in TABS:
                show_tab(page, title)
                shot(page, f"{name}_{width}x{height}_{title}")
                text = page.evaluate(VISIBLE_TEXT)  # inner_text() of #app is "": the panes are in shadow roots
                assert title in text, title
                for alarm in ALARMS:
                    assert alarm not in text.replace(" ", ""), (title, alarm)
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
        tab(page, "Jaxpr").click()


@pytest.mark.parametrize("name", ["jvp_and_vjp", "jacobians_and_hessian", "lax_control_flow",
                                  "random_keys_and_split", "vmap_batching_comparison"])
def test_jacobian_heatmap_is_coloured(app_page, name):
    from PIL import Image
    snap = load(app_page, example=name)
    assert "jacobian" in snap["plots"], snap["plots"]
    page = app_page.page
    show_tab(page, "Plots")
    canvas = page.locator("#app .bk-Canvas >> visible=true").first
    img = Image.open(io.BytesIO(canvas.screenshot())).convert("RGB")
    w, h = img.size
    plot_area = img.crop((0, 0, int(w * 0.7), h))  # the colour bar is on the right: leave it out
    coloured = sum(1 for r, g, b in plot_area.getdata() if max(r, g, b) - min(r, g, b) > 40)
    assert coloured > 0.05 * plot_area.size[0] * plot_area.size[1], coloured
    tab(page, "Jaxpr").click()


@pytest.mark.parametrize("size", [(1920, 1080), (1400, 900), (390, 844)])
def test_layout_fits_the_window(app_page, size):
    page = app_page.page
    width, height = size
    load_or_keep(app_page, "vmap_batching_comparison")
    page.set_viewport_size({"width": width, "height": height})
    settled(page)
    m = page.evaluate(METRICS)
    try:
        assert m["scrollWidth"] <= width, m  # no horizontal scrolling
        assert m["run"] and m["run"]["left"] >= 0 and m["run"]["right"] <= width, m  # Run is on screen
        if width >= 1400:
            assert m["appWidth"] >= width - 60, m  # the whole window, not a column
            assert m["editorColumns"] >= 88, m
        for title in TABS:
            show_tab(page, title)
            shot(page, f"layout_{width}x{height}_{title}")
    finally:
        tab(page, "Jaxpr").click()
        page.set_viewport_size({"width": 1400, "height": 900})


def test_unknown_example_shows_a_message_and_the_gallery(app_page):
    snap = load(app_page, example="nope")
    assert "There is no example named" in snap["notice"] and snap["error"] is None
    assert snap["function"] is not None
    shot(app_page.page, "unknown_example_1400x900")
