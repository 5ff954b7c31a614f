// gradpad page (main thread): progress bar, BokehJS view of the Panel app, running indicator,
// Stop / Restart, and the public page API. Python (Pyodide, the engine, the Panel app) runs
// in a Web Worker (worker.js), so the page keeps repainting while code runs.
//
// Public page API (stable; hosts that embed the playground and the tests use it):
//   window.gradpad.ready              Promise: Python, numpy and the engine are loaded
//   window.gradpad.uiReady            Promise: the Panel UI (or the placeholder) is rendered
//   await window.gradpad.runPython(code)
//       -> {stdout, stderr, result: repr of the last expression or null,
//           error: null or {type, message, traceback}}      (`import jax` is the engine)
//   window.gradpad.interrupt()        stop the running code (KeyboardInterrupt; code and
//                                     variables kept). Returns false when nothing runs.
//   await window.gradpad.restart()    a fresh Python (new worker); the editor's code is kept
//   window.gradpad.load(opts) / .snapshot()   the Panel app (app/page_api.py)
//   window.gradpad.timings            {stage: ms since navigation start}
//   window.gradpad.version, .info, .webgpu, .isolated, .running
// The same calls over postMessage for a host page: see app/page_api.py.
import { installSourceMap } from "./sourcemap.js";
import { effectiveTheme, installTheme } from "./theme.js";
import { installSplitter } from "./splitter.js";
import { makeOutbox } from "./outbox.js";
import { installCssVarShortcut, installFontSizeMemo } from "./bokeh_style_reads.js";

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
const mark = (name, t) => { timings[name] = Math.round(t === undefined ? performance.now() : t - performance.timeOrigin); };

const deferred = () => {
  let resolve, reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  promise.catch(() => {});
  return { promise, resolve, reject };
};
const readyD = deferred();
const uiD = deferred();

// Pyodide's interrupt buffer: shared memory exists only on a cross-origin isolated page
// (the service worker adds the headers; see sw.js). Without it runs keep the app's time budget.
const ISOLATED = !!globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function";
const interruptBuffer = ISOLATED ? new Uint8Array(new SharedArrayBuffer(1)) : null;

const gradpad = {
  version: M.build, ready: readyD.promise, uiReady: uiD.promise, timings,
  stage: "init", info: null, webgpu: "gpu" in navigator, ui: null, isolated: ISOLATED,
  running: false, runs: 0, restarts: 0,
  panes: null, // {run, pending, python_ms, phases, t}: the panes show run `run`; `pending` still measure
  panesLog: [],
  patches: { n: 0, ms: 0, restyled: 0 }, // Bokeh patches from the worker applied here, the main thread's time on them, stylesheets re-sent
  // Bokeh's style reads answered here: CSS variables (none declared), plots' font sizes (static/bokeh_style_reads.js)
  bokehStyle: { shortcut: false, reads: 0, fontSizeMemo: false, fontSizeReused: 0 },
  outbox: { events: 0, merged: 0, layout: 0, sent: 0 }, // the page's document changes: seen, merged, kept here, patches sent (static/outbox.js)
  hashWrites: { written: 0, unchanged: 0 }, // the app's state put in the address bar; unchanged: already there, not written again
};
window.gradpad = gradpad;
installSourceMap(gradpad);  // source <-> jaxpr links (static/sourcemap.js)
// a new theme: the app is built for one theme, so the page reloads (code and hash are kept)
installTheme(() => { if (gradpad.ui === "app") location.reload(); });
installSplitter(gradpad);  // the draggable editor/panes bar (static/splitter.js)

// ------------------------------------------------------------------ progress
// bytes per stage, counted from the Resource Timing entries (the worker posts its own)
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

function fail(title, text, detail) {
  $("gp-loader").hidden = true;
  $("gp-error").hidden = false;
  $("gp-error-title").textContent = title;
  $("gp-error-text").textContent = text;
  $("gp-error-detail").textContent = detail || "";
  gradpad.stage = "error";
  gradpad.error = { title, text, detail: detail || "" };
}

