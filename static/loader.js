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
//                                     variables kept). Where the interrupt cannot land (no
//                                     shared memory, C code) the worker is ended and a standby
//                                     Python takes over (static/standby.js). False: nothing runs.
//   await window.gradpad.restart()    a fresh Python (new worker); the editor's code is kept
//   window.gradpad.load(opts) / .snapshot()   the Panel app (app/page_api.py)
//   window.gradpad.timings            {stage: ms since navigation start}
//   window.gradpad.version, .info, .webgpu, .isolated, .running
//   window.gradpad.runOutput          the line the running code printed last (its progress)
// The same calls over postMessage for a host page: see app/page_api.py.
import { installSourceMap } from "./sourcemap.js";
import { installStepper } from "./stepper.js";
import { installRules } from "./rules.js";
import { effectiveTheme, installTheme } from "./theme.js";
import { installSplitter } from "./splitter.js";
import { installA11y } from "./a11y.js";
import { makeOutbox } from "./outbox.js";
import { nextTask, patchParts, splitAt } from "./patch_chunks.js";
import { installCssVarShortcut, installFontSizeMemo } from "./bokeh_style_reads.js";
import { makeStandby } from "./standby.js";
import { carryTyping, keepTyping, lateTyping, liveEditor, startProgress } from "./restart_view.js";
import { BOX_ID, hiddenBox, makePrerender, prerenderWanted, showBox } from "./prerender.js";
import { installLayoutBoxes } from "./layout_bounds.js";
import { installMarkupShown } from "./markup_shown.js";
import { guardModels, guardPatch, hostAllowed, installTrustedTypes } from "./guard.js";
import { pageShareHash, shownState } from "./share_hash.js";
import { previewWanted, startPreview } from "./preview.js";
import { restylePage, restyleSheets } from "./theme_switch.js";
import { reportHeight } from "./frame_height.js";
import { askLeader, joinLesson, lessonRole, onLeaderProgress, onLeaderRestart, serveCells, waitingText } from "./lesson_share.js";
import { makeRestartSnapshot } from "./restart_snapshot.js";
import { makeSpareWorker } from "./spare_worker.js";

const M = JSON.parse(document.getElementById("gp-manifest").textContent);
const BASE = new URL("./", document.baseURI);
const $ = (id) => document.getElementById(id);
// the scripts this page may load: the build's own files (the manifest lists them), never blob:
const BUILD_SCRIPTS = new Set([...M.bokeh, M.panel.js, ...(M.assets || [])].map((f) => new URL(f, BASE).href));
const ttPolicy = installTrustedTypes((u) => BUILD_SCRIPTS.has(new URL(String(u), BASE).href));
const trustedUrl = (u) => (ttPolicy ? ttPolicy.createScriptURL(u) : u);

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
const uiTakenOver = deferred(); // the UI of a worker that took over (restart)

// Pyodide's interrupt buffer: shared memory exists only on a cross-origin isolated page
// (the service worker adds the headers; see sw.js). Without it runs keep the app's time budget.
const ISOLATED = !!globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function";
// One buffer per worker: a Stop meant for the running worker must not reach a booting standby.
// [0]: Pyodide's (2 = SIGINT); [1]: the Stops so far (mod 256): a run asked for before a Stop and
// still queued behind the run it stopped (a measurement) is not started (static/worker.js onRun)
const newInterruptBuffer = () => ISOLATED ? new Uint8Array(new SharedArrayBuffer(2)) : null;
// A Stop whose interrupt Python has not taken after STOP_GRACE_MS (Pyodide zeroes the buffer when
// it does) sits in C code (a big matmul, a C-level wait): the worker is ended. So is one whose run
// goes on STOP_RUN_END_MS after the interrupt landed (code that catches KeyboardInterrupt).
const STOP_GRACE_MS = 400, STOP_RUN_END_MS = 5000;

const gradpad = {
  version: M.build, ready: readyD.promise, uiReady: uiD.promise, timings,
  stage: "init", info: null, webgpu: "gpu" in navigator, ui: null, isolated: ISOLATED,
  running: false, runs: 0, restarts: 0, runSeq: 0, runOutput: "",
  // the Stops that ended a worker: {reason, t (ms since navigation), standby: was one ready,
  // path: "standby" (a ready one took over), "booting" (one still booting did), "fresh" (none was there)}
  stops: [],
  // a lesson's Stops between its frames (static/lesson_share.js askLeader): in a cell frame each
  // Stop asked of the first frame {via: "call" (a direct call, acted on in the click's own task)
  // or "message", t}; in the first frame each heard {via, lagMs (after the click), running}
  lessonStops: [],
  boots: 0, // Pythons started in this page (workers that became ready): a lesson's cells share one
  freshBoots: [], // {why, kind}: a worker whose snapshot restore failed or that stalled, replaced by a fresh one (bootFresh)
  panes: null, // {run, pending, python_ms, phases, t}: the panes show run `run`; `pending` still measure
  panesLog: [],
  patches: { n: 0, ms: 0, restyled: 0 }, // Bokeh patches from the worker applied here, the main thread's time on them, stylesheets re-sent
  // Bokeh's style reads answered here: CSS variables (none declared), plots' font sizes (static/bokeh_style_reads.js)
  bokehStyle: { shortcut: false, reads: 0, fontSizeMemo: false, fontSizeReused: 0 },
  layouts: { installed: false, local: 0, whole: 0, rootResizes: 0, restyled: 0 }, // BokehJS layout passes: inside one box of the app, over the whole document (static/layout_bounds.js)
  // Panel's HTML panes: shown at render (their stylesheets already loaded here), or after waiting for them (static/markup_shown.js)
  markup: { installed: false, atOnce: 0, waited: 0 },
  outbox: { events: 0, merged: 0, layout: 0, sent: 0 }, // the page's document changes: seen, merged, kept here, patches sent (static/outbox.js)
  hashWrites: { written: 0, unchanged: 0 }, // the app's state put in the address bar; unchanged: already there, not written again
  // whether the current Python was lent the snapshot bytes the page kept (static/restart_snapshot.js)
  workerGotSnapshot: () => !!(py && py.gaveSnapshot),
};
window.gradpad = gradpad;
installSourceMap(gradpad);  // source <-> jaxpr links (static/sourcemap.js)
// the Jaxpr pane's stepper and a primitive's rules: they ask the app once (page API), then run here
const appCall = async (name, args) => { await uiD.promise; return ask("call", { name, args }); };
installStepper(gradpad, appCall);  // static/stepper.js
installRules(gradpad, appCall);  // static/rules.js
// a new theme: switched in place, the panes stay (static/theme_switch.js); Python follows
installTheme((theme) => switchTheme(theme));
installSplitter(gradpad);  // the draggable editor/panes bar (static/splitter.js)
installA11y(gradpad);  // tabs, editor exit, focus for the keyboard and screen readers (static/a11y.js)

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
  if (CELL_FRAME) return renderWaiting();
  const s = STAGES[gradpad.stage];
  if (!s) return;
  const pct = stagePct(gradpad.stage);
  const overall = Math.round(s.from + ((s.to - s.from) * pct) / 100);
  $("gp-bar-fill").style.width = overall + "%";
  $("gp-bar-fill").parentElement.setAttribute("aria-valuenow", String(overall));
  // (after a restart the files are cached: their bytes say nothing of this start's progress)
  $("gp-stage-label").textContent = loaderRestart ? `Python restarted: loading ${s.label}…` : `Loading ${s.label}… ${pct}%`;
  showStages(gradpad.stage, pct, (st) => timings[st] !== undefined);
  // the lesson's other cell frames wait on this start: they show it (static/lesson_share.js)
  if (lessonCells && !$("gp-loader").hidden) {
    lessonCells.progress({ stage: gradpad.stage, what: s.label, pct, overall,
                           finished: Object.keys(STAGES).filter((st) => timings[st] !== undefined) });
  }
}

function showStages(stage, pct, finished) {
  for (const li of document.querySelectorAll("#gp-stages li")) {
    const st = li.dataset.stage;
    li.classList.toggle("active", st === stage);
    li.classList.toggle("done", finished(st));
    li.querySelector("span").textContent = st === stage ? `${pct}%` : "";
  }
}

