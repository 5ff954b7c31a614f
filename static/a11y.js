// Keyboard and screen-reader access for the Bokeh/Panel page (WCAG 2.2 AA), added from the page
// side because the app is built in the worker and BokehJS renders it here, re-rendering parts
// at any patch. Every pass is idempotent (an attribute is written only when it differs) and
// runs after the DOM changes (a MutationObserver on the document and on each shadow root met).
//  - Tabs: Bokeh's tab headers become a WAI-ARIA tablist (role tab/tabpanel, aria-selected,
//    aria-controls, one tab in the Tab order), Left/Right/Home/End move between tabs and show
//    them, Enter/Space show one; Tab goes from the tab into its panel. Hidden panels are inert
//    (out of the Tab order and the accessibility tree).
//  - The code editor (Ace): Tab still indents; after Esc or Ctrl+M, Tab and Shift+Tab leave the
//    editor (forwards, backwards) without touching the code. A hint on the editor says so while
//    it has focus, and the text input's name says it to a screen reader.
//  - Scrolling regions with nothing focusable inside (panes, code blocks) take focus, so that a
//    keyboard can scroll them.

const EDITOR_LABEL = "Python code editor. Tab indents; Escape then Tab leaves the editor";
const HINT_EDITING = "Tab indents · Esc then Tab: leave the editor";
const HINT_LEAVING = "Tab / Shift+Tab: leave the editor · any other key: keep typing";
const STYLE_ID = "gp-a11y-style";
const REGION_NAMES = [["gp-console", "console output"], ["gp-jaxpr", "jaxpr"], ["gp-wgsl", "WGSL code"],
                      ["gp-console-strip", "console output"], ["gp-code", "code"], ["gp-scroll-x", "table"]];
// shadow-root styles: focus rings where Bokeh/Panel draw none, and the editor's left state
const SHADOW_CSS = `
.bk-tab:focus-visible, [role="tabpanel"]:focus-visible, .gp-code:focus-visible, .gp-scroll-x:focus-visible,
.scrollable-vertical:focus-visible { outline: 3px solid var(--gp-focus, #1a73e8); outline-offset: -3px; }
.bk-btn.bk-btn-warning { color: #212529; }  /* white on Panel's orange is 2:1 */
.ace_editor.ace_focus { outline: 2px solid var(--gp-focus, #1a73e8); outline-offset: 0; }
.ace_editor.gp-tab-leaves { outline: 3px dashed var(--gp-focus, #1a73e8); }
`;

// Panel's "light" buttons (previous/next, the view and size pickers, downloads) stay white in its
// dark theme: there they get the dark inputs' colours, with a border of 3:1 against the page
// (two classes: they win over BokehJS's own rules in any order, which a theme switch changes)
const DARK_CSS = `
.bk-btn.bk-btn-light { background: #21262d; color: #e6edf3; border: 1px solid #6e7681; }
.bk-btn.bk-btn-light:hover { background: #30363d; color: #fff; }
.bk-btn.bk-btn-light.bk-active, .bk-btn.bk-btn-light:active { background: #1f3b63; color: #fff; border-color: #79c0ff; }
`;

function* deepElements(root) {
  for (const el of root.querySelectorAll("*")) {
    yield el;
    if (el.shadowRoot) yield* deepElements(el.shadowRoot);
  }
}

const setAttr = (el, name, value) => {
  if (value == null) { if (el.hasAttribute(name)) el.removeAttribute(name); }
  else if (el.getAttribute(name) !== String(value)) el.setAttribute(name, String(value));
};

let uid = 0;
const idOf = (el, prefix) => el.id || (el.id = `${prefix}-${++uid}`);

// the shadow roots' style for the page's theme (static/theme_switch.js rewrites them on a switch)
export const A11Y_STYLE_ID = STYLE_ID;
export const shadowCss = () => SHADOW_CSS + (document.documentElement.dataset.theme === "dark" ? DARK_CSS : "");