function notice(text) {
  const n = $("gp-notice");
  n.hidden = !text;
  n.textContent = text || "";
}

// ------------------------------------------------------------------ page resources
// the type of the model a patch event names (for the patch log: which models an edit restyles)
function modelType(s, ref) {
  const m = ref && ref.id && s.jsdoc.get_model_by_id(ref.id);
  return m ? m.type : "";
}

function sameOrigin(u) {
  const url = new URL(u, BASE);
  if (url.origin !== location.origin) throw new Error(`refusing to load ${url.href}: not this site`);
  return url.href;
}

function loadScripts(urls) {
  // downloaded in parallel, executed in order
  return Promise.all(urls.map((u) => new Promise((res, rej) => {
    const s = document.createElement("script");
    s.src = sameOrigin(u);
    s.async = false;
    s.onload = res;
    s.onerror = () => rej(new Error(`could not load ${u}`));
    document.head.appendChild(s);
  })));
}

// the JS/CSS the rendered app's models declare (app.bootstrap._model_resources)
const loadedResources = new Set();
async function loadResources({ js, modules, css }) {
  for (const href of css) {
    if (loadedResources.has(href)) continue;
    loadedResources.add(href);
    const l = document.createElement("link");
    l.rel = "stylesheet";
    l.href = sameOrigin(href);
    document.head.appendChild(l);
  }
  await loadScripts(js.filter((u) => !loadedResources.has(u)));
  js.forEach((u) => loadedResources.add(u));
  await Promise.all(modules.filter((u) => !loadedResources.has(u)).map((u) => {
    loadedResources.add(u);
    return import(sameOrigin(u));
  }));
}

// ------------------------------------------------------------------ the Python worker
// The worker is started from a blob: URL so that it inherits this page's Content-Security-
// Policy (connections to this site only) and cross-origin isolation, also on a first visit
// that no service worker controls yet.
const WORKER_URL = new URL("worker.js", BASE).href;
function spawnWorker() {
  const src = `import ${JSON.stringify(WORKER_URL)};`;
  const blob = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
  const w = new Worker(blob, { type: "module", name: "gradpad-python" });
  URL.revokeObjectURL(blob);
  return w;
}

// localStorage as the app sees it (the worker has none): a copy goes with init, writes come back
const STORE_PREFIX = "gradpad.";
const store = {};
try {
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k.startsWith(STORE_PREFIX)) store[k] = localStorage.getItem(k);
  }
} catch (e) { /* storage disabled (private mode, sandboxed iframe): the copy is all there is */ }
// the addresses a page held while typed code had not reached its hash (see "pagehide" below):
// their hashes hold older code, so a reload of one starts from the autosave instead
const AUTOSAVE_KEY = "gradpad.code", STALE_HASH_KEY = "gradpad.stale-hashes";
if (store[STALE_HASH_KEY] !== undefined) {
  let stale = [];
  try { stale = JSON.parse(store[STALE_HASH_KEY]); } catch (e) { /* unreadable: none */ }
  if (location.hash && stale.includes(location.hash)) history.replaceState(null, "", location.pathname + location.search);
  delete store[STALE_HASH_KEY];
  try { localStorage.removeItem(STALE_HASH_KEY); } catch (e) { /* storage disabled */ }
}

let py = null; // the current worker session: {worker, ready, pending, ...}
let nextId = 1;
// BokehJS + Panel's JS: requested once Python is ready (not competing with the runtime's download)
let bokehLoading = null;
let cssVarsArrive = () => {}; // shown what may declare a --bk- CSS property (static/bokeh_style_reads.js)
const bokeh = () => bokehLoading || (bokehLoading = loadScripts([...M.bokeh, M.panel.js]).then(() => {
  cssVarsArrive = installCssVarShortcut(window.Bokeh, gradpad.bokehStyle);
  installFontSizeMemo(window.Bokeh, gradpad.bokehStyle, () => !!(py && py.patching > 0));
}));

