// The editor/panes splitter: drag the bar between the editor's column and the panes (the left
// column's right edge, drawn by app/main.py's LEFT_CSS) to resize them; double-click it to go
// back to the default (about 56% of the window: 88+ columns of code at 1400 px). The width is
// kept in localStorage. Bokeh puts the columns in shadow roots, so they are found by walking in.

const KEY = "gradpad.split";
const GRIP_PX = 10;     // how far left of the column's right edge a press starts a drag
const MIN_PX = 320;     // neither side gets narrower than this

function deepFind(root, test) {
  for (const el of root.querySelectorAll("*")) {
    if (test(el)) return el;
    if (el.shadowRoot) { const hit = deepFind(el.shadowRoot, test); if (hit) return hit; }
  }
  return null;
}

const leftColumn = () => deepFind(document, (el) => el.classList && el.classList.contains("gp-left"));
const stacked = () => window.matchMedia("(max-width: 900px)").matches;  // phones: the columns stack

// the column's own stylesheet reads --gp-split (a :host rule's !important beats any inline width)
function setWidth(col, px) {
  if (px == null) col.style.removeProperty("--gp-split");
  else col.style.setProperty("--gp-split", `${Math.round(px)}px`);
}

function onGrip(col, e) {
  const r = col.getBoundingClientRect();
  return !stacked() && e.clientX <= r.right + 2 && e.clientX >= r.right - GRIP_PX && e.clientY >= r.top && e.clientY <= r.bottom;
}

export function installSplitter(gradpad) {
  let saved = null;
  try { saved = Number(localStorage.getItem(KEY)) || null; } catch (e) { /* no storage */ }
  const restore = () => { const col = leftColumn(); if (col && saved && !stacked()) setWidth(col, saved); return !!col; };
  const wait = setInterval(() => { if (restore()) clearInterval(wait); }, 500);  // once the UI exists
  document.addEventListener("pointermove", (e) => {
    const col = leftColumn();
    if (col) document.body.style.cursor = onGrip(col, e) ? "col-resize" : "";
  }, { passive: true });
  document.addEventListener("pointerdown", (e) => {
    const col = leftColumn();
    if (!col || !onGrip(col, e)) return;
    e.preventDefault();
    const left = col.getBoundingClientRect().left;
    const move = (m) => {
      const max = col.parentElement ? col.parentElement.getBoundingClientRect().width - MIN_PX : window.innerWidth - MIN_PX;
      saved = Math.max(MIN_PX, Math.min(max, m.clientX - left));
      setWidth(col, saved);
      window.dispatchEvent(new Event("resize"));  // Bokeh re-lays out the panes
    };
    const up = () => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      try { localStorage.setItem(KEY, String(saved)); } catch (err) { /* no storage */ }
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
  }, true);
  document.addEventListener("dblclick", (e) => {
    const col = leftColumn();
    if (!col || !onGrip(col, e)) return;
    saved = null;
    setWidth(col, null);
    try { localStorage.removeItem(KEY); } catch (err) { /* no storage */ }
    window.dispatchEvent(new Event("resize"));
  }, true);
  fitEditorToWindow();
  gradpad.splitter = {  // for tests: the editor column's width, and setting it as a drag would
    width: () => { const col = leftColumn(); return col ? col.getBoundingClientRect().width : null; },
  };
}

// The editor's height is the window's less what sits above it (app/main.py EDITOR_CSS reads
// --gp-editor-top): a note that appears above the code (a held run, a notice) moves the editor
// down, and a fixed offset then pushed the console strip under the window's bottom edge.
function aceEditor() {  // the app's editor, in its left column (a lesson page has none)
  const col = leftColumn();
  const isAce = (el) => el.classList && el.classList.contains("ace_editor") && el.env;
  return col ? deepFind(col.shadowRoot || col, isAce) || deepFind(col, isAce) : null;
}

function fitEditorToWindow() {
  let ace = null, col = null, lastTop = null, observer = null;
  const measure = () => {
    if (!ace || !ace.isConnected) {
      ace = aceEditor(); col = leftColumn();
      if (!ace) return;
      if (observer) observer.disconnect();
      observer = new ResizeObserver(measure);
      observer.observe(col || ace);  // a note above the editor changes the column's size
    }
    const scroller = col && !stacked() ? col.scrollTop : 0;
    const top = Math.round(ace.getBoundingClientRect().top + window.scrollY + scroller);
    if (top === lastTop) return;
    lastTop = top;
    document.documentElement.style.setProperty("--gp-editor-top", `${top}px`);
    requestAnimationFrame(() => { if (ace.env && ace.env.editor) ace.env.editor.resize(); });
  };
  window.addEventListener("resize", measure, { passive: true });
  const wait = setInterval(() => { measure(); if (ace) clearInterval(wait); }, 500);  // once the UI exists
}
