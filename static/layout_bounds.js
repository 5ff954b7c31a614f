// Layout boxes: parts of the app whose size does not depend on what they hold (a pane of fixed
// height that scrolls, the editor's column of fixed width). BokehJS 3.9 answers every change of a
// layout's content (new children, a widget drawn again, a resize) by laying out the WHOLE
// document: it measures and repaints every plot of every tab, hidden ones included. Measured on
// the app (headless Chromium, a loaded 2-core machine): 4-7 such passes of 160-720 ms each per
// run, for any program size, and the page's main thread blocked for seconds.
//
// A change inside a box cannot move or resize anything outside it, so here it lays out that box
// only; what a box's content does to the page around it (nothing, by design) would otherwise reach
// the page through BokehJS's own resize observers, which still lay out whatever resized. The app
// marks its boxes with the CSS class BOX_CLASS (app/main.py); everything else is BokehJS's own.
export const BOX_CLASS = "gp-layout-box";

// state: {installed, local: passes done inside a box, whole: passes over the whole document,
//         coalesced: asks for a box already waiting for its layout (or inside one that is),
//         deferred: boxes not shown when their turn came, left until they are, views: views built,
//         rootResizes: resizes of a root of boxes, left to the boxes, restyled: boxes whose own
//         styles changed, made again from the root}
export function installLayoutBoxes(Bokeh, state) {
  let LayoutDOMView;
  try {
    LayoutDOMView = Bokeh.require("models/layouts/layout_dom").LayoutDOMView;
  } catch (e) {
    return; // another BokehJS: its own layout, unchanged
  }
  const proto = LayoutDOMView && LayoutDOMView.prototype;
  const invalidate = proto && proto.invalidate_layout, compute = proto && proto.compute_layout;
  if (typeof invalidate !== "function" || typeof compute !== "function") return;

  state.coalesced = state.coalesced || 0;
  state.deferred = state.deferred || 0;
  const isBox = (v) => { const c = v.model && v.model.css_classes; return !!c && c.includes(BOX_CLASS); };
  // the innermost box holding view `v` (itself included), or null: the document's root decides
  const boxOf = (v) => {
    for (let x = v; x instanceof LayoutDOMView; x = x.parent) if (isBox(x)) return x;
    return null;
  };
  // A figure has a layout of its own (its frame, axes and title), made for the size it had then:
  // it is stale when the figure has another size now (and is shown at all)
  const stale = (v) => v.layout != null && v.layout.bbox != null && v.is_displayed && v.bbox.width > 0
    && v.bbox.height > 0 && (v.layout.bbox.width !== v.bbox.width || v.layout.bbox.height !== v.bbox.height);
  const figuresIn = (v, out = []) => {
    for (const c of v.child_views || []) {
      if (!(c instanceof LayoutDOMView)) continue;
      if (c.canvas_view != null && isBox(c)) out.push(c);
      else figuresIn(c, out);
    }
    return out;
  };
  // what BokehJS does at the root (compute_layout), for the box's views only
  const pass = (box) => {
    box.measure_layout();
    box.update_bbox();
    box._compute_layout();
    box.after_layout();
    box._layout_computed = true;
    state.local++;
  };
  // ... and then for each figure in the box that the pass left stale: an outer box's pass left
  // the figures of Panel's hidden tabs (visibility: hidden, so still sized) at their old size
  const layOut = (box) => {
    pass(box);
    for (const fig of figuresIn(box)) if (stale(fig)) pass(fig);
  };
  // A box is laid out once however many of its views changed (a patch sets a pane's children,
  // then each new child's content: each asked for the box again), after the patch, each box in a
  // task of its own (the page is held by one box's layout at a time, not by all of a run's). A box
  // the page does not show (a figure or pane in a tab not shown: display none, which Bokeh's
  // Tabs sets on the panel) is laid out, and its figures painted, when it is shown: its size then
  // changes from nothing, and BokehJS's resize observer asks for its layout again.
  const queued = new Set();
  let flushing = false;
  const up = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;
  const shown = (box) => {  // inline styles only: asking the browser (checkVisibility) restyled the page
    if (!box.el.isConnected) return false;
    for (let x = box.el; x; x = up(x)) if (x.style && x.style.display === "none") return false;
    return true;
  };
  const inside = (v, box) => { for (let x = v.parent; x; x = x.parent) if (x === box) return true; return false; };
  const describe = (v) => {
    const title = v.model.title && v.model.title.text;
    return `${v.model.type}${title ? ` "${title}"` : ""} ${(v.model.css_classes || []).join(".")}`.trim()
      + ` (${figuresIn(v).length} figures in)`;
  };
  const flush = () => {
    const box = queued.values().next().value;
    queued.delete(box);
    for (const q of [...queued]) if (inside(q, box)) { queued.delete(q); state.coalesced++; }  // laid out with it
    try {
      const t0 = performance.now();
      if (shown(box)) layOut(box);
      else state.deferred++;
      // the latest passes, for the benches (tools/trace_gaps.py): how long, and what was laid out
      const ms = performance.now() - t0;
      if (ms > 20) state.log = [...(state.log || []).slice(-29), { ms: Math.round(ms), what: describe(box) }];
    } catch (e) {  // counted, for the tests and benches to see
      state.failed = (state.failed || 0) + 1;
      state.error = `${String(e && e.stack || e).slice(0, 300)} in ${box.model.type} ${box.model.css_classes.join(" ")}`;
    } finally {  // a layout that throws must not stop every later one
      if (queued.size) setTimeout(flush, 0);
      else flushing = false;
    }
  };
  const layOutSoon = (box) => {
    if (queued.has(box)) { state.coalesced++; return; }
    queued.add(box);
    if (!flushing) { flushing = true; setTimeout(flush, 0); }
  };
  // A layout may put styles on its children's own stylesheets (Panel's Tabs stacks its panes with
  // `grid-area`), after their own rules; a box's update_layout makes its own rules again and
  // clears those: the panes of the tabs then stood one under the other. They are kept when the
  // box's own rules come out as before; otherwise the styles are made again from the root, as
  // BokehJS does (its CSS only: the measuring and painting stay in the box).
  const rootOf = (v) => { let x = v; while (x.parent instanceof LayoutDOMView) x = x.parent; return x; };
  const restyle = (box) => {
    const before = box.style && typeof box.style.css === "string" ? box.style.css : null;
    box.update_layout();
    const own = before === null ? null : box.style.css;
    if (own !== null && own !== before && before.startsWith(own)) box.style.replace(before);
    else if (own === null || own !== before) { state.restyled++; rootOf(box).update_layout(); }
  };
  proto.invalidate_layout = function () {
    const box = boxOf(this);
    if (!box) { if (!(this.parent instanceof LayoutDOMView)) state.whole++; return invalidate.call(this); }
    restyle(box);
    layOutSoon(box);
  };
  proto.compute_layout = function () {
    const box = boxOf(this);
    if (!box) { if (!(this.parent instanceof LayoutDOMView)) state.whole++; return compute.call(this); }
    layOutSoon(box);
    this._layout_computed = true;
  };
  // The app's root is a row of boxes: when it resizes (a box grew taller, the window changed),
  // the figures whose size changed are laid out, each on its own. They are found here: the root's
  // resize observer fires first and its update_bbox sets every view's new size, so a box's own
  // observer then finds its size unchanged and lays out nothing (a figure kept the layout of its
  // last size: 894 px of frame drawn on a 359 px canvas at 390 px, the axis past the pane's edge)
  // Only figures are laid out here: the columns' CSS follows the window by itself, and a column's
  // pass while its new children were still being built threw (an assertion in BokehJS's grid)
  const afterResize = proto._after_resize;
  if (typeof afterResize === "function") {
    proto._after_resize = function () {
      const views = this.child_views || [];
      if (!(this.parent instanceof LayoutDOMView) && this._layout_computed && views.length && views.every(isBox)) {
        state.rootResizes++;
        for (const fig of figuresIn(this)) if (stale(fig)) layOutSoon(fig);
        return;
      }
      return afterResize.call(this);
    };
  }
  // views: LayoutDOM views built so far (figures, panes, widgets): a program whose panes have
  // the structure of the last one's builds none (its data goes into the views shown)
  state.views = state.views || 0;
  const initialize = proto.initialize;
  if (typeof initialize === "function") {
    proto.initialize = function (...args) { state.views++; return initialize.apply(this, args); };
  }
  state.installed = true;
}
