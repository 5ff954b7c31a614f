// A spare Python worker, booted in the background, that takes over when the page must end the
// running one (loader.js: a Stop that cannot interrupt, Restart, a crash). Booting Pyodide and
// Panel takes seconds; a standby that is already booted answers at once, and its app is already
// built, so the UI is back within a second instead of after a full load.
//
// When it boots (?standby=eager|lazy|off overrides):
//   eager  once the UI is ready and no code has run for IDLE_MS: then every Stop is quick. The
//          default on computers, and everywhere the page has no shared memory (an embed on a
//          course site, a first visit, WebKit), where every Stop ends the worker. There it also
//          boots under a run that has gone on for LAZY_AFTER_MS (a link's or an autorun's endless
//          loop comes before any idle moment), and before the boot snapshot is saved (a Stop in
//          this visit matters more than the next visit's start): at once as the UI comes, and
//          the page's snapshot worker waits until it is ready (loader.js saveSnapshotLater).
//   lazy   only once a run has gone on for LAZY_AFTER_MS (a run that may need a Stop): the
//          default on phones (a touch screen under 600 px, or under 4 GB of memory reported)
//          with shared memory, where a second Python's memory matters more than a quick Stop
//          of C code, and on lesson pages, whose promise is one Python for all their cells
//          (app.lesson).
//   off    never: a Stop that ends the worker boots a new one from scratch.
// After a standby took over, the next one boots by the same rule.
const IDLE_MS = 1500;
const LAZY_AFTER_MS = 1000;

// isolated: the page can interrupt Python (shared memory), so only C code needs the standby
export function standbyPolicy(search, isolated = true) {
  const asked = new URLSearchParams(search).get("standby");
  if (["eager", "lazy", "off"].includes(asked)) return asked;
  if (new URLSearchParams(search).has("lesson")) return "lazy";
  if (!isolated) return "eager"; // every Stop ends the worker here
  const mem = navigator.deviceMemory; // Chromium only
  const phone = !!globalThis.matchMedia && matchMedia("(pointer: coarse)").matches &&
    Math.min(screen.width, screen.height) < 600;
  return phone || (typeof mem === "number" && mem < 4) ? "lazy" : "eager";
}

// start(): a new standby session (loader.js startPython(null, true)); its `standbyReady`
// resolves when it waits for `activate`. gradpad.standby reports {policy, state, readyMs}.
export function makeStandby({ start, search, gradpad, isolated = true }) {
  const policy = standbyPolicy(search, isolated);
  // where a Stop always ends the worker, a long run is a reason to boot the spare at once
  const underRuns = policy === "lazy" || (policy === "eager" && !isolated);
  let session = null, startedAt = 0, uiUp = false, idleTimer = null, lazyTimer = null;
  // the quiet wait before it boots; where every Stop ends the worker, none (see uiReady)
  const firstWait = isolated ? IDLE_MS : 0;
  const report = (state) => {
    gradpad.standby = { ...(gradpad.standby || {}), policy, state };
  };
  report(policy === "off" ? "off" : "none");

  function boot() {
    if (session || policy === "off") return;
    startedAt = performance.now();
    session = start();
    report("booting");
  }

  function scheduleIdle(wait = IDLE_MS) {
    clearTimeout(idleTimer);
    if (policy !== "eager" || !uiUp || session) return;
    // not beside a run (unless a Stop would end it: see running), nor beside the throw-away
    // worker that saves the boot snapshot (loader.js) where a Stop can interrupt
    idleTimer = setTimeout(() => {
      if (gradpad.running ? underRuns && runLong() : isolated ? !gradpad.snapshotMaking : true) boot();
      else scheduleIdle();
    }, wait);
  }
  const runLong = () => performance.now() - (gradpad.runStarted || 0) >= LAZY_AFTER_MS;

  return {
    // also when a taken-over worker's UI is back. Where every Stop ends the worker, the standby
    // boots at once: a Stop seconds after the UI came takes a standby further along (a first visit
    // has no snapshot to restart from yet; loader.js saveSnapshotLater waits for this standby)
    uiReady() { uiUp = true; scheduleIdle(firstWait); },
    // the standby is booted and waits (ready), or none will come for now (failed, off, not eager)
    settled() { return policy !== "eager" || ["ready", "failed", "off"].includes(gradpad.standby.state); },
    // the page's run state: eager waits for a quiet moment, lazy boots under a long run
    running(on) {
      clearTimeout(lazyTimer);
      if (!uiUp) return;
      if (on && underRuns && !session) lazyTimer = setTimeout(() => { if (gradpad.running) boot(); }, LAZY_AFTER_MS);
      if (!on) scheduleIdle(firstWait); // (the autorun's first run ends just after the UI came)
    },
    changed() {
      if (session) gradpad.standby.readyMs = Math.round(performance.now() - startedAt);
      report("ready");
    },
    failed(s, error) {
      if (s !== session) return;
      console.warn("gradpad: the standby Python failed", error);
      try { s.worker.terminate(); } catch (e) { /* gone already */ }
      session = null;
      report("failed");
    },
    isReady() { return !!session && gradpad.standby.state === "ready"; },
    // the standby (ready or still booting: it is further along than a new worker), or null
    take() {
      const s = session;
      session = null;
      clearTimeout(idleTimer);
      report("none");
      return s;
    },
    afterTakeOver() { gradpad.standby.taken = (gradpad.standby.taken || 0) + 1; },
  };
}
