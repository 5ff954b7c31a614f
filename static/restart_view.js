// After a Stop or Restart that ended the worker, the old app stays in sight, greyed and inert
// (#app.gp-stale), until the new Python shows its own. With no standby ready that takes seconds
// (a fresh Pyodide, numpy, the engine, Panel): meanwhile the old view's editor takes typing
// (the rest stays inert: it belongs to the ended Python), and the code the new app opens with is
// read from it only when the new Python is ready to show its app (loader.js restart).

function findEditor(root) {
  for (const el of root.querySelectorAll("*")) {
    if (el.classList && el.classList.contains("ace_editor") && el.env) return el;
    const inner = el.shadowRoot && findEditor(el.shadowRoot);
    if (inner) return inner;
  }
  return null;
}

// `until`: the new worker is ready to show its app (or failed: then the caller goes on too).
// Returns whether an editor was there to type in.
export async function keepTyping(app, until) {
  const ace = findEditor(app);
  if (ace) {
    ace.style.pointerEvents = "auto"; // #app.gp-stale's `pointer-events: none` is inherited
    ace.classList.add("gp-live-while-restarting");
  }
  try {
    await until;
  } finally {
    if (ace) {
      ace.style.pointerEvents = "";
      ace.classList.remove("gp-live-while-restarting");
    }
  }
  return !!ace;
}
