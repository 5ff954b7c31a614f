// A ready standby's app, rendered in the page before it is needed (issue 27). A Stop that must end
// the worker (no shared memory: an embed on a course site, a first visit, WebKit) used to render
// the standby's whole Bokeh document after the Stop: 1-13 s of the main thread on a loaded machine.
// Now the standby serializes its prebuilt app while it stands by (app.bootstrap.prerender), the
// page embeds it into a hidden box beside #app at a quiet moment (no run, no input for QUIET_MS),
// and the standby links it; at the take-over only the code and the notice change (one patch,
// app.bootstrap.take_over) and the box takes #app's place.
// The cost: one long main-thread task at that quiet moment, and a second rendered document's
// memory while the standby waits. So it is done where every Stop ends the worker (no shared memory);
// where Stop interrupts Python the standby is for C code and Restart only. ?prerender=1 turns it
// on there too, ?prerender=0 off (the app then renders after the Stop).

export const BOX_ID = "gp-app-next";
const QUIET_MS = 2000;

// lesson pages keep their own restart path (static/lesson.js, app/lesson.py)
export function prerenderWanted(search, isolated) {
  const q = new URLSearchParams(search);
  if (q.get("prerender") === "1" || q.get("prerender") === "0") return q.get("prerender") === "1";
  return !isolated && !q.has("lesson");
}

// A box for a document rendered hidden: inert, laid over #app at its width (so the layout done now
// is the one shown later); fixed height: it never lengthens the page. It follows #app's box while
// it waits: a box kept at a desktop's width after the window narrows (a phone turned, a resized
// window) made the whole page scroll sideways, and its app would have been shown laid out for the
// old width. (Also loader.js embedApp: a restart's new app, drawn while the old view stays.)
export function hiddenBox(id) {
  const app = document.getElementById("app");
  const box = document.createElement("div");
  box.id = id;
  box.inert = true; // (and hidden: out of the accessibility tree and the focus order)
  const place = () => {
    const a = document.getElementById("app");
    if (!a || a === box) return;
    box.style.cssText = "position:absolute;visibility:hidden;pointer-events:none;overflow:hidden;z-index:-1;" +
      `top:${a.offsetTop}px;left:${a.offsetLeft}px;width:${a.offsetWidth}px;height:${Math.max(a.offsetHeight, 400)}px`;
  };
  place();
  if (globalThis.ResizeObserver) {
    box.follow = new ResizeObserver(place);
    box.follow.observe(app);
  }
  app.after(box);
  return box;
}
export const unfollow = (box) => { if (box && box.follow) { box.follow.disconnect(); box.follow = null; } };

// `box` (a hiddenBox) takes #app's place, shown; removeOld() first (the old view's roots)
export function showBox(box, removeOld) {
  const app = document.getElementById("app");
  unfollow(box);
  removeOld();
  app.classList.remove("gp-stale"); // the restart's note goes with it (static/restart_view.js)
  box.style.cssText = "";
  box.inert = false;
  app.replaceWith(box);
  box.id = "app";
}

// embed(session, msg, box): the page's renderer (loader.js embedApp) into `box`; resolves to
// whether the document is shown there. busy(): a run is on, or no app is shown yet.
export function makePrerender({ embed, busy, report }) {
  let lastInput = 0;
  const shown = new Set(); // sessions whose app is rendered in a box
  for (const type of ["keydown", "pointerdown", "wheel", "paste"])
    document.addEventListener(type, () => { lastInput = performance.now(); }, true);


  function start(s) {
    const p = s.prerender;
    if (!p.embedding) {
      p.box = hiddenBox(BOX_ID);
      const t0 = performance.now();
      p.embedding = embed(s, p.msg, p.box).then((ok) => {
        p.ms = Math.round(performance.now() - t0);
        report({ state: ok ? "rendered" : "failed", ms: p.ms });
        if (ok && !p.dropped) shown.add(s);
        if (!ok) discard(s);
        return ok;
      }, (e) => {
        console.warn("gradpad: the standby's app could not be rendered in advance", e);
        discard(s);
        return false;
      });
    }
    return p.embedding;
  }

  function later(s) {
    const p = s.prerender;
    if (!p || p.embedding || p.dropped) return;
    const wait = QUIET_MS - (performance.now() - lastInput);
    if (busy() || wait > 0) { p.timer = setTimeout(() => later(s), Math.max(wait, 250)); return; }
    (globalThis.requestIdleCallback || setTimeout)(() => {
      if (!p.embedding && !p.dropped && !busy() && performance.now() - lastInput >= QUIET_MS) start(s);
      else later(s);
    }, { timeout: 1000 });
  }

  function discard(s) {
    const p = s.prerender;
    if (!p) return;
    p.dropped = true;
    shown.delete(s);
    clearTimeout(p.timer);
    if (!p.embedding) return; // only waited for a quiet moment
    if (s.views) for (const v of s.views.roots) v.remove();
    if (p.box) { unfollow(p.box); p.box.remove(); }
    // not shown: the worker renders its app as without a prerender (loader.js embedApp may run again)
    s.views = s.jsdoc = null;
    s.rendering = false;
  }

  return {
    // the standby's serialized app came: rendered hidden at the next quiet moment
    arrived(s, msg) {
      s.prerender = { msg };
      report({ state: "waiting" });
      later(s);
    },
    // the take-over: rendered now if it was not yet; whether the standby's app is in the page
    now(s) {
      const p = s.prerender;
      if (!p || p.dropped) return Promise.resolve(false);
      clearTimeout(p.timer);
      return start(s);
    },
    // the new app replaces the old one: the box becomes #app (the old views go first)
    swap(s, removeOld) {
      showBox(s.prerender.box, removeOld);
      shown.delete(s);
      s.prerender = null;
    },
    // fn(session, box) for each app rendered in advance (loader.js: a theme switch restyles them too)
    forEach(fn) { for (const s of shown) fn(s, s.prerender.box); },
    discard,
  };
}
