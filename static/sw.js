// gradpad service worker: keeps the runtime, the wheels and the UI assets of this build in
// Cache Storage so that reloads (and offline use) do not touch the network.
// The page itself (navigations) is network-first so a new build is picked up at once.
//
// It also makes the page cross-origin isolated on any static host: every response it serves
// gets COOP/COEP (so SharedArrayBuffer, Pyodide's interrupt buffer, and 5 us timers exist)
// and the page gets its Content-Security-Policy as a header too. A first visit, before this
// worker controls the page, runs without isolation (Stop then restarts Python; runs have a
// time budget); every later visit is isolated.
const M = __GRADPAD_MANIFEST__;
const CSP = "__GRADPAD_CSP__";
const CACHE = "gradpad-" + M.build;
const PRECACHE = [
  "./", "loader.js", "outbox.js", "bokeh_style_reads.js", "sourcemap.js", "theme.js", "splitter.js", "preview.js", "snapshot.js", "worker.js", "style.css", "favicon.svg", "pyodide/pyodide-lock.json",
  ...Object.keys(M.runtime).map((f) => "pyodide/" + f),
  ...M.stages.numpy.concat(M.stages.engine, M.stages.ui).map((p) => M.files[p].file),
  ...M.bokeh, M.panel.js,
];
const INTEGRITY = Object.fromEntries(Object.values(M.files).map((f) => [new URL(f.file, self.registration.scope).href, f.integrity]));

// Cached copies remember the integrity they were fetched with: a request that asks for other
// bytes under the same name (a page of a newer build, while this worker still runs) goes to
// the network instead of failing its integrity check.
// They are stored with the isolation headers already on, so that a cache hit is answered
// as it is: re-wrapping a response would pipe its whole body through this worker's JS.
async function remember(cache, req, resp, integrity) {
  const headers = new Headers(resp.headers);
  dropEncoding(headers);
  if (integrity) headers.set("X-Gradpad-Integrity", integrity);
  for (const [k, v] of Object.entries(HEADERS.other)) headers.set(k, v);
  const body = await resp.blob();
  await cache.put(req, new Response(body, { status: resp.status, statusText: resp.statusText, headers }));
}

// the server may send a file gzip-encoded (tools/serve.py); the body a fetch here reads is decoded,
// so a response made from it must not claim the encoding or the encoded length
function dropEncoding(headers) {
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
}

// header -> value added to every same-origin response served, by kind of request
const ISOLATION = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};
const HEADERS = {
  navigate: { ...ISOLATION, "Content-Security-Policy": CSP },
  other: { ...ISOLATION, "Cross-Origin-Resource-Policy": "same-origin" },
};

function isolated(resp, kind) {
  // redirects and errors stay as they are (their bodies and headers cannot be rewritten)
  if (!resp || resp.type === "opaqueredirect" || resp.type === "opaque" || resp.status === 0) return resp;
  const headers = new Headers(resp.headers);
  dropEncoding(headers);
  for (const [k, v] of Object.entries(HEADERS[kind])) headers.set(k, v);
  return new Response(resp.body, { status: resp.status, statusText: resp.statusText, headers });
}

self.addEventListener("install", (event) => {
  // fetched moments ago by the page: the HTTP cache answers without a download
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(PRECACHE.map(async (u) => {
      try {
        const r = await fetch(new Request(u, { cache: "force-cache" }));
        if (r.ok) await remember(cache, u, r, INTEGRITY[new URL(u, self.registration.scope).href]);
      } catch (e) { /* cached on first use instead */ }
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys())
      if ((key.startsWith("gradpad-") && key !== CACHE) || (key.startsWith("gpsnap-") && key !== "gpsnap-" + M.build))
        await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return; // never proxy other origins
  const kind = req.mode === "navigate" ? "navigate" : "other";
  if (req.mode === "navigate" || url.pathname.endsWith("/sw.js")) {
    event.respondWith((async () => {
      try {
        const r = await fetch(req);
        if (r.ok) (await caches.open(CACHE)).put(req, r.clone());
        return isolated(r, kind);
      } catch (e) {
        return isolated(await caches.match(req), kind) || Response.error();
      }
    })());
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req);
    const wanted = req.integrity || INTEGRITY[req.url];
    if (hit && (!wanted || hit.headers.get("X-Gradpad-Integrity") === wanted))
      return hit.headers.has("Cross-Origin-Embedder-Policy") ? hit : isolated(hit, kind);
    const r = await fetch(req);
    if (r.ok && r.type === "basic") event.waitUntil(remember(cache, req.url, r.clone(), wanted));
    return isolated(r, kind);
  })());
});
