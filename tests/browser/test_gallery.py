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

from . import shots
from .settle import settled, show_tab
from .test_graph_labels import graph_labels_never_overlap_nor_get_cut

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
ALARMS = ("nan×", "✗differs", "compile&run0.0µs", "Traceback(mostrecentcalllast)", "stackswitchingnotsupported")


def shot(page, name):
    if not shots.wanted():
        return
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
    if not rows and snap["vmap"]["skipped"].startswith("one call of f takes"):
        # a busy machine (one CI run at load 14: the flax model's eager call over 0.5 s): the pane
        # says it skipped batching and why (app.pane_bounds.batch_size), which is the truth
        print(f"\n[{name}] vmap comparison skipped: {snap['vmap']['skipped']}")
    else:
        assert {"loop", "vmap", "jit(vmap)"} <= set(rows), snap["vmap"]
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
    graph_labels_never_overlap_nor_get_cut(app_page, name)  # on this load (test_graph_labels.py)


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


# Pyodide's run_sync as a Python started from the build's bare snapshot has it (made under Node,
# without JSPI): it refuses, though can_run_sync() says True. The shared page's Python may have
# come from a restart (a snapshot made in this browser, where run_sync works), so it is set here.
NO_RUN_SYNC = """
import pyodide.ffi as ffi
if not hasattr(ffi, "_gradpad_run_sync"):
    ffi._gradpad_run_sync = ffi.run_sync
def _refuse(awaitable):
    raise RuntimeError("WebAssembly stack switching not supported in this JavaScript runtime")
ffi.run_sync = _refuse
"""
RUN_SYNC_BACK = "import pyodide.ffi as ffi\nffi.run_sync = getattr(ffi, '_gradpad_run_sync', ffi.run_sync)"
READS_BACK = """import jax
from jax import lax
def f(x):
    return lax.cond(x < 0.0, lambda x: x ** 2.0, lambda x: x ** 3.0, x)  # eager: reads x < 0 back
f(2.0)
"""


def test_webgpu_timing_that_cannot_wait_for_the_gpu_is_a_grey_line(app_page):
    """f runs `lax.cond` eagerly, which reads its predicate back from the GPU. Where the page's
    Python cannot wait for that (Pyodide refuses run_sync), the Timing pane's WebGPU part says so
    in grey: it showed a red "RuntimeError: WebAssembly stack switching not supported"."""
    import time
    page = app_page.page
    app_page.run(NO_RUN_SYNC)
    try:
        _LAST_LOAD.clear()
        load(app_page, code=READS_BACK)
        deadline = time.monotonic() + 240  # a bound on the wait, not a timing (SwiftShader under load)
        while page.evaluate("() => window.gradpad.snapshot()").get("pending"):  # WebGPU is measured last
            assert time.monotonic() < deadline, "the panes never finished measuring"
            page.wait_for_timeout(250)
        show_tab(page, "Timing")
        text = page.evaluate(VISIBLE_TEXT)
        assert "stack switching not supported" not in text and "RuntimeError" not in text, text
        assert "WebGPU" in text and ("not measured" in text or "not available" in text), text
    finally:
        app_page.run(RUN_SYNC_BACK)
        tab(page, "Jaxpr").click()


def test_unknown_example_shows_a_message_and_the_gallery(app_page):
    snap = load(app_page, example="nope")
    assert "There is no example named" in snap["notice"] and snap["error"] is None
    assert snap["function"] is not None
    shot(app_page.page, "unknown_example_1400x900")
