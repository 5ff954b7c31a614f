// gradpad's one-script-tag lesson (docs/teachers.md, section 3). A course page writes its Python
// as ordinary code blocks and adds ONE tag:
//     <script src="https://your.site/gradpad/lesson.js"></script>
// This file runs on the HOST page (the teacher's site), never on gradpad's. It reads the text of
// the page's Python blocks and puts a gradpad cell frame where EACH block was: every block is a
// live cell of one lesson, all on one Python (one worker, one namespace), and the teacher's prose
// and layout around the blocks stay as they were.
//
// One Python for many frames (docs/teachers.md, "How the cells share one Python"): the first
// cell's frame boots the worker; every other cell's frame asks it, over window.postMessage
// between the sibling frames (gradpad's origin only, and only with this page's random lesson id),
// for a MessagePort to that worker, and shows its one cell of the lesson the worker built
// (static/lesson_share.js). `data-frames="one"` on the script tag keeps the older layout: ONE
// frame where the first block was, holding every cell, and a note at each later block; a browser
// whose frames cannot reach each other falls back to it by itself (the cell frames say so).
//
// The cells' code reaches gradpad as TEXT in each frame's #fragment (`?lesson=inline#lesson=...`,
// what `python -m tools.lesson_link` makes), read as a Markdown lesson with raw HTML off: a
// stranger's page cannot put markup or script on gradpad's origin. The frames are cross-origin
// and sandboxed (no top navigation), keep no visitor storage (static/loader.js: FRAMED), and the
// messages they post here are their heights (static/frame_height.js), accepted only from them,
// and a cell frame's "cannot share" (then the one-frame lesson replaces them).
(() => {
  const me = document.currentScript;
  if (!me || !me.src) return; // gradpad's address is this script's own
  const BASE = new URL(".", me.src);
  const BLOCKS = me.dataset.blocks
    || "pre > code.language-python, pre > code.lang-python, pre.language-python, pre[data-gradpad]";
  const OPTIONS = ["panes", "readonly", "fold", "autorun", "title", "function", "args"];
  const SANDBOX = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";

  // a value quoted for the fence's info string (app/lesson.py splits it like a shell)
  const quote = (v) => (/^[\w.,:+-]+$/.test(v) ? v : "'" + v.replace(/'/g, "'\"'\"'") + "'");

  function fence(pre, code) {
    const data = { ...pre.dataset, ...(code ? code.dataset : {}) };
    const info = ["python"];
    for (const k of OPTIONS) {
      if (data[k] !== undefined) info.push(data[k] === "" ? k : `${k}=${quote(data[k])}`);
    }
    const text = pre.textContent.replace(/\n$/, "");
    const longest = Math.max(0, ...(text.match(/`+/g) || []).map((run) => run.length));
    const ticks = "`".repeat(Math.max(3, longest + 1));
    return `${ticks}${info.join(" ")}\n${text}\n${ticks}\n`;
  }

  // zlib + base64url, as app/lesson.py's encode_lesson
  async function token(text) {
    const packed = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate"));
    const bytes = new Uint8Array(await new Response(packed).arrayBuffer());
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function makeFrame(src, title, height) {
    const frame = document.createElement("iframe");
    frame.src = src;
    frame.title = title;
    frame.className = "gradpad-lesson";
    frame.setAttribute("sandbox", SANDBOX);
    frame.setAttribute("allow", "cross-origin-isolated");
    if (window.crossOriginIsolated) frame.setAttribute("credentialless", ""); // isolation passes on
    // until the frame says its height: about what its cells will take
    frame.style.cssText = `display:block;width:100%;border:0;height:${height}px`;
    return frame;
  }

  // the lesson's random id: a cell frame talks only to frames of this page that carry it
  function lessonId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function start() {
    const pres = [];
    for (const el of document.querySelectorAll(BLOCKS)) {
      const pre = el.closest("pre") || el;
      if (!pres.includes(pre) && !("static" in pre.dataset)) pres.push(pre);
    }
    if (!pres.length) return;
    const titles = pres.map((pre, i) => pre.dataset.title || `Cell ${i + 1}`);
    const lesson = pres.map((pre) => fence(pre, pre.querySelector("code"))).join("\n");
    const fragment = `#lesson=${await token(lesson)}`;
    const frames = [];
    // each frame's one kind of message: its height; a cell frame may also say its frames cannot
    // share one Python here (then the one-frame lesson replaces them, once)
    let fellBack = false;
    window.addEventListener("message", (ev) => {
      const frame = frames.find((f) => ev.source === f.contentWindow);
      if (!frame || ev.origin !== BASE.origin || !ev.data) return;
      if (ev.data.gradpad === "lesson-unshared" && frames.length > 1 && !fellBack) {
        fellBack = true;
        oneFrame(frames.splice(0), true);
        return;
      }
      const h = ev.data.gradpad === "height" ? Number(ev.data.height) : NaN;
      if (h > 0 && h < 200000) frame.style.height = `${Math.ceil(h)}px`;
    });

    // the older layout: every cell in ONE frame where the first block was
    function oneFrame(where, unshared) {
      const frame = makeFrame(`${BASE.href}?embed=1&lesson=inline${unshared ? "&unshared=1" : ""}${fragment}`,
        me.dataset.title || `gradpad lesson: ${pres.length} live Python cells`, 420 * pres.length);
      frames.push(frame);
      where[0].replaceWith(frame);
      where.slice(1).forEach((old, i) => {
        const note = document.createElement("p");
        note.className = "gradpad-cell-note";
        note.textContent = `\u25b2 This code is cell ${i + 2} ("${titles[i + 1]}") of the live gradpad lesson above.`;
        old.replaceWith(note);
      });
    }

    if (me.dataset.frames === "one" || pres.length === 1) {
      oneFrame(pres, false);
      return;
    }
    // a frame per block, all on the first frame's Python
    const lid = lessonId();
    pres.forEach((pre, i) => {
      const standby = i ? "&standby=off" : ""; // a spare Python is the first frame's to keep
      const frame = makeFrame(`${BASE.href}?embed=1&lesson=inline&cell=${i}&lid=${lid}${standby}${fragment}`,
        `gradpad cell ${i + 1} of ${pres.length}: ${titles[i]}`, 420);
      frames.push(frame);
      pre.replaceWith(frame);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();
})();