function startPython(restoreCode) {
  const session = {
    worker: spawnWorker(), pending: new Map(), ready: deferred(), ui: deferred(),
    jsdoc: null, patching: 0, views: null, runDepth: 0,
  };
  session.ui.promise.catch(() => {});
  session.ready.promise.catch(() => {});
  py = session;
  session.worker.onmessage = (ev) => {
    const msg = ev.data;
    const handler = msg && FROM_WORKER[msg.type];
    if (handler && py === session) Promise.resolve(handler(msg, session)).catch((e) => console.error("gradpad:", e));
  };
  session.worker.onerror = (ev) => {
    const err = new Error(`the Python worker failed to start: ${ev.message || "worker error"}`);
    session.ready.reject(err);
    session.ui.reject(err);
  };
  const u = new URL(location.href);
  session.worker.postMessage({
    type: "init", base: BASE.href, search: location.search, hash: location.hash,
    origin: location.origin, pathname: location.pathname, storage: { ...store },
    interrupt: interruptBuffer ? interruptBuffer.buffer : null, restoreCode: restoreCode ?? null,
    nosnapshot: u.searchParams.has("nosnapshot"), theme: effectiveTheme(),
  });
  return session;
}

// every message to the worker after the page's queued document changes (static/outbox.js)
function toWorker(session, msg) {
  if (session.flushOutbox) session.flushOutbox();
  session.worker.postMessage(msg);
}

function ask(type, fields) {
  const session = py;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    session.pending.set(id, { resolve, reject });
    toWorker(session, { type, id, ...fields });
  });
}

function setRunning(running, measuring = false) {
  gradpad.running = running;
  const bar = $("gp-runbar");
  if (running) {
    if (!measuring) gradpad.runs++; // a run's slow panes (timings) re-run its code: still one run
    gradpad.runStarted = performance.now();
    bar.hidden = false;
    bar.classList.add("running");
    tickRunning();
  } else {
    bar.classList.remove("running");
    $("gp-run-state").textContent = "Python is idle";
  }
  $("gp-stop").disabled = !running;
}

function tickRunning() {
  if (!gradpad.running) return;
  const s = (performance.now() - gradpad.runStarted) / 1000;
  $("gp-run-state").textContent = `Running… ${s.toFixed(1)} s`;
  setTimeout(tickRunning, 100);
}

