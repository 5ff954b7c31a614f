// Two style reads of BokehJS 3.9 that each make the browser recompute the page's styles when a
// patch has just changed them, many times per plot in the repaint after an edit.
//
// 1. CSS variables. BokehJS lets CSS override every visual property of a plot through custom properties
// (--bk-line-color, --bk-major-label-text-color, ...): each visual read (an axis's label colour,
// a glyph's fill) asks getComputedStyle(el).getPropertyValue(...). After a patch the page's
// styles are dirty, so each of those reads makes the browser recompute them first: in the repaint
// of an edit's plots, about half of its main-thread time (measured: 86 of 182 ms, jvp_and_vjp).
//
// No stylesheet of this site declares such a property (tests/browser/test_bokeh_style_reads.py
// checks the built files and every visual of a rendered page), so the answer is "" for as long as
// no CSS text naming one has reached the page. The page shows `declares(...)` everything that
// could bring one (the app's document, every patch from the worker); from the first that does,
// the reads go back to Bokeh's own lookup, for good.
const PREFIX = "--bk-";

// true when any string or key in `value` (a document's JSON text, a patch object) names a --bk- property
export function declares(value) {
  if (typeof value === "string") return value.includes(PREFIX);
  if (!value || typeof value !== "object" || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  if (value instanceof Map) return declares([...value.keys(), ...value.values()]);
  if (Array.isArray(value)) return value.some(declares);
  // a style's name is a key ({"--bk-text-color": "red"} in a model's `styles`)
  return Object.entries(value).some(([k, v]) => k.includes(PREFIX) || declares(v));
}

// state: {shortcut: true while the reads are answered here, reads: how many were}
export function installCssVarShortcut(Bokeh, state) {
  let proto;
  try {
    proto = Bokeh.require("core/visuals/visual").VisualProperties.prototype;
  } catch (e) {
    return () => {}; // another BokehJS: its own lookups, unchanged
  }
  const lookup = proto._get_css_value;
  if (typeof lookup !== "function") return () => {};
  state.shortcut = true;
  proto._get_css_value = function (name) {
    if (!state.shortcut) return lookup.call(this, name);
    state.reads++;
    return "";
  };
  // what arrives from now on: a --bk- property in it hands every read back to Bokeh
  return (value) => { if (state.shortcut && declares(value)) state.shortcut = false; };
}

// 2. A plot's font size. Every axis asks its plot for the font size its labels' "em" units
// scale with (getComputedStyle(plot).fontSize): per axis, for its measure and again for its
// paint, each after the previous plot's layout wrote its own stylesheet (measured: 51 ms of an
// edit's repaint, pytrees, once the CSS-variable reads were gone). A plot's font size changes
// only with the page's CSS (a patch's stylesheets or styles, a theme: a reload); so it is read
// once per plot per task, and not kept across a patch being applied (`applying()` true).
export function installFontSizeMemo(Bokeh, state, applying) {
  let proto, getter;
  try {
    proto = Bokeh.require("models/plots/plot_canvas").PlotView.prototype;
    getter = Object.getOwnPropertyDescriptor(proto, "base_font_size").get;
  } catch (e) {
    return; // another BokehJS: its own reads, unchanged
  }
  if (typeof getter !== "function") return;
  let memo = new Map();
  const forget = () => { memo = new Map(); };
  Object.defineProperty(proto, "base_font_size", {
    configurable: true,
    get() {
      if (applying() || !state.fontSizeMemo) return getter.call(this);
      if (!memo.size) queueMicrotask(forget);  // this task's reads only
      if (!memo.has(this)) memo.set(this, getter.call(this));
      else state.fontSizeReused++;
      return memo.get(this);
    },
  });
  state.fontSizeMemo = true;
}
