// gradpad's Python worker: Pyodide, the engine and the Panel app run here, off the page's
// main thread, so a long or endless run never freezes the page (loader.js draws everything).
//
// Messages from the page (loader.js):
//   {type: "init", base, search, hash, origin, pathname, storage, interrupt, restoreCode, standby,
//    importsSnapshot}   (the post-import snapshot's bytes, checked by the page: static/restart_snapshot.js)
//   {type: "run", id, code, async}            runPython (async: top-level await allowed)
//   {type: "call", id, name, args}            the Panel app's page API (app.page_api.CALLS)
//   {type: "patch", patch} / {type: "rendered"} / {type: "env", hash}
//   {type: "reply", id, result}               answer to a request of ours (resources)
//   {type: "make-snapshot", imports}          boot a throw-away interpreter, save its snapshot
//                                             (imports: also the post-import one, import_snapshot.js)
//   {type: "activate", page, restoreCode, held}   a standby worker (init with standby: true) takes
//                                             over: it renders the app it prepared (see loader.js)
// Messages to the page:
//   mark {name, t} · stage {stage} · resource {url} · ready {info, bootedFrom} · result/error {id}
//   run-start {measuring} / run-output {line} / run-stopped / run-end · render {model, resources, page} · patch {patch, buffers}
//   env {op, key, value} · request {id, name, args} · ui {kind} / ui-error {error} · fatal {error}
//   panes {run, pending, python_ms, phases}   the app's panes show run `run`; `pending` still measure
//   standby-ready                             a standby worker is booted and waits for activate
//   {type: "client", port, cell}              a lesson's cell frame: the same protocol over `port`,
//                                             for one cell of the lesson this worker built (below)
import { recordDylinks, packSnapshot, readTree, restoreImports, serializeJsFunction, PROBE } from "./import_snapshot.js";
import { sha256Hex } from "./restart_snapshot.js";
import { fillBuildSnapshot } from "./boot_snapshot.js";
const M = __GRADPAD_MANIFEST__;
// The page's CSP (inherited) requires Trusted Types; this worker holds no page and its strings
// reach no DOM, so Pyodide's JS glue may evaluate what it needs here.
if (globalThis.trustedTypes && trustedTypes.createPolicy)
  trustedTypes.createPolicy("default", { createScript: (s) => s, createScriptURL: (u) => u });
let BASE = null;
let pyodide = null;
let boot = null;
let interruptBuffer = null;

const post = (msg, transfer) => self.postMessage(msg, transfer || []);
// absolute epoch ms: the page turns them into its own navigation-relative timings
const mark = (name) => post({ type: "mark", name, t: performance.timeOrigin + performance.now() });

// ------------------------------------------------------------------ requests to the page
let nextRequest = 1;
const pendingRequests = new Map();
function request(name, args, to = post) {
  const id = nextRequest++;
  return new Promise((resolve, reject) => {
    pendingRequests.set(id, { resolve, reject });
    to({ type: "request", id, name, args });
  });
}

// ------------------------------------------------------------------ progress + prefetch
try {
  new PerformanceObserver((list) => list.getEntries().forEach((e) => post({ type: "resource", url: e.name })))
    .observe({ type: "resource", buffered: true });
} catch (e) { /* stage-level progress only */ }