const FROM_WORKER = {
  mark: (m) => {
    mark(m.name, m.t);
    if (STAGES[m.name]) render();
  },
  stage: (m, s) => { if (!s.restarting) enter(m.stage); },
  resource: (m) => countResource(m.url),
  ready: (m, s) => {
    gradpad.info = m.info;
    gradpad.bootedFrom = m.bootedFrom;
    s.ready.resolve();
  },
  "boot-error": (m, s) => {
    const e = new Error(m.error);
    s.ready.reject(e);
    s.ui.reject(e);
  },
  result: (m, s) => settle(s, m.id, (p) => p.resolve(m.result)),
  error: (m, s) => settle(s, m.id, (p) => p.reject(new Error(m.error))),
  "run-start": (m) => setRunning(true, m.measuring),
  "run-end": () => setRunning(false),
  panes: (m) => {
    gradpad.panes = { run: m.run, pending: m.pending, python_ms: m.python_ms, phases: m.phases || {}, t: performance.now() };
    gradpad.panesLog = [...gradpad.panesLog.slice(-49), gradpad.panes]; // the latest reports, oldest first
  },
  env: (m) => PAGE_ENV[m.op] && PAGE_ENV[m.op](m.key, m.value),
  request: async (m, s) => {
    try {
      const result = await WORKER_REQUESTS[m.name](m.args);
      toWorker(s, { type: "reply", id: m.id, result });
    } catch (e) {
      toWorker(s, { type: "reply", id: m.id, error: String(e && e.message || e) });
    }
  },
  render: async (m, s) => {
    if (s.rendering) return refuse("a second document"); // one render per worker: the app's
    s.rendering = true;
    await bokeh();
    if (m.page && m.page.embed) {
      embedded = true;
      const style = document.createElement("style");
      style.textContent = EMBED_CSS;
      document.head.appendChild(style);
      // the header is hidden in an iframe: the running indicator floats, shown while code runs
      document.body.appendChild($("gp-runbar"));
      $("gp-runbar").classList.add("gp-floating");
    }
    cssVarsArrive(m.model);
    const item = JSON.parse(m.model);
    s.frozenIds = new Set();
    const refused = guardModels(item, s.frozenIds);
    if (refused) {
      refuse(refused);
      s.ui.reject(new Error(`the app's document holds ${refused}, which the page does not run`));
      return;
    }
    clearApp(s);
    s.views = await window.Bokeh.embed.embed_item(item);
    const jsdoc = s.jsdoc = [...s.views.roots][0].model.document;
    const outbox = makeOutbox(jsdoc, (patch) => { if (py === s) s.worker.postMessage({ type: "patch", patch }); },
                              gradpad.outbox);
    s.flushOutbox = outbox.flush;
    jsdoc.on_change((event) => {
      if (s.patching > 0 || py !== s) return;
      outbox.listen(event);
    }, false);
    toWorker(s, { type: "rendered" });
  },
  patch: (m, s) => {
    if (!s.jsdoc) return;
    const refused = guardPatch(s, m.patch);
    if (refused) return refuse(refused);
    cssVarsArrive(m.patch);
    s.patching++;
    const t0 = performance.now();
    try {
      s.jsdoc.apply_json_patch(m.patch, m.buffers);
    } finally {
      s.patching--;
      const ms = performance.now() - t0;
      // what each recent patch changed and how long it took: where BokehJS spends an edit's time
      const what = (m.patch.events || []).slice(0, 24).map((e) => `${e.kind}:${e.attr || ""}@${modelType(s, e.model)}`).join(" ");
      // restyled: stylesheets sent again (BokehJS loads them and lays the page out again: slow)
      const restyled = (m.patch.events || []).filter((e) => e.attr === "stylesheets").length;
      gradpad.patches = { n: gradpad.patches.n + 1, ms: gradpad.patches.ms + ms,
                          restyled: gradpad.patches.restyled + restyled,
                          log: [...(gradpad.patches.log || []).slice(-19), { ms, events: (m.patch.events || []).length, what }] };
    }
  },
  ui: (m, s) => s.ui.resolve(m.kind),
  "ui-error": (m, s) => s.ui.reject(new Error(m.error)),
  fatal: (m, s) => {
    if (s.crashed) return; // one restart per crash
    s.crashed = true;
    console.error("gradpad: Python stopped working:", m.error);
    notice("Python stopped working (" + m.error.split("\n")[0] + "), probably out of memory. " +
      "It was restarted; your code is kept.");
    restart();
  },
};

// ------------------------------------------------------------------ the document guard
// The learner's code runs in the same interpreter as the app, so it can reach the app's Bokeh
// document and send the page models that run JavaScript here (CustomJS, ESM components) or
// that navigate (Panel's Location). The page accepts code models only with the app's own
// code: Panel's generated property links (jslink) and the Share button's copy to clipboard,
// none of them touching the Location model; and no change at all to the Location model.
const CODE_MODELS = /^(CustomJS\w*|OpenURL|ReactiveHTML|ReactiveESM|JSComponent|ReactComponent|AnyWidgetComponent)$/;
const FROZEN_MODELS = /^Location$/;
const SHARE_JS = "try { navigator.clipboard && navigator.clipboard.writeText(link.value) } catch(err) { console.log(err) }";
// Panel 1.9's jslink template (panel/links.py), with the two property names filled in
const jslinkJs = (src, tgt) => `
    var value = source['${src}'];
    value = value;
    value = value;
    try {
      var property = target.properties['${tgt}'];
      if (property !== undefined) { property.validate(value); }
    } catch(err) {
      console.log('WARNING: Could not set ${tgt} on target, raised error: ' + err);
      return;
    }
    try {
      target['${tgt}'] = value;
    } catch(err) {
      console.log(err)
    }
    `;

