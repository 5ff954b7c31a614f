// Pyodide memory snapshots of a freshly booted interpreter (Pyodide 0.27's experimental
// `_makeSnapshot` / `_loadSnapshot`), kept in Cache Storage per build. Booting from one skips
// most of CPython's start-up (the runtime stage). Used by worker.js for page load; any code that
// needs a fresh interpreter quickly (a restart) can call bootPython the same way.
//
//   const [pyodide, bootedFrom] = await bootPython(loadPyodide, {base, build, search})
//       bootedFrom: "snapshot" (a valid snapshot of this build was restored) or "boot"
//   await makeSnapshot(loadPyodide, {base, build})   // a throw-away interpreter's snapshot, saved
//
// Only the interpreter's memory is in a snapshot: nothing loaded with loadPackage (its files live
// in the JS-side file system, its shared libraries in the wasm table), so snapshots are taken
// before any package is loaded, and the caller loads packages after booting either way.
// `?nosnapshot` in the page's query skips reading one.

const cacheName = (build) => "gpsnap-" + build;
const cacheKey = (base) => new URL("pyodide/boot-snapshot.bin", base).href;

async function readSnapshot({ base, build, search }) {
  try {
    if (!globalThis.caches || new URLSearchParams(search || "").has("nosnapshot")) return null;
    const r = await (await caches.open(cacheName(build))).match(cacheKey(base));
    return r ? new Uint8Array(await r.arrayBuffer()) : null;
  } catch (e) {
    return null;
  }
}

export async function bootPython(loadPyodide, { base, build, search, onRead }) {
  const indexURL = new URL("pyodide/", base).href;
  const snap = await readSnapshot({ base, build, search });
  if (onRead) onRead(!!snap);
  if (snap) {
    try {
      return [await loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: snap }), "snapshot"];
    } catch (e) {
      console.warn("gradpad: boot snapshot unusable, booting normally", e);
      caches.delete(cacheName(build)).catch(() => {});
    }
  }
  return [await loadPyodide({ indexURL, fullStdLib: false }), "boot"];
}

// An interpreter booted in snapshot-making mode has a restricted `js` module, so the snapshot
// comes from a second, throw-away worker (loader.js starts one once the page is interactive).
export async function makeSnapshot(loadPyodide, { base, build }) {
  const py = await loadPyodide({ indexURL: new URL("pyodide/", base).href, fullStdLib: false, _makeSnapshot: true });
  const bytes = py.makeMemorySnapshot();
  await (await caches.open(cacheName(build))).put(cacheKey(base),
    new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
}
