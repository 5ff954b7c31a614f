"""The core flows in every browser engine a student may have: Firefox ESR (Gecko) and WebKitGTK
(the engine behind Safari), through tests/browser/drivers.py; Chromium has them in the other
modules. Opt-in for now (see BROWSERS): GRADPAD_EVERY_BROWSER=firefox,webkit runs them here, and
chromium,firefox,webkit on all three.

One page per browser (a page takes 15-70 s to load), walked through as a student would, in
order: the first visit loads and runs code, the app runs code and the gallery, Stop ends a
runaway loop, a Share link opens the same code (the second visit), and the embed view loads and
runs. What the browser lacks (WebGPU, shared memory) must be said in the page. Screenshots at
1400x900 and 390x844 go to $GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots)."""
from __future__ import annotations

import html
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from . import drivers

pytestmark = pytest.mark.timeout(1800)
SHOTS = Path(os.environ.get("GRADPAD_SCREENSHOTS", "/tmp/gradpad-screenshots"))
# Opt-in for now: GRADPAD_EVERY_BROWSER=firefox,webkit (or chromium,firefox,webkit) runs them. They
# were written on a machine at load average 15-50, where a WebKit page took 5 minutes to its UI and
# the whole module did not finish in 40 minutes; the default turns on once a run on an ordinary
# (CI) machine has passed and been timed.
BROWSERS = [b for b in os.environ.get("GRADPAD_EVERY_BROWSER", "").split(",") if b]
if not BROWSERS:
    pytest.skip("Firefox/WebKit flows are opt-in: set GRADPAD_EVERY_BROWSER=firefox,webkit", allow_module_level=True)
# the gallery in each browser: every GALLERY_STEP-th example (Chromium's test_gallery has all of
# them, pane by pane); WebKitGTK, whose wasm runs slowest, the fewest
# (GRADPAD_EVERY_BROWSER_GALLERY=all: every example everywhere)
GALLERY_STEP = {"firefox": 2, "webkit": 4}
SLOW_S = 600  # a load or a run on a busy 2-core machine (the browsers share it with the suite)

READY = """() => window.gradpad.ready.then(() => 'ok', (e) => 'ERROR: ' + String(e && e.stack || e))"""
UI_READY = """() => window.gradpad.uiReady.then((g) => g.ui, (e) => 'ERROR: ' + String(e && e.stack || e))"""
# what the page knows of this browser and this visit
FACTS = """() => ({isolated: crossOriginIsolated, sharedMemory: typeof SharedArrayBuffer === 'function',
    webgpu: 'gpu' in navigator, gradpadIsolated: window.gradpad.isolated,
    notice: document.getElementById('gp-notice').hidden ? '' : document.getElementById('gp-notice').textContent,
    stopTitle: document.getElementById('gp-stop').title, userAgent: navigator.userAgent})"""
# every element of the page, shadow roots included (Panel renders each widget in one)
ALL = """const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };"""
SHARE_BUTTON = f"""() => {{ {ALL} return all(document).find((el) => el.tagName === 'BUTTON'
    && el.textContent.trim() === 'Share'); }}"""
EMBED_BUTTON = SHARE_BUTTON.replace("'Share'", "'Embed'")
EMBED_SNIPPET = f"""() => {{ {ALL} const area = all(document).find((el) => el.tagName === 'TEXTAREA'
    && (el.value || '').includes('<iframe')); return area ? area.value : ''; }}"""
SHARE_LINK = f"""() => {{ {ALL} const input = all(document).find((el) => el.tagName === 'INPUT'
    && /#s=/.test(el.value || '')); return input ? input.value : ''; }}"""
EDITOR_TEXT = f"""() => {{ {ALL} const ace = all(document).find((el) => el.classList
    && el.classList.contains('ace_editor') && el.env); return ace ? ace.env.editor.getValue() : null; }}"""
EDITOR = f"""() => {{ {ALL} return all(document).find((el) => el.classList
    && el.classList.contains('ace_editor') && el.env).querySelector('.ace_content'); }}"""
# the caret to the end of the code (a click puts it where the click lands)
EDITOR_END = f"""() => {{ {ALL} const ace = all(document).find((el) => el.classList
    && el.classList.contains('ace_editor') && el.env); ace.env.editor.focus(); ace.env.editor.navigateFileEnd();
    return true; }}"""