// a lesson's cell frame boots no Python: until its cell shows, its loader shows the first frame's
// start as that frame sends it (its own downloads would say "0%" all along)
let leaderProgress = null;
function renderWaiting() {
  const p = leaderProgress;
  const overall = p && p.ready ? 100 : p && !p.failed ? p.overall : 0;
  $("gp-bar-fill").style.width = overall + "%";
  $("gp-bar-fill").parentElement.setAttribute("aria-valuenow", String(overall));
  $("gp-stage-label").textContent = waitingText(p);
  const running = p && !p.ready && !p.failed;
  showStages(running ? p.stage : null, running ? p.pct : 0,
             (st) => !!p && (p.ready || (p.finished || []).includes(st)));
}

// a Stop (or crash) before the first UI came: the loader follows the fresh Python's start instead of
// staying where the ended one was ("Loading UI… 95%" until the new app came)
let loaderRestart = false;
function loaderFollows(session) {
  if ($("gp-loader").hidden) return;
  loaderRestart = session.showsLoader = true;
  for (const st of Object.keys(STAGES)) delete timings[st]; // this start's own, as it marks them
  enter("runtime");
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
  if (lessonCells) lessonCells.progress({ failed: title }); // the cell frames waiting on this Python
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

// a JS/CSS file of this build (what the worker names is checked against the manifest)
function buildFile(u) {
  const url = new URL(u, BASE);
  if (!BUILD_SCRIPTS.has(url.href)) throw new Error(`refusing to load ${url.href}: not a file of this build`);
  return url.href;
}

function loadScripts(urls) {
  // downloaded in parallel, executed in order
  return Promise.all(urls.map((u) => new Promise((res, rej) => {
    const s = document.createElement("script");
    s.src = trustedUrl(buildFile(u));
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
    l.href = buildFile(href);
    document.head.appendChild(l);
  }
  await loadScripts(js.filter((u) => !loadedResources.has(u)));
  js.forEach((u) => loadedResources.add(u));
  await Promise.all(modules.filter((u) => !loadedResources.has(u)).map((u) => {
    loadedResources.add(u);
    return import(buildFile(u));
  }));
}

// ------------------------------------------------------------------ the Python worker
// The worker is started from a blob: URL so that it inherits this page's Content-Security-
// Policy (connections to this site only) and cross-origin isolation, also on a first visit
// that no service worker controls yet.
const WORKER_URL = new URL("worker.js", BASE).href;
// a lesson's cell frame (static/lesson.js): cell 0's frame owns the worker; any other cell's frame
// talks to that worker over a port (static/lesson_share.js) and boots no Python of its own
const LESSON_CELL = lessonRole(location.search);
const CELL_FRAME = !!LESSON_CELL && LESSON_CELL.cell > 0;
function spawnWorker() {
  if (CELL_FRAME) {
    return joinLesson({ ...LESSON_CELL, unshared: () => {
      notice("This browser's frames cannot share one Python here, so the lesson is shown in one frame instead.");
      window.parent.postMessage({ gradpad: "lesson-unshared" }, "*"); // static/lesson.js shows the one-frame lesson
    } });
  }
  const src = `import ${JSON.stringify(WORKER_URL)};`;
  const blob = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
  const w = new Worker(trustedUrl(blob), { type: "module", name: "gradpad-python" });
  URL.revokeObjectURL(blob);
  return w;
}

// localStorage as the app sees it (the worker has none): a copy goes with init, writes come back
const STORE_PREFIX = "gradpad.";
const store = {};
// A framed page (an embed, a lesson in a course page) is driven by its host, whose postMessage
// calls run Python here: the visitor's saved code never reaches that worker, and an embed shows
// the code of its own URL anyway.
const FRAMED = (() => { try { return window.self !== window.top; } catch (e) { return true; } })();
if (FRAMED && new URLSearchParams(location.search).has("lesson")) reportHeight(); // static/lesson.js sizes its frame
try {
  for (let i = 0; !FRAMED && i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k.startsWith(STORE_PREFIX)) store[k] = localStorage.getItem(k);
  }
} catch (e) { /* storage disabled (private mode, sandboxed iframe): the copy is all there is */ }
// the addresses a page held before its last typing (see "pagehide" below): their hashes hold
// older code, so a reload of one starts from the autosave instead. Kept as fingerprints: a hash
// holds a whole program.
const AUTOSAVE_KEY = "gradpad.code", STALE_HASH_KEY = "gradpad.stale-hashes";
function hashPrint(hash) { // two 32-bit FNV-1a lanes over the UTF-16 units: 16 hex digits
  let a = 0x811c9dc5, b = 0x2545f491 ^ hash.length;
  for (let i = 0; i < hash.length; i++) {
    const c = hash.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
if (store[STALE_HASH_KEY] !== undefined) {
  let stale = [];
  try { stale = JSON.parse(store[STALE_HASH_KEY]); } catch (e) { /* unreadable: none */ }
  if (!Array.isArray(stale)) stale = [];
  if (location.hash && (stale.includes(hashPrint(location.hash)) || stale.includes(location.hash))) {
    history.replaceState(null, "", location.pathname + location.search);
  }
  delete store[STALE_HASH_KEY];
  try { localStorage.removeItem(STALE_HASH_KEY); } catch (e) { /* storage disabled */ }
}

// fingerprints of every hash held since the page opened or a link was pasted (see "pagehide"):
// all older than the editor's text once it is typed in; in the order first held, the newest
// MAX_HELD kept
const MAX_HELD = 400;
let heldHashes = new Set();
function holdHash(hash) {
  if (!hash) return;
  const print = hashPrint(hash);
  heldHashes.delete(print);
  heldHashes.add(print);
  if (heldHashes.size > MAX_HELD) heldHashes.delete(heldHashes.values().next().value);
}
holdHash(location.hash);

let loadAsked = null; // the page API's load({code}) not answered yet: {code, the editor's text then} (see restart)

let lessonCells = null; // a lesson's first frame: the cell frames on its worker (static/lesson_share.js)
let py = null; // the current worker session: {worker, ready, pending, ...}
let preview = null; // the build-time first view shown until the live app renders (static/preview.js)
let nextId = 1;
// BokehJS + Panel's JS: requested once Python is ready (not competing with the runtime's download)
let bokehLoading = null;
let cssVarsArrive = () => {}; // shown what may declare a --bk- CSS property (static/bokeh_style_reads.js)
const bokeh = () => bokehLoading || (bokehLoading = loadScripts([...M.bokeh, M.panel.js]).then(() => {
  mark("bokeh");
  cssVarsArrive = installCssVarShortcut(window.Bokeh, gradpad.bokehStyle);
  installFontSizeMemo(window.Bokeh, gradpad.bokehStyle, () => !!(py && py.patching > 0));
  installLayoutBoxes(window.Bokeh, gradpad.layouts);
  installMarkupShown(window.Bokeh, gradpad.markup);
}));

// standby: boot, build the app, then wait for `activate` (see takeOver); the page's current
// worker stays `py` meanwhile
function startPython(restoreCode, standby = false) {
  const session = {
    worker: spareWorker.take() || spawnWorker(), pending: new Map(), ready: deferred(), ui: deferred(),
    jsdoc: null, patching: 0, views: null, runDepth: 0,
    interruptBuffer: newInterruptBuffer(), standbyReady: deferred(), startedAt: performance.now(),
  };
  session.ui.promise.catch(() => {});
  session.ready.promise.catch(() => {});
  session.standbyReady.promise.catch(() => {});
  if (!standby) py = session;
  listenTo(session);
  const u = new URL(location.href);
  const init = {
    type: "init", base: BASE.href, search: location.search, hash: location.hash,
    origin: location.origin, pathname: location.pathname, storage: { ...store },
    interrupt: session.interruptBuffer ? session.interruptBuffer.buffer : null, restoreCode: restoreCode ?? null,
    nosnapshot: u.searchParams.has("nosnapshot"), theme: effectiveTheme(), standby, snapshotHash: snapshotHash(),
    prerender: standby && PRERENDER,
    importsSnapshotHash: importsSnapshotWanted() ? snapshotHash(IMPORTS_SNAPSHOT_HASH_KEY) : null,
  };
  session.init = init; // (without the lent bytes: a fresh worker started instead boots without them, bootFresh)
  session.gaveSnapshot = restartSnapshot.post(session.worker, init); // (static/restart_snapshot.js)
  session.theme = effectiveTheme(); // the theme its app is built in (switchTheme)
  return session;
}

// A message from `worker`, handled. A patch applied in parts (static/patch_chunks.js) holds back
// the messages after it until its last part is in: the run's end and the panes' report then
// find the page showing everything the run changed.
function receive(session, worker, msg) {
  if (session.worker !== worker) return;
  const known = (table) => msg && typeof msg.type === "string" && Object.hasOwn(table, msg.type) && table[msg.type];
  if (msg && msg.type === "restore-failed") return bootFresh(session, msg.error, msg.kind);
  const h = known(py !== session ? STANDBY_MESSAGES : FROM_WORKER);
  const out = h && h(msg, session);
  if (!out || typeof out.then !== "function") return;
  const done = Promise.resolve(out).catch((e) => console.error("gradpad:", e));
  if (msg.type !== "patch") return;
  session.held = [];
  done.finally(() => {
    const held = session.held;
    session.held = null;
    while (held.length && !session.held) receive(session, worker, held.shift());
    if (session.held) session.held.unshift(...held); // (another patch in parts: the rest waits for it)
  });
}

function listenTo(session) {
  const worker = session.worker;
  session.heardAt = performance.now();
  worker.onmessage = (ev) => {
    if (session.worker !== worker) return; // ended for a fresh one (bootFresh)
    session.heardAt = performance.now();
    const msg = ev.data;
    if (msg && (msg.type === "ready" || msg.type === "boot-error")) session.booted = true;
    if (session.held) session.held.push(msg); // behind a patch still being applied, in order
    else receive(session, worker, msg);
  };
  worker.onerror = (ev) => {
    if (session.worker !== worker) return;
    const err = new Error(`the Python worker failed to start: ${ev.message || "worker error"}`);
    session.ready.reject(err);
    session.ui.reject(err);
  };
  // (a lesson's cell frame starts no Python: it waits on the first frame's, whose page watches it)
  if (!CELL_FRAME && !session.watch) session.watch = setInterval(() => watchStart(session), START_WATCH_MS);
}

// A worker whose snapshot restore failed (it says `restore-failed` and boots nothing more: a failed
// loadPyodide may leave its runtime unusable), or that said nothing for START_STALL_MS before its
// Python was ready, is ended, and a fresh worker boots the normal way, with no snapshot, once.
// The failed snapshot's record is dropped: the page makes it again after this boot (saveSnapshotLater).
const START_WATCH_MS = 5000, START_STALL_MS = 90000;
const SNAPSHOT_RECORDS = { "post-import snapshot": () => IMPORTS_SNAPSHOT_HASH_KEY, "boot snapshot": () => SNAPSHOT_HASH_KEY };
function watchStart(session) {
  if (session.booted || session.ended) return clearInterval(session.watch);
  const silent = performance.now() - session.heardAt;
  if (silent > START_STALL_MS) bootFresh(session, `the Python worker said nothing for ${Math.round(silent / 1000)} s while starting`, null);
}
function bootFresh(session, why, kind) {
  if (session.ended || session.booted) return;
  if (session.freshBoot) { // the fresh one failed too: said as a failed start (not waited on forever)
    session.booted = true;
    const msg = { type: "boot-error", error: `${why} (in a fresh worker too, after: ${session.freshBoot.why})` };
    return (py === session ? FROM_WORKER : STANDBY_MESSAGES)["boot-error"](msg, session);
  }
  session.freshBoot = { why: String(why), kind };
  gradpad.freshBoots.push(session.freshBoot);
  console.warn(`gradpad: ${why}: starting a fresh Python worker with no snapshot`);
  mark("runtime:fresh-worker");
  const record = SNAPSHOT_RECORDS[kind];
  if (record) try { localStorage.removeItem(record()); } catch (e) { /* no storage */ }
  session.worker.terminate();
  session.worker = spawnWorker();
  listenTo(session);
  session.worker.postMessage({ ...session.init, snapshots: false });
  if (lessonCells && py === session) lessonCells.restarted(null); // (cell frames that joined the ended worker join again)
}

// what a standby worker says before it takes over (the rest waits for it to be `py`)
const STANDBY_MESSAGES = {
  ready: (m, s) => { s.info = m.info; s.bootedFrom = m.bootedFrom; restartSnapshot.heard(s, m.bootedFrom); s.ready.resolve(); },
  stage: (m, s) => { s.stageNow = m.stage; },
  // its app, serialized while it stands by: rendered hidden at a quiet moment (static/prerender.js)
  // (not once it took over without it: it renders its app as without a prerender)
  prerender: (m, s) => { if (!s.activated) { s.prerenderTheme = s.theme; prerender.arrived(s, m); } },
  request: (m, s) => FROM_WORKER.request(m, s),
  patch: (m, s) => FROM_WORKER.patch(m, s),
  "standby-ready": (m, s) => { s.standbyReady.resolve(); standby.changed(); },
  "snapshot-back": (m, s) => restartSnapshot.returned(s, m.bytes), // (static/restart_snapshot.js)
  "boot-error": (m, s) => { prerender.discard(s); standby.failed(s, m.error); },
  fatal: (m, s) => { prerender.discard(s); standby.failed(s, m.error); },
};
const standby = makeStandby({
  start: () => startPython(null, true),
  isolated: ISOLATED, search: location.search, gradpad,
});
const PRERENDER = prerenderWanted(location.search, ISOLATED);
const prerender = makePrerender({
  embed: (s, m, box) => embedApp(m, s, box),
  busy: () => gradpad.running || gradpad.ui !== "app",
  report: (r) => { gradpad.prerender = { ...(gradpad.prerender || {}), ...r }; },
});

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

// the app's status line (a Panel pane with class gp-status, in shadow roots): while a run is on it
// shows "running your code…" instead of the last run's "✓ ran in N ms" (its CSS: :host(.gp-running))
let statusLine = null;
function markStatusRunning(running) {
  if (!statusLine || !statusLine.isConnected) {
    const find = (root) => {
      for (const el of root.querySelectorAll("*")) {
        if (el.classList && el.classList.contains("gp-status")) return el;
        if (el.shadowRoot) { const hit = find(el.shadowRoot); if (hit) return hit; }
      }
      return null;
    };
    const app = document.getElementById("app");
    statusLine = app ? find(app) : null;
  }
  if (statusLine) statusLine.classList.toggle("gp-running", running);
}

// statusLater: the status line keeps "running…" until the panes' patch brings the new one
function setRunning(running, measuring = false, statusLater = false) {
  gradpad.running = running;
  if (!statusLater && (!measuring || !running)) markStatusRunning(running); // a run's slow panes: the run is done
  const bar = $("gp-runbar");
  standby.running(running);
  const stoppedNoteOn = performance.now() < stoppedNoteUntil; // see stoppedNote
  bar.classList.toggle("gp-stopped", !running && stoppedNoteOn);
  if (running) {
    if (!measuring) gradpad.runs++; // a run's slow panes (timings) re-run its code: still one run
    gradpad.runStarted = performance.now();
    bar.hidden = false;
    bar.classList.add("running");
    tickRunning();
  } else {
    bar.classList.remove("running");
    if (!stoppedNoteOn) $("gp-run-state").textContent = "Python is idle";
    else $("gp-run-state").textContent = stoppedNoteText;
  }
  $("gp-stop").disabled = !running;
}

function tickRunning() {
  if (!gradpad.running) return;
  const s = (performance.now() - gradpad.runStarted) / 1000;
  const said = gradpad.runOutput ? ` · ${gradpad.runOutput}` : "";
  $("gp-run-state").textContent = `Running… ${s.toFixed(1)} s${said}`;
  $("gp-run-state").title = gradpad.runOutput || "";
  setTimeout(tickRunning, 100);
}

const FROM_WORKER = {
  mark: (m) => {
    mark(m.name, m.t);
    if (STAGES[m.name]) render();
  },
  stage: (m, s) => { s.stageNow = m.stage; if (!s.restarting || s.showsLoader) enter(m.stage); },
  resource: (m) => countResource(m.url),
  ready: (m, s) => {
    gradpad.info = m.info;
    gradpad.bootedFrom = m.bootedFrom;
    if (m.bootedFrom !== "shared") gradpad.boots++; // "shared": a lesson cell frame on the first frame's Python
    restartSnapshot.heard(s, m.bootedFrom);
    s.ready.resolve();
  },
  "boot-error": (m, s) => {
    const e = new Error(m.error);
    s.ready.reject(e);
    s.ui.reject(e);
  },
  "standby-ready": (m, s) => s.standbyReady.resolve(), // taken over while booting: see restart
  "snapshot-back": (m, s) => restartSnapshot.returned(s, m.bytes),
  prerender: (m, s) => STANDBY_MESSAGES.prerender(m, s), // (the same: rendered at the take-over)
  result: (m, s) => settle(s, m.id, (p) => p.resolve(m.result)),
  error: (m, s) => settle(s, m.id, (p) => p.reject(new Error(m.error))),
  "run-start": (m) => { gradpad.runSeq++; if (!m.measuring) gradpad.runOutput = ""; setRunning(true, m.measuring); },
  // the line the running code printed last (numpyro's progress bar ...), shown until the run ends
  "run-output": (m) => { gradpad.runOutput = m.line; },
  "run-end": () => setRunning(false),
  // a Stop landed: the run is over now; the stopped run's panes (and run-end) follow
  "run-stopped": () => { if (gradpad.running) setRunning(false, false, true); },
  panes: (m) => {
    gradpad.panes = { run: m.run, pending: m.pending, python_ms: m.python_ms, phases: m.phases || {}, t: performance.now() };
    gradpad.panesLog = [...gradpad.panesLog.slice(-49), gradpad.panes]; // the latest reports, oldest first
  },
  env: (m) => Object.hasOwn(PAGE_ENV, m.op) && PAGE_ENV[m.op](m.key, m.value),
  request: async (m, s) => {
    try {
      const handler = Object.hasOwn(WORKER_REQUESTS, m.name) && WORKER_REQUESTS[m.name];
      if (!handler) throw new Error(`unknown request ${String(m.name)}`);
      const result = await handler(m.args, s);
      toWorker(s, { type: "reply", id: m.id, result });
    } catch (e) {
      toWorker(s, { type: "reply", id: m.id, error: String(e && e.message || e) });
    }
  },
  render: (m, s) => embedApp(m, s, null),
  patch: (m, s) => {
    if (!s.jsdoc) return;
    const marked = splitAt(m.patch.events || [], m.patch.parts);
    delete m.patch.parts;
    const refused = guardPatch(m.patch, s.frozenIds, s.jsdoc);
    if (refused) refuse(refused);
    if (!m.patch.events || !m.patch.events.length) return;
    cssVarsArrive(m.patch);
    // (its parts in order, a task each: static/patch_chunks.js; the later messages wait, receive())
    const doc = s.jsdoc, parts = patchParts(marked, m.patch.events);
    let ms = 0;
    const apply = (events) => {
      s.patching++;
      const t0 = performance.now();
      try {
        doc.apply_json_patch(parts.length > 1 ? { ...m.patch, events } : m.patch, m.buffers);
      } finally {
        s.patching--;
        ms += performance.now() - t0;
      }
    };
    const logged = () => {
      // what each recent patch changed and how long it took (its parts' time): where BokehJS spends an edit's time
      const what = (m.patch.events || []).slice(0, 24).map((e) => `${e.kind}:${e.attr || ""}@${modelType(s, e.model)}`).join(" ");
      // restyled: stylesheets sent again (BokehJS loads them and lays the page out again: slow)
      const restyled = (m.patch.events || []).filter((e) => e.attr === "stylesheets").length;
      gradpad.patches = { n: gradpad.patches.n + 1, ms: gradpad.patches.ms + ms,
                          restyled: gradpad.patches.restyled + restyled, parts: (gradpad.patches.parts || 0) + parts.length,
                          log: [...(gradpad.patches.log || []).slice(-19), { ms, events: (m.patch.events || []).length, parts: parts.length, what }] };
    };
    if (parts.length === 1) {
      try { apply(parts[0]); } finally { logged(); }
      return;
    }
    return (async () => {
      try {
        for (const [i, events] of parts.entries()) {
          if (i > 0) await nextTask();
          if (s.jsdoc !== doc || s.ended) return; // a restart's new document: this one is gone
          apply(events);
        }
      } finally {
        logged();
      }
    })();
  },
  ui: (m, s) => s.ui.resolve(m.kind),
  "ui-error": (m, s) => s.ui.reject(new Error(m.error)),
  fatal: (m, s) => {
    if (s.crashed) return; // one restart per crash
    s.crashed = true;
    console.error("gradpad: Python stopped working:", m.error);
    notice("Python stopped working (" + m.error.split("\n")[0] + "), probably out of memory. " +
      "It was restarted; your code is kept.");
    restart("crashed");
  },
};

// A frame taller than its host's window (a lesson cell with a long output, an embed on a phone)
// would float its run bar at the frame's bottom, below what the learner sees, Stop included: the
// bar sits at the bottom of the frame's part in the host's window instead. Only an
// IntersectionObserver sees that part from inside a cross-origin frame (the host page tells it
// nothing; an embed's host runs none of gradpad's script). It reports a target again only when the
// target's visible fraction crosses a threshold, and a box the frame's height keeps one fraction
// while the host scrolls across its middle (the bar stayed where it was: what failed in Firefox).
// So the frame's viewport is cut into thin slices, each observed in 1 px steps: the slices under
// the window's top and bottom edges change as the host scrolls, and the visible ones' union is the
// part in sight (the same in Chromium, Firefox and WebKit, cross-origin too; rootBounds, null
// there, is not used).
const SLICE_PX = 32;

function keepInSight(bar) {
  if (!("IntersectionObserver" in window) || bar.dataset.inSight !== undefined) return;
  bar.dataset.inSight = "";
  const shown = new Map(); // slice -> [top, bottom] of its part in sight, or null
  const holder = document.createElement("div");
  holder.setAttribute("aria-hidden", "true");
  holder.style.cssText = "position: fixed; top: 0; left: 0; width: 1px; height: 0; visibility: hidden; pointer-events: none";
  document.body.appendChild(holder);
  const place = () => {
    let top = Infinity, bottom = -Infinity;
    for (const v of shown.values()) {
      if (v) { top = Math.min(top, v[0]); bottom = Math.max(bottom, v[1]); }
    }
    // nothing in sight (the frame scrolled away, or no report yet): the frame's own bottom
    const below = bottom > top ? Math.max(0, Math.floor(innerHeight - bottom)) : 0;
    bar.style.bottom = below ? `${6 + below}px` : "";
    bar.dataset.inSight = bottom > top ? `${Math.round(top)} ${Math.round(bottom)}` : "";
  };
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const r = e.intersectionRect;
      shown.set(e.target, e.isIntersecting && r.height > 0 ? [r.top, r.bottom] : null);
    }
    place();
  }, { threshold: Array.from({ length: SLICE_PX + 1 }, (_, i) => i / SLICE_PX) });
  let height = -1;
  const slice = () => { // the slices again when the frame's height changed (a lesson frame grows)
    if (innerHeight === height) return;
    height = innerHeight;
    observer.disconnect();
    shown.clear();
    holder.replaceChildren();
    for (let y = 0; y < height; y += SLICE_PX) {
      const s = document.createElement("div");
      s.style.cssText = `position: absolute; left: 0; top: ${y}px; width: 1px; height: ${Math.min(SLICE_PX, height - y)}px`;
      holder.appendChild(s);
      observer.observe(s);
    }
  };
  slice();
  window.addEventListener("resize", slice);
}

// The app's document from a worker, rendered in #app; or, for a standby's app rendered before it is
// needed (static/prerender.js), hidden in `box` (the preview and the old view stay). Resolves to
// whether it was rendered.
async function embedApp(m, s, box) {
  if (s.rendering) { refuse("a second document"); return false; } // one render per worker: the app's
  s.rendering = true;
  await bokeh();
  if (m.page && m.page.lesson) embedded = true; // its hash is the lesson; a cell's text is no autosave
  if (m.page && m.page.embed && !box) { // (a standby's: the page shell is set already)
    embedded = true;
    const style = document.createElement("style");
    style.textContent = EMBED_CSS;
    document.head.appendChild(style);
    // the header is hidden in an iframe: the running indicator floats, shown while code runs
    document.body.appendChild($("gp-runbar"));
    $("gp-runbar").classList.add("gp-floating");
    keepInSight($("gp-runbar"));
  }
  cssVarsArrive(m.model);
  const item = JSON.parse(m.model);
  s.frozenIds = new Set();
  const refused = guardModels(item, s.frozenIds, true);
  if (refused) {
    refuse(refused);
    if (!box) s.ui.reject(new Error(`the app's document holds ${refused}, which the page does not run`));
    return false;
  }
  // a restart's new app (no standby's rendered in advance) is drawn hidden while the old view stays
  // in sight, its editor taking typing, until the new one takes its place: no read-only or blank
  // moment while the new app draws (docs/snapshot.md, "A Stop's way back")
  let drawn = null;
  if (!box) {
    const typed = preview ? preview.handOver() : null;
    if (typed !== null) s.typedCode = typed; // typed into the preview: loaded and run once the app is live
    if (s.restarting && $("app").classList.contains("gp-stale") && $("app").childElementCount > 0) {
      drawn = hiddenBox(DRAWN_ID);
    } else {
      clearApp(s);
      $("app").classList.remove("gp-stale");
    }
  }
  mark(box ? "ui:prerender" : "ui:embed");
  try {
    s.views = await window.Bokeh.embed.embed_item(item, box ? box.id : drawn ? drawn.id : undefined);
  } catch (e) {
    if (drawn) drawn.remove();
    throw e;
  }
  if (drawn) {
    const late = takeLateTyping(s);
    const mine = new Set(s.views.roots);
    showBox(drawn, () => {
      // every other document's roots go (the old view's), as clearApp; a standby's box stays
      const next = document.getElementById(BOX_ID);
      for (const v of [...window.Bokeh.index.roots || []]) if (!mine.has(v) && !drawn.contains(v.el) && !(next && next.contains(v.el))) v.remove();
    });
    carryLateTyping(late);
  }
  mark(box ? "ui:prerendered" : "ui:embedded");
  const jsdoc = s.jsdoc = [...s.views.roots][0].model.document;
  const outbox = makeOutbox(jsdoc, (patch) => { if (py === s) s.worker.postMessage({ type: "patch", patch }); },
                            gradpad.outbox);
  s.flushOutbox = outbox.flush;
  jsdoc.on_change((event) => {
    if (s.patching > 0) repaintPlotsSoon(event); // a patch from Python: the figures it changed painted once more when settled
    if (s.patching > 0 || py !== s) return;
    outbox.listen(event);
  }, false);
  toWorker(s, { type: "rendered" });
  if (!box && s.theme !== effectiveTheme()) switchTheme(effectiveTheme()); // switched while this app was built
  return true;
}

// A figure kept across runs (app/panes/plots.py, timing.py: Kept) takes the next run's data,
// ranges and labels in place. BokehJS can paint it while that patch is half laid out and not
// paint it again: axes, title and legend drawn where the old layout had them (seen going from
// the gallery's pytrees to linear_regression_pytree: tick labels above the frame, no y labels).
// Once no patch has changed a model for 100 ms and every root has finished rendering, the plots
// on show that a patch changed in place are painted again (a paint only, no layout).
// Only those: a figure the patch made is painted whole when its view is built, and one it left
// alone has nothing to fix. Never the figure the page itself draws on (the stepper's dataflow
// graph, static/stepper.js: its ring): painting a 1,000-node graph again is a long task of its
// own (its HTML labels rebuilt), and one that lands late, while a learner steps, stalls the steps.
// tests/browser/test_kept_figure_paint.py compares the page with a fresh paint.
let repaintPending = false, lastPatchChange = 0;
const patchChanged = new Set(); // the models a patch changed since the last repaint (its events' `model`)
function repaintPlotsSoon(event) {
  lastPatchChange = performance.now();
  if (event && event.model) patchChanged.add(event.model);
  if (repaintPending || !window.Bokeh || !window.Bokeh.index) return;
  repaintPending = true;
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const finished = () => [...window.Bokeh.index.roots].every((v) => v.has_finished());
  (async () => {
    // quiet: no change from a patch for 100 ms, every root rendered, then two frames of layout
    for (let i = 0; i < 300 && (performance.now() - lastPatchChange < 100 || !finished()); i++) await frame();
    await frame();
    await frame();
    repaintPending = false; // a patch from here on schedules its own
    const changed = new Set(patchChanged);
    patchChanged.clear();
    const painted = [];
    for (const v of window.Bokeh.index.query((v) => !!v.canvas_view && typeof v.request_paint === "function")) {
      if (!v.el || !v.el.isConnected || !v.el.getClientRects().length) continue; // not on show
      if (gradpad.stepper && gradpad.stepper.drawsOn(v)) continue; // the page draws on it (the stepper's ring)
      if (!changedIn(v.model, changed)) continue;
      v.request_paint();
      painted.push(v.model.id);
    }
    gradpad.plotRepaints = (gradpad.plotRepaints || 0) + 1;
    gradpad.plotRepainted = [...(gradpad.plotRepainted || []).slice(-19), painted]; // the figures each repaint painted (ids)
  })();
}

// whether `plot` or a model it refers to (its data sources, ranges, title, axes...) is in `changed`
function changedIn(plot, changed) {
  if (!changed.size) return false;
  if (changed.has(plot)) return true;
  for (const m of plot.references()) if (changed.has(m)) return true;
  return false;
}

// ------------------------------------------------------------------ theme
// The page's CSS follows <html data-theme> (static/theme.js) at once; the documents on show are
// restyled here (static/theme_switch.js), without a reload; the worker's app follows
// (app/theme_switch.py: the figures' colours set in place). gradpad.themeSwitch: {theme, ms (the page's
// part: parts = {editor_ms, page_ms}), sheets_ms (the stylesheet model, a task later), python_ms
// (until Python's side is done, null meanwhile), python (its answer)}.
function switchTheme(theme) {
  const t0 = performance.now();
  const s = py;
  // the document on show: the build-time preview (static/preview.js) or the worker's app
  const doc = s && s.jsdoc ? s.jsdoc : preview && preview.shown ? [...preview.views.roots][0].model.document : null;
  const record = gradpad.themeSwitch = { theme, ms: 0, parts: null, sheets_ms: null, python_ms: null };
  const quietly = (fn) => { // not the visitor's edits: Python makes the same changes
    if (s) s.patching++;
    try { return fn(); } finally { if (s) s.patching--; }
  };
  if (doc) {
    record.parts = quietly(() => restylePage(doc, theme, $("app")));
    setTimeout(() => { record.sheets_ms = quietly(() => restyleSheets(doc, theme)); }, 0);
  }
  // a standby's app rendered in advance (static/prerender.js) follows on the page's side; its
  // Python follows when it takes over (app.bootstrap.take_over)
  prerender.forEach((pre, box) => {
    pre.prerenderTheme = theme;
    pre.patching++;
    try { restylePage(pre.jsdoc, theme, box); } finally { pre.patching--; }
    setTimeout(() => { pre.patching++; try { restyleSheets(pre.jsdoc, theme); } finally { pre.patching--; } }, 0);
  });
  record.ms = Math.round(performance.now() - t0);
  if (!s || !s.jsdoc || s.theme === theme) return;
  s.theme = theme;
  ask("call", { name: "theme", args: { theme } })
    .then((r) => { record.python_ms = Math.round(performance.now() - t0); record.python = r; })
    .catch((e) => console.warn("gradpad: the app did not follow the theme", e));
}

// ------------------------------------------------------------------ the document guard
// The learner's code runs in the same interpreter as the app, so it can reach the app's Bokeh
// document: every document and patch from the worker goes through static/guard.js first.
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
// load-resources: the JS/CSS of the app's first document, before it renders (files of this
// build only, once per worker: see buildFile)
const WORKER_REQUESTS = {
  "load-resources": async (spec, s) => {
    if (s.rendering || s.resourcesAsked) throw new Error("resources are loaded once, before the app renders");
    s.resourcesAsked = true;
    const list = (k) => (Array.isArray(spec && spec[k]) ? spec[k].map(String) : []);
    await bokeh();
    await loadResources({ js: list("js"), modules: list("modules"), css: list("css") });
    return true;
  },
};

// The visitor's saved code is theirs: the worker (which runs a link's code too) may save the
// editor's text only once the visitor has typed in it, and only the text the editor shows.
// ("gradpad.previous": the edits an example replaced; shown again only after this page writes it)
// ("gradpad.inflight": a run's mark until it ends, app.held: only a digest of the code, read to ask
// before running code that never finished)
const APP_KEYS = new Set([AUTOSAVE_KEY, "gradpad.previous", "gradpad.inflight"]);
let hashChain = Promise.resolve();
const PAGE_ENV = {
  storage_set: (key, value) => {
    key = String(key);
    value = String(value);
    if (!APP_KEYS.has(key) || embedded) return;
    if (key === AUTOSAVE_KEY && (!typed || value !== editorText())) return;
    store[key] = value;
    try { localStorage.setItem(key, value); } catch (e) { /* storage disabled */ }
  },
  // the worker's proposal is re-made from what the page shows (static/share_hash.js), in order;
  // key "push": a program the learner chose, a history entry of its own (see writeHash)
  set_hash: (key, proposal) => {
    proposal = String(proposal || "");
    if (proposal && !proposal.startsWith("#")) return;
    const shown = shownState(py && py.jsdoc);
    hashChain = hashChain.then(() => pageShareHash(proposal, shown)).then((fragment) => {
      if (fragment !== null) writeHash(fragment, key);
    }, (e) => console.warn("gradpad: hash not written", e));
  },
};

// "push" asked while the hash the page makes is still the old program's (the worker's proposal
// can arrive before the patch that puts the new code in the editor): the next change pushes
let pushPending = false;
function writeHash(fragment, key) {
  {
    if (linksPending > 0) { hashHeld = fragment; return; } // see "hashchange": the link wins
    if (key === "push") pushPending = true;
    // the app publishes its state at the edit and again after the run, mostly the same; a
    // replaceState costs the main thread 10-60 ms (measured in headless Chromium, each call)
    const unchanged = fragment ? location.hash === fragment : !location.href.includes("#");
    if (unchanged) gradpad.hashWrites.unchanged++;
    else {
      // "push": a program the learner chose (an example, a load) is a history entry of its own
      // (Back returns to the one before it: "hashchange" below applies it)
      const write = pushPending ? history.pushState : history.replaceState;
      pushPending = false;
      write.call(history, null, "", fragment || location.pathname + location.search);
      gradpad.hashWrites.written++;
    }
    holdHash(fragment);
    showShareLink(fragment);
  }
}

// the Share box shows the page's own link (the worker's text may carry other code)
function showShareLink(fragment) {
  const s = py;
  if (!s || !s.jsdoc || !fragment.startsWith("#s=")) return;
  const base = location.origin + location.pathname;
  s.patching++;
  try {
    for (const m of s.jsdoc.all_models)
      if ((m.constructor.__qualified__ || "") === "panel.models.widgets.TextInput" && String(m.value || "").startsWith(base + "#s="))
        m.value = base + fragment;
  } finally {
    s.patching--;
  }
}

const DRAWN_ID = "gp-app-drawn"; // a restart's new app while it is drawn (embedApp)
function clearApp(session) {
  if (session && session.views) for (const v of session.views.roots) v.remove();
  const next = document.getElementById(BOX_ID); // a standby's app rendered in advance stays
  if (window.Bokeh) for (const v of [...window.Bokeh.index.roots || []]) if (!(next && next.contains(v.el))) v.remove();
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
    const buffer = py.interruptBuffer;
    return await ask("run", { code: String(code), stops: buffer ? buffer[1] : null });
  } finally {
    firstRun.resolve();
  }
}

function interrupt() {
  if (!gradpad.running) return false;
  if (CELL_FRAME) { // the lesson's worker is the first frame's to stop (static/lesson_share.js)
    const asked = { via: null, t: Math.round(performance.now()) };
    gradpad.lessonStops.push(asked);
    return askLeader("stop", { restarted: leaderRestarted, sent: (via) => { asked.via = via; } });
  }
  const s = py, buffer = s.interruptBuffer;
  // no shared memory (not cross-origin isolated): the only way to stop is a new interpreter
  if (!buffer) { restart("stopped"); return true; }
  buffer[1] = (buffer[1] + 1) & 255; // the runs queued until now are stopped too
  buffer[0] = 2; // SIGINT: Python raises KeyboardInterrupt at its next check
  stoppedNoteUntil = 0; // an earlier restart's note is old news once this Stop interrupts
  const seq = gradpad.runSeq;
  if (s.stopping === seq) return true; // this run's watch is set
  s.stopping = seq;
  const stillOn = () => py === s && gradpad.running && gradpad.runSeq === seq;
  setTimeout(() => { if (stillOn() && buffer[0] === 2) restart("unresponsive"); }, STOP_GRACE_MS);
  setTimeout(() => { if (stillOn()) restart("unresponsive"); }, STOP_RUN_END_MS);
  return true;
}

// the page state a worker reads (app.env): the one at init, and again when a standby takes over
function pageState() {
  return { search: location.search, hash: location.hash, origin: location.origin, pathname: location.pathname,
           storage: { ...store }, theme: effectiveTheme(), isolated: ISOLATED };
}

// what the page says at once when a Stop had to end the worker (the app's note follows with the
// UI); kept in the run bar for STOPPED_NOTE_MS, between the runs that come meanwhile
const STOPPED_NOTE_MS = 15000;
let stoppedNoteUntil = 0, stoppedNoteText = "", stoppedNoteTimer = 0;
function stoppedNote(held) {
  const bar = $("gp-runbar");
  stoppedNoteUntil = performance.now() + STOPPED_NOTE_MS;
  bar.classList.add("gp-stopped");
  // the note goes when its time is up, also when no run comes to replace it
  clearTimeout(stoppedNoteTimer);
  stoppedNoteTimer = setTimeout(() => {
    if (gradpad.running || performance.now() < stoppedNoteUntil) return;
    bar.classList.remove("gp-stopped");
    $("gp-run-state").textContent = "Python is idle";
  }, STOPPED_NOTE_MS + 50);
  $("gp-run-state").textContent = stoppedNoteText = held === "crashed" ? "Python crashed: restarted, your code is kept"
    : "Stopped: Python restarted, variables lost, code kept";
  $("gp-run-state").title = "The running code could not be interrupted, so Python was ended and a " +
    "fresh one started. Variables from earlier runs are gone; your code is kept and was not run again.";
}

// a cell frame: the first frame restarted the lesson's Python (told by message, or within a Stop's
// direct call: static/lesson_share.js): this frame joins the new worker, keeping its typing
function leaderRestarted(held) {
  restart.fromLeader = true;
  try { restart(held); } finally { restart.fromLeader = false; }
}

// "Restart Python": a new worker; the editor's code comes along. `held` (app.held.REASONS): why
// the old one was ended under a run: the code is then shown, not run again. A standby worker
// booted in the background takes over at once (static/standby.js), else a fresh one boots.
async function restart(held = null) {
  if (CELL_FRAME && !restart.fromLeader) return askLeader("restart"); // see onLeaderRestart in main()
  const asked = loadAsked; // (read before the load's caller hears of the restart, which clears it)
  const old = py;
  if (!held && gradpad.running) held = "restarted";
  old.worker.terminate();
  old.ended = true; // (its start is no longer watched: bootFresh)
  old.standbyReady.reject(new Error("ended")); // a restart still waiting on it gives way (below)
  prerender.discard(old); // its app rendered in advance but never swapped in (ended during its take-over)
  // the new worker is `py` before anyone hears of the restart: a call made on hearing it goes there
  const wasReady = standby.isReady();
  const taken = standby.take();
  // no standby ready: the learner waits for this start, so the worker making this browser's
  // snapshots (seconds of both cores on a first visit) is ended now and made again once the new
  // app is back; side by side the new Python's start took about twice as long
  if (!wasReady && snapshotMaker) {
    snapshotMaker.end("a restart's Python came first");
    remakeSnapshots = true;
  }
  const session = taken || startPython(null, true);
  const path = gradpad.restartedBy = wasReady ? "standby" : taken ? "booting" : "fresh"; // which Python took over
  session.restarting = true;
  py = session;
  loaderFollows(session);
  if (lessonCells) lessonCells.restarted(held); // the cell frames join the new worker, keeping their typing
  const err = new Error(held === "stopped" || held === "unresponsive" ? "Python was restarted (stopped)" : "Python was restarted");
  for (const p of old.pending.values()) p.reject(err);
  old.pending.clear();
  setRunning(false);
  // view (once back): "prerendered" (the standby's app, rendered in advance, swapped in) or "rendered"
  const stop = held ? { reason: held, t: Math.round(performance.now()), standby: wasReady, path } : null;
  if (held) {
    gradpad.stops.push(stop);
    stoppedNote(held);
  }
  gradpad.panes = null; // the new worker's app counts its runs from 1
  gradpad.restarts++;
  // the stopped run's callers hear of it first (a task later: reading the editor takes a moment)
  await new Promise((r) => setTimeout(r, 0));
  // the old view stays in sight, inert, until the new one replaces it (no flash of a blank page)
  if (old.views || $("app").classList.contains("gp-stale")) $("app").classList.add("gp-stale");
  else if (!(preview && preview.shown)) clearApp(old); // (a Stop before the first UI: the preview stays until it comes)
  // the old view's editor takes typing until the new view replaces it (static/restart_view.js): no
  // standby ready, with a note, until the new Python can show its app; what is typed after the code
  // is read below is carried into the new view's editor (swapPrerendered, embedApp)
  let kept = null;
  if (!wasReady && $("app").classList.contains("gp-stale")) {
    try {
      // how long the last start took: the standby's (to its app), else this page's first (to its UI)
      const expected = gradpad.standby.readyMs || timings.ui || null;
      kept = await keepTyping($("app"), Promise.race([session.standbyReady.promise, session.ui.promise]),
        () => startProgress(session.stageNow, performance.now() - session.startedAt, expected));
    } catch (e) { /* failed to boot (reported below), or ended by a newer restart */ }
    if (py !== session) return false;
  } else if ($("app").classList.contains("gp-stale")) kept = liveEditor($("app"));
  const code = editorText(); // null while no app is shown: the new app opens the link/autosave
  // a load({code}) unanswered when the run was stopped (the page API, a host's call): its code is
  // what ran. The editor need not show it yet (the worker's patch was still on its way on a busy
  // first visit, and the old code came back): while the editor still shows what it did when the
  // load was asked, the load's code is the newer; once it changed (the patch, or typing), its own.
  const restoreCode = asked && code !== null && code === asked.shown ? asked.code : code;
  session.lateTyping = kept && code !== null ? { ace: kept, code } : null;
  if (session.info) { gradpad.info = session.info; gradpad.bootedFrom = session.bootedFrom; }
  // its app rendered in advance (static/prerender.js; now, if the page was never quiet since):
  // the worker then sends only the take-over's changes
  const prerendered = await prerender.now(session);
  if (py !== session) return false; // a newer restart
  if (!prerendered) prerender.discard(session); // (nothing rendered: a timer at most)
  session.activated = true;
  session.worker.postMessage({ type: "activate", page: pageState(), restoreCode, held, prerendered });
  session.theme = effectiveTheme(); // (a standby's app switches to it as it takes over: app.bootstrap.render)
  standby.afterTakeOver();
  await session.ready.promise;
  try {
    const kind = await session.ui.promise;
    if (prerendered && py === session) swapPrerendered(session, old);
    if (stop) stop.view = prerendered ? "prerendered" : "rendered";
    if (kind === "app") $("gp-placeholder").hidden = true;
    uiTakenOver.resolve(kind); // a Stop during the first load: main() finishes with this UI
    standby.uiReady(); // the next standby, once this one's UI is back
    if (remakeSnapshots) { remakeSnapshots = false; saveSnapshotLater(); } // (ended for a start, above)
    restartSnapshot.prepare(); // (the snapshot's bytes if a restart took them along: static/restart_snapshot.js)
    spareWorker.prepare(); // (if this one was the spare: static/spare_worker.js)
  } catch (e) {
    console.error(e);
    uiTakenOver.reject(e);
    prerender.discard(session);
    clearApp(old);
    $("app").classList.remove("gp-stale");
    $("gp-placeholder").hidden = false;
  }
  return true;
}

// what was typed into the old view's editor after the restart read its code: taken just before the
// old view goes, put into the new view's editor once it is shown (static/restart_view.js)
function takeLateTyping(session) {
  const k = session.lateTyping;
  session.lateTyping = null;
  return k ? lateTyping(k.ace, k.code) : null;
}
function carryLateTyping(late) {
  if (late && carryTyping($("app"), late)) gradpad.carriedTyping = (gradpad.carriedTyping || 0) + 1;
}

// the standby's app, rendered in advance and now holding the learner's code and the note, takes
// the old view's place
function swapPrerendered(session, old) {
  const theme = effectiveTheme();
  // (a Stop before the first UI: the build-time preview was still shown; what was typed there runs, see main)
  const typed = preview ? preview.handOver() : null;
  if (typed !== null) session.typedCode = typed;
  const late = takeLateTyping(session);
  prerender.swap(session, () => { if (old && old.views) for (const v of old.views.roots) v.remove(); });
  carryLateTyping(late);
  mark("ui:swapped");
  if (session.prerenderTheme !== theme) { session.theme = session.prerenderTheme; switchTheme(theme); } // switched since
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
  load: async (opts) => {
    await uiD.promise;
    const asked = loadAsked = opts && typeof opts.code === "string" ? { code: opts.code, shown: editorText() } : null;
    try { return settled(await ask("call", { name: "load", args: opts || {} })); } finally { if (asked && loadAsked === asked) loadAsked = null; }
  },
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
  // after the hashes the worker proposed before its reply (they are re-made in order: set_hash)
  ask("call", { name: "hash", args: { hash } }).catch(() => {}).finally(() => { hashChain = hashChain.then(() => {
    if (--linksPending > 0 || hashHeld == null) return;
    const held = hashHeld;
    hashHeld = null;
    writeHash(held);
  }); });
});