function styleRoot(root) {
  if (root === document || !root.querySelector || root.querySelector(`#${STYLE_ID}`)) return;
  const s = document.createElement("style");
  s.id = STYLE_ID;
  s.textContent = shadowCss();
  root.appendChild(s);
}

// ------------------------------------------------------------------ tabs
// Bokeh's Tabs view: in its shadow root, one element per panel (Panel keeps them all rendered
// and hides the inactive ones), then .bk-header > .bk-headers-wrapper > .bk-tab. The grid
// places the header above the panels whatever the DOM order.
const tabsOf = (list) => [...list.children].filter((el) => el.classList.contains("bk-tab"));

function panelsOf(header) {
  return [...header.getRootNode().children].filter((el) => el !== header && el.tagName === "DIV" && el.id !== STYLE_ID);
}

function enhanceTabs(list) {
  const tabs = tabsOf(list);
  const header = list.closest(".bk-header") || list;
  if (!tabs.length) return;
  const root = header.getRootNode();
  styleRoot(root);
  setAttr(list, "role", "tablist");
  if (!list.hasAttribute("aria-label")) list.setAttribute("aria-label", "Output panes");
  const panels = panelsOf(header);
  const matched = panels.length === tabs.length;
  // the header first in the DOM, so that Tab goes from the tab into its panel and Shift+Tab back
  if (matched && header.parentNode === root && panels[0].compareDocumentPosition(header) & Node.DOCUMENT_POSITION_FOLLOWING
      && !header.contains(root.activeElement)) {
    root.insertBefore(header, panels[0]);
  }
  tabs.forEach((tab, i) => {
    const active = tab.classList.contains("bk-active");
    setAttr(tab, "role", "tab");
    setAttr(tab, "aria-selected", active ? "true" : "false");
    setAttr(tab, "tabindex", active ? "0" : "-1");  // one tab stop for the list; arrows inside
    idOf(tab, "gp-tab");
    if (!matched) return;
    const panel = panels[i];
    setAttr(tab, "aria-controls", idOf(panel, "gp-tabpanel"));
    setAttr(panel, "role", "tabpanel");
    setAttr(panel, "aria-labelledby", tab.id);
    if (panel.inert !== !active) panel.inert = !active;  // a hidden panel's links and fields leave the Tab order
    setAttr(panel, "tabindex", active ? "0" : null);     // Tab from the tab lands in the panel (it scrolls)
  });
}

function tabKeys(e) {
  const tab = e.composedPath()[0];
  if (!tab || !tab.classList || !tab.classList.contains("bk-tab") || tab.getAttribute("role") !== "tab") return;
  const tabs = tabsOf(tab.parentElement);
  if (!tabs.length) return;
  const i = tabs.indexOf(tab);
  let next = null;
  if (e.key === "ArrowRight") next = tabs[(i + 1) % tabs.length];
  else if (e.key === "ArrowLeft") next = tabs[(i - 1 + tabs.length) % tabs.length];
  else if (e.key === "Home") next = tabs[0];
  else if (e.key === "End") next = tabs[tabs.length - 1];
  else if (e.key === "Enter" || e.key === " ") next = tab;
  if (!next) return;
  e.preventDefault();
  e.stopPropagation();
  if (!next.classList.contains("bk-active")) next.click();  // Bokeh's own handler: the app hears it
  enhanceTabs(tab.parentElement);  // aria-selected and the inert panels follow at once
  next.focus();
}

// ------------------------------------------------------------------ the code editor (Ace)
// CodeMirror's convention: Esc (or Ctrl+M) puts the editor in "Tab moves focus" mode until the
// next key; Tab and Shift+Tab then leave it forwards or backwards, the text input untouched.
const hint = { el: null, editor: null };

function hintEl() {
  if (hint.el) return hint.el;
  const el = document.createElement("div");
  el.id = "gp-editor-hint";
  el.setAttribute("aria-hidden", "true");  // the text input's name says the same to a screen reader
  el.hidden = true;
  document.body.appendChild(el);
  hint.el = el;
  return el;
}

