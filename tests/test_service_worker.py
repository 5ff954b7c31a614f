"""The service worker (static/sw.js) on a return visit, run in Node.js with a fake Cache Storage,
network and registration (counts, not times):
- a cached file it wrote itself is answered with the Cache Storage copy as it is, after its bytes
  are checked (the browser keeps the code it compiled beside that copy: a response made in the
  worker has none), and with the isolation headers the page needs;
- a cached copy with this build's bytes but headers someone else chose is answered from its checked
  bytes with the worker's own headers; one with other bytes is deleted and fetched again;
- the page's own request uses the navigation preload (started while the worker starts up), and its
  answer does not wait for the copy to be written into Cache Storage.
"""
from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from node_js import run_script

ROOT = Path(__file__).resolve().parent.parent
SCOPE = "https://gradpad.test/app/"
FILES = {"loader.js": "export const x = 1;\n", "index.html": "<!doctype html><title>gradpad</title>\n"}
MANIFEST = {"build": "b1", "runtime": {}, "stages": {"numpy": [], "engine": [], "ui": []}, "files": {},
            "bokeh": [], "panel": {"js": "panel.min.js"}}

HARNESS = r"""
const FILES = %(files)s, SCOPE = %(scope)s;
const handlers = {};
const stores = new Map(); // cache name -> Map(url -> {body, headers, status})
let putsHeld = []; // cache writes wait until released: an answer that waits for one never comes
let netFetches = [];
const cacheOf = (name) => {
  if (!stores.has(name)) stores.set(name, new Map());
  const m = stores.get(name);
  return {
    async match(req) { const e = m.get(String(req.url || req)); return e ? new Response(e.body, {status: e.status, headers: e.headers}) : undefined; },
    put(req, resp) {
      const url = String(req.url || req);
      return new Promise((res) => putsHeld.push(async () => {
        m.set(url, {body: await resp.arrayBuffer(), headers: [...resp.headers], status: resp.status}); res();
      }));
    },
    async delete(req) { return m.delete(String(req.url || req)); },
  };
};
globalThis.caches = { open: async (n) => cacheOf(n), keys: async () => [...stores.keys()], delete: async (n) => stores.delete(n) };
globalThis.self = globalThis;
self.location = new URL("sw.js", SCOPE);
let preloadEnabled = false;
self.registration = { scope: SCOPE, navigationPreload: { enable: async () => { preloadEnabled = true; } } };
self.clients = { claim: async () => {} };
self.skipWaiting = async () => {};
self.addEventListener = (type, fn) => { handlers[type] = fn; };
const network = (url) => {
  const rel = url.slice(SCOPE.length) || "index.html";
  const r = new Response(FILES[rel], {status: 200, headers: {"Content-Type": "text/plain", "X-From": "network"}});
  Object.defineProperty(r, "type", {value: "basic"});
  return r;
};
globalThis.fetch = async (req) => { netFetches.push(String(req.url || req)); return network(String(req.url || req)); };

await import(%(sw)s);

async function dispatch(url, mode, preload) {
  let answer, waits = [];
  const event = {
    request: {url, method: "GET", mode},
    preloadResponse: Promise.resolve(preload ? network(url) : undefined),
    respondWith(p) { answer = p; }, waitUntil(p) { waits.push(p); },
  };
  handlers.fetch(event);
  return {answer, waits};
}
const headersOf = (r) => Object.fromEntries([...r.headers]);
const settleWithin = (p) => Promise.race([p.then((v) => ({v})), new Promise((r) => setTimeout(() => r(null), 200))]);
const stats = () => !handlers.message ? null : new Promise((res) => {
  const port = {postMessage: (d) => res(d)};
  handlers.message({data: "stats", ports: [port]});
});
const out = {};
await new Promise((res) => handlers.activate({waitUntil: (p) => p.then(res)}));
out.navigationPreload = preloadEnabled;

// 1. the page: answered from the preload, before the cache write is done
netFetches = [];
let {answer} = await dispatch(SCOPE, "navigate", true);
let got = await settleWithin(answer);
out.pageAnsweredWhileWriteHeld = !!got && got.v.status === 200;
out.pageNetworkFetches = netFetches.length;
out.pageText = got ? await got.v.text() : null;
for (const f of putsHeld.splice(0)) await f();

// 2. loader.js: first from the network (kept), then from the cache as it is
({answer} = await dispatch(SCOPE + "loader.js", "cors"));
const a1 = await settleWithin(answer);
out.firstLoaderFromNetwork = !!a1 && headersOf(a1.v)["x-from"] === "network";
for (const f of putsHeld.splice(0)) await f();
netFetches = [];
({answer} = await dispatch(SCOPE + "loader.js", "cors"));
const a2 = await answer;
out.secondLoader = {text: await a2.text(), headers: headersOf(a2), network: netFetches.length};
out.statsAfterSecond = await stats();

// 3. this build's bytes with headers someone else wrote: rebuilt with the worker's headers
stores.get("gradpad-b1").set(SCOPE + "loader.js", {body: new TextEncoder().encode(FILES["loader.js"]).buffer,
  headers: [["content-type", "text/html"], ["x-evil", "1"]], status: 200});
({answer} = await dispatch(SCOPE + "loader.js", "cors"));
const a3 = await answer;
out.foreignHeaders = {text: await a3.text(), headers: headersOf(a3)};
// 4. other bytes: deleted, fetched again
stores.get("gradpad-b1").set(SCOPE + "loader.js", {body: new TextEncoder().encode("evil()").buffer,
  headers: [...new Headers({"Content-Type": "text/javascript"})], status: 200});
netFetches = [];
({answer} = await dispatch(SCOPE + "loader.js", "cors"));
const a4 = await answer;
out.wrongBytes = {text: await a4.text(), network: netFetches.length};
out.stats = await stats();
console.log("@@" + JSON.stringify(out));
"""