// Every wheel is requested as early as possible (with its integrity hash); Pyodide's own
// fetch of the same URL is then answered from memory instead of the network.
const prefetched = new Map();
const nativeFetch = globalThis.fetch.bind(globalThis);
function prefetch(pkgs) {
  for (const p of pkgs) {
    const f = M.files[p];
    const url = new URL(f.file, BASE).href;
    if (prefetched.has(url)) continue;
    const body = nativeFetch(url, { integrity: f.integrity }).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status} for ${url}`);
      return r.arrayBuffer();
    });
    body.catch(() => {});
    prefetched.set(url, body);
  }
}
// The runtime's two big files are requested the moment the worker starts; Pyodide's fetch
// then gets the very response (still streaming: the wasm compiles while it downloads).
const RUNTIME_EARLY = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"];
const early = new Map();
// stdlib: the stdlib zip this boot reads (a boot from the build's bare snapshot has its own)
function fetchRuntimeEarly(stdlib = RUNTIME_EARLY[1]) {
  for (const f of [RUNTIME_EARLY[0], stdlib]) {
    const url = new URL(f, BASE).href;
    if (compiledWasm && f === RUNTIME_EARLY[0]) continue; // a spare compiled it (warm)
    const resp = nativeFetch(url);
    resp.catch(() => {});
    early.set(url, resp);
  }
}

// ------------------------------------------------------------------ a spare (static/spare_worker.js)
// Started before the page needs it, this worker loads the runtime's JS and compiles its wasm, and
// nothing else: no interpreter exists and no Python runs here until `init`, which boots as in any
// worker, with the runtime's code there already (its instantiation uses the compiled module).
let compiledWasm = null;
async function warm(msg) {
  if (BASE) return; // `init` came first
  BASE = msg.base;
  const runtime = (f) => new URL("pyodide/" + f, BASE).href;
  compiledWasm = WebAssembly.compileStreaming(nativeFetch(runtime("pyodide.asm.wasm")));
  compiledWasm.catch(() => { compiledWasm = null; }); // then instantiated as usual
  const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
  WebAssembly.instantiateStreaming = async (source, imports) => {
    // (the one module a worker streams is the runtime's: libraries are instantiated from their files)
    const module = compiledWasm && await compiledWasm.catch(() => null);
    if (!module) return instantiateStreaming(source, imports);
    Promise.resolve(source).then((r) => r.body && r.body.cancel()).catch(() => {}); // Pyodide's own request: not needed
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
  await import(runtime("pyodide.mjs"));
  await import(runtime("pyodide.asm.js")); // (what loadPyodide would load: it then skips it)
  await compiledWasm;
  post({ type: "spare-warm" });
}

async function prefetchingFetch(input, init) {
  const url = typeof input === "string" || input instanceof URL
    ? new URL(String(input), BASE).href : input.url;
  const started = early.get(url);
  if (started) {
    early.delete(url);
    try {
      const r = await started;
      if (r.ok) return r;
    } catch (e) { /* a normal request reports the error */ }
  }
  const body = prefetched.get(url);
  if (body) {
    prefetched.delete(url);
    try {
      return new Response(await body, { status: 200, headers: { "Content-Type": "application/octet-stream" } });
    } catch (e) { /* fall back to a normal request, which reports the error */ }
  }
  return nativeFetch(input, init);
}

async function loadStage(stage) {
  const errors = [];
  await pyodide.loadPackage(M.stages[stage], {
    messageCallback: (msg) => { if (/^Loaded /.test(msg)) mark(stage + ":loaded"); },
    errorCallback: (msg) => errors.push(msg),
    checkIntegrity: true,
  });
  if (errors.length) throw new Error(`loading ${stage} failed:\n${errors.join("\n")}`);
}

// ------------------------------------------------------------------ runs
// Runs take priority over loading the UI: the UI stage works in steps and waits at each
// step until no run is queued.
let pendingRuns = 0;
let firstRunDone;
const firstRun = new Promise((res) => { firstRunDone = res; });
let readyResolve;
const ready = new Promise((res) => { readyResolve = res; });
const nextTask = () => new Promise((r) => setTimeout(r, 0));
async function yieldToRuns() {
  await nextTask();
  while (pendingRuns > 0) await nextTask();
}

// one Python run at a time, whoever asks (runPython, the app's Run, a patch from the editor)
let chain = Promise.resolve();
function serial(fn) {
  const next = chain.then(fn, fn);
  chain = next.catch(() => {});
  return next;
}

// The page writes 2 (SIGINT) into the shared buffer to stop a run; it is cleared around every
// run so that a Stop pressed while nothing runs cannot hit the next one.
function clearInterrupt() { if (interruptBuffer) interruptBuffer[0] = 0; }

let runDepth = 0;
function runState(running, measuring = false) {
  if (running ? runDepth++ === 0 : --runDepth === 0) {
    clearInterrupt();
    toAll({ type: running ? "run-start" : "run-end", measuring }); // a lesson's cell frames show it too
  }
}
async function runUser(fn) {
  runState(true);
  try {
    return await fn();
  } finally {
    runState(false);
  }
}

// Pyodide cannot continue after a fatal error (out of wasm memory, a crash in C code): its
// API then throws on every access. The page restarts the worker.
function pyodideFailed() {
  try {
    void pyodide.loadPackage;
    return false;
  } catch (e) {
    return true;
  }
}
let fatalPosted = false;
function fatal(e) {
  if (fatalPosted) return;
  fatalPosted = true;
  post({ type: "fatal", error: String(e && e.message || e) });
}
const CRASHED = (e) => ({
  stdout: "", stderr: "", result: null,
  error: { type: "PythonCrashed", traceback: String(e && e.stack || e),
           message: "Python stopped working (a fatal error in the runtime, e.g. out of memory in C " +
                    "code); the page restarts it: variables are lost, the editor's code is kept" },
});

// A Stop stops what was queued when it came too (the page counts Stops in the interrupt buffer's
// second byte, and stamps each run with the count when it was asked for): without this, a Stop
// during a background measurement ended the measurement, and the run queued behind it then ran.
const stoppedBeforeStart = (msg) => !!interruptBuffer && msg.stops != null && interruptBuffer[1] !== msg.stops;
function notStarted(msg) {
  const message = "the run was stopped before it started (a Stop came while it waited for the run before it)";
  if (msg.async) throw new Error("KeyboardInterrupt: " + message);
  return { stdout: "", stderr: "", result: null, error: { type: "KeyboardInterrupt", message, traceback: "" } };
}

async function onRun(msg, reply = post) {
  pendingRuns++;
  try {
    await ready;
    const result = await serial(() => stoppedBeforeStart(msg) ? notStarted(msg) : runUser(async () => {
      if (msg.async) return String(await pyodide.runPythonAsync(String(msg.code)));
      return JSON.parse(boot.run_json(String(msg.code)));
    }));
    reply({ type: "result", id: msg.id, result });
  } catch (e) {
    if (pyodide && pyodideFailed()) {
      reply({ type: "result", id: msg.id, result: CRASHED(e) });
      fatal(e);
    } else {
      reply({ type: "error", id: msg.id, error: String(e && e.message || e) });
    }
  } finally {
    pendingRuns--;
    firstRunDone();
  }
}

async function onCall(msg, reply = post) {
  try {
    await uiLinked;
    const result = await serial(() => runUser(() => appCall(msg.name, JSON.stringify(msg.args ?? null))));
    reply({ type: "result", id: msg.id, result: JSON.parse(result) });
  } catch (e) {
    if (pyodide && pyodideFailed()) fatal(e);
    reply({ type: "error", id: msg.id, error: String(e && e.message || e) });
  }
}

// ------------------------------------------------------------------ boot
const SNAP_CACHE = () => "gpsnap-" + M.build;
const SNAP_KEY = () => new URL("pyodide/boot-snapshot.bin", BASE).href;
const IMPORTS_SNAP_KEY = () => new URL("pyodide/imports-snapshot.bin", BASE).href;
// what the post-import snapshot holds loaded and imported: numpy, the engine and the UI stage's
// packages (Panel, Bokeh) with the app's module
const SNAPSHOT_STAGES = () => [...M.stages.numpy, ...M.stages.engine, ...M.stages.ui];
// the stages a restored interpreter has (their loading and imports are skipped)
let restoredStages = new Set();

// The snapshot is this interpreter's memory: it is used only when its bytes hash to what the page
// recorded when the snapshot worker made it (kept in the page's localStorage, which no worker
// reaches): code run in this worker can write Cache Storage, never the next visit's Python.
const snapshotHash = sha256Hex;

async function readSnapshot(search, expected, key = SNAP_KEY()) {
  try {
    if (!globalThis.caches || !expected || new URLSearchParams(search).has("nosnapshot")) return null;
    const r = await (await caches.open(SNAP_CACHE())).match(key);
    if (!r) return null;
    const bytes = new Uint8Array(await r.arrayBuffer());
    if (await snapshotHash(bytes) === expected) return bytes;
    console.warn("gradpad: the boot snapshot in Cache Storage is not the one this browser made: booting normally");
    return null;
  } catch (e) {
    return null;
  }
}

// The snapshot's bytes from Cache Storage, not yet checked (see `hashMatches`): read from the
// worker's first moment, while the runtime's JS loads
function readUnchecked(search, expected, key) {
  if (!globalThis.caches || !expected || new URLSearchParams(search).has("nosnapshot")) return Promise.resolve(null);
  return caches.open(SNAP_CACHE()).then((c) => c.match(key))
    .then((r) => r ? r.arrayBuffer().then((b) => new Uint8Array(b)) : null).catch(() => null);
}

// resolves when `bytes` hash to `expected`, rejects otherwise; the digest runs off this thread,
// so it overlaps the runtime's instantiation (the restore awaits it before using the bytes)
function hashMatches(bytes, expected, what) {
  const check = snapshotHash(bytes).then((h) => {
    if (h !== expected) throw new Error(`the ${what} in Cache Storage is not the one this browser made`);
    mark("runtime:imports-snapshot-hashed");
  });
  check.catch(() => {}); // reported by the restore that awaits it
  return check;
}

// A snapshot restore that failed inside loadPyodide leaves this worker's runtime in an unknown state
// (a second loadPyodide here once never finished: CI, stop 35). The worker says so and boots
// nothing more; the page ends it and starts a fresh worker with no snapshot (loader.js bootFresh).
class RestoreFailed extends Error {
  constructor(kind, e) {
    super(`the ${kind} failed to restore (${e && e.message || e})`);
    this.kind = kind;
  }
}

// the post-import snapshot (import_snapshot.js): restored, then it must pass the probe. `given`:
// its bytes as the page read and checked them (static/restart_snapshot.js), not read again here;
// `early`: the cache read started with the worker (readUnchecked)
async function bootFromImports(loadPyodide, search, expected, given = null, early = null) {
  const blob = given ? new Uint8Array(given) : await (early || readUnchecked(search, expected, IMPORTS_SNAP_KEY()));
  mark("runtime:imports-snapshot-read");
  if (!blob) return null;
  let py = null;
  try {
    let meta;
    [py, meta] = await restoreImports(loadPyodide, {
      indexURL: new URL("pyodide/", BASE).href, blob, mark,
      verified: given ? null : hashMatches(blob, expected, "post-import snapshot"),
    });
    const scope = py.globals.get("dict")();
    try {
      if (py.runPython(PROBE, { globals: scope }) !== "ok") throw new Error("the probe gave a wrong answer");
    } finally {
      scope.destroy();
    }
    mark("runtime:imports-probed");
    restoredStages = new Set(meta.stages);
    // the page's bytes go back to it before any code of the learner's runs here (restart_snapshot.js)
    if (given) post({ type: "snapshot-back", bytes: given }, [given]);
    return py;
  } catch (e) {
    console.warn(`gradpad: the post-import snapshot failed its restore or probe (${e && e.message || e}): booting normally in a fresh worker`);
    mark("runtime:imports-snapshot-failed");
    await caches.open(SNAP_CACHE()).then((c) => c.delete(IMPORTS_SNAP_KEY())).catch(() => {});
    throw new RestoreFailed("post-import snapshot", e);
  }
}

// The build's bare snapshot (static/boot_snapshot.js): for a browser with no snapshot of its own
// (a first visit). Its bytes are rebuilt (fetched, inflated, the runtime's data segment XORed back
// in, hashed) while the runtime instantiates; loadPyodide awaits them before it copies them in
// (runtime_patch.py: `_beforeSnapshotRestore`)
const buildSnapshotWanted = (search, expected) => !!M.bareSnapshot && !expected && !new URLSearchParams(search).has("nosnapshot");
function startBuildSnapshot() {
  const bytes = new Uint8Array(M.bareSnapshot.size);
  // the runtime's wasm, as Pyodide gets it (fetchRuntimeEarly): a copy of the same response
  const url = new URL("pyodide/pyodide.asm.wasm", BASE).href;
  const started = early.get(url) || nativeFetch(url);
  let copy = null;
  early.set(url, Promise.resolve(started).then((r) => { if (r.ok) copy = r.clone().arrayBuffer(); return r; }));
  const wasm = early.get(url).then(() => copy || Promise.reject(new Error("the runtime's wasm did not load")));
  const filled = fillBuildSnapshot(bytes, M.bareSnapshot, BASE, wasm, nativeFetch)
    .then(() => mark("runtime:build-snapshot-read"));
  filled.catch(() => {}); // reported by the restore that awaits it
  return { bytes, filled };
}

const REREAD_ZIP_TABLES = `
import sys, zipimport
for importer in list(sys.path_importer_cache.values()):
    if isinstance(importer, zipimport.zipimporter) and importer.archive.endswith(".zip"):
        importer.invalidate_caches()
`;

// CPython calls C functions through a trampoline that Pyodide picks as the runtime starts (a wasm-gc
// one where the browser has wasm GC, else one through JS frames) and stores in _PyRuntime. The
// build's snapshot holds Node's pick (none: through JS), and JSPI cannot suspend across JS frames:
// store this browser's pick, as a normal boot of this runtime does.
function restoreTrampoline(m) {
  const at = m.__PyRuntime + m.HEAP32[m.__PyEM_EMSCRIPTEN_COUNT_ARGS_OFFSET >> 2];
  m.HEAP32[at >> 2] = m._PyEM_CountArgsPtr || 0;
}

// The build's snapshot is made in Node, which has no JSPI: CPython then chose
// `run_sync_not_supported` for pyodide.ffi.run_sync (Pyodide's jsproxy_init writes the choice into
// its static method table) and the snapshot keeps that choice. In a browser with JSPI, point the
// method back at `run_sync`, checked field by field (else left as it is: run_sync then refuses, as
// before). Without this, a first visit could not wait on the GPU (a WebGPU value read while f runs).
const RESTORE_RUN_SYNC = `
import ctypes, _pyodide_core
def _restore_run_sync():
    main = ctypes.CDLL(None)
    refuse = ctypes.cast(main.run_sync_not_supported, ctypes.c_void_p).value
    run_sync = ctypes.cast(main.run_sync, ctypes.c_void_p).value
    # PyCFunctionObject: ob_refcnt, ob_type, then m_ml (wasm32: 4-byte fields); PyMethodDef: ml_name, ml_meth
    method_def = ctypes.c_void_p.from_address(id(_pyodide_core.run_sync) + 8).value
    name = ctypes.c_char_p.from_address(method_def).value
    meth = ctypes.c_void_p.from_address(method_def + 4)
    if name == b"run_sync" and meth.value == refuse and run_sync:
        meth.value = run_sync
        return True
    return False
_restore_run_sync()
`;

async function bootFromBuild(loadPyodide, indexURL, started) {
  const { bytes, filled } = started || startBuildSnapshot();
  try {
    // its stdlib zip lacks the modules it holds imported already (tools/bare_snapshot.py)
    const py = await loadPyodide({ indexURL, fullStdLib: false, stdLibURL: new URL(M.bareSnapshot.stdlib, BASE).href,
                                   _loadSnapshot: bytes, _beforeSnapshotRestore: () => filled });
    restoreTrampoline(py._module);
    // zipimport's table of the zip's entries (offsets) in the snapshot is the whole zip's: read
    // this one's, for every importer of it (each holds the table)
    const scope = py.globals.get("dict")();
    try {
      py.runPython(REREAD_ZIP_TABLES, { globals: scope });
      if (py._module.jspiSupported) {
        try {
          if (py.runPython(RESTORE_RUN_SYNC, { globals: scope })) mark("runtime:run-sync-restored");
        } catch (e) { console.warn("gradpad: run_sync stays unavailable on this boot", e); }
      }
    } finally {
      scope.destroy();
    }
    return py;
  } catch (e) {
    console.warn(`gradpad: the build's bare snapshot is unusable (${e && e.message || e}): booting normally in a fresh worker`);
    mark("runtime:build-snapshot-failed");
    throw new RestoreFailed("build's bare snapshot", e);
  }
}