function placeHint() {
  const el = hint.el;
  if (!el || el.hidden || !hint.editor) return;
  const r = hint.editor.container.getBoundingClientRect();
  if (!r.width) { el.hidden = true; return; }
  el.style.right = `${Math.max(4, window.innerWidth - r.right + 18)}px`;   // clear of the scrollbar
  el.style.top = `${Math.max(0, r.bottom - el.offsetHeight - 6)}px`;
}

function showHint(editor) {
  const el = hintEl();
  hint.editor = editor;
  el.textContent = editor.gpTabLeaves ? HINT_LEAVING : HINT_EDITING;
  el.classList.toggle("gp-leaving", !!editor.gpTabLeaves);
  el.hidden = false;
  placeHint();
}

function hideHint() { if (hint.el) hint.el.hidden = true; hint.editor = null; }

function setTabLeaves(editor, on) {
  if (!!editor.gpTabLeaves === on) return;
  editor.gpTabLeaves = on;
  editor.container.classList.toggle("gp-tab-leaves", on);
  if (editor.isFocused()) showHint(editor);
}

const editorOf = (e) => {
  for (const el of e.composedPath()) {
    if (el.classList && el.classList.contains("ace_editor")) return el.env && el.env.editor;
  }
  return null;
};

// before Ace hears the key (capture, on the document): in "Tab moves focus" mode a Tab goes to
// the browser (focus moves, nothing is typed); any other key but a modifier ends the mode
function editorKeys(e) {
  const editor = editorOf(e);
  if (!editor || !editor.gpTabLeaves) return;
  // (immediate: a Tab that types nothing is no edit for the autosave either: static/loader.js)
  if (e.key === "Tab" && !e.ctrlKey && !e.altKey && !e.metaKey) { e.stopImmediatePropagation(); return; }
  if (!["Shift", "Control", "Alt", "Meta", "Escape"].includes(e.key)) setTabLeaves(editor, false);
}

function enhanceEditor(container) {
  const editor = container.env && container.env.editor;
  if (!editor) return;
  styleRoot(container.getRootNode());
  if (editor.gpA11y) return;
  editor.gpA11y = true;
  const input = editor.textInput && editor.textInput.getElement();
  try { editor.setOption("textInputAriaLabel", EDITOR_LABEL); } catch (err) { /* an older Ace: set below */ }
  if (input && !(input.getAttribute("aria-label") || "").includes("Escape")) input.setAttribute("aria-label", EDITOR_LABEL);
  // Esc leaves (outside the editor, Esc stops a run: static/loader.js); Ctrl+M is CodeMirror's
  // key for the same. Not while a popup or several cursors want Esc.
  editor.commands.addCommand({
    name: "gpTabLeaves", bindKey: { win: "Esc|Ctrl-M", mac: "Esc|Ctrl-M" }, readOnly: true,
    exec: (ed) => {
      if (ed.inMultiSelectMode || (ed.completer && ed.completer.activated)) return false;
      setTabLeaves(ed, true);
      return true;
    },
  });
  // Ace's scrollbars are scrollable divs, which Chromium puts in the Tab order, nameless: the
  // editor scrolls with its cursor anyway
  for (const bar of container.querySelectorAll(".ace_scrollbar")) bar.tabIndex = -1;
  editor.on("focus", () => showHint(editor));
  editor.on("blur", () => {
    setTabLeaves(editor, false);
    setTimeout(() => { if (hint.editor === editor && !editor.isFocused()) hideHint(); }, 0);
  });
}

// ------------------------------------------------------------------ scrollable regions
// Split in a read (layout) and a write, so that a slice measures all its regions first: one
// layout for them all, not one per region after another's write.
function scrollNeedsFocus(el) {
  if (!el.isConnected || el.hasAttribute("tabindex") || el.inert || el.getAttribute("role") === "tabpanel" || el.closest("[inert]")) return false;
  const scrolls = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
  if (!scrolls) return false;
  const style = getComputedStyle(el);
  if (!/(auto|scroll)/.test(style.overflow + style.overflowX + style.overflowY)) return false;
  return !el.querySelector("a[href], button, input, select, textarea, [tabindex]");
}