function isAppJs(code) {
  if (code === SHARE_JS) return true;
  const src = /^\n    var value = source\['(\w+)'\];/.exec(code || "");
  const tgt = /target\.properties\['(\w+)'\]/.exec(code || "");
  return !!(src && tgt && code === jslinkJs(src[1], tgt[1]));
}

function eachObject(value, visit) {
  if (Array.isArray(value)) { for (const v of value) eachObject(v, visit); return; }
  if (!value || typeof value !== "object") return;
  visit(value);
  for (const v of Object.values(value)) eachObject(v, visit);
}

// null, or what in a docs JSON / patch the page refuses; records the Location model's id
function guardModels(value, frozenIds) {
  eachObject(value, (o) => { if (o.type === "object" && FROZEN_MODELS.test(o.name) && o.id) frozenIds.add(o.id); });
  let refused = null;
  eachObject(value, (o) => {
    if (refused || o.type !== "object" || !CODE_MODELS.test(o.name || "")) return;
    const text = JSON.stringify(o);
    if (!isAppJs(o.attributes && o.attributes.code)) refused = `a ${o.name} model`;
    else if ([...frozenIds].some((id) => text.includes(JSON.stringify(id)))) refused = `a ${o.name} model on the page's location`;
  });
  return refused;
}

function guardPatch(session, patch) {
  const refused = guardModels(patch, session.frozenIds);
  if (refused) return refused;
  const frozen = (patch.events || []).find((e) => e && e.model && session.frozenIds.has(e.model.id));
  return frozen ? `a change to the page's location (${frozen.attr})` : null;
}

function refuse(what) {
  console.warn(`gradpad: refused ${what} from Python: code run in the playground cannot run ` +
    "JavaScript in the page or navigate it.");
}

function settle(session, id, fn) {
  const p = session.pending.get(id);
  if (!p) return;
  session.pending.delete(id);
  fn(p);
}

// what the worker asks the page to do for it
const WORKER_REQUESTS = {
  "load-resources": async (spec) => { await bokeh(); await loadResources(spec); return true; },
};

const PAGE_ENV = {
  storage_set: (key, value) => {
    if (!String(key).startsWith(STORE_PREFIX)) return; // the app's own keys only
    store[key] = String(value);
    try { localStorage.setItem(key, String(value)); } catch (e) { /* storage disabled */ }
  },
  set_hash: (_key, fragment) => {
    fragment = String(fragment || "");
    if (fragment && !fragment.startsWith("#")) return;
    if (linksPending > 0) { hashHeld = fragment; return; } // see "hashchange": the link wins
    // the app publishes its state at the edit and again after the run, mostly the same; a
    // replaceState costs the main thread 10-60 ms (measured in headless Chromium, each call)
    const unchanged = fragment ? location.hash === fragment : !location.href.includes("#");
    if (unchanged) gradpad.hashWrites.unchanged++;
    else {
      history.replaceState(null, "", fragment || location.pathname + location.search);
      gradpad.hashWrites.written++;
    }
    if (typed) heldHashes.push(fragment);
  },
};

function clearApp(session) {
  if (session && session.views) for (const v of session.views.roots) v.remove();
  if (window.Bokeh) for (const v of [...window.Bokeh.index.roots || []]) v.remove();
  $("app").replaceChildren();
}

// ------------------------------------------------------------------ page API
// The page's own work for the UI (parsing BokehJS) waits for the first run, or a moment:
// hosts and the placeholder run code as soon as `ready` resolves, and on a busy machine the
// two would compete for the CPU.
const UI_GRACE_MS = 300;
const firstRun = deferred();

