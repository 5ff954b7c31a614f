// gradpad page loader: runtime -> numpy -> engine (gradpad.ready) -> UI (gradpad.uiReady).
//
// Public page API (stable; hosts that embed the playground and the tests use it):
//   window.gradpad.ready              Promise: Python, numpy and the engine are loaded
//   window.gradpad.uiReady            Promise: the Panel UI (or the placeholder) is rendered
//   await window.gradpad.runPython(code)
//       -> {stdout, stderr, result: repr of the last expression or null,
//           error: null or {type, message, traceback}}      (`import jax` is the engine)
//   window.gradpad.timings            {stage: ms since navigation start}
//   window.gradpad.version, .info, .webgpu, .pyodide
const M = JSON.parse(document.getElementById("gp-manifest").textContent);
const BASE = new URL("./", document.baseURI);
const $ = (id) => document.getElementById(id);

const STAGES = {
  runtime: { label: "Python runtime", from: 0, to: 40 },
  numpy: { label: "numpy", from: 40, to: 55 },
  engine: { label: "engine", from: 55, to: 65 },
  ui: { label: "UI", from: 65, to: 100 },
};

const timings = {};
const mark = (name) => { timings[name] = Math.round(performance.now()); };

let resolveReady, rejectReady, resolveUi, rejectUi;
const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });
const uiReady = new Promise((res, rej) => { resolveUi = res; rejectUi = rej; });
ready.catch(() => {});
uiReady.catch(() => {});

let pyodide = null;
let boot = null;

// Code runs take priority over loading the UI: the UI stage does its CPU work (unpacking
// wheels, importing Panel) in steps and waits at each step until no run is queued, so a
// run asked for while the UI loads waits for one step, not for the whole stage.
let pendingRuns = 0;
let firstRunDone;
const firstRun = new Promise((res) => { firstRunDone = res; });

async function runPython(code) {
  pendingRuns++;
  try {
    await ready;
    return JSON.parse(boot.run_json(String(code)));
  } finally {
    pendingRuns--;
    firstRunDone();
  }
}

const nextTask = () => new Promise((r) => setTimeout(r, 0));
async function yieldToRuns() {
  await nextTask();
  while (pendingRuns > 0) await nextTask();
}

const gradpad = {
  version: M.build, ready, uiReady, runPython, timings,
  stage: "init", info: null, webgpu: "gpu" in navigator, pyodide: null, ui: null,
};
window.gradpad = gradpad;

// ------------------------------------------------------------------ progress
// bytes per stage, counted from the Resource Timing entries of the files each stage needs
const urlStage = new Map();
const stageBytes = {};
const stageDone = {};
function addFile(stage, rel, size) {
  urlStage.set(new URL(rel, BASE).href, { stage, size });
  stageBytes[stage] = (stageBytes[stage] || 0) + size;
}
for (const [f, size] of Object.entries(M.runtime)) addFile("runtime", "pyodide/" + f, size);
for (const [stage, pkgs] of Object.entries(M.stages))
  for (const p of pkgs) addFile(stage, M.files[p].file, M.files[p].size);
const seenUrls = new Set();
function countResource(url) {
  const hit = urlStage.get(url);
  if (!hit || seenUrls.has(url)) return;
  seenUrls.add(url);
  stageDone[hit.stage] = (stageDone[hit.stage] || 0) + hit.size;
  render();
}
try {
  new PerformanceObserver((list) => list.getEntries().forEach((e) => countResource(e.name)))
    .observe({ type: "resource", buffered: true });
} catch (e) { /* old browser: stage-level progress only */ }

function stagePct(stage) {
  if (timings[stage] !== undefined) return 100;
  const total = stageBytes[stage] || 1;
  return Math.min(95, Math.round((100 * (stageDone[stage] || 0)) / total));
}

function render() {
  const s = STAGES[gradpad.stage];
  if (!s) return;
  const pct = stagePct(gradpad.stage);
  const overall = Math.round(s.from + ((s.to - s.from) * pct) / 100);
  $("gp-bar-fill").style.width = overall + "%";
  $("gp-bar-fill").parentElement.setAttribute("aria-valuenow", String(overall));
  $("gp-stage-label").textContent = `Loading ${s.label}… ${pct}%`;
  for (const li of document.querySelectorAll("#gp-stages li")) {
    const st = li.dataset.stage;
    li.classList.toggle("active", st === gradpad.stage);
    li.classList.toggle("done", timings[st] !== undefined);
    li.querySelector("span").textContent = st === gradpad.stage ? `${pct}%` : "";
  }
}

function enter(stage) {
  gradpad.stage = stage;
  render();
}

function finish(stage) {
  mark(stage);
  render();
}

function fail(title, text, detail) {
  $("gp-loader").hidden = true;
  $("gp-error").hidden = false;
  $("gp-error-title").textContent = title;
  $("gp-error-text").textContent = text;
  $("gp-error-detail").textContent = detail || "";
  gradpad.stage = "error";
  gradpad.error = { title, text, detail: detail || "" };
}