def b64sha(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def run_harness(tmp_path: Path) -> dict:
    sw = (ROOT / "static" / "sw.js").read_text()
    sw = sw.replace("__GRADPAD_MANIFEST__", json.dumps(MANIFEST)).replace("__GRADPAD_CSP_HEADER__", "default-src 'self'")
    sw = sw.replace("__GRADPAD_HASHES__", json.dumps({k: b64sha(v) for k, v in FILES.items()}))
    (tmp_path / "sw.mjs").write_text(sw)
    return run_script(HARNESS % {"files": json.dumps(FILES), "scope": json.dumps(SCOPE),
                                 "sw": json.dumps((tmp_path / "sw.mjs").as_uri())})


def test_a_cached_file_is_served_as_cache_storage_holds_it_and_a_foreign_copy_is_rebuilt_or_refetched(tmp_path):
    got = run_harness(tmp_path)
    assert got["firstLoaderFromNetwork"], got
    second = got["secondLoader"]
    assert second["text"] == FILES["loader.js"] and second["network"] == 0, second
    assert second["headers"]["cross-origin-embedder-policy"] == "require-corp", second
    assert got["statsAfterSecond"]["byPath"]["loader.js"] == {"whole": 1, "rebuilt": 0, "network": 1}, got
    # this build's bytes under headers written by someone else: the worker's headers, not theirs
    foreign = got["foreignHeaders"]
    assert foreign["text"] == FILES["loader.js"], foreign
    assert "x-evil" not in foreign["headers"] and foreign["headers"]["content-type"] == "text/javascript", foreign
    # other bytes: never served; fetched again
    assert got["wrongBytes"] == {"text": FILES["loader.js"], "network": 1}, got
    assert got["stats"]["byPath"]["loader.js"] == {"whole": 1, "rebuilt": 1, "network": 2}, got


def test_the_page_comes_from_the_navigation_preload_without_waiting_for_the_cache_write(tmp_path):
    got = run_harness(tmp_path)
    assert got["navigationPreload"] is True, got
    assert got["pageAnsweredWhileWriteHeld"], got
    assert got["pageNetworkFetches"] == 0 and got["pageText"] == FILES["index.html"], got