async function runPython(code) {
  await py.ready.promise;
  try {
    return await ask("run", { code: String(code) });
  } finally {
    firstRun.resolve();
  }
}

function interrupt() {
  if (!gradpad.running) return false;
  if (interruptBuffer) {
    interruptBuffer[0] = 2; // SIGINT: Python raises KeyboardInterrupt at its next check
    return true;
  }
  // no shared memory (not cross-origin isolated): the only way to stop is a new interpreter
  restart();
  return true;
}

// "Restart Python": a new worker; the editor's code (autosaved by the app) comes along
async function restart() {
  const old = py;
  const code = store["gradpad.code"];
  old.worker.terminate();
  const err = new Error("Python was restarted");
  for (const p of old.pending.values()) p.reject(err);
  old.pending.clear();
  setRunning(false);
  gradpad.panes = null; // the new worker's app counts its runs from 1
  gradpad.restarts++;
  const session = startPython(code);
  session.restarting = true;
  clearApp(old);
  await session.ready.promise;
  try {
    const kind = await session.ui.promise;
    if (kind === "app") $("gp-placeholder").hidden = true;
  } catch (e) {
    console.error(e);
    $("gp-placeholder").hidden = false;
  }
  return true;
}

const EMBED_CSS = "header.gp-header, #gp-notice { display: none !important; } main { padding: 0 !important; }";

// load() and snapshot() answer with complete panes: the slow ones (timings) fill in after the
// others show, so wait for them; WebGPU's timings (seconds on a software GPU) are not waited for.
const SETTLE_SKIPS = new Set(["webgpu timing"]);
async function settled(snap) {
  const waiting = (p) => !p || (p.pending || []).some((name) => !SETTLE_SKIPS.has(name));
  if (!snap || !waiting(snap)) return snap;
  const stale = (p) => !p || p.run < snap.run || waiting(p);
  for (let i = 0; i < 12000 && stale(gradpad.panes); i++) await new Promise((r) => setTimeout(r, 10));
  return ask("call", { name: "snapshot", args: null });
}

Object.assign(gradpad, {
  runPython, interrupt, restart,
  load: async (opts) => { await uiD.promise; return settled(await ask("call", { name: "load", args: opts || {} })); },
  snapshot: async () => { await uiD.promise; return settled(await ask("call", { name: "snapshot", args: null })); },
  // code with top-level await (e.g. WebGPU readbacks); resolves with String(result)
  runPythonAsync: async (code) => { await py.ready.promise; return ask("run", { code: String(code), async: true }); },
});
gradpad.pyodide = { runPythonAsync: gradpad.runPythonAsync }; // what tests used before the worker

// Ctrl/Cmd+Enter runs (the editor lives in a shadow root: keydown is composed, so it reaches
// here); Esc stops a run.
document.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    if (gradpad.ui === "app") ask("call", { name: "run", args: null }).catch(() => {});
    else if (!$("gp-placeholder").hidden) runPlaceholder();
  } else if (e.key === "Escape" && gradpad.running) {
    e.preventDefault();
    interrupt();
  }
}, true);

// a share link or #example=NAME pasted into this tab: apply it without a reload
// The newest wins: the link is the event's own address (newURL), not location.hash, which a
// set_hash for the typing before it may already have replaced; and until the worker has applied
// the link, set_hash waits: the worker answers in order, so the last one before the link's reply
// is the link's own state (#s=...), written then.
let linksPending = 0, hashHeld = null;
window.addEventListener("hashchange", (e) => {
  if (gradpad.ui !== "app") return;
  const hash = new URL(e.newURL || location.href).hash;
  if (location.hash !== hash) history.replaceState(null, "", hash || location.pathname + location.search);
  linksPending++;
  ask("call", { name: "hash", args: { hash } }).catch(() => {}).finally(() => {
    if (--linksPending > 0 || hashHeld == null) return;
    const held = hashHeld;
    hashHeld = null;
    PAGE_ENV.set_hash("", held);
  });
});

