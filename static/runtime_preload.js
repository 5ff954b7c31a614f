// The Python runtime's big files and the worker's scripts, requested with the page on a visit
// that no service worker answers: the worker (worker.js), which starts a moment later, then reads
// them from the HTTP cache. On a visit the service worker answers (sw.js) they are not requested
// here: its answers go to no HTTP cache, so the page's copy would be read from Cache Storage and
// hashed a second time beside the worker's own request (12.5 MB, while the page's first scripts wait).
export const RUNTIME_HINTS = [
  { rel: "preload", href: "pyodide/pyodide.asm.wasm", as: "fetch", type: "application/wasm", crossOrigin: "anonymous" },
  { rel: "preload", href: "pyodide/python_stdlib.zip", as: "fetch", crossOrigin: "anonymous" },
  { rel: "prefetch", href: "pyodide/pyodide.mjs" },
  { rel: "prefetch", href: "worker.js" },
];

// the hints this visit needs: none when a service worker controls the page
export function runtimeHints(nav) {
  return nav.serviceWorker && nav.serviceWorker.controller ? [] : RUNTIME_HINTS;
}

export function addRuntimeHints(doc, nav) {
  const added = [];
  for (const h of runtimeHints(nav)) {
    const l = doc.createElement("link");
    for (const [k, v] of Object.entries(h)) l[k] = v;
    doc.head.appendChild(l);
    added.push(h.href);
  }
  return added;
}

if (typeof document !== "undefined") addRuntimeHints(document, navigator);
