// The theme switched in place (issue 26): no reload, no new document, the panes stay.
// The page's CSS and the app's pane CSS follow <html data-theme> by themselves (static/style.css,
// app.panes.common.tv); what the app's document names by theme is changed here: Panel's theme
// stylesheet (one ImportedStyleSheet that every model refers to) and the code editor's theme. The
// caller keeps these changes from going back to Python as edits: Python is told of the switch
// (app/theme_switch.py), makes the same changes, and sets the Bokeh figures' colours (drawn on a
// canvas: no CSS reaches them) in place.

import { A11Y_STYLE_ID, shadowCss } from "./a11y.js";

const PANEL_THEME_CSS = /\/theme\/(default|dark)\.css/;
const PANEL_THEMES = { light: "default", dark: "dark" };
const EDITOR_THEMES = { light: "chrome", dark: "tomorrow_night" }; // as app.main.EDITOR_THEMES

const typeOf = (m) => m.constructor.__qualified__ || m.type || "";

// every element under `root`, shadow roots included (BokehJS renders into them)
function* deepElements(root) {
  for (const el of root.querySelectorAll("*")) {
    yield el;
    if (el.shadowRoot) yield* deepElements(el.shadowRoot);
  }
}

// What shows `theme` at once: the stylesheet links that BokehJS made from Panel's theme stylesheet
// in every shadow root, static/a11y.js's styles there, and the code editor's theme (the page's
// <html data-theme> must already say `theme`). {editor_ms, page_ms}
export function restylePage(jsdoc, theme, root) {
  const t0 = performance.now();
  for (const m of jsdoc.all_models)
    if (typeOf(m) === "panel.models.ace.AcePlot" && m.theme !== EDITOR_THEMES[theme]) m.theme = EDITOR_THEMES[theme];
  const t1 = performance.now();
  const css = `/theme/${PANEL_THEMES[theme]}.css`;
  const a11yCss = shadowCss();
  for (const el of deepElements(root)) {
    if (el.tagName === "LINK" && PANEL_THEME_CSS.test(el.getAttribute("href") || "")) {
      const href = el.getAttribute("href").replace(PANEL_THEME_CSS, css);
      if (href !== el.getAttribute("href")) el.setAttribute("href", href);
    } else if (el.id === A11Y_STYLE_ID && el.textContent !== a11yCss) {
      el.textContent = a11yCss; // static/a11y.js: its buttons' colours in the dark theme
    }
  }
  return { editor_ms: Math.round(t1 - t0), page_ms: Math.round(performance.now() - t1) };
}

// The theme stylesheet's model itself (views made later link what it says), after the switch has
// shown: BokehJS restyles every view when it changes, which takes a while (ms returned).
export function restyleSheets(jsdoc, theme) {
  const t0 = performance.now();
  const css = `/theme/${PANEL_THEMES[theme]}.css`;
  for (const m of jsdoc.all_models)
    if (typeOf(m) === "ImportedStyleSheet" && PANEL_THEME_CSS.test(m.url || "")) m.url = m.url.replace(PANEL_THEME_CSS, css);
  return Math.round(performance.now() - t0);
}