// A reload (or close) right after typing: the worker may not have seen the newest keystrokes yet
// (it answers them after the work in hand), so neither the autosave nor the address bar need hold
// them, and the hash, with older code, would win. The editor's text is the newest code there is:
// the page keeps it itself at pagehide, and marks stale every hash it held since the first
// keystroke. All of them, not only those older than the worker's last answer: a reload goes to
// the address of the moment it was asked for, and this page runs on (the worker catching up,
// the hash moving on) until pagehide, so which hash the reload requested is not known here.
// That race lost the edit in the full browser run (a busy machine), never alone.
const EDIT_KEYS = new Set(["Backspace", "Delete", "Enter", "Tab"]);
let embedded = false; // an embed's hash is its host's link: never dropped
let typed = false; // typed in the editor since the page opened or a link was pasted (hashchange)
let heldHashes = []; // every hash held since then, oldest first

function editorText() {
  const find = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.classList.contains("ace_editor") && el.env) return el.env.editor.getValue();
      const inner = el.shadowRoot && find(el.shadowRoot);
      if (inner != null) return inner;
    }
    return null;
  };
  return find($("app"));
}

const markTyped = (e) => {
  if (!e.composedPath().some((el) => el.classList && el.classList.contains("ace_editor"))) return;
  if (!typed) heldHashes = [location.hash];
  typed = true;
};
document.addEventListener("keydown", (e) => {
  const key = e.key || ""; // autofill's synthetic keydown has none
  if ((key.length === 1 || EDIT_KEYS.has(key)) && !(key === "Enter" && (e.ctrlKey || e.metaKey))) markTyped(e);
}, true);
document.addEventListener("paste", markTyped, true);
document.addEventListener("cut", markTyped, true);
// a link pasted into the address bar is newer than anything typed before it: its hash wins
window.addEventListener("hashchange", () => { typed = false; heldHashes = []; });

window.addEventListener("pagehide", () => {
  if (!typed || embedded || gradpad.ui !== "app") return;
  const code = editorText();
  if (code == null) return;
  try {
    localStorage.setItem(AUTOSAVE_KEY, code);
    localStorage.setItem(STALE_HASH_KEY, JSON.stringify([...heldHashes, location.hash].filter(Boolean).slice(-50)));
  } catch (e) { return; /* nowhere to keep it: the hash stays the best there is */ }
  store[AUTOSAVE_KEY] = code;
  history.replaceState(null, "", location.pathname + location.search);
});

// a host page embedding us drives the same API through postMessage
const HOST_CALLS = {
  load: (args) => gradpad.load(args),
  snapshot: () => gradpad.snapshot(),
  runPython: (args) => gradpad.runPython((args || {}).code || ""),
  interrupt: () => gradpad.interrupt(),
  restart: () => gradpad.restart(),
};
window.addEventListener("message", async (ev) => {
  const m = ev.data;
  if (!m || typeof m !== "object" || !HOST_CALLS[m.gradpad] || ev.source === window) return;
  const reply = (msg) => ev.source && ev.source.postMessage({ ...msg, id: m.id }, ev.origin === "null" ? "*" : ev.origin);
  try {
    reply({ gradpad: "result", result: await HOST_CALLS[m.gradpad](m.args) });
  } catch (e) {
    reply({ gradpad: "error", error: String(e && e.message || e) });
  }
});

// ------------------------------------------------------------------ placeholder UI
async function runPlaceholder() {
  const out = $("gp-out");
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
}

function showPlaceholder() {
  $("gp-placeholder").hidden = false;
  $("gp-run").addEventListener("click", runPlaceholder);
}