// Pyodide 0.27 only logs a failed instantiation of its wasm ("wasm instantiation failed!", e.g. no
// memory for it) and never settles loadPyodide: `onFail(message)` is called instead of waiting
// (the runtime is the one module a worker streams)
function sayFailedInstantiation(onFail) {
  const streaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = (...args) => {
    const instantiated = streaming.apply(WebAssembly, args);
    instantiated.catch((e) => onFail(`the runtime's wasm failed to instantiate (${e && e.message || e})`));
    return instantiated;
  };
}

async function bootPython(loadPyodide, search, expected, importsExpected, importsGiven, importsEarly, buildEarly) {
  const indexURL = new URL("pyodide/", BASE).href;
  if (importsExpected) {
    const py = await bootFromImports(loadPyodide, search, importsExpected, importsGiven, importsEarly);
    if (py) return [py, "imports-snapshot"];
    prefetch([...M.stages.numpy, ...M.stages.engine]); // no snapshot after all: a boot that loads them
  }
  // (a boot snapshot whose hash does not match is not used: no loadPyodide was tried, so booting
  // on in this worker is safe)
  const snap = await readSnapshot(search, expected);
  mark("runtime:snapshot-read");
  if (snap) {
    try {
      return [await loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: snap }), "snapshot"];
    } catch (e) {
      console.warn("gradpad: boot snapshot unusable, booting normally in a fresh worker", e);
      await caches.delete(SNAP_CACHE()).catch(() => {});
      throw new RestoreFailed("boot snapshot", e);
    }
  }
  if (buildSnapshotWanted(search, expected)) return [await bootFromBuild(loadPyodide, indexURL, buildEarly), "build-snapshot"];
  return [await loadPyodide({ indexURL, fullStdLib: false }), "boot"];
}

