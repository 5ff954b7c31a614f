"""Python in a Web Worker (static/worker.js): the page stays responsive while code runs, Stop
interrupts it, Restart starts a fresh interpreter, the page is cross-origin isolated, user
code is contained, and resource faults are errors. On the session's shared page (conftest),
which is the service-worker-controlled, isolated visit; the first visit is checked too."""
from __future__ import annotations

import http.server
import json
import os
import threading
import time
from pathlib import Path

import pytest

from . import shots

pytestmark = pytest.mark.timeout(900)
SHOTS = Path(os.environ.get("GRADPAD_SCREENSHOTS", "/tmp/gradpad-screenshots"))
LOOP = "import time\nkeep = 7\nspins = 0\nwhile True:\n    spins += 1\n"


def start_run(gp, code: str, slot: str = "__gpRun") -> None:
    """runPython from a setTimeout, so that evaluate() returns at once; the result lands in window[slot]."""
    gp.page.evaluate("""([code, slot]) => { window[slot] = null;
        setTimeout(() => window.gradpad.runPython(code).then(r => { window[slot] = r; },
                                                              e => { window[slot] = {failed: String(e)}; }), 0); }""",
                     [code, slot])
    gp.page.wait_for_function("() => window.gradpad.running", timeout=60_000)


def shot(page, name):
    if not shots.wanted():
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_first_visit_works_without_isolation(gp):
    # before the service worker controls the page there are no COOP/COEP headers
    fv = gp.first_visit
    assert fv["isolated"] is False and fv["gradpadIsolated"] is False, fv
    assert fv["run"]["result"] == "2" and fv["run"]["error"] is None, fv
    assert fv["ui"] in ("app", "placeholder"), fv
    # without shared memory there is no interrupt buffer: Stop starts a fresh Python instead
    assert fv["interrupted"] is True and "restarted" in fv["stuck"]["failed"], fv
    assert fv["after"]["result"] == "4", fv
    # and the page says so, not only the Stop button's tooltip
    assert "no shared memory" in fv["notice"] and "Stop cannot pause Python" in fv["notice"], fv["notice"]


def test_the_page_is_cross_origin_isolated(gp):
    # tools/serve.py sends no COOP/COEP: the service worker adds them (sw.js)
    assert gp.page.evaluate("() => [crossOriginIsolated, window.gradpad.isolated]") == [True, True]
    headers = gp.page.evaluate("""async () => {
        const r = await fetch(location.href, {cache: 'no-store'});
        return [r.headers.get('cross-origin-opener-policy'), r.headers.get('cross-origin-embedder-policy')];
    }""")
    assert headers == ["same-origin", "require-corp"], headers


def test_python_runs_in_a_worker_not_on_the_page(gp):
    # the page has no Pyodide; user code sees a worker global (no document, no page location)
    assert gp.page.evaluate("() => typeof window.loadPyodide") == "undefined"
    r = gp.run("import js\n(hasattr(js, 'document'), type(js).__name__, str(js.constructor.name))")
    assert r["error"] is None, r["error"]
    assert r["result"].startswith("(False, "), r["result"]
    assert "WorkerGlobalScope" in r["result"], r["result"]


def test_perf_counter_resolves_20_microseconds_or_finer(gp):
    r = gp.run("""
import time
steps = set()
t = time.perf_counter()
while len(steps) < 50:
    u = time.perf_counter()
    if u != t:
        steps.add(u - t)
        t = u
min(steps)
""")
    assert r["error"] is None, r["error"]
    assert 0 < float(r["result"]) <= 20e-6, r["result"]


