// The first view before Python is ready: the app's document for the default example, rendered
// when the site was built by the real app and engine (tools/preview.py), shown as soon as BokehJS
// is parsed. A banner says it is a preview; the editor in it takes typing at once, and what is
// typed there is handed to the live app (loader.js) when the worker renders it. Only for a page
// that opens the default example's code: a link, other autosaved code or an embed start elsewhere.
const BASE_MARK = "__GRADPAD_BASE__/";

export function previewWanted() {
  if (location.hash) return false;
  const q = new URLSearchParams(location.search);
  q.delete("nosnapshot");
  q.delete("snapshot"); // how Python starts (loader.js), not what the page shows
  return [...q.keys()].length === 0;
}

// the text of the Ace editor inside `root` (Panel's CodeEditor lives in shadow roots)
export function aceEditor(root) {
  for (const el of root.querySelectorAll("*")) {
    if (el.classList.contains("ace_editor") && el.env) return el.env.editor;
    const inner = el.shadowRoot && aceEditor(el.shadowRoot);
    if (inner) return inner;
  }
  return null;
}

// deps: {base, theme, saved: the autosaved code or undefined, bokeh() -> Promise, loadResources(spec),
//        guard(item) -> what is refused or null, beforeEmbed(model json), mark(name),
//        wanted() -> false once the page shows another editor (the basic one)}
export function startPreview(deps) {
  const state = { shown: false, views: null, code: null, live: false };
  const banner = document.createElement("p");
  banner.id = "gp-preview-note";
  banner.setAttribute("role", "status");
  banner.textContent = "Preview: these panes were computed when this site was built, from the code " +
    "below. Python is still loading; you can already edit the code, and it runs as soon as Python is ready.";
  state.done = (async () => {
    const got = fetch(new URL(`preview-${deps.theme}.json`, deps.base)).then((r) => (r.ok ? r.json() : null));
    const bokehReady = deps.bokeh();
    const preview = await got;
    deps.mark("preview:json");
    if (!preview || state.live || !deps.wanted()) return;
    if (deps.saved !== undefined && deps.saved !== preview.code) return; // the app opens other code
    const text = preview.model.split(BASE_MARK).join(deps.base.href);
    // the editor's scripts (Ace) need no BokehJS: both load at once (executed in order)
    await Promise.all([bokehReady,
      deps.loadResources(JSON.parse(JSON.stringify(preview.resources).split(BASE_MARK).join(deps.base.href)))]);
    if (state.live || !deps.wanted()) return;
    deps.mark("preview:resources");
    const item = JSON.parse(text);
    const refused = deps.guard(item); // the same model allow-list as the live app's (static/guard.js)
    if (refused) throw new Error(`the preview holds ${refused}`);
    deps.beforeEmbed(text);
    const app = document.getElementById("app");
    app.before(banner);
    state.views = await window.Bokeh.embed.embed_item(item);
    state.code = preview.code;
    state.shown = true;
    document.documentElement.classList.add("gp-previewing");
    deps.mark("preview");
  })().catch((e) => console.warn("gradpad: no preview", e));
  // The live document is about to replace the preview: what the visitor typed, or null
  state.handOver = () => {
    state.live = true;
    banner.remove();
    document.documentElement.classList.remove("gp-previewing");
    if (!state.shown) return null;
    const ed = aceEditor(document.getElementById("app"));
    const typed = ed ? ed.getValue() : null;
    for (const v of state.views.roots) v.remove();
    state.shown = false;
    return typed !== null && typed !== state.code ? typed : null;
  };
  return state;
}