// An interpreter booted in snapshot-making mode has a restricted `js` module, so the snapshot
// comes from a second, throw-away worker that the page starts once it is interactive.
async function makeSnapshot() {
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", BASE).href);
  const py = await loadPyodide({ indexURL: new URL("pyodide/", BASE).href, fullStdLib: false, _makeSnapshot: true });
  const bytes = py.makeMemorySnapshot();
  await (await caches.open(SNAP_CACHE())).put(SNAP_KEY(),
    new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  return snapshotHash(bytes);
}

// The post-import snapshot: a third interpreter loads the first stages' wheels and imports numpy
// and the engine (nothing else: no page state, no JS objects held), with every library's place
// recorded (import_snapshot.js). Its bytes go to the page too (static/restart_snapshot.js).
let madeImports = null;
async function makeImportsSnapshot() {
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", BASE).href);
  globalThis.fetch = prefetchingFetch;
  const names = SNAPSHOT_STAGES();
  prefetch(names);
  const recorder = recordDylinks();
  const py = await loadPyodide({ indexURL: new URL("pyodide/", BASE).href, fullStdLib: false, _makeSnapshot: true });
  const errors = [];
  await py.loadPackage(names, { checkIntegrity: true, errorCallback: (m) => errors.push(m), messageCallback: () => {} });
  if (errors.length) throw new Error(errors.join("\n"));
  const scope = py.globals.get("dict")();
  py.runPython("import app.bootstrap\napp.bootstrap.engine_info()", { globals: scope });
  // the UI stage as loadUI does it, up to the app's module (no page state read: nothing rendered)
  py.runPython(`
import importlib, app.bootstrap as b
b.prepare_panel(${JSON.stringify(new URL(M.panel.cdn_root, BASE).href)})
for m in b.UI_IMPORT_STEPS:
    importlib.import_module(m)
importlib.import_module("app.main").load_panel_extension()  # its signatures set once, here
b.panel_imported()
import app.env
app.env._page_state = None  # read lazily from the page that restores it, never this one's
`, { globals: scope });
  // the probe once here too: what it imports and warms on first use is then in the snapshot
  py.runPython(PROBE, { globals: scope });
  py.runPython(`
import sys
_webgpu = sys.modules.get("core._engine.backends.webgpu.runtime")
if _webgpu is not None:  # this maker's js has no navigator.gpu: each restored Python looks again
    _webgpu._runtime = _webgpu._failure = None
del _webgpu
import gc
gc.collect()
gc.freeze()  # what the imports made is permanent: later collections need not walk it
`, { globals: scope });
  scope.destroy();
  const meta = recorder.finish(py, names);
  meta.build = M.build;
  meta.stages = ["numpy", "engine", "ui"];
  // Pyodide checks that the JS objects Python holds are the boot's: its loadedPackages record
  // must look as at boot (empty) while the memory is copied (restoreImports fills it again)
  const loaded = { ...py.loadedPackages };
  for (const k of Object.keys(loaded)) delete py.loadedPackages[k];
  let bytesRaw;
  try {
    bytesRaw = py.makeMemorySnapshot({ serializer: serializeJsFunction });
  } finally {
    Object.assign(py.loadedPackages, loaded);
  }
  const bytes = packSnapshot(meta, bytesRaw, readTree(py.FS, py._api.sitepackages));
  await (await caches.open(SNAP_CACHE())).put(IMPORTS_SNAP_KEY(),
    new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  madeImports = bytes;
  return snapshotHash(bytes);
}

// See loader history: every loadPackage ends with importlib.invalidate_caches(), which makes
// CPython's zipimporter re-read python312.zip dozens of times; the stdlib zip never changes.
function keepStdlibZipIndex() {
  try {
    pyodide.runPython(`
import sys, zipimport
def _gp_install_stdlib_zip_guard():
    refresh = zipimport.zipimporter.invalidate_caches
    stdlib_zips = {p for p in sys.path if p.endswith(".zip")}
    def invalidate_caches(self):
        if self.archive not in stdlib_zips:
            refresh(self)
    zipimport.zipimporter.invalidate_caches = invalidate_caches
_gp_install_stdlib_zip_guard()
del _gp_install_stdlib_zip_guard
`);
  } catch (e) {
    console.warn("gradpad: stdlib zip guard not installed", e);
  }
}

// ------------------------------------------------------------------ UI (Panel in this worker)
let uiLinkedResolve;
const uiLinked = new Promise((res) => { uiLinkedResolve = res; });
let appCall = null;
const UI_GRACE_MS = 300, TAKEOVER_GRACE_MS = 30;
// a standby worker's page state when it takes over (the page's URL and storage of that moment)
let activate, activated = false;
const activation = new Promise((res) => { activate = (msg) => { activated = true; res(msg); }; });
// a standby's app the page renders before the take-over (app.bootstrap.prerender): linked once rendered
let prerendering = false, prelinkedResolve;
const prelinked = new Promise((res) => { prelinkedResolve = res; });

async function loadUI(init) {
  post({ type: "stage", stage: "ui" });
  await Promise.race([firstRun, new Promise((r) => setTimeout(r, UI_GRACE_MS))]);
  await yieldToRuns();
  if (restoredStages.has("ui")) {
    // restored from the post-import snapshot: Panel and the app's module are imported already
    mark("ui:loaded");
  } else {
    await loadStage("ui");
    await yieldToRuns();
    boot.prepare_panel(new URL(M.panel.cdn_root, BASE).href);
    // Panel's import chain in steps (each is seconds of synchronous work), yielding between
    for (const mod of boot.UI_IMPORT_STEPS) {
      await yieldToRuns();
      pyodide.pyimport(mod).destroy();
    }
  }
  mark("ui:imported");
  await yieldToRuns();
  appCall = (name, args) => boot.call(name, args);
  if (init.standby) {
    // a spare for the page (loader.js): the app built now, without running anything; it is
    // shown when this worker takes over from one that was ended (Stop, Restart, a crash)
    await serial(() => boot.prebuild());
    // and serialized: the page renders it hidden at a quiet moment and this worker links it
    // (static/prerender.js), so the take-over sends only its changes
    // (not when it was activated already: a Stop before the first UI took it while it booted)
    const pre = init.prerender && !activated ? JSON.parse(await serial(() => boot.prerender("app"))) : null;
    if (pre && pre.kind === "app") {
      await request("load-resources", pre.resources);
      prerendering = true;
      post({ type: "prerender", model: pre.model, page: pre.page });
    }
    post({ type: "standby-ready" });
    init = await activation;
    // a run asked on hearing of the Stop reached this worker with (or before) `activate`: it goes
    // first (yieldToRuns); the app's view need not wait for one that may never come
    await Promise.race([firstRun, new Promise((r) => setTimeout(r, TAKEOVER_GRACE_MS))]);
    await yieldToRuns();
    if (init.prerendered) {
      await prelinked; // the page sent `rendered` before `activate`
      await serial(() => boot.take_over(init.restoreCode ?? null, init.held ?? null));
      mark("ui:built");
      post({ type: "ui", kind: "app" });
      uiLinkedResolve();
      return;
    }
    prerendering = false; // not rendered in the page: rendered below, as without a prerender
  }
  const rendered = JSON.parse(await serial(() => boot.render("app", init.restoreCode ?? null, init.held ?? null)));
  mark("ui:built");
  if (rendered.kind !== "app") {
    post({ type: "ui", kind: rendered.kind });
    return;
  }
  await request("load-resources", rendered.resources);
  post({ type: "render", model: rendered.model, page: rendered.page });
}

// ------------------------------------------------------------------ messages
const HANDLERS = {
  init: (msg) => start(msg),
  warm: (msg) => warm(msg),
  "make-snapshot": async (msg) => {
    BASE = msg.base;
    // a runtime that never instantiates fails both (the page then ends this worker: snapshot-done)
    const wasmFailed = new Promise((_, reject) => sayFailedInstantiation((error) => reject(new Error(error))));
    wasmFailed.catch(() => {});
    if (msg.boot !== false) {
      try { post({ type: "snapshot-saved", kind: "boot", sha256: await Promise.race([makeSnapshot(), wasmFailed]) }); } catch (e) { post({ type: "snapshot-failed", kind: "boot", error: String(e) }); }
    }
    if (msg.imports) {
      try {
        const sha256 = await Promise.race([makeImportsSnapshot(), wasmFailed]);
        post({ type: "snapshot-saved", kind: "imports", sha256, bytes: madeImports.buffer }, [madeImports.buffer]);
      } catch (e) { post({ type: "snapshot-failed", kind: "imports", error: String(e && e.stack || e) }); }
    }
    post({ type: "snapshot-done" });
  },
  activate: (msg) => {
    self.gradpadPageState = JSON.stringify(msg.page);
    if (boot) pyodide.pyimport("app.env").page_changed(JSON.stringify(msg.page));
    activate(msg);
  },
  run: onRun,
  call: onCall,
  patch: (msg) => serial(() => boot.apply_patch(msg.patch)),
  rendered: async () => {
    await serial(() => boot.link(self.gradpadSendPatch));
    if (prerendering) { prerendering = false; prelinkedResolve(); return; } // shown at the take-over (loadUI)
    post({ type: "ui", kind: "app" });
    uiLinkedResolve();
  },
  env: (msg) => { if (boot) pyodide.pyimport("app.env").page_changed(JSON.stringify(msg.changes)); },
  reply: (msg) => {
    const p = pendingRequests.get(msg.id);
    if (!p) return;
    pendingRequests.delete(msg.id);
    if (msg.error) p.reject(new Error(msg.error)); else p.resolve(msg.result);
  },
  client: (msg) => addClient(msg),
};

// ------------------------------------------------------------------ a lesson's other cells
// A lesson page with a frame per code block (static/lesson.js, static/lesson_share.js): the first
// frame's page started this worker; each other cell's frame talks to it over its own port (its
// loader.js unchanged: init, render, patches, calls), and sees ONE cell of the lesson built here,
// as a Bokeh document of its own. One Python, one namespace: no boot of its own.
let bootInfo = null;
const clients = new Set(); // each cell frame's post
function toAll(msg) {
  post(msg);
  for (const send of clients) send(msg);
}
let nextClient = 1;
function addClient(msg) {
  const port = msg.port, id = nextClient++, cell = Number(msg.cell);
  if (!(port instanceof MessagePort) || !Number.isInteger(cell) || cell < 1) return;
  const send = (m, transfer) => port.postMessage(m, transfer || []);
  const client = { id, cell, send, activated: null };
  clients.add(send);
  const handlers = {
    init: async (m) => {
      await ready;
      send({ type: "ready", info: bootInfo, bootedFrom: "shared" });
      await uiLinked; // the lesson is built (the first frame's app)
      let code = null, held = null;
      if (m.standby) { // after a restart: the frame's typing comes with `activate`
        send({ type: "standby-ready" });
        const a = await new Promise((res) => { client.activated = res; });
        code = a.restoreCode ?? null;
        held = a.held ?? null;
      }
      const rendered = JSON.parse(await serial(() => boot.render_cell(id, cell, code, held)));
      if (rendered.kind !== "app") return send({ type: "ui", kind: rendered.kind });
      await request("load-resources", rendered.resources, send);
      send({ type: "render", model: rendered.model, page: rendered.page });
    },
    activate: (m) => client.activated && client.activated(m),
    rendered: async () => {
      await serial(() => boot.link_cell(id, (patch, buffers) => send({ type: "patch", patch, buffers })));
      send({ type: "ui", kind: "app" });
    },
    patch: (m) => serial(() => boot.apply_cell_patch(id, m.patch)),
    run: (m) => onRun(m, send),
    call: (m) => onCall(m, send),
    reply: HANDLERS.reply,
  };
  port.onmessage = (ev) => {
    const m = ev.data;
    const handler = m && typeof m.type === "string" && Object.hasOwn(handlers, m.type) && handlers[m.type];
    if (handler) Promise.resolve(handler(m)).catch((e) => console.error("gradpad worker (cell frame):", e));
  };
}

self.onmessage = (ev) => {
  const msg = ev.data;
  const handler = msg && HANDLERS[msg.type];
  if (handler) Promise.resolve(handler(msg)).catch((e) => console.error("gradpad worker:", e));
};

// called from Python (app.bootstrap.link): Bokeh patches for the page's document
self.gradpadSendPatch = (patch, buffers) => post({ type: "patch", patch, buffers });
// called from Python (app.env): what the worker cannot do itself goes to the page
self.gradpadPageEnv = (op, key, value) => post({ type: "env", op, key, value });
// called from Python (app.env.run_state): the app's own runs (Run button, autorun) show as runs
self.gradpadRunState = (running, measuring) => runState(!!running, !!measuring);
// called from Python (app.env.run_output): the line the running code printed last (a progress bar)
self.gradpadRunOutput = (line) => { if (runDepth > 0) toAll({ type: "run-output", line: String(line) }); };
// a Stop landed: the learner's code no longer runs (the run's run-end follows its panes)
self.gradpadRunStopped = () => { if (runDepth > 0) toAll({ type: "run-stopped" }); };
// called from Python (app.env.panes_state): which run the panes show, which still measure
self.gradpadPanes = (run, pending, ms, phases) =>
  toAll({ type: "panes", run, pending: JSON.parse(pending), python_ms: ms, phases: JSON.parse(phases || "{}") });

async function start(init) {
  mark("runtime:worker"); // this worker's script runs (a restart's time before it: starting the worker)
  BASE = init.base;
  if (init.interrupt) interruptBuffer = new Uint8Array(init.interrupt);
  globalThis.fetch = prefetchingFetch;
  // the page state the app reads (URL, stored code) arrives with init: a worker has none
  self.gradpadPageState = JSON.stringify({
    search: init.search, hash: init.hash, origin: init.origin, pathname: init.pathname,
    storage: init.storage, isolated: !!interruptBuffer, theme: init.theme || null,
  });
  // a fresh worker after one whose snapshot restore failed (loader.js bootFresh): no snapshot at all
  if (init.snapshots === false) {
    const search = new URLSearchParams(init.search);
    search.set("nosnapshot", "");
    init = { ...init, search: "?" + search, snapshotHash: null, importsSnapshotHash: null, importsSnapshot: null };
  }
  try {
    post({ type: "stage", stage: "runtime" });
    // a browser with no snapshot of its own (a first visit): the build's (static/boot_snapshot.js)
    const fromBuild = !init.importsSnapshotHash && !init.importsSnapshot && buildSnapshotWanted(init.search, init.snapshotHash);
    fetchRuntimeEarly(fromBuild ? M.bareSnapshot.stdlib : undefined);
    // (restored from the post-import snapshot, numpy and the engine need no wheels, and a restore that
    // fails ends this worker: the fresh one fetches them. Read now, they would compete with the
    // runtime's own files and the snapshot's bytes, all from Cache Storage on a warm visit; they are
    // fetched below if there turns out to be no snapshot in Cache Storage: bootPython)
    if (!init.importsSnapshot && !init.importsSnapshotHash) prefetch([...M.stages.numpy, ...M.stages.engine]);
    // the post-import snapshot's bytes are read from Cache Storage while the runtime's module loads
    const importsEarly = init.importsSnapshotHash && !init.importsSnapshot
      ? readUnchecked(init.search, init.importsSnapshotHash, IMPORTS_SNAP_KEY()) : null;
    const buildEarly = fromBuild ? startBuildSnapshot() : null;
    const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", BASE).href);
    mark("runtime:module");
    // (the page then starts a fresh worker: loader.js bootFresh)
    sayFailedInstantiation((error) => post({ type: "restore-failed", kind: "runtime", error }));
    let bootedFrom;
    [pyodide, bootedFrom] = await bootPython(loadPyodide, init.search, init.snapshotHash, init.importsSnapshotHash,
                                             init.importsSnapshot, importsEarly, buildEarly);
    if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
    keepStdlibZipIndex();
    mark("runtime");
    // (a first visit, booted from the build's snapshot too, fetches them from the network: now)
    const uiPrefetchLater = bootedFrom !== "boot" && bootedFrom !== "build-snapshot";
    if (!uiPrefetchLater) prefetch(M.stages.ui);
    post({ type: "stage", stage: "numpy" });
    // restored from the post-import snapshot: numpy and the engine are loaded and imported
    if (!restoredStages.has("numpy")) await loadStage("numpy");
    mark("numpy");
    post({ type: "stage", stage: "engine" });
    if (!restoredStages.has("engine")) await loadStage("engine");
    boot = pyodide.pyimport("app.bootstrap");
    const info = bootInfo = JSON.parse(boot.install(!!interruptBuffer));
    // optax/chex/equinox/flax: fetched and installed on their first import (app/lazy_wheels.py), not now
    if (M.lazy) pyodide.pyimport("app.lazy_wheels").install(JSON.stringify(M.lazy), new URL("pyodide/", BASE).href);
    mark("engine");
    readyResolve();
    post({ type: "ready", info, bootedFrom });
    // (restored from the post-import snapshot, Panel is imported: its wheels are never read)
    if (uiPrefetchLater && !restoredStages.has("ui")) prefetch(M.stages.ui);
  } catch (e) {
    if (e instanceof RestoreFailed) post({ type: "restore-failed", kind: e.kind, error: e.message });
    else post({ type: "boot-error", error: String(e && e.stack || e) });
    return;
  }
  try {
    await loadUI(init);
  } catch (e) {
    if (pyodideFailed()) return fatal(e);
    console.error(e);
    post({ type: "ui-error", error: String(e && e.stack || e) });
  }
}