def test_main_thread_stays_responsive_and_interrupt_stops_the_run(gp):
    page = gp.page
    start_run(gp, LOOP)
    # the running indicator, drawn by the page, counts the elapsed time
    page.wait_for_function("() => /Running… [1-9]/.test(document.querySelector('#gp-run-state').textContent)",
                           timeout=10_000)
    # a 50 ms timer on the page fires on time while Python spins (read through a heartbeat)
    page.evaluate("""() => { window.__late = null; const t0 = performance.now();
        setTimeout(() => { window.__late = performance.now() - t0 - 50; }, 50); }""")
    page.wait_for_function("() => window.__late !== null", timeout=5_000)
    late = page.evaluate("() => window.__late")
    assert late <= 150, f"a 50 ms timer fired {late:.0f} ms late"
    # a Stop is answered within a second: KeyboardInterrupt, and the namespace is kept
    t0 = time.monotonic()
    assert page.evaluate("() => window.gradpad.interrupt()") is True
    page.wait_for_function("() => window.__gpRun !== null", timeout=1_000, polling=20)
    stopped_in = time.monotonic() - t0
    r = page.evaluate("() => window.__gpRun")
    assert r["error"]["type"] == "KeyboardInterrupt", r
    assert stopped_in < 1.0
    r = gp.run("(keep, spins > 0)")
    assert r["result"] == "(7, True)", r
    assert gp.run("1+1")["result"] == "2"
    assert page.evaluate("() => window.gradpad.running") is False
    # nothing runs: a Stop has nothing to hit, and the next run is not interrupted by it
    assert page.evaluate("() => window.gradpad.interrupt()") is False
    assert gp.run("sum(range(10))")["result"] == "45"


def test_output_is_truncated_with_a_note(gp):
    r = gp.run("for i in range(20000):\n    print(i)")
    assert r["error"] is None, r["error"]
    lines = r["stdout"].splitlines()
    assert lines[:3] == ["0", "1", "2"]
    assert len(lines) < 5_100
    assert "output truncated" in r["stdout"] and "15,000 more lines" in r["stdout"], r["stdout"][-200:]


def test_huge_allocation_is_an_error_and_the_page_lives(gp):
    # 50000 x 50000 float32 is 10 GB: more than WebAssembly's 4 GiB address space
    r = gp.run("import jax.numpy as jnp\nx = jnp.ones((50000, 50000))")
    assert r["error"]["type"] == "MemoryError", r["error"]
    assert "too big for the memory" in r["error"]["message"], r["error"]
    assert gp.run("2 * 21")["result"] == "42"


def test_memory_running_out_part_way_is_an_error(gp):
    # 64 blocks of 100 MB: the 4 GiB address space runs out during the loop
    r = gp.run("import numpy as np\nblocks = []\nfor i in range(64):\n"
               "    blocks.append(np.ones(100_000_000, dtype=np.uint8))\n")
    assert r["error"]["type"].endswith("MemoryError"), r["error"]
    r = gp.run("n = len(blocks)\ndel blocks\n0 < n < 64")
    assert r["result"] == "True", r
    assert gp.run("sum(range(5))")["result"] == "10"


class _Counting(http.server.BaseHTTPRequestHandler):
    hits: list = []

    def _hit(self):
        type(self).hits.append(self.path)
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(b"stolen")

    do_GET = do_POST = do_OPTIONS = _hit

    def log_message(self, *args):
        pass


CONTAINMENT = """
import js, json, asyncio
from pyodide.ffi import to_js
outcomes = {}
async def attempt(name, coro_or_fn):
    try:
        r = coro_or_fn()
        if hasattr(r, '__await__'):
            r = await r
        outcomes[name] = 'no error: ' + str(r)[:60]
    except BaseException as e:
        outcomes[name] = type(e).__name__
async def fetch():
    return await js.fetch(URL + '/fetch')
async def pyfetch():
    from pyodide.http import pyfetch
    return await pyfetch(URL + '/pyfetch')
def xhr():
    x = js.XMLHttpRequest.new()
    x.open('GET', URL + '/xhr', False)
    x.send()
    return x.status
def websocket():
    return js.WebSocket.new(URL.replace('http', 'ws') + '/ws')
def document():
    return js.document.body
def navigate():
    js.location.href = URL + '/navigate'
    return js.location.href
async def dynamic_import():
    return await js.eval("import('" + URL + "/module.js')")
for name, fn in [('fetch', fetch), ('pyfetch', pyfetch), ('xhr', xhr), ('websocket', websocket),
                 ('document', document), ('navigate', navigate), ('import', dynamic_import)]:
    await attempt(name, fn)
await asyncio.sleep(0.5)
json.dumps(outcomes)
"""


