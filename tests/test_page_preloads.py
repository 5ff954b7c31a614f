"""What the page asks for before its first script runs (issue 26, first paint on every visit):
- every module of loader.js's import graph is requested with the HTML (tools/page_preloads.py
  writes a modulepreload tag per module), not one import level after another;
- the Python runtime's big files are requested with the page only on a visit no service worker
  answers (static/runtime_preload.js): on a return visit the worker's own request is the only one.
"""
from __future__ import annotations

from pathlib import Path

from tools.page_preloads import module_graph, modulepreload_tags
from node_js import run_script, static_module

ROOT = Path(__file__).resolve().parent.parent


def test_the_module_graph_is_every_module_reached_once_through_any_depth(tmp_path):
    (tmp_path / "vendor").mkdir()
    (tmp_path / "main.js").write_text('import { a } from "./a.js";\nimport "./b.js";\n'
                                      'const later = () => import("./lazy.js");\n')
    (tmp_path / "a.js").write_text('import DOMPurify from "./vendor/p.mjs";\nimport { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\nimport {\n  c,\n} from "./main.js";\nexport const b = 2;\n')
    (tmp_path / "vendor" / "p.mjs").write_text('import { q } from "../q.js";\nexport default 1;\n')
    (tmp_path / "q.js").write_text("export const q = 3;\n")
    assert module_graph(tmp_path, "main.js") == ["a.js", "vendor/p.mjs", "q.js", "b.js"]
    tags = modulepreload_tags(tmp_path, "main.js").splitlines()
    assert tags[0] == '<link rel="modulepreload" href="main.js">' and len(tags) == 5, tags


HINTS = r"""
const { runtimeHints, addRuntimeHints } = await import(%(module)s);
const added = [];
const doc = { createElement: () => ({}), head: { appendChild: (l) => added.push({ ...l }) } };
const out = {
  controlled: addRuntimeHints(doc, { serviceWorker: { controller: {} } }),
  first: addRuntimeHints(doc, { serviceWorker: { controller: null } }),
  noServiceWorker: runtimeHints({}).map((h) => h.href),
  links: added,
};
console.log("@@" + JSON.stringify(out));
"""


def test_the_runtime_is_preloaded_only_on_a_visit_no_service_worker_answers():
    got = run_script(HINTS % {"module": static_module("runtime_preload.js")})
    assert got["controlled"] == [], got
    assert got["first"][:2] == ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"], got
    assert got["noServiceWorker"] == got["first"], got
    wasm = got["links"][0]
    # the worker's fetch (cors, same origin) must find the preloaded copy: same mode, as=fetch
    assert wasm["rel"] == "preload" and wasm["as"] == "fetch" and wasm["crossOrigin"] == "anonymous", wasm
    # and the page itself does not ask for them regardless (a static tag would, controlled or not)
    index = (ROOT / "static" / "index.html").read_text()
    assert 'href="pyodide/pyodide.asm.wasm"' not in index and "runtime_preload.js" in index


def test_the_server_sends_without_waiting_for_delayed_acks():
    """tools/serve.py: http.server writes a response's headers and body separately; with Nagle's
    algorithm on, the body waited for the browser's delayed ACK (~40 ms a request, each of a first
    visit's ~45 requests before the preview in turn on 6 connections). TCP_NODELAY is set on each
    connection the server accepts."""
    import socket
    import threading
    import urllib.request

    from tools import serve
    seen = []

    class Probe(serve.Handler):
        def handle(self):
            seen.append(self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            super().handle()

    import functools
    srv = serve.Server(("127.0.0.1", 0), functools.partial(Probe, directory=str(ROOT / "static")))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        body = urllib.request.urlopen(f"http://127.0.0.1:{srv.server_address[1]}/index.html", timeout=30).read()
    finally:
        srv.shutdown()
        srv.server_close()
    assert b"loader.js" in body
    assert seen and all(seen), seen
