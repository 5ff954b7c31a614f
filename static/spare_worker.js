// A light spare worker for the next fresh Python (docs/snapshot.md, "Restarts").
//
// Every Python worker first starts, loads the runtime's JS (pyodide.mjs, pyodide.asm.js) and
// compiles its wasm: on a restart with no standby ready, about a third of the time until Python
// answers, and nothing of it depends on what the page sends in `init`. A spare does that part
// ahead, at a quiet moment (worker.js `warm`), and then waits: no interpreter exists in it and no
// Python runs there before its `init`, which boots it as any worker (from the snapshot bytes the
// page lends, static/restart_snapshot.js), only with that part done. Its cost while it waits is a
// worker with the runtime's code loaded, no Python memory (see docs/snapshot.md for the numbers).
//
// The next worker the page starts (a restart, a standby) is the spare, if one is there; a new one
// is made at the next quiet moment (`prepare`, once a UI is up).

// spawn(): a new worker running worker.js; base: the site's base URL; off: start none
export function makeSpareWorker({ spawn, base, off = false }) {
  let spare = null;
  const state = { made: 0, taken: 0, warm: false };
  return {
    state,
    // at a quiet moment (a UI is up): a spare, unless one is there
    prepare() {
      if (off || spare) return;
      const w = spawn();
      w.onmessage = (ev) => { if (ev.data && ev.data.type === "spare-warm" && w === spare) state.warm = true; };
      w.onerror = () => { if (w === spare) { spare = null; state.warm = false; } };
      w.postMessage({ type: "warm", base });
      spare = w;
      state.made++;
    },
    // the spare (warm, or still warming: further along than a new worker either way), or null
    take() {
      const w = spare;
      if (!w) return null;
      spare = null;
      w.onmessage = w.onerror = null;
      state.taken++;
      state.warm = false;
      return w;
    },
  };
}