function giveFocus(el) {
  el.tabIndex = 0;
  if (!el.getAttribute("role")) {  // a focus stop needs a name, and a generic element cannot carry one
    el.setAttribute("role", "region");
    el.setAttribute("aria-label", REGION_NAMES.find(([cls]) => el.classList.contains(cls))?.[1] || "scrollable output");
  }
  styleRoot(el.getRootNode());
}

const isScroller = (cl) => cl.contains("gp-code") || cl.contains("gp-scroll-x") || cl.contains("scrollable-vertical");

// ------------------------------------------------------------------ passes
// A pass looks only at what changed (the nodes a mutation added, and the regions around it that
// may now scroll), not at the whole app: walking every element of every pane and measuring each
// scrolling region held the page's main thread for 0.3-2 s per run on a loaded machine (issue
// 26). And it works in slices of at most SLICE_ELEMENTS elements and SLICE_MS, each its own task
// (setTimeout between them), so that it never holds the page for long whatever the app's size.
const SLICE_ELEMENTS = 400, SLICE_MS = 8;
const observed = new WeakSet();
let observer = null;
let pending = false;
let walkAll = true;              // the next pass walks the whole app (first pass, a resize)
const dirty = new Set();         // nodes whose subtrees (shadow roots included) to look at
const around = new Set();        // nodes whose ancestors may have started (or stopped) scrolling
let walks = [];                  // the pass under way: iterators over the elements still to see
let slicing = false;             // a pass is under way (its next slice is scheduled)

// the main thread's time on these passes (gradpad.a11y.stats): passes, slices (tasks), elements
// looked at, the largest number in one slice and the longest slice
const stats = { passes: 0, slices: 0, ms: 0, elements: 0, maxSliceElements: 0, maxSliceMs: 0 };

function* deepFrom(node) {
  if (node.nodeType === Node.ELEMENT_NODE) {
    yield node;
    if (node.shadowRoot) yield* deepElements(node.shadowRoot);
  }
  if (node.querySelectorAll) yield* deepElements(node);
}

const hostOf = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;

function note(records) {
  for (const r of records) {
    const t = r.target;
    if (r.type === "attributes") {  // a tab shown or hidden: its list, and its panels' regions
      if (t.classList && t.classList.contains("bk-tab") && t.parentElement) {
        dirty.add(t.parentElement);
        const header = t.parentElement.closest(".bk-header");
        if (header) for (const p of panelsOf(header)) dirty.add(p);
      }
      continue;
    }
    const added = [...r.addedNodes].filter((n) => n.nodeType === Node.ELEMENT_NODE && n.id !== STYLE_ID);
    if (!added.length && !r.removedNodes.length) continue;  // our own <style>: nothing new
    for (const n of added) dirty.add(n);
    // a tabs view's panels changed: its list's panel links follow
    for (const c of t.children || []) if (c.classList.contains("bk-header")) dirty.add(c);
    around.add(t.nodeType === Node.ELEMENT_NODE ? t : t.host || t);
  }
  schedule();
}

function startPass(app) {
  if (walkAll) {
    walkAll = false;
    dirty.clear();
    around.clear();
    walks.push(deepFrom(app));
    return;
  }
  const scrollers = new Set();
  for (const n of around) {  // the regions around a change: its ancestors, across shadow roots
    for (let x = n.nodeType === Node.ELEMENT_NODE ? n : null; x && x !== document.body; x = hostOf(x)) {
      if (x.classList && isScroller(x.classList)) scrollers.add(x);
    }
  }
  around.clear();
  if (scrollers.size) walks.push(scrollers.values());
  for (const n of dirty) if (n.isConnected) walks.push(deepFrom(n));
  dirty.clear();
}