// A reload (or close) right after typing: the worker may not have seen the newest keystrokes yet
// (it answers them after the work in hand), so neither the autosave nor the address bar need hold
// them, and the hash, with older code, would win. The editor's text is the newest code there is:
// the page keeps it itself at pagehide, and marks stale every hash it held since it opened (or
// since the last link): each holds code older than what was typed. Not only those older than the
// worker's last answer: a reload goes to the address of the moment it was asked for, and this page
// runs on (the worker catching up, the hash moving on) until pagehide, so which hash the reload
// requested is not known here. Not only those since the first keystroke either: the address just
// before it can be older than the one at it (the worker's answers to the last program still
// arriving); a reload at that address lost the edit in CI (1 run in 3 of a loop of the test).
const EDIT_KEYS = new Set(["Backspace", "Delete", "Enter", "Tab"]);
let embedded = false; // an embed's hash is its host's link: never dropped
let typed = false; // typed in the editor since the page opened or a link was pasted (hashchange)
// (heldHashes, holdHash: near the top, since the worker's first hash can come before this line runs)

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
  holdHash(location.hash);
  typed = true;
};
document.addEventListener("keydown", (e) => {
  const key = e.key || ""; // autofill's synthetic keydown has none
  if ((key.length === 1 || EDIT_KEYS.has(key)) && !(key === "Enter" && (e.ctrlKey || e.metaKey))) markTyped(e);
}, true);
document.addEventListener("paste", markTyped, true);
document.addEventListener("cut", markTyped, true);
// a link pasted into the address bar is newer than anything typed before it: its hash wins
window.addEventListener("hashchange", (e) => {
  typed = false;
  loadAsked = null; // a link is newer than a load still in flight
  heldHashes = new Set();
  holdHash(new URL(e.newURL || location.href).hash);
  holdHash(location.hash);
});