LAYOUT = f"""() => {{ {ALL} const els = all(document);
    const run = els.find((el) => el.tagName === 'BUTTON' && el.textContent.includes('Run'));
    const rb = run && run.getBoundingClientRect();
    return {{scrollWidth: document.documentElement.scrollWidth, innerWidth,
            appWidth: document.querySelector('#app').getBoundingClientRect().width,
            run: rb ? [rb.left, rb.right] : null}}; }}"""
LOOP = "spins = 0\nwhile True: spins += 1\n"  # one line: typed keys, no auto-indent to undo


@dataclass
class Visit:
    browser: drivers.Browser
    url: str
    load_seconds: dict = field(default_factory=dict)  # visit -> seconds to gradpad.ready
    first: dict = field(default_factory=dict)  # FACTS on the first visit

    def open(self, url: str, label: str) -> dict:
        """Navigate and wait until Python and the UI are ready; returns FACTS."""
        b = self.browser
        t0 = time.monotonic()
        b.goto(url)
        b.wait_for("() => !!window.gradpad", timeout_s=60)
        outcome = b.evaluate(READY, timeout_s=SLOW_S)
        self.load_seconds[label] = round(time.monotonic() - t0, 1)
        assert outcome == "ok", f"{b.name}: gradpad never became ready: {outcome}"
        ui = b.evaluate(UI_READY, timeout_s=SLOW_S)
        self.load_seconds[label + " ui"] = round(time.monotonic() - t0, 1)
        assert ui == "app", f"{b.name}: {ui}"
        print(f"\n[{b.name}] {label}: ready after {self.load_seconds[label]} s, UI after "
              f"{self.load_seconds[label + ' ui']} s", flush=True)
        return b.evaluate(FACTS)

    def load(self, **opts) -> dict:
        """The app's page API: load code or an example, run it, return the snapshot."""
        snap = self.browser.evaluate("(opts) => window.gradpad.load(opts)", opts, timeout_s=SLOW_S)
        return self.settled(snap)

    def settled(self, snap: dict) -> dict:
        """The snapshot once no pane still measures: the page API waits 2 minutes at most for
        them, and a busy machine (the browsers share 2 cores with the suite) can take longer."""
        if not [p for p in snap.get("pending", []) if p != "webgpu timing"]:
            return snap
        return self.browser.wait_for("""() => window.gradpad.snapshot().then((s) =>
            !s.pending.filter((p) => p !== 'webgpu timing').length && s)""", timeout_s=SLOW_S, poll_ms=1000)

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.browser.screenshot(SHOTS / f"{self.browser.name}_{name}.png")


@pytest.fixture(scope="module", params=BROWSERS)
def visit(request, site_url):
    name = request.param
    problem = drivers.problem(name)
    if problem:
        pytest.fail(f"{name}: {problem}", pytrace=False)
    b = drivers.launch(name)
    try:
        b.set_viewport(1400, 900)
        v = Visit(browser=b, url=site_url)
        v.first = v.open(site_url, "first visit")
        yield v
    finally:
        b.close()


def says_what_it_lacks(facts: dict) -> None:
    """The page's notice names each thing this browser or visit lacks that gradpad would use."""
    if not facts["webgpu"]:
        assert "WebGPU is not available" in facts["notice"], facts
    if not (facts["isolated"] and facts["sharedMemory"]):
        assert not facts["gradpadIsolated"], facts
        assert "shared memory" in facts["notice"] and "Stop" in facts["notice"], facts
        assert "restarts Python" in facts["stopTitle"], facts
    else:
        assert "shared memory" not in facts["notice"], facts


def test_first_visit_runs_python(visit):
    r = visit.browser.evaluate("(c) => window.gradpad.runPython(c)",
                               "import jax\nprint('hi')\njax.grad(lambda x: x ** 3)(2.0)")
    assert r["error"] is None and r["stdout"] == "hi\n" and r["result"] == "Array(12., dtype=float32, weak_type=True)", r
    says_what_it_lacks(visit.first)


def test_the_app_runs_code_through_load_and_snapshot(visit):
    snap = visit.load(code="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x) * x\n\nf(1.0)\n")
    assert snap["error"] is None and snap["function"] == "f", snap["error"]
    assert "sin" in snap["jaxpr"] and "mul" in snap["jaxpr"], snap["jaxpr"]
    assert snap["plots"] == {"f": 201, "df": 201, "d2f": 201}, (snap["plots"], snap["pending"])
    again = visit.browser.evaluate("() => window.gradpad.snapshot()")
    assert again["code"] == snap["code"] and again["jaxpr"] == snap["jaxpr"]


