"""`window.gradpad.load()` / `.snapshot()` for the page, and the same calls for a host page
through postMessage to an embedded iframe. Pyodide only (imported by main.create_app there).

Host protocol: post `{gradpad: "load", id, args: {code, example, panes}}` or
`{gradpad: "snapshot", id}` to the iframe; it answers `{gradpad: "result", id, result}` or
`{gradpad: "error", id, error}` to the sender's origin."""
from __future__ import annotations

import json

_JS_GLUE = """
const gp = window.gradpad || (window.gradpad = {});
gp.load = async (opts) => JSON.parse(await pyLoad(JSON.stringify(opts || {})));
gp.snapshot = async () => JSON.parse(await pySnapshot());
if (!gp._keys) {
  gp._keys = true;
  // Ctrl/Cmd+Enter runs (the editor lives in a shadow root: keydown is composed, so it reaches here)
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); pyRun(); }
  }, true);
  // a share link or #example=NAME pasted into this tab: apply it without a reload
  window.addEventListener("hashchange", () => pyHash(location.hash));
}
if (!gp._messages) {
  gp._messages = true;
  window.addEventListener("message", async (ev) => {
    const m = ev.data;
    if (!m || typeof m !== "object" || !["load", "snapshot"].includes(m.gradpad)) return;
    const reply = (msg) => ev.source && ev.source.postMessage({ ...msg, id: m.id }, ev.origin === "null" ? "*" : ev.origin);
    try {
      const result = m.gradpad === "load" ? await gp.load(m.args) : await gp.snapshot();
      reply({ gradpad: "result", result });
    } catch (e) {
      reply({ gradpad: "error", error: String(e && e.message || e) });
    }
  });
}
"""


EMBED_CSS = "header.gp-header, #gp-notice { display: none !important; } main { padding: 0 !important; }"


def install(playground) -> None:
    import js
    from pyodide.ffi import create_proxy

    if playground.embed.embed:  # an iframe has no room for the site's header and notices
        style = js.document.createElement("style")
        style.textContent = EMBED_CSS
        js.document.head.appendChild(style)

    async def py_load(opts_json):
        opts = json.loads(str(opts_json))
        return json.dumps(playground.load(code=opts.get("code"), example=opts.get("example"),
                                          panes=opts.get("panes")))

    async def py_snapshot():
        return json.dumps(playground.snapshot())

    def py_run():
        playground.run(function=playground.function_select.value or None)

    def py_hash(fragment):
        from app import share
        try:
            state = share.parse_hash(str(fragment))
        except ValueError as e:
            playground._notify(str(e))
            return
        if state is not None:
            playground._stash_unsaved()
            playground.apply_state(state, run=True)

    glue = js.Function.new("pyLoad", "pySnapshot", "pyRun", "pyHash", _JS_GLUE)
    # the proxies live as long as the page: they are never destroyed
    glue(create_proxy(py_load), create_proxy(py_snapshot), create_proxy(py_run), create_proxy(py_hash))
