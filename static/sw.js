// gradpad service worker: keeps the runtime, the wheels and the UI assets of this build in
// Cache Storage so that reloads (and offline use) do not touch the network.
// The page itself (navigations) is network-first so a new build is picked up at once.
// Only files of this build are served from the cache, and only bytes that hash to this build's
// list (HASHES below): nothing written into Cache Storage changes what a later visit runs.
//
// It also makes the page cross-origin isolated on any static host: every response it serves
// gets COOP/COEP (so SharedArrayBuffer, Pyodide's interrupt buffer, and 5 us timers exist)
// and the page gets its Content-Security-Policy as a header too. A first visit, before this
// worker controls the page, runs without isolation (Stop then restarts Python; runs have a
// time budget); every later visit is isolated.
const M = __GRADPAD_MANIFEST__;
const CSP = "__GRADPAD_CSP_HEADER__";
// What this build serves: {path under the scope: base64 sha256 of its bytes}, written into this
// file by tools/site.py. The browser fetches this script itself outside Cache Storage, so the
// list cannot be changed by anything that writes into Cache Storage (the worker that runs the
// learner's code, and a share link's code, can): a cached file is served only when its bytes
// hash to this list's value, and is otherwise deleted and fetched again from the site.
const HASHES = __GRADPAD_HASHES__;
const CACHE = "gradpad-" + M.build;
const SCOPE = new URL(self.registration.scope);
const PRECACHE = [
  "./", "loader.js", "runtime_preload.js", "guard.js", "model_allowlist.js", "share_hash.js", "vendor/purify.es.mjs", "outbox.js", "patch_chunks.js",
  "bokeh_style_reads.js", "layout_bounds.js", "markup_shown.js", "lesson_share.js", "sourcemap.js", "stepper.js", "rules.js", "theme.js", "theme_switch.js", "splitter.js", "a11y.js", "standby.js", "restart_view.js", "prerender.js", "preview.js", "frame_height.js", "worker.js", "import_snapshot.js", "restart_snapshot.js", "boot_snapshot.js", "spare_worker.js", "style.css",
  "favicon.svg", "pyodide/pyodide-lock.json",
  ...Object.keys(M.runtime).map((f) => "pyodide/" + f),
  ...M.stages.numpy.concat(M.stages.engine, M.stages.ui).map((p) => M.files[p].file),
  ...M.bokeh, M.panel.js,
];

// the build's hash of a URL's bytes, or undefined for a URL that is not a file of this build
function expectedHash(href) {
  const url = new URL(href);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return undefined;
  let rel = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  if (rel === "" || rel.endsWith("/")) rel += "index.html";
  return Object.prototype.hasOwnProperty.call(HASHES, rel) ? HASHES[rel] : undefined;
}

async function sha256(buf) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", buf));
  let s = "";
  for (const b of d) s += String.fromCharCode(b);
  return btoa(s);
}

const TYPES = {
  html: "text/html; charset=utf-8", js: "text/javascript", mjs: "text/javascript", css: "text/css",
  json: "application/json", wasm: "application/wasm", svg: "image/svg+xml", png: "image/png",
  zip: "application/zip", whl: "application/zip",
};
function contentType(href) {
  const path = new URL(href).pathname;
  const ext = path.endsWith("/") ? "html" : path.slice(path.lastIndexOf(".") + 1);
  return TYPES[ext] || "application/octet-stream";
}