def test_typing_in_the_editor_and_ctrl_enter_run_it(visit):
    b = visit.browser
    visit.load(code="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x)\n\nf(1.0)\n")
    b.click(EDITOR)
    b.evaluate(EDITOR_END)
    b.press("\ndef f(x): return jnp.cos(x) * x\n{CTRL_ENTER}")
    b.wait_for("() => window.gradpad.snapshot().then((s) => s.jaxpr.includes('cos') && s)", timeout_s=SLOW_S)
    snap = b.evaluate("() => window.gradpad.snapshot()")
    assert "def f(x): return jnp.cos(x) * x" in snap["code"], snap["code"]
    assert "cos" in snap["jaxpr"] and "sin" not in snap["jaxpr"] and snap["error"] is None, snap["jaxpr"]


def test_every_gallery_example_shows_its_panes(visit):
    from app import examples
    step = 1 if os.environ.get("GRADPAD_EVERY_BROWSER_GALLERY") == "all" else GALLERY_STEP.get(visit.browser.name, 1)
    names = examples.names()[::step]
    bad, seconds = {}, {}
    for name in names:
        t0 = time.monotonic()
        snap = visit.load(example=name)
        seconds[name] = round(time.monotonic() - t0, 1)
        problems = []
        if snap["error"] is not None:
            problems.append(snap["error"])
        if snap["example"] != name or "{ lambda" not in snap["jaxpr"] or snap["eqn_count"] <= 0:
            problems.append({"example": snap["example"], "jaxpr": snap["jaxpr"][:80]})
        if not snap["plots"] or not all(n > 0 for n in snap["plots"].values()):
            problems.append({"plots": snap["plots"]})
        if "Traceback" in snap["console"]:
            problems.append({"console": snap["console"][-300:]})
        if problems:
            bad[name] = problems
    print(f"\n[{visit.browser.name}] gallery, seconds per example: {seconds}", flush=True)
    assert not bad, bad


def test_layout_at_desktop_and_phone_sizes(visit):
    b = visit.browser
    visit.load(example="vmap_batching_comparison")
    try:
        for width, height in ((1400, 900), (390, 844)):
            width = max(width, b.min_viewport_width)  # WebKitGTK's window: 447 px at least (see drivers)
            b.set_viewport(width, height)
            b.evaluate("() => new Promise((r) => setTimeout(r, 1200))")
            m = b.evaluate(LAYOUT)
            visit.shot(f"app_{width}x{height}")
            assert m["scrollWidth"] <= width, m  # no horizontal scrolling
            assert m["run"] and m["run"][0] >= 0 and m["run"][1] <= width, m  # Run on screen
            if width >= 1400:
                assert m["appWidth"] >= width - 60, m
    finally:
        b.set_viewport(1400, 900)


def test_stop_ends_a_runaway_loop_and_keeps_the_code(visit):
    """The loop typed into the editor and run as a student does (Ctrl+Enter), then the page's
    Stop button (a real click): the run ends, the code stays in the editor, Python answers
    again. Interrupted where the visit has shared memory, else Python is restarted."""
    b = visit.browser
    b.evaluate("() => window.gradpad.snapshot()", timeout_s=SLOW_S)  # nothing left running
    b.click(EDITOR)
    b.press("{CTRL_A}" + LOOP + "{CTRL_ENTER}")
    b.wait_for("() => window.gradpad.running", timeout_s=SLOW_S)
    b.wait_for(f"(code) => ({EDITOR_TEXT})() === code", LOOP, timeout_s=10)
    b.evaluate("() => new Promise((r) => setTimeout(r, 500))")  # inside the loop
    restarts = b.evaluate("() => window.gradpad.restarts")
    t0 = time.monotonic()
    b.click("() => document.getElementById('gp-stop')")
    b.wait_for("() => !window.gradpad.running", timeout_s=30)
    ended_s = time.monotonic() - t0
    if b.evaluate("() => window.gradpad.isolated"):
        snap = visit.settled(b.evaluate("() => window.gradpad.snapshot()", timeout_s=SLOW_S))
        assert snap["error"]["type"] == "KeyboardInterrupt", snap["error"]
    else:
        assert b.evaluate("() => window.gradpad.restarts") == restarts + 1
    # usable again: Python answers and the editor holds the code that was stopped
    r = b.evaluate("(c) => window.gradpad.runPython(c)", "6 * 7", timeout_s=SLOW_S)
    back_s = time.monotonic() - t0
    assert r["result"] == "42", r
    b.wait_for(f"(code) => ({EDITOR_TEXT})() === code", LOOP, timeout_s=SLOW_S)
    snap = visit.settled(b.evaluate("() => window.gradpad.snapshot()", timeout_s=SLOW_S))
    assert snap["code"] == LOOP, snap["code"]
    print(f"\n[{b.name}] Stop ended the run after {ended_s:.2f} s, Python answered after {back_s:.1f} s",
          flush=True)
    snap = visit.load(code="f = lambda x: x * 2.0\nf(3.0)\n")
    assert snap["error"] is None and snap["function"] == "f", snap["error"]


