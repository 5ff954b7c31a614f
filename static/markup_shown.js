// Panel's HTML panes (panel.models.markup, Panel 1.9) show their text only once their <link>
// stylesheets have loaded: render() sets the text's container to `visibility: hidden`, and a
// load event per link (three per pane: Panel's loading and theme CSS, CSS variables only) sets it
// to `visibility: visible` a frame later. Two defects on this page (issue 26):
//   - every pane a run's patch brings anew showed nothing for as long as those load events waited
//     behind the page's other work (seconds on a loaded machine): right after the app reported a
//     run done, a pane showed only its controls (the Timing pane's ×1 ×10..., the Plots pane's
//     legend toggles) without its text;
//   - `visible` is an inline style on the container, which beats the `visibility: hidden` the app
//     puts on a pane's column while its results are recomputed (app/pane_updates.py `hide`): the
//     last program's text showed through under "computing…" / "measuring eager vs jit…".
// Here a pane's container is `visibility: inherit` instead of `visible` (it follows the column),
// and once a stylesheet URL has loaded on this page a new pane using it shows its text at once
// (the browser holds that CSS; its rules are CSS variables a frame's wait does not change).
// state: {installed, atOnce: panes shown at render, waited: panes that waited for their sheets}
export function installMarkupShown(Bokeh, state) {
  let View;
  try {
    View = Bokeh.Models.get("panel.models.markup.HTML").prototype.default_view;
  } catch (e) {
    return; // another Panel: its own behaviour
  }
  const protos = [];
  for (let p = View && View.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.hasOwn(p, "style_redraw") || Object.hasOwn(p, "render")) protos.push(p);
    if (protos.length >= 2) break; // HTMLView and Panel's markup base view
  }
  if (!protos.length) return;
  state.atOnce = state.atOnce || 0;
  state.waited = state.waited || 0;
  const loaded = new Set(); // stylesheet URLs seen loaded on this page
  const links = (view) => (view._applied_stylesheets || []).map((s) => s && s.el)
    .filter((el) => el instanceof HTMLLinkElement).map((el) => el.href);
  // the container's visibility "visible" (set by any of Panel's code paths: the property, or
  // setProperty as BokehJS applies styles) becomes "inherit"
  const following = (container) => {
    const style = container.style;
    if (Object.hasOwn(style, "setProperty")) return;
    const set = CSSStyleDeclaration.prototype.setProperty;
    const setProperty = (name, value, priority) => set.call(style, name,
      name === "visibility" && String(value).trim() === "visible" ? "inherit" : value, priority);
    Object.defineProperty(style, "setProperty", { configurable: true, value: setProperty });
    Object.defineProperty(style, "visibility", {
      configurable: true,
      get: () => style.getPropertyValue("visibility"),
      set: (v) => setProperty("visibility", v),
    });
  };
  const patched = new Set();
  for (const proto of protos) {
    if (Object.hasOwn(proto, "render") && !patched.has("render")) {
      patched.add("render");
      const render = proto.render;
      proto.render = function (...args) {
        const out = render.apply(this, args);
        if (this.container && this.container.style) {
          following(this.container);
          const own = links(this);
          // a pane whose model is not visible (a collapsed Card's body) stays hidden, as Panel keeps it
          const visible = !this.model || this.model.visible !== false;
          if (visible && this.container.style.visibility === "hidden" && own.every((href) => loaded.has(href))) {
            this.container.style.visibility = "inherit";
            state.atOnce++;
          } else if (this.container.style.visibility === "hidden") state.waited++;
        }
        return out;
      };
    }
    if (Object.hasOwn(proto, "style_redraw")) {
      const redraw = proto.style_redraw;
      proto.style_redraw = function (...args) {
        const out = redraw.apply(this, args);
        if (this.container) for (const href of links(this)) loaded.add(href); // called once they loaded
        return out;
      };
    }
  }
  state.installed = patched.has("render");
}
