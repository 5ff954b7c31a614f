"""The Panel playground in the built site, in headless Chromium, on the shared page (see conftest).

Flows: the page API (load/snapshot), an example opened by link, editing code in the editor,
an error in the Console, an infinite loop stopped (Stop) without a reload, and the embed view in a
700x500 iframe driven by postMessage. Screenshots go to $GRADPAD_SCREENSHOTS (default
/tmp/gradpad-screenshots) for a human to look at."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from . import shots
from .settle import settled, show_tab

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


def snapshot(gp) -> dict:
    return gp.page.evaluate("() => window.gradpad.snapshot()")


def wait_snapshot(gp, predicate, timeout_s: float = 180) -> dict:
    """Poll the page API until the snapshot satisfies `predicate` (runs finish asynchronously)."""
    deadline = time.monotonic() + timeout_s
    while True:
        snap = snapshot(gp)
        if predicate(snap) or time.monotonic() > deadline:
            return snap
        time.sleep(0.2)  # (1 s cost ~0.5 s a wait; the graph-label check waits twice per example)


def tab(page, title):
    return page.locator("#app .bk-tab").filter(has_text=title).first


def canvases(page) -> int:
    return page.locator("#app canvas").count()


@pytest.fixture(scope="module")
def app_page(gp):
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    gp.page.set_viewport_size({"width": 1280, "height": 800})
    return gp


def test_app_renders_with_the_default_example(app_page):
    # the page is shared: a module run before this one (test_worker's restarts) may have left
    # its own code in the editor, so the default example is loaded, not assumed
    from app.main import DEFAULT_EXAMPLE
    page = app_page.page
    snap = load(app_page, example=DEFAULT_EXAMPLE)
    assert snap["function"] == "sum_logistic" and snap["error"] is None
    assert snap["jaxpr"].startswith("{ lambda ; a:f32[]. let")
    page.locator("#app .ace_editor").first.wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('#app') !== null")
    shot(page, "app_1280x800")


def test_page_api_load_returns_the_snapshot(app_page):
    snap = load(app_page, example="jvp_and_vjp")
    assert snap["function"] == "f" and snap["error"] is None
    assert "jax.jvp(f, (x,), (v,))" in snap["console"]
    # JAX: jax.make_jaxpr(lambda x: jnp.multiply(x, x) / 2.0)(x) for x: f32[5]
    assert snap["jaxpr"] == ("{ lambda ; a:f32[5]. let\n    b:f32[5] = mul a a\n    c:f32[5] = div b 2.0:f32[]\n"
                             "  in (c,) }")
    assert snap["plots"] == {"jacobian": 25}


def test_example_opens_by_link(app_page):
    page = app_page.page
    page.evaluate("() => { location.hash = '#example=pytrees' }")
    snap = wait_snapshot(app_page, lambda snap: snap["function"] == "loss")
    assert snap["function"] == "loss"
    assert "grad of a dict" in snap["console"]


def test_editing_code_updates_jaxpr_and_plot(app_page):
    page = app_page.page
    load(app_page, code="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x)\n\nf(1.0)\n")
    before = snapshot(app_page)
    assert "sin" in before["jaxpr"] and before["plots"]["f"] == 201
    page.locator("#app .ace_content").first.click()
    page.keyboard.press("Control+End")
    # redefine f (the selected function stays selected across runs)
    page.keyboard.type("\ndef f(x): return jnp.cos(x) * x\n")
    page.keyboard.press("Control+Enter")
    wait_snapshot(app_page, lambda snap: "cos" in snap["jaxpr"])
    after = snapshot(app_page)
    assert "def f(x): return jnp.cos(x) * x" in after["code"]
    assert "cos" in after["jaxpr"] and "mul" in after["jaxpr"] and "sin" not in after["jaxpr"]
    assert after["plots"] == {"f": 201, "df": 201, "d2f": 201}
    show_tab(page, "Plots")
    assert canvases(page) > 0
    shot(page, "app_plots_after_edit")
    tab(page, "Jaxpr").click()


def test_error_appears_in_the_console_pane(app_page):
    page = app_page.page
    snap = load(app_page, code="import jax\n\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n\nf(1.0)\n")
    assert snap["error"]["type"] == "TracerBoolConversionError"
    tab(page, "Console").click()
    page.get_by_text("TracerBoolConversionError: Attempted boolean conversion").first.wait_for(state="visible")
    page.get_by_text("See the example").first.wait_for(state="visible")
    shot(page, "app_console_error")
    tab(page, "Jaxpr").click()


def test_infinite_loop_is_stopped_and_the_code_kept(app_page):
    # the session's page is cross-origin isolated (conftest): Stop interrupts, no time budget
    page = app_page.page
    code = "x = 0\nwhile True:\n    x += 1\n"
    # let an autorun of the previous test's edits finish first: the Stop loop below must interrupt
    # this load's loop, not a run before it (an interrupt landing there left the old code in view)
    page.wait_for_timeout(1500)
    page.wait_for_function("() => !window.gradpad.running", timeout=60_000)
    page.evaluate("""code => { window.__gpLoop = null;
        setTimeout(() => window.gradpad.load({code}).then(r => { window.__gpLoop = r; }), 0); }""", code)
    page.wait_for_function("() => window.gradpad.running", timeout=60_000)
    # Stop until this load answers (an autorun of the previous test's edits may run first)
    page.wait_for_function("() => window.__gpLoop !== null || (window.gradpad.interrupt(), false)",
                           timeout=30_000, polling=200)
    snap = page.evaluate("() => window.__gpLoop")
    assert snap["error"]["type"] == "KeyboardInterrupt", snap["error"]
    assert snap["code"] == code
    # the page still works: the next run succeeds without a reload
    snap = load(app_page, code="import jax\nf = lambda x: x * 2.0\nf(3.0)\n")
    assert snap["error"] is None and snap["function"] == "f"


# the dataflow graph's canvas box and the tops of its node labels (HTML divs over the canvas)
GRAPH_BOX = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const graph = all(document).find((el) => el.classList && el.classList.contains('gp-graph'));
  if (!graph) return null;
  const els = all(graph.shadowRoot || graph);
  const canvas = els.find((el) => el.tagName === 'CANVAS');
  const c = canvas.getBoundingClientRect();
  return {canvas: [c.left, c.top, c.right, c.bottom],
          labels: els.filter((el) => el.tagName === 'DIV' && el.style.whiteSpace === 'pre' && el.textContent.trim())
                     .map((el) => el.getBoundingClientRect().top)};
}"""