// A response made here from verified bytes: its headers are this worker's, never a cached copy's.
function answer(buf, href, kind) {
  return new Response(buf, { status: 200, headers: { "Content-Type": contentType(href), ...HEADERS[kind] } });
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

// the server may send a file gzip-encoded (tools/serve.py); the body a fetch here reads is decoded,
// so a response made from it must not claim the encoding or the encoded length
function dropEncoding(headers) {
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  return headers;
}

function isolated(resp, kind) {
  // redirects and errors stay as they are (their bodies and headers cannot be rewritten)
  if (!resp || resp.type === "opaqueredirect" || resp.type === "opaque" || resp.status === 0) return resp;
  const headers = dropEncoding(new Headers(resp.headers));
  for (const [k, v] of Object.entries(HEADERS[kind])) headers.set(k, v);
  return new Response(resp.body, { status: resp.status, statusText: resp.statusText, headers });
}

// What this worker did since it started, per kind of answer (the tests read it: message "stats"):
// whole: a cached copy served as Cache Storage holds it (its bytes and headers checked first);
// rebuilt: a cached copy's checked bytes in a new response; network: not answered from the cache;
// hashed: bytes hashed. The page's own files are answered `whole` so that the browser can use the
// code it compiled from them before (V8 keeps it beside the Cache Storage entry, not beside a
// response made here): BokehJS, Panel's JS and the page's modules then do not compile again.
const stats = { whole: 0, rebuilt: 0, network: 0, hashed: 0, byPath: {} };
function count(kind, href) {
  stats[kind]++;
  const rel = href.slice(SCOPE.href.length) || "./";
  const c = stats.byPath[rel] || (stats.byPath[rel] = { whole: 0, rebuilt: 0, network: 0 });
  c[kind]++;
}
self.addEventListener("message", (event) => {
  if (event.data === "stats" && event.ports[0]) event.ports[0].postMessage(JSON.parse(JSON.stringify(stats)));
});

// the headers a kept copy of `href` carries: those of an answer to a subresource request, so that
// the copy itself can be the answer
function keptHeaders(href) {
  return { "Content-Type": contentType(href), ...HEADERS.other };
}

function headersAre(headers, want) {
  const have = [...headers];
  return have.length === Object.keys(want).length && Object.entries(want).every(([k, v]) => headers.get(k) === v);
}

// The cached copy of `href` when its bytes are this build's: {buf, hit}, else null (a wrong copy
// is deleted). The bytes are read from a clone of `hit`: a clone's body is the same bytes as
// the original's (one body, teed), so `hit` itself may be served after the check.
async function cachedCopy(cache, href) {
  const want = expectedHash(href);
  if (!want) return null;
  const hit = await cache.match(href, { ignoreSearch: true });
  if (!hit) return null;
  const buf = await hit.clone().arrayBuffer();
  stats.hashed += buf.byteLength;
  if (await sha256(buf) === want) return { buf, hit };
  console.warn(`gradpad service worker: the cached ${href} is not this build's file: fetched again`);
  await cache.delete(href, { ignoreSearch: true });
  return null;
}

// the answer to a request for `href` from its checked cached copy: the copy itself when it is
// exactly what this worker would answer (status 200, exactly keptHeaders: a copy written by
// anyone else, or by an older worker, is rebuilt from its checked bytes instead)
function fromCache(copy, href, kind) {
  const { buf, hit } = copy;
  if (kind === "other" && hit.status === 200 && headersAre(hit.headers, keptHeaders(href))) {
    count("whole", href);
    return hit;
  }
  count("rebuilt", href);
  return answer(buf, href, kind);
}

// bytes from the network, kept when they are this build's (else served as they came, not kept).
// `response`: one already under way (the navigation preload), else fetched here. `later(p)`: the
// cache write goes there (an event's waitUntil), so the answer does not wait for it.
async function fetchAndKeep(cache, req, href, kind, response, later) {
  const r = await (response || fetch(req));
  count("network", href);
  const want = expectedHash(href);
  if (!want || !r.ok || r.type !== "basic") return isolated(r, kind);
  const buf = await r.arrayBuffer();
  stats.hashed += buf.byteLength;
  if (await sha256(buf) === want) {
    const kept = cache.put(href, new Response(buf.slice(0), { headers: keptHeaders(href) }));
    if (later) later(kept.catch(() => {})); else await kept;
  }
  const headers = dropEncoding(new Headers(r.headers));
  for (const [k, v] of Object.entries(HEADERS[kind])) headers.set(k, v);
  return new Response(buf, { status: r.status, statusText: r.statusText, headers });
}

self.addEventListener("install", (event) => {
  // fetched moments ago by the page: the HTTP cache answers without a download
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(PRECACHE.map(async (u) => {
      const href = new URL(u, SCOPE).href;
      try {
        if (!(await cachedCopy(cache, href))) await fetchAndKeep(cache, new Request(href, { cache: "force-cache" }), href, "other");
      } catch (e) { /* cached on first use instead */ }
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // a visit's page request starts while this worker starts up, not after (fetch: preloadResponse)
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable().catch(() => {});
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
  // a teacher's lesson files change without a new build: never answered from this build's cache
  if (url.pathname.includes("/lessons/")) return;
  const kind = req.mode === "navigate" ? "navigate" : "other";
  if (url.pathname.endsWith("/sw.js")) return; // the browser's own business
  const href = url.origin + url.pathname; // a file is one file whatever its query
  if (req.mode === "navigate") {
    // the page: network first (a new build is picked up at once); offline, this build's copy
    event.respondWith((async () => {
      const cache = await caches.open(CACHE);
      try {
        return await fetchAndKeep(cache, req, href, kind, await event.preloadResponse, (p) => event.waitUntil(p));
      } catch (e) {
        const copy = await cachedCopy(cache, href);
        return copy ? fromCache(copy, href, kind) : Response.error();
      }
    })());
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const copy = await cachedCopy(cache, href);
    if (copy) return fromCache(copy, href, kind);
    return fetchAndKeep(cache, req, href, kind, null, (p) => event.waitUntil(p));
  })());
});