def test_user_code_cannot_reach_another_port(gp):
    _Counting.hits = []
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{srv.server_address[1]}"
        gp.page.set_default_timeout(60_000)
        raw = gp.page.evaluate("code => window.gradpad.runPythonAsync(code)", f"URL = {url!r}\n" + CONTAINMENT)
        time.sleep(1.0)
        assert _Counting.hits == [], f"user code reached {url}: {_Counting.hits} ({raw})"
        outcomes = json.loads(raw)
        assert outcomes["document"] == "AttributeError", outcomes  # a worker has no page to rewrite
        for name in ("fetch", "pyfetch", "xhr", "import"):
            assert not outcomes[name].startswith("no error"), outcomes
        # the page itself did not move
        assert gp.page.evaluate("() => location.pathname") == "/"
        assert gp.run("1 + 2")["result"] == "3"  # the page keeps working
    finally:
        srv.shutdown()


def test_a_crashed_python_is_restarted_with_the_code_kept(gp):
    # Pyodide's fatal-error path (what running out of wasm memory in C code ends in), simulated
    page = gp.page
    assert gp.wait_ui() == "app"
    code = page.evaluate("() => window.gradpad.snapshot()")["code"]
    restarts = page.evaluate("() => window.gradpad.restarts")
    r = gp.run("import pyodide_js\npyodide_js._api.fatal_error(Exception('simulated crash'))")
    assert r["error"]["type"] == "PythonCrashed" and "restarts it" in r["error"]["message"], r
    page.wait_for_function(f"() => window.gradpad.restarts > {restarts}", timeout=10_000)
    assert gp.run("3 * 3")["result"] == "9"
    page.set_default_timeout(240_000)
    assert page.evaluate("() => window.gradpad.snapshot()")["code"] == code
    assert "restarted" in page.locator("#gp-notice").inner_text()


def test_restart_gives_a_fresh_namespace_and_keeps_the_code(gp):
    page = gp.page
    assert gp.wait_ui() == "app"
    page.set_default_timeout(240_000)
    code = "import jax\nmarker = 'before restart'\nf = lambda x: x * 4.0\nf(2.0)\n"
    snap = page.evaluate("opts => window.gradpad.load(opts)", {"code": code})
    assert snap["code"] == code and snap["error"] is None
    assert gp.run("marker = 1\nmarker")["result"] == "1"
    start_run(gp, LOOP, "__gpStuck")
    assert page.evaluate("() => window.gradpad.restart()") is True
    # the run that was going on when Python restarted ends with an error, not never
    page.wait_for_function("() => window.__gpStuck !== null", timeout=10_000)
    assert "restarted" in page.evaluate("() => window.__gpStuck")["failed"]
    r = gp.run("marker")
    assert r["error"]["type"] == "NameError", r
    assert page.evaluate("() => window.gradpad.snapshot()")["code"] == code
    assert page.locator("#app").locator(".bk-tab").count() >= 5