window.addEventListener("pagehide", () => {
  if (!typed || embedded || gradpad.ui !== "app") return;
  const code = editorText();
  if (code == null) return;
  try {
    localStorage.setItem(AUTOSAVE_KEY, code);
    holdHash(location.hash);
    localStorage.setItem(STALE_HASH_KEY, JSON.stringify([...heldHashes]));
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
  if (!m || typeof m !== "object" || !Object.hasOwn(HOST_CALLS, m.gradpad) || ev.source === window) return;
  if (!hostAllowed(ev.origin, M.hostOrigins)) {
    console.warn(`gradpad: the page API answers this site and the hosts its builder listed, not ${ev.origin}`);
    return;
  }
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
// the sha256 of the boot snapshot this browser made for this build: the worker uses the cached
// snapshot only when its bytes match (a key outside "gradpad.": no worker reads or writes it)
const SNAPSHOT_HASH_KEY = "gpsnap-sha256";
// the post-import snapshot (static/import_snapshot.js, docs/snapshot.md): numpy and the engine
// already imported. `?snapshot=imports` / `?snapshot=bare` turn it on / off for one visit.
// `?snapshot=build`: a first visit's start (the build's bare snapshot, static/boot_snapshot.js)
// whatever this browser keeps, and no snapshot made
const IMPORTS_SNAPSHOT_HASH_KEY = "gpsnap-imports-sha256";
const IMPORTS_SNAPSHOT_DEFAULT = true;
const BUILD_SNAPSHOT_ONLY = new URLSearchParams(location.search).get("snapshot") === "build";
function importsSnapshotWanted() {
  const v = new URLSearchParams(location.search).get("snapshot");
  return v === "imports" ? true : v === "bare" || v === "build" ? false : IMPORTS_SNAPSHOT_DEFAULT;
}
function snapshotHash(key = SNAPSHOT_HASH_KEY) {
  if (BUILD_SNAPSHOT_ONLY) return null;
  try {
    const rec = JSON.parse(localStorage.getItem(key) || "null");
    return rec && rec.build === M.build ? rec.sha256 : null;
  } catch (e) {
    return null;
  }
}

// the post-import snapshot's checked bytes, kept on the page for the next worker
// (a restart without a standby, a standby): static/restart_snapshot.js
const restartSnapshot = makeRestartSnapshot({
  cacheName: "gpsnap-" + M.build, key: new URL("pyodide/imports-snapshot.bin", BASE).href,
  expected: () => importsSnapshotWanted() ? snapshotHash(IMPORTS_SNAPSHOT_HASH_KEY) : null,
  off: CELL_FRAME || new URLSearchParams(location.search).has("nosnapshot"),
});
gradpad.restartSnapshot = restartSnapshot.state;
// a worker with the runtime loaded and nothing run, for the next fresh Python: static/spare_worker.js
const spareWorker = makeSpareWorker({ spawn: spawnWorker, base: BASE.href,
                                      off: CELL_FRAME || new URLSearchParams(location.search).get("spare") === "off" });
gradpad.spareWorker = spareWorker.state;

const SNAPSHOT_MAKER_LIMIT_MS = 600000;
// the throw-away worker making this browser's snapshots, while it runs: {end(why)}
let snapshotMaker = null, remakeSnapshots = false;
// the longest the snapshot worker waits for the standby to be ready (see saveSnapshotLater)
const STANDBY_FIRST_MAX_MS = 90000;
function saveSnapshotLater() {
  if (!globalThis.caches || new URLSearchParams(location.search).has("nosnapshot") || BUILD_SNAPSHOT_ONLY) return;
  // a lesson's cell frame boots no Python (its spawnWorker is a port to the first frame's worker,
  // which ignored the "make-snapshot" sent there and held a port of the lesson for 10 minutes)
  if (CELL_FRAME) return;
  // (booted from the build's bare snapshot, tools/bare_snapshot.py: this browser's own is made too)
  const boot = gradpad.bootedFrom === "boot" || gradpad.bootedFrom === "build-snapshot";
  const imports = importsSnapshotWanted() && gradpad.bootedFrom !== "imports-snapshot";
  if (!boot && !imports) return;
  gradpad.snapshotMaking = true; // the standby waits for it (static/standby.js)
  // where every Stop ends the worker, the other way round: the standby boots first (at once, as the
  // UI came) and this maker after it is ready, not beside it. On two cores the two booting side by
  // side each took about twice as long: a Stop 20 s after a first visit's UI still found the standby
  // booting (docs/snapshot.md, "A first visit's Stop")
  const since = performance.now();
  const after = (go) => (ISOLATED || standby.settled() || performance.now() - since > STANDBY_FIRST_MAX_MS
    ? go() : setTimeout(() => after(go), 250));
  after(() => (globalThis.requestIdleCallback || setTimeout)(() => {
    // (the standby's state as this worker starts: "ready" where not isolated, unless it took too long)
    gradpad.snapshotMaker = { standby: (gradpad.standby || {}).state || null, t: Math.round(performance.now()),
                              made: (gradpad.snapshotMaker ? gradpad.snapshotMaker.made : 0) + 1, ended: null };
    const w = spawnWorker();
    const KEYS = { boot: SNAPSHOT_HASH_KEY, imports: IMPORTS_SNAPSHOT_HASH_KEY };
    const OUTCOME = {
      "snapshot-saved": (m) => {
        if (m.kind === "imports") gradpad.importsSnapshotSaved = true; else gradpad.snapshotSaved = true;
        try { localStorage.setItem(KEYS[m.kind], JSON.stringify({ build: M.build, sha256: String(m.sha256) })); } catch (e) { /* no storage: no snapshot */ }
        if (m.kind === "imports") restartSnapshot.made(m.bytes, String(m.sha256)); // the next Python starts from them
      },
      "snapshot-failed": (m) => {
        console.warn(`gradpad: no ${m.kind} snapshot`, m.error);
        if (m.kind === "imports") gradpad.importsSnapshotError = String(m.error);
      },
      "snapshot-done": () => {
        clearTimeout(limit);
        gradpad.snapshotMaking = false;
        w.terminate();
        if (snapshotMaker === me) snapshotMaker = null;
      },
    };
    // ended before it is done (restart: a fresh Python the learner waits for comes first)
    const me = snapshotMaker = {
      end(why) {
        OUTCOME["snapshot-done"]();
        gradpad.snapshotMaker.ended = why;
      },
    };
    // a maker that never finishes (a loadPyodide that never settles) is ended: its memory freed, the
    // standby no longer waits for it (a later visit makes what is missing)
    const limit = setTimeout(() => {
      console.warn(`gradpad: the snapshot worker did not finish in ${SNAPSHOT_MAKER_LIMIT_MS / 1000} s: ended`);
      OUTCOME["snapshot-done"]();
    }, SNAPSHOT_MAKER_LIMIT_MS);
    w.onmessage = (ev) => {
      const outcome = OUTCOME[ev.data && ev.data.type];
      if (outcome) outcome(ev.data); // else: progress messages of its boot
    };
    w.postMessage({ type: "make-snapshot", base: BASE.href, boot, imports });
  }, { timeout: 5000 }));
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
  if (LESSON_CELL && !CELL_FRAME) {
    lessonCells = serveCells({ lid: LESSON_CELL.lid, worker: () => py && py.worker,
                               stop: (how) => {
                                 gradpad.lessonStops.push({ via: how.via, lagMs: Math.round(how.lagMs), running: gradpad.running });
                                 return interrupt();
                               },
                               restart: () => restart() });
  } else if (CELL_FRAME) {
    onLeaderProgress(LESSON_CELL.lid, (p) => { leaderProgress = p; render(); });
    onLeaderRestart(LESSON_CELL.lid, leaderRestarted);
  }
  const session = startPython(null);
  if (previewWanted()) {
    preview = startPreview({ base: BASE, theme: effectiveTheme(), saved: store["gradpad.code"], bokeh, loadResources,
                             guard: (item) => guardModels(item, new Set(), true),
                             beforeEmbed: (model) => cssVarsArrive(model), mark: (name) => mark(name),
                             wanted: () => $("gp-placeholder").hidden && !gradpad.ui });
  }
  await session.ready.promise;
  readyD.resolve(gradpad);
  Promise.race([firstRun.promise, new Promise((r) => setTimeout(r, UI_GRACE_MS))])
    .then(() => bokeh()).catch(() => {});
  $("gp-runbar").hidden = false;
  setRunning(false);
  if (!(preview && preview.shown)) showPlaceholder(); // the preview's editor takes the typing meanwhile
  try {
    // the first worker's UI, or the UI of one that replaced it before (a Stop under the first
    // run, e.g. a link's endless loop): never left on "Loading UI… 95%"
    const kind = await Promise.race([session.ui.promise, uiTakenOver.promise]);
    if (kind === "app") $("gp-placeholder").hidden = true;
    gradpad.ui = kind;
    mark("ui");
    if (kind !== "app" && preview) preview.handOver();
    // what was typed into the preview runs now (kept by the session that rendered: a Stop before the
    // UI came replaced the first one)
    const typed = py.typedCode !== undefined ? py.typedCode : session.typedCode;
    if (typed !== undefined) {
      gradpad.typedBeforeReady = typed;
      ask("call", { name: "load", args: { code: typed } }).catch((e) => console.error("gradpad:", e));
    }
    render();
    $("gp-loader").hidden = true;
    if (lessonCells) lessonCells.progress({ ready: true });
    uiD.resolve(gradpad);
    registerServiceWorker();
    saveSnapshotLater();
    (globalThis.requestIdleCallback || setTimeout)(() => { restartSnapshot.prepare(); spareWorker.prepare(); }, { timeout: 3000 });
    standby.uiReady();
  } catch (e) {
    console.error(e);
    gradpad.uiError = String(e && e.stack || e);
    if (preview) preview.handOver();
    if ($("gp-placeholder").hidden) showPlaceholder();
    notice("The full UI could not be loaded; the basic editor below still works. " + e);
    $("gp-loader").hidden = true;
    uiD.reject(e);
    registerServiceWorker();
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
    // (short: on a phone's first visit this sits above the code)
    const why = globalThis.crossOriginIsolated
      ? "This browser has no shared memory (SharedArrayBuffer)"
      : "This visit has no shared memory yet (a first visit, or a frame whose host does not allow it)";
    gaps.push(why + ", so Stop cannot pause Python: it restarts it, keeping your code but not your variables.");
  }
  return gaps;
}

// Registered once the UI is up, not at Python ready: its install copies every file of the boot
// (~20 MB) into Cache Storage and hashes it, work that competed with the first visit's UI stage.
function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  mark("sw");
  navigator.serviceWorker.register(trustedUrl(new URL("sw.js", BASE).href)).catch((e) => console.warn("service worker:", e));
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