// ------------------------------------------------------------------ parallel prefetch
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
globalThis.fetch = async function (input, init) {
  const url = typeof input === "string" || input instanceof URL
    ? new URL(String(input), BASE).href : input.url;
  const body = prefetched.get(url);
  if (body) {
    prefetched.delete(url);
    try {
      return new Response(await body, { status: 200, headers: { "Content-Type": "application/octet-stream" } });
    } catch (e) { /* fall back to a normal request, which reports the error */ }
  }
  return nativeFetch(input, init);
};

async function loadStage(stage) {
  const errors = [];
  await pyodide.loadPackage(M.stages[stage], {
    messageCallback: (msg) => { if (/^Loaded /.test(msg)) mark(stage + ":loaded"); },
    errorCallback: (msg) => errors.push(msg),
    checkIntegrity: true,
  });
  if (errors.length) throw new Error(`loading ${stage} failed:\n${errors.join("\n")}`);
}

function loadScripts(urls) {
  // downloaded in parallel, executed in order
  return Promise.all(urls.map((u) => new Promise((res, rej) => {
    const s = document.createElement("script");
    s.src = new URL(u, BASE).href;
    s.async = false;
    s.onload = res;
    s.onerror = () => rej(new Error(`could not load ${u}`));
    document.head.appendChild(s);
  })));
}

// ------------------------------------------------------------------ placeholder UI
function showPlaceholder() {
  $("gp-placeholder").hidden = false;
  const out = $("gp-out");
  const go = async () => {
    out.textContent = "running…";
    const r = await runPython($("gp-code").value);
    out.textContent = r.stdout + (r.stderr || "");
    if (r.error) {
      const e = document.createElement("span");
      e.className = "err";
      e.textContent = `${r.error.type}: ${r.error.message}`;
      out.appendChild(e);
    } else if (r.result !== null) {
      out.appendChild(document.createTextNode(r.result));
    }
  };
  $("gp-run").addEventListener("click", go);
  $("gp-code").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); go(); }
  });
}

// called from Python (bootstrap.render) with the resources the rendered models declare
const loadedResources = new Set();
window.gradpadLoadResources = async function (spec) {
  const { js, modules, css } = JSON.parse(spec);
  for (const href of css) {
    if (loadedResources.has(href)) continue;
    loadedResources.add(href);
    const l = document.createElement("link");
    l.rel = "stylesheet";
    l.href = href;
    document.head.appendChild(l);
  }
  await loadScripts(js.filter((u) => !loadedResources.has(u)));
  js.forEach((u) => loadedResources.add(u));
  await Promise.all(modules.filter((u) => !loadedResources.has(u)).map((u) => {
    loadedResources.add(u);
    return import(new URL(u, BASE).href);
  }));
};

// The UI's Python work starts once the page has had a moment for a first run (hosts and
// the placeholder editor call runPython as soon as `ready` resolves) or after that run.
const UI_GRACE_MS = 300;

async function loadUI() {
  enter("ui");
  const scripts = loadScripts([...M.bokeh, M.panel.js]);
  await Promise.race([firstRun, new Promise((r) => setTimeout(r, UI_GRACE_MS))]);
  await yieldToRuns();
  await loadStage("ui");
  await scripts;
  await yieldToRuns();
  boot.prepare_panel(new URL(M.panel.cdn_root, BASE).href);
  // Panel's import chain in steps (each is seconds of synchronous work), yielding between
  for (const mod of boot.UI_IMPORT_STEPS) {
    await yieldToRuns();
    pyodide.pyimport(mod).destroy();
  }
  await yieldToRuns();
  const kind = await pyodide.runPythonAsync(`
import panel as _pn
from panel.io.pyodide import write as _gp_write
from app import bootstrap as _gp_boot
_gp_obj = _gp_boot.ui_entry()
if _gp_obj is None:
    await _gp_write("panel-status", _pn.pane.Markdown(
        "Panel " + _pn.__version__ + " is loaded; the full UI lands with app/main.py.",
        css_classes=["gp-panel-ok"]))
    _gp_kind = "placeholder"
else:
    await _gp_boot.render("app", _gp_obj)
    _gp_kind = "app"
_gp_kind
`);
  if (kind === "app") $("gp-placeholder").hidden = true;
  gradpad.ui = kind;
  finish("ui");
  $("gp-loader").hidden = true;
}

// ------------------------------------------------------------------ memory snapshot
// Booting CPython is most of the runtime stage. The first visit saves a snapshot of the
// freshly booted interpreter's memory in Cache Storage (keyed by build); later visits restore
// it instead of booting. Any problem with it falls back to a normal boot.
const SNAP_CACHE = "gpsnap-" + M.build;
const SNAP_KEY = new URL("pyodide/boot-snapshot.bin", BASE).href;

