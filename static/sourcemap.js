// Source <-> jaxpr, as Compiler Explorer links source and assembly. The jaxpr pane marks each
// equation's line with the line of code it came from (data-gp-src, from JAX's source_info);
// here, in the page, hovering or clicking a line of code lights up its equations, and hovering
// or clicking an equation lights up its line in the editor. A click pins the link; hovering
// shows it while the pointer stays. Bokeh renders every pane in a shadow root, so lookups
// walk into them.

const LIT = "gp-lit";                 // an equation of the linked line (styled by the pane's CSS)
const MARK = "gp-ace-src";            // the editor's marker on the linked line
const markCss = () => `.${MARK} { position: absolute; background: rgba(250, 204, 21, ${
  document.documentElement.dataset.theme === "dark" ? 0.22 : 0.35}); }`;

function deepAll(root, selector, out = []) {
  out.push(...root.querySelectorAll(selector));
  for (const el of root.querySelectorAll("*")) if (el.shadowRoot) deepAll(el.shadowRoot, selector, out);
  return out;
}

const state = { pinned: null, shown: null, editors: new WeakSet() };

function editors() {
  return deepAll(document, ".ace_editor").map((el) => el.env && el.env.editor).filter(Boolean);
}

function markEditor(editor, line) {
  const session = editor.session;
  if (editor.gpMarker != null) session.removeMarker(editor.gpMarker);
  editor.gpMarker = null;
  if (line == null) return;
  const root = editor.container.getRootNode();
  if (!root.querySelector || !root.querySelector(`style[data-gp="${MARK}"]`)) {
    const style = document.createElement("style");
    style.dataset.gp = MARK;
    style.textContent = markCss();
    (root.head || root).appendChild(style);
  }
  const Range = editor.selection.getRange().constructor;
  editor.gpMarker = session.addMarker(new Range(line - 1, 0, line - 1, 1), MARK, "fullLine");
}

// light `line` (a 1-based line of code, or null) in the editor and in every jaxpr shown
function show(line, scroll = false) {
  state.shown = line;
  let count = 0;
  for (const el of deepAll(document, "[data-gp-src]")) {
    const on = line != null && el.dataset.gpSrc === String(line);
    el.classList.toggle(LIT, on);
    if (on) count += 1;
  }
  for (const editor of editors()) {
    markEditor(editor, line);
    if (scroll && line != null) editor.scrollToLine(line - 1, true, true, () => {});
  }
  return count;
}

function hook(editor) {
  if (state.editors.has(editor)) return;
  state.editors.add(editor);
  let hovered = null;
  editor.on("mousemove", (e) => {
    const line = e.getDocumentPosition().row + 1;
    if (line !== hovered) { hovered = line; show(line); }
  });
  editor.container.addEventListener("mouseleave", () => { hovered = null; show(state.pinned); });
  editor.selection.on("changeCursor", () => {
    state.pinned = editor.getCursorPosition().row + 1;
    show(state.pinned);
  });
}

function equationOf(event) {
  for (const el of event.composedPath()) if (el.dataset && el.dataset.gpSrc) return el;
  return null;
}

export function installSourceMap(gradpad) {
  let lastHook = 0;
  document.addEventListener("pointerover", (e) => {
    const now = performance.now();
    if (now - lastHook > 1000) {  // editors appear (and are rebuilt) with the UI: look at most once a second
      lastHook = now;
      for (const editor of editors()) hook(editor);
    }
    const eqn = equationOf(e);
    if (eqn) show(Number(eqn.dataset.gpSrc));
    else if (state.shown !== state.pinned && !e.composedPath().some((el) => el.classList && el.classList.contains("ace_editor"))) show(state.pinned);
  }, true);
  document.addEventListener("click", (e) => {
    const eqn = equationOf(e);
    if (!eqn) return;
    state.pinned = Number(eqn.dataset.gpSrc);
    show(state.pinned, true);
  }, true);
  // for tests and hosts: link a line by hand, and read what is lit
  gradpad.sourceMap = {
    show: (line) => { for (const editor of editors()) hook(editor); state.pinned = line; return show(line, true); },
    // the stepper lights a line per step: the elements and editors found once (`index()`), then
    // only the old line's and the new line's elements touched (show() walks every shadow root)
    index: () => {
      const bySrc = new Map();
      for (const el of deepAll(document, "[data-gp-src]")) {
        const k = el.dataset.gpSrc;
        if (!bySrc.has(k)) bySrc.set(k, []);
        bySrc.get(k).push(el);
      }
      const eds = editors();
      for (const editor of eds) hook(editor);
      return { bySrc, editors: eds };
    },
    showIndexed: (index, line) => {
      state.pinned = line;
      if (line === state.shown) return;  // (a line may have made 1,000 equations: nothing to redo)
      for (const el of index.bySrc.get(String(state.shown)) || []) el.classList.remove(LIT);
      state.shown = line;
      for (const el of index.bySrc.get(String(line)) || []) el.classList.add(LIT);
      for (const editor of index.editors) {
        if (!editor.container.isConnected) continue;
        markEditor(editor, line);
        const r = editor.renderer;  // scrolled only when the line is out of view
        if (line != null && (line - 1 < r.getFirstFullyVisibleRow() || line - 1 > r.getLastFullyVisibleRow()))
          editor.scrollToLine(line - 1, true, false, () => {});
      }
    },
    lit: () => ({
      line: state.shown,
      equations: deepAll(document, `[data-gp-src].${LIT}`).map((el) => el.textContent),
      editorMarks: editors().map((ed) => Object.values(ed.session.getMarkers(false))
        .filter((m) => m.clazz === MARK).map((m) => m.range.start.row + 1)).flat(),
    }),
  };
}