def test_embed_view_in_a_700x500_iframe_driven_by_post_message(browser_context, site_url, app_page):
    ctx, _ = browser_context
    page = ctx.new_page()
    try:
        page.set_viewport_size({"width": 760, "height": 560})
        src = f"{site_url}?embed=1&panes=jaxpr,plot&autorun=1&readonly=1#example=jvp_and_vjp"
        page.set_content(f'<iframe id="gp" src="{src}" width="700" height="500" style="border:1px solid #ccc"></iframe>')
        frame = page.frame_locator("#gp")
        page.set_default_timeout(360_000)
        deadline = time.monotonic() + 60
        while not any("embed=1" in f.url for f in page.frames) and time.monotonic() < deadline:
            time.sleep(0.5)
        inner = next(f for f in page.frames if "embed=1" in f.url)
        inner.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=360_000)
        frame.get_by_text("open in gradpad").first.wait_for(state="visible")
        reply = page.evaluate("""() => new Promise((resolve) => {
            window.addEventListener('message', (ev) => { if (ev.data && ev.data.id === 7) resolve(ev.data); });
            document.querySelector('#gp').contentWindow.postMessage({gradpad: 'snapshot', id: 7}, '*');
        })""")
        assert reply["gradpad"] == "result", reply
        assert reply["result"]["function"] == "f"
        assert reply["result"]["jaxpr"].startswith("{ lambda ; a:f32[5]. let")
        # the rest of the page API over postMessage: runPython, and interrupt with nothing running
        replies = page.evaluate("""() => Promise.all([['runPython', {code: '6 * 7'}, 8], ['interrupt', null, 9]].map(
            ([call, args, id]) => new Promise((resolve) => {
                window.addEventListener('message', (ev) => { if (ev.data && ev.data.id === id) resolve(ev.data); });
                document.querySelector('#gp').contentWindow.postMessage({gradpad: call, id, args}, '*');
            })))""")
        assert replies[0]["result"]["result"] == "42", replies
        assert replies[1] == {"gradpad": "result", "result": False, "id": 9}, replies
        # no editor in this embed (readonly): the source-map hint must not send the reader to one
        hint = frame.locator(".gp-srchint").first.inner_text()
        assert "editor" not in hint and "hover an equation" in hint, hint
        # jvp_and_vjp's graph is one row: a short plot, its nodes just under the title, not centred
        # in an empty 220 px frame (the embed's pane then showed them only at its bottom edge)
        inner.wait_for_function("(() => { const b = (" + GRAPH_BOX + ")(); return b && b.labels.length > 0; })()",
                                timeout=60_000)
        box = inner.evaluate(GRAPH_BOX)
        assert box and box["labels"], box
        assert box["canvas"][3] - box["canvas"][1] <= 200, box
        assert max(top for top in box["labels"]) - box["canvas"][1] <= 90, box
        settled(inner)
        shot(page, "embed_700x500")
        tour_the_gallery_in_the_embed(page, inner)
    finally:
        page.close()