function pass() {
  pending = false;
  if (slicing) return;  // the pass under way schedules the next one when it ends
  const app = document.getElementById("app");
  if (!app) return;
  startPass(app);
  slicing = true;
  slice();
}

function slice() {
  const t0 = performance.now();
  const lists = new Set(), editors = [], scrollers = [];
  let n = 0;
  while (walks.length && n < SLICE_ELEMENTS && (n & 31 || performance.now() - t0 < SLICE_MS)) {
    const step = walks[0].next();
    if (step.done) { walks.shift(); continue; }
    const el = step.value;
    n++;
    if (el.shadowRoot && !observed.has(el.shadowRoot)) {
      observed.add(el.shadowRoot);
      // class: a tab shown; not style, which Bokeh's layout rewrites at every resize and patch
      observer.observe(el.shadowRoot, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
    }
    const cl = el.classList;
    if (!cl) continue;
    if (cl.contains("bk-tab") && el.parentElement) lists.add(el.parentElement);
    else if (cl.contains("ace_editor")) editors.push(el);
    else if (cl.contains("bk-btn-light") || cl.contains("bk-btn-warning")) styleRoot(el.getRootNode());
    else if (isScroller(cl)) scrollers.push(el);
  }
  lists.forEach(enhanceTabs);
  editors.forEach(enhanceEditor);
  const needFocus = scrollers.filter(scrollNeedsFocus);  // all reads, then the writes
  needFocus.forEach(giveFocus);
  for (const el of scrollers) if (!needFocus.includes(el)) watchSize(el);
  const ms = performance.now() - t0;
  stats.slices++;
  stats.ms += ms;
  stats.elements += n;
  stats.maxSliceElements = Math.max(stats.maxSliceElements, n);
  stats.maxSliceMs = Math.max(stats.maxSliceMs, ms);
  if (walks.length) { setTimeout(slice, 0); return; }  // the rest in another task
  slicing = false;
  stats.passes++;
  placeHint();
  if (dirty.size || around.size || walkAll) schedule();  // changes seen during the pass
}

// A region that does not scroll when a pass looks may start to later without a mutation the
// observer sees: Bokeh's layout gives its column a width by a style change (not watched, see
// slice), and long lines (WGSL, a jaxpr) then overflow. Look at it again when its box changes.
const sizeWatched = new WeakSet();
let sizeObserver = null;
function watchSize(el) {
  if (sizeWatched.has(el) || el.hasAttribute("tabindex") || typeof ResizeObserver !== "function") return;
  sizeWatched.add(el);
  sizeObserver = sizeObserver || new ResizeObserver((entries) => {
    for (const e of entries) {
      // gone (a box removed reports a last, empty size) or focusable now: nothing more to watch
      if (!e.target.isConnected || e.target.hasAttribute("tabindex")) sizeObserver.unobserve(e.target);
      else around.add(e.target);
    }
    if (around.size) schedule();
  });
  sizeObserver.observe(el);
}

function schedule() {
  if (pending) return;
  pending = true;
  setTimeout(pass, 120);  // one pass per burst of patches
}

export function installA11y(gradpad) {
  observer = new MutationObserver(note);
  observer.observe(document.body, { childList: true, subtree: true });
  document.addEventListener("keydown", tabKeys, true);
  document.addEventListener("keydown", editorKeys, true);
  // a tab clicked: Bokeh's handler (on the tab) has run when the click bubbles here, so the
  // panel shown stops being inert before anything else can reach it
  document.addEventListener("click", (e) => {
    const t = e.composedPath()[0];
    if (t && t.classList && t.classList.contains("bk-tab") && t.parentElement) enhanceTabs(t.parentElement);
  });
  window.addEventListener("resize", () => { placeHint(); walkAll = true; schedule(); });  // regions that now scroll
  document.addEventListener("scroll", placeHint, true);
  schedule();
  gradpad.a11y = { pass, stats, idle: () => !pending && !slicing, hint: () => (hint.el && !hint.el.hidden ? hint.el.textContent : null) };
}