async function readSnapshot() {
  try {
    if (!globalThis.caches || new URLSearchParams(location.search).has("nosnapshot")) return null;
    const r = await (await caches.open(SNAP_CACHE)).match(SNAP_KEY);
    return r ? new Uint8Array(await r.arrayBuffer()) : null;
  } catch (e) {
    return null;
  }
}

async function bootPython(loadPyodide) {
  const indexURL = new URL("pyodide/", BASE).href;
  const snap = await readSnapshot();
  mark("runtime:snapshot-read");
  if (snap) {
    try {
      const py = await loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: snap });
      gradpad.bootedFrom = "snapshot";
      return py;
    } catch (e) {
      console.warn("gradpad: boot snapshot unusable, booting normally", e);
      caches.delete(SNAP_CACHE).catch(() => {});
    }
  }
  gradpad.bootedFrom = "boot";
  return loadPyodide({ indexURL, fullStdLib: false });
}

// An interpreter booted in snapshot-making mode has a restricted `js` module, so the snapshot
// comes from a second, throw-away interpreter booted once the page is interactive.
async function saveSnapshotLater(loadPyodide) {
  if (gradpad.bootedFrom !== "boot" || !globalThis.caches) return;
  if (new URLSearchParams(location.search).has("nosnapshot")) return;
  await new Promise((r) => (globalThis.requestIdleCallback || setTimeout)(r, { timeout: 5000 }));
  try {
    const py = await loadPyodide({ indexURL: new URL("pyodide/", BASE).href, fullStdLib: false, _makeSnapshot: true });
    const bytes = py.makeMemorySnapshot();
    await (await caches.open(SNAP_CACHE)).put(SNAP_KEY,
      new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    gradpad.snapshotSaved = true;
  } catch (e) {
    console.warn("gradpad: no boot snapshot", e);
  }
}

// Every loadPackage ends with importlib.invalidate_caches(), and CPython's zipimporter answers
// that by re-reading the whole directory of python312.zip once per cached stdlib sub-package
// (dozens of times): 0.1-0.7 s per call here. The stdlib zip never changes while the page
// lives, so its importers keep their index; other zips and directories are refreshed as usual.
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

// ------------------------------------------------------------------ main
async function main() {
  mark("start");
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    fail("WebAssembly is not available",
      "gradpad runs Python inside your browser with WebAssembly, and this browser has it " +
      "switched off or does not support it. Use a current Chrome, Edge, Firefox or Safari, " +
      "and check that no policy disables WebAssembly (some hardened or JIT-less modes do).");
    rejectReady(new Error("WebAssembly is not available"));
    rejectUi(new Error("WebAssembly is not available"));
    return;
  }
  if (!gradpad.webgpu) {
    const n = $("gp-notice");
    n.hidden = false;
    n.textContent = "WebGPU is not available in this browser, so gradpad computes on the CPU " +
      "(numpy in WebAssembly). Everything works; GPU kernels are simply not used. " +
      "Chrome/Edge 113+ and recent Safari/Firefox have WebGPU.";
  }
  enter("runtime");
  prefetch([...M.stages.numpy, ...M.stages.engine]);
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", BASE).href);
  mark("runtime:module");
  pyodide = await bootPython(loadPyodide);
  gradpad.pyodide = pyodide;
  keepStdlibZipIndex();
  finish("runtime");
  // After a snapshot boot every file comes from the service worker's cache in milliseconds, and
  // reading the UI's 15 MB then would only compete with numpy's unpacking for the CPU.
  const uiPrefetchLater = gradpad.bootedFrom === "snapshot";
  if (!uiPrefetchLater) prefetch(M.stages.ui);
  enter("numpy");
  await loadStage("numpy");
  finish("numpy");
  enter("engine");
  await loadStage("engine");
  boot = pyodide.pyimport("app.bootstrap");
  gradpad.info = JSON.parse(boot.install());
  finish("engine");
  resolveReady(gradpad);
  if (uiPrefetchLater) prefetch(M.stages.ui);
  showPlaceholder();
  registerServiceWorker();
  try {
    await loadUI();
    resolveUi(gradpad);
    saveSnapshotLater(loadPyodide);
  } catch (e) {
    console.error(e);
    gradpad.uiError = String(e && e.stack || e);
    const n = $("gp-notice");
    n.hidden = false;
    n.textContent = "The full UI could not be loaded; the basic editor below still works. " + e;
    $("gp-loader").hidden = true;
    rejectUi(e);
  }
}

function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.register(new URL("sw.js", BASE).href).catch((e) => console.warn("service worker:", e));
}

main().catch((e) => {
  console.error(e);
  fail("gradpad could not start",
    "Loading Python in this page failed. Reloading usually helps; if it keeps failing, the " +
    "files on this server may be incomplete (rebuild with `python build.py site`).",
    String(e && e.stack || e));
  rejectReady(e);
  rejectUi(e);
});
