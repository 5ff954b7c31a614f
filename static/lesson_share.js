// One Python for a lesson's cell frames (static/lesson.js puts a frame at each code block of a
// course page; docs/teachers.md "How the cells share one Python").
//
// The frame of cell 0 (the "first frame") boots the worker, as any gradpad page does, and serves
// the others: a cell frame asks it for a MessagePort to that worker ("lesson-join"), and the
// worker then builds that cell's own document for it (static/worker.js, "a lesson's other
// cells"). Everything after the join goes over the port, page to worker, as between a page and
// its own worker: this frame's loader.js runs unchanged on a worker-like object (joinLesson).
//
// Who may talk: the frames are siblings under the course page (a cross-origin parent, whose
// `frames` list any frame may walk); a message counts only when it comes from gradpad's own
// origin (the course page's never does), from a sibling frame, and carries this lesson's random
// id (in every frame's URL, made by lesson.js per page view). Ports are posted to that origin only.
const JOIN_EVERY_MS = 300;
// a cell frame that has no port after this long says so to the course page, which then shows
// the one-frame lesson instead (a browser whose frames cannot reach each other)
const UNSHARED_AFTER_MS = 45000;

// {lid, cell} for a cell frame of a lesson page, else null
export function lessonRole(search) {
  const q = new URLSearchParams(search);
  const lid = q.get("lid"), cell = Number(q.get("cell"));
  if (!q.has("lesson") || !lid || !/^[0-9a-f]{16,64}$/.test(lid) || !Number.isInteger(cell) || cell < 0) return null;
  return { lid, cell };
}

function isSibling(win) {
  if (!win || win === window) return false;
  try {
    for (let i = 0; i < window.parent.length; i++) if (window.parent[i] === win) return true;
  } catch (e) { /* no parent to walk */ }
  return false;
}

const fromLesson = (ev, lid) => ev.origin === location.origin && ev.data && typeof ev.data === "object" &&
  ev.data.lid === lid && isSibling(ev.source);

// A cell frame's Stop (issue 27): the frames are gradpad's own origin, and where the browser
// keeps them in one agent cluster (siblings of one page: one process, one main thread) the cell
// frame calls the first frame's `window[STOP_API].stop` directly, in its click's own task. A
// message would wait behind every task the three frames queued meanwhile (a cell's drawing,
// patches), 126-925 ms measured, and the answer back as long again. The call returns the
// restart it caused, which the cell frame applies at once (and skips when its message follows).
// Where the frames are split (isolation settings), reading the property throws: the message.
const STOP_API = "gradpadLessonStop";
const now = () => performance.timeOrigin + performance.now(); // comparable between the frames

// the first frame: hands each cell frame a port to `worker()` (the current worker: a restart
// makes a new one, and the cell frames join again when told `restarted`). stop(how) gets
// {via: "call"|"message", lagMs}: how the cell frame's Stop came, and how long after its click.
export function serveCells({ lid, worker, stop, restart }) {
  const answered = new Map(); // a cell frame's window -> the join it was answered for
  // each restart told to the cell frames, numbered in this page (a random epoch: another page's
  // numbers never match): a cell frame that applied one from the direct call skips its message
  const epoch = Math.random().toString(36).slice(2);
  let restarts = 0, lastHeld = null;
  const api = Object.freeze({
    lid,
    stop(from, sentAt) {
      if (!answered.has(from)) return null; // a frame this lesson never joined
      const before = restarts;
      const acted = !!stop({ via: "call", lagMs: now() - Number(sentAt) });
      return { acted, restarted: restarts > before ? { epoch, seq: restarts, held: lastHeld } : null };
    },
  });
  try {
    Object.defineProperty(window, STOP_API, { value: api });
  } catch (e) { /* defined already (a second serveCells): the message still works */ }
  window.addEventListener("message", (ev) => {
    if (!fromLesson(ev, lid)) return;
    const d = ev.data;
    if (d.gradpad === "lesson-join") {
      const cell = Number(d.cell), w = worker();
      if (!w || !Number.isInteger(cell) || cell < 1 || typeof d.nonce !== "string") return;
      if (answered.get(ev.source) === d.nonce) return; // asked again before our answer arrived
      answered.set(ev.source, d.nonce);
      const ch = new MessageChannel();
      w.postMessage({ type: "client", port: ch.port1, cell }, [ch.port1]);
      ev.source.postMessage({ gradpad: "lesson-port", lid, nonce: d.nonce }, location.origin, [ch.port2]);
      if (lastProgress) tell(ev.source, lastProgress);
    } else if (answered.has(ev.source) && d.gradpad === "lesson-stop") {
      stop({ via: "message", lagMs: now() - Number(d.sentAt) });
    } else if (answered.has(ev.source) && d.gradpad === "lesson-restart") {
      restart();
    }
  });
  // how far the first frame's start is, for the cell frames that wait on it (leaderProgress)
  let lastProgress = null;
  const tell = (win, p) => win.postMessage({ gradpad: "lesson-progress", lid, ...p }, location.origin);
  return {
    cells: () => answered.size,
    // {stage, what, pct, overall, finished} as the first frame shows it; {ready: true} once its app is up;
    // {failed: title} when its Python could not start (sent on change, and to a frame that joins later)
    progress(p) {
      if (JSON.stringify(p) === JSON.stringify(lastProgress)) return;
      lastProgress = p;
      for (const win of answered.keys()) tell(win, p);
    },
    // the worker was ended (Stop, Restart, a crash): every cell frame shows its old view, takes
    // typing, and joins the new worker
    restarted(held) {
      restarts++;
      lastHeld = held;
      for (const win of answered.keys()) {
        win.postMessage({ gradpad: "lesson-restarted", lid, held, epoch, seq: restarts }, location.origin);
      }
    },
  };
}