# what the embed's frame shows past its right edge (px), and its visible text
EMBED_VIEW = """() => {
  const out = [];
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = it.nextNode(); n; n = it.nextNode()) {
      const el = n.parentElement;
      if (el && !['STYLE', 'SCRIPT'].includes(el.tagName) && el.getClientRects().length) out.push(n.textContent);
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document.body);
  const all = (root, acc = []) => { for (const el of root.querySelectorAll('*')) { acc.push(el);
    if (el.shadowRoot) all(el.shadowRoot, acc); } return acc; };
  // the bottom of the tab's pane in view (a Column that scrolls: Panel's class for it)
  const boxes = all(document).filter((el) => el.classList && el.classList.contains('scrollable-vertical')
                                              && el.getClientRects().length);
  const bottom = Math.max(0, ...boxes.map((el) => el.getBoundingClientRect().bottom));
  return {overflow: document.documentElement.scrollWidth - innerWidth, text: out.join(' '),
          tall: document.documentElement.scrollHeight - innerHeight, gap: innerHeight - bottom};
}"""


def tour_the_gallery_in_the_embed(page, inner):
    """Every gallery example in the same 700x500 embed (its host's `load` message): a screenshot
    of each to look at, and nothing wider than the frame, no NaN, no error."""
    from app import examples
    bad = {}
    for n, name in enumerate(examples.names()):
        reply = page.evaluate("""([name, id]) => new Promise((resolve) => {
            window.addEventListener('message', (ev) => { if (ev.data && ev.data.id === id) resolve(ev.data); });
            document.querySelector('#gp').contentWindow.postMessage({gradpad: 'load', id, args: {example: name}}, '*');
        })""", [name, 100 + n])
        assert reply["gradpad"] == "result", (name, reply)
        for title in ("Jaxpr", "Plots"):
            show_tab(inner, title)  # and BokehJS has laid out the pane
            shot(page, f"embed_700x500_{n:02d}_{name}_{title}")
            view = inner.evaluate(EMBED_VIEW)
            problems = [w for w in ("nan", "Error", "Traceback") if w in view["text"].split()]
            # nothing wider or taller than the frame; the pane reaches the frame's bottom (a
            # fixed 400 px pane left a blank band of ~45 px in the 500 px frame)
            if reply["result"].get("error") or view["overflow"] > 0 or view["tall"] > 0 or problems \
                    or view["gap"] > 16:
                bad[(name, title)] = (reply["result"].get("error"), view["overflow"], view["tall"],
                                      view["gap"], problems)
        inner.locator(".bk-tab").filter(has_text="Jaxpr").first.click()
    assert bad == {}, bad