// ------------------------------------------------------------------ memory snapshot
// Booting CPython is most of the runtime stage. After a normal boot, a throw-away worker
// boots a second interpreter in snapshot-making mode and saves its memory in Cache Storage
// (keyed by build); later visits restore it (worker.js). Off the main thread and off the
// worker that runs the learner's code.
function saveSnapshotLater() {
  if (gradpad.bootedFrom !== "boot" || !globalThis.caches) return;
  if (new URLSearchParams(location.search).has("nosnapshot")) return;
  (globalThis.requestIdleCallback || setTimeout)(() => {
    const w = spawnWorker();
    const OUTCOME = {
      "snapshot-saved": () => { gradpad.snapshotSaved = true; },
      "snapshot-failed": (m) => console.warn("gradpad: no boot snapshot", m.error),
    };
    w.onmessage = (ev) => {
      const outcome = OUTCOME[ev.data && ev.data.type];
      if (!outcome) return; // progress messages of its boot
      outcome(ev.data);
      w.terminate();
    };
    w.postMessage({ type: "make-snapshot", base: BASE.href });
  }, { timeout: 5000 });
}

// ------------------------------------------------------------------ main
async function main() {
  mark("start");
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
    fail("WebAssembly is not available",
      "gradpad runs Python inside your browser with WebAssembly, and this browser has it " +
      "switched off or does not support it. Use a current Chrome, Edge, Firefox or Safari, " +
      "and check that no policy disables WebAssembly (some hardened or JIT-less modes do).");
    readyD.reject(new Error("WebAssembly is not available"));
    uiD.reject(new Error("WebAssembly is not available"));
    return;
  }
  notice(browserGaps().join(" "));
  $("gp-stop").addEventListener("click", () => interrupt());
  $("gp-restart").addEventListener("click", () => restart());
  $("gp-stop").title = ISOLATED ? "Stop the running code (Esc)"
    : "Stop the running code (Esc): this page is not cross-origin isolated, so Stop restarts Python";
  enter("runtime");
  const session = startPython(null);
  await session.ready.promise;
  readyD.resolve(gradpad);
  Promise.race([firstRun.promise, new Promise((r) => setTimeout(r, UI_GRACE_MS))])
    .then(() => bokeh()).catch(() => {});
  $("gp-runbar").hidden = false;
  setRunning(false);
  showPlaceholder();
  registerServiceWorker();
  try {
    const kind = await session.ui.promise;
    if (kind === "app") $("gp-placeholder").hidden = true;
    gradpad.ui = kind;
    mark("ui");
    render();
    $("gp-loader").hidden = true;
    uiD.resolve(gradpad);
    saveSnapshotLater();
  } catch (e) {
    console.error(e);
    gradpad.uiError = String(e && e.stack || e);
    notice("The full UI could not be loaded; the basic editor below still works. " + e);
    $("gp-loader").hidden = true;
    uiD.reject(e);
  }
}

// What this browser, or this visit, lacks that gradpad would use: said in the page, not only
// in a tooltip (WebKit has no SharedArrayBuffer even on an isolated page; any browser lacks it
// before the service worker adds the isolation headers, and in a frame whose host forbids it).
function browserGaps() {
  const gaps = [];
  if (!gradpad.webgpu) {
    gaps.push("WebGPU is not available in this browser, so gradpad computes on the CPU " +
      "(numpy in WebAssembly). Everything works; GPU kernels are simply not used. " +
      "Chrome/Edge 113+ and recent Safari/Firefox have WebGPU.");
  }
  if (!ISOLATED) {
    const why = globalThis.crossOriginIsolated
      ? "This browser gives web pages no shared memory (SharedArrayBuffer)"
      : "This page has no shared memory yet (it is not cross-origin isolated: a first visit, " +
        "before gradpad's service worker is installed, or a frame whose host does not allow it)";
    gaps.push(why + ", so Stop cannot pause Python: it restarts Python, which keeps your code " +
      "but not your variables.");
  }
  return gaps;
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
  readyD.reject(e);
  uiD.reject(e);
});