// a cell frame: the first frame's window once a join was answered
let leader = null;

// a cell frame: the restart of the first frame's it applied last ({epoch, seq})
let applied = null;
// a restart told by the direct call or by message ({epoch, seq, held}): applied once, by `fn`
function applyOnce(r, fn) {
  const seen = { epoch: String(r.epoch), seq: Number(r.seq) };
  if (applied && applied.epoch === seen.epoch && seen.seq <= applied.seq) return;
  applied = seen;
  fn(r.held ?? null);
}

// a cell frame: stop the lesson's run, or restart its Python (the first frame owns the worker).
// A Stop is a direct call where the frames share an agent cluster (STOP_API): then `restarted`
// gets the restart it caused ({held}) within this call. Else, and when the first frame did not
// act on the call (it had not heard of the run yet), a message; `sent` hears which ("call" or
// "message": loader.js keeps it in gradpad.stops).
export function askLeader(what, { restarted = () => {}, sent = () => {} } = {}) {
  if (!leader) return false;
  const lid = lessonRole(location.search).lid;
  if (what === "stop") {
    let r = null;
    try {
      const api = leader[STOP_API];
      if (api && api.lid === lid) r = api.stop(window, now());
    } catch (e) { /* another agent cluster: the message below */ }
    if (r && r.acted) {
      if (r.restarted) applyOnce(r.restarted, restarted);
      sent("call");
      return true;
    }
  }
  leader.postMessage({ gradpad: "lesson-" + what, lid, sentAt: now() }, location.origin);
  sent("message");
  return true;
}

// a cell frame hears that the first frame restarted the lesson's Python (once per restart: one
// it applied from a Stop's direct call already is skipped)
export function onLeaderRestart(lid, fn) {
  window.addEventListener("message", (ev) => {
    if (ev.source !== leader || !fromLesson(ev, lid) || ev.data.gradpad !== "lesson-restarted") return;
    applyOnce(ev.data, fn);
  });
}

// a cell frame hears how far the first frame's start is (serveCells' progress), until its own cell shows
export function onLeaderProgress(lid, fn) {
  window.addEventListener("message", (ev) => {
    if (ev.source === leader && fromLesson(ev, lid) && ev.data.gradpad === "lesson-progress") fn(ev.data);
  });
}

// what a cell frame's loader says while it waits on the first frame's Python: that frame's own
// progress, never a count of this frame's downloads (it downloads no Python)
export function waitingText(p) {
  if (!p) return "Waiting for cell 1's Python to start…";
  if (p.failed) return `Cell 1's Python could not start (${p.failed}).`;
  if (p.ready) return "Cell 1's Python is ready: drawing this cell…";
  return `Waiting for cell 1's Python: loading ${p.what}… ${p.pct}%`;
}

// a cell frame: a worker-like object (postMessage, onmessage, terminate) whose messages go over a
// port the first frame hands us; what is posted before the port comes waits for it
export function joinLesson({ lid, cell, unshared }) {
  const nonce = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
  let port = null, ended = false;
  const queue = [];
  const proxy = {
    onmessage: null,
    onerror: null,
    postMessage(msg, transfer) {
      // shared memory is the first frame's; this frame's buffer is not the worker's
      if (msg && msg.type === "init") msg = { ...msg, interrupt: null };
      if (ended) return;
      if (port) port.postMessage(msg, transfer || []);
      else queue.push([msg, transfer || []]);
    },
    terminate() {
      ended = true;
      stopAsking();
      if (port) port.close();
    },
  };
  const ask = () => {
    for (let i = 0; i < window.parent.length; i++) {
      try {
        if (window.parent[i] !== window) window.parent[i].postMessage({ gradpad: "lesson-join", lid, cell, nonce }, location.origin);
      } catch (e) { /* a frame that went away */ }
    }
  };
  const onAnswer = (ev) => {
    if (port || ended || !fromLesson(ev, lid) || ev.data.gradpad !== "lesson-port" || ev.data.nonce !== nonce || ev.ports.length !== 1) return;
    leader = ev.source;
    port = ev.ports[0];
    port.onmessage = (e) => { if (proxy.onmessage) proxy.onmessage(e); };
    for (const [m, t] of queue.splice(0)) port.postMessage(m, t);
    stopAsking();
  };
  const timer = setInterval(ask, JOIN_EVERY_MS);
  const gaveUp = unshared ? setTimeout(() => { if (!port && !ended) unshared(); }, UNSHARED_AFTER_MS) : 0;
  function stopAsking() {
    clearInterval(timer);
    clearTimeout(gaveUp);
    window.removeEventListener("message", onAnswer);
  }
  window.addEventListener("message", onAnswer);
  ask();
  return proxy;
}
