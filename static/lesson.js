// gradpad's one-script-tag lesson (docs/teachers.md, section 3). A course page writes its Python
// as ordinary code blocks and adds ONE tag:
//     <script src="https://your.site/gradpad/lesson.js"></script>
// This file runs on the HOST page (the teacher's site), never on gradpad's. It reads the text of
// the page's Python blocks and puts ONE gradpad lesson frame where the first block was: every
// block is a live cell of that lesson, all on one Python (one worker, one namespace). Each later
// block becomes a one-line note naming its cell. Nothing else on the host page is read or changed.
//
// Why one frame and not a frame per block: a frame per block would boot a Python per block (each
// a worker and ~0.6 GB), or need the frames to share one worker across documents. The cells'
// code reaches gradpad as TEXT in the frame's #fragment (`?lesson=inline#lesson=...`, what
// `python -m tools.lesson_link` makes), read as a Markdown lesson with raw HTML off: a stranger's
// page cannot put markup or script on gradpad's origin. The frame is cross-origin and sandboxed
// (no top navigation), keeps no visitor storage (static/loader.js: FRAMED), and the one message
// it posts here is its height (static/frame_height.js), accepted only from that frame.
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

  async function start() {
    const pres = [];
    for (const el of document.querySelectorAll(BLOCKS)) {
      const pre = el.closest("pre") || el;
      if (!pres.includes(pre) && !("static" in pre.dataset)) pres.push(pre);
    }
    if (!pres.length) return;
    const titles = pres.map((pre, i) => pre.dataset.title || `Cell ${i + 1}`);
    const lesson = pres.map((pre) => fence(pre, pre.querySelector("code"))).join("\n");
    const frame = document.createElement("iframe");
    frame.src = `${BASE.href}?embed=1&lesson=inline#lesson=${await token(lesson)}`;
    frame.title = me.dataset.title || `gradpad lesson: ${pres.length} live Python cells`;
    frame.className = "gradpad-lesson";
    frame.setAttribute("sandbox", SANDBOX);
    frame.setAttribute("allow", "cross-origin-isolated");
    if (window.crossOriginIsolated) frame.setAttribute("credentialless", ""); // isolation passes on
    // until the lesson says its height: about what the cells will take
    frame.style.cssText = `display:block;width:100%;border:0;height:${420 * pres.length}px`;
    window.addEventListener("message", (ev) => {
      if (ev.source !== frame.contentWindow || ev.origin !== BASE.origin) return;
      const h = ev.data && ev.data.gradpad === "height" ? Number(ev.data.height) : NaN;
      if (h > 0 && h < 200000) frame.style.height = `${Math.ceil(h)}px`;
    });
    pres[0].replaceWith(frame);
    pres.slice(1).forEach((pre, i) => {
      const note = document.createElement("p");
      note.className = "gradpad-cell-note";
      note.textContent = `\u25b2 This code is cell ${i + 2} ("${titles[i + 1]}") of the live gradpad lesson above.`;
      pre.replaceWith(note);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();
})();