def test_stop_button_in_the_app_keeps_code_and_page(gp):
    page = gp.page
    assert gp.wait_ui() == "app"
    page.set_viewport_size({"width": 1400, "height": 900})
    code = "def spin(x):\n    while True:\n        x = x + 1\n    return x\n\nspin(1.0)\n"
    page.evaluate("""code => { window.__gpLoad = null;
        setTimeout(() => window.gradpad.load({code}).then(r => { window.__gpLoad = r; }), 0); }""", code)
    page.wait_for_function("() => window.gradpad.running", timeout=60_000)
    page.wait_for_timeout(1500)
    # while the app's run spins, a tab click is handled at once (BokehJS on the main thread)
    tab = page.locator("#app .bk-tab").filter(has_text="Timing").first
    took = tab.evaluate("""async (el) => { const t0 = performance.now(); el.click();
        while (!el.classList.contains('bk-active')) await new Promise(requestAnimationFrame);
        return performance.now() - t0; }""")
    assert took <= 200, f"a tab click took {took:.0f} ms"
    shot(page, "worker_running_before_stop")
    page.keyboard.press("Escape")
    # the run stops at once (see the 1 s check above); the app then redraws its panes
    page.wait_for_function("() => window.__gpLoad !== null", timeout=10_000)
    snap = page.evaluate("() => window.__gpLoad")
    assert snap["error"]["type"] == "KeyboardInterrupt", snap["error"]
    assert snap["code"] == code
    page.wait_for_timeout(800)
    shot(page, "worker_after_stop")
    assert page.locator("#gp-run-state").inner_text() == "Python is idle"
    snap = page.evaluate("opts => window.gradpad.load(opts)", {"code": "f = lambda x: x * 2.0\nf(3.0)\n"})
    assert snap["error"] is None and snap["function"] == "f"


def test_one_ctrl_enter_is_one_run(gp):
    page = gp.page
    assert gp.wait_ui() == "app"
    page.evaluate("opts => window.gradpad.load(opts)", {"code": "g = lambda x: x + 1.0\ng(1.0)\n"})
    editor = page.locator("#app .ace_text-input").first
    editor.focus()
    page.keyboard.press("Control+End")
    page.keyboard.type("# edited\n")
    # code that parses runs while it is typed (at once, app.main.AUTORUN_QUICK_PAUSE_S): those runs are
    # the typing's; once they are over, one Ctrl+Enter is one more run
    page.wait_for_timeout(1500)
    page.wait_for_function("() => !window.gradpad.running && !(window.gradpad.panes.pending || []).length",
                           timeout=60_000)
    before = page.evaluate("() => window.gradpad.runs")
    page.keyboard.press("Control+Enter")
    page.wait_for_timeout(3000)  # longer than the app's autorun pause (app.main.AUTORUN_PAUSE_S)
    assert page.evaluate("() => window.gradpad.runs") - before == 1
    assert "# edited" in page.evaluate("() => window.gradpad.snapshot()")["code"]


ESCAPE = """
from bokeh.models import CustomJS
from app import bootstrap
# a model of the live app document (the status line): a JS callback on it, then a change
status = next(m for m in bootstrap._doc.models if type(m).__name__ == 'HTML' and 'ran' in str(m.text))
status.js_on_change('text', CustomJS(code="window.__escaped = 'CustomJS'"))
status.text = 'changed by user code'
'ok'
"""


def test_user_code_cannot_run_javascript_in_the_page(gp):
    # user code shares the interpreter with the app: it can edit the app's Bokeh document,
    # but the page refuses models that run JavaScript (loader.js, the document guard)
    page = gp.page
    assert gp.wait_ui() == "app"
    page.evaluate("opts => window.gradpad.load(opts)", {"code": "h = lambda x: x * 3.0\nh(1.0)\n"})
    r = gp.run(ESCAPE)
    assert r["result"] == "'ok'", r
    page.wait_for_timeout(1500)
    assert page.evaluate("() => window.__escaped === undefined")
    assert any("refused a CustomJS model" in line for line in gp.console), \
        [c for c in gp.console if "param." not in c][-10:]
    # a second document from the worker is refused too (only the app's first render is embedded)
    gp.run("import js\njs.postMessage(js.JSON.parse('{\"type\": \"render\", \"model\": \"{}\"}'))")
    page.wait_for_timeout(500)
    assert any("refused a second document" in line for line in gp.console)
    # the app keeps working
    snap = page.evaluate("opts => window.gradpad.load(opts)", {"code": "k = lambda x: x + 2.0\nk(1.0)\n"})
    assert snap["error"] is None and snap["function"] == "k"
    assert page.locator("#app .bk-tab").count() >= 5