def test_share_link_opens_the_same_code_in_a_new_visit(visit):
    b = visit.browser
    code = f"import jax.numpy as jnp\n\n# shared from {b.name}\ndef g(x):\n    return jnp.tanh(x) + 1.0\n\ng(0.5)\n"
    snap = visit.load(code=code)
    assert snap["error"] is None and snap["function"] == "g", snap["error"]
    b.click(SHARE_BUTTON)
    link = b.wait_for(SHARE_LINK, timeout_s=30)
    assert link.startswith(visit.url) and "#s=" in link, link
    visit.load(example="pytrees")  # the app (and its autosave) moves on
    b.goto("about:blank")
    # the second visit: the service worker controls it (cross-origin isolated where the browser can be)
    facts = visit.open(link, "share link (second visit)")
    says_what_it_lacks(facts)
    snap = visit.settled(b.evaluate("() => window.gradpad.snapshot()", timeout_s=SLOW_S))
    assert snap["code"] == code and snap["function"] == "g" and snap["error"] is None, snap
    assert "tanh" in snap["jaxpr"], snap["jaxpr"]
    assert b.wait_for(EDITOR_TEXT) == code


def test_embed_from_the_embed_button_loads_and_runs(visit):
    b = visit.browser
    code = "import jax.numpy as jnp\n\ndef h(x):\n    return jnp.exp(-x * x)\n\nh(0.3)\n"
    snap = visit.load(code=code)
    assert snap["error"] is None and snap["function"] == "h", snap["error"]
    b.click(EMBED_BUTTON)
    snippet = b.wait_for(EMBED_SNIPPET, timeout_s=30)
    src = html.unescape(re.search(r'src="([^"]+)"', snippet).group(1))
    assert src.startswith(visit.url + "?embed=1"), snippet
    b.goto("about:blank")
    facts = visit.open(src, "embed")
    snap = visit.settled(b.evaluate("() => window.gradpad.snapshot()", timeout_s=SLOW_S))
    assert snap["code"] == code and snap["function"] == "h" and snap["error"] is None, snap
    assert "exp" in snap["jaxpr"], snap["jaxpr"]
    assert b.evaluate("(c) => window.gradpad.runPython(c)", "6 * 7")["result"] == "42"
    # the embed has no page header: the panes take the frame
    assert b.evaluate("() => getComputedStyle(document.querySelector('header.gp-header')).display") == "none"
    b.set_viewport(700, 500)
    b.evaluate("() => new Promise((r) => setTimeout(r, 1000))")
    visit.shot("embed_700x500")
    assert b.evaluate("() => document.documentElement.scrollWidth") <= 700
    if facts["gradpadIsolated"]:  # Stop pauses Python here (no restart): the embed keeps working
        b.evaluate("""(code) => { window.__gpLoop = null;
            window.gradpad.runPython(code).then((r) => { window.__gpLoop = r; }); return true; }""", LOOP)
        b.wait_for("() => window.gradpad.running", timeout_s=SLOW_S)
        assert b.evaluate("() => window.gradpad.interrupt()") is True
        r = b.wait_for("() => window.__gpLoop", timeout_s=10)
        assert r["error"]["type"] == "KeyboardInterrupt", r
        assert b.evaluate("(c) => window.gradpad.runPython(c)", "spins > 0")["result"] == "True"
    print(f"\n[{b.name}] isolated visits: first {visit.first['gradpadIsolated']}, embed "
          f"{facts['gradpadIsolated']}; shared memory {facts['sharedMemory']}, WebGPU {facts['webgpu']}; "
          f"load seconds: {visit.load_seconds}", flush=True)
