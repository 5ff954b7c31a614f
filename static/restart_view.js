// After a Stop or Restart that ended the worker, the old app stays in sight, greyed and inert
// (#app.gp-stale), until the new Python shows its own. With no standby ready that takes seconds
// (a fresh Pyodide, numpy, the engine, Panel): meanwhile a note says that the panes are from
// before the Stop, the old view's editor takes typing (the rest stays inert: it belongs to the
// ended Python), and the code the new app opens with is read from it only when the new Python
// is ready to show its app (loader.js restart).

function findEditor(root) {
  for (const el of root.querySelectorAll("*")) {
    if (el.classList && el.classList.contains("ace_editor") && el.env) return el;
    const inner = el.shadowRoot && findEditor(el.shadowRoot);
    if (inner) return inner;
  }
  return null;
}

// the note above the old view, gone with it (when #app is no longer stale)
function restartNote(app) {
  const note = document.createElement("p");
  note.className = "gp-restart-note";
  note.setAttribute("role", "status");
  note.textContent = "Starting a fresh Python… The panes below are from before the Stop. " +
    "You can keep typing: the new Python opens the code as you leave it.";
  app.before(note);
  const gone = new MutationObserver(() => {
    if (app.classList.contains("gp-stale")) return;
    note.remove();
    gone.disconnect();
  });
  gone.observe(app, { attributes: true, attributeFilter: ["class"] });
}

// `until`: the new worker is ready to show its app (or failed: then the caller goes on too).
// Returns whether an editor was there to type in.
export async function keepTyping(app, until) {
  const ace = findEditor(app);
  restartNote(app);
  if (ace) ace.style.pointerEvents = "auto"; // #app.gp-stale's `pointer-events: none` is inherited
  try {
    await until;
  } finally {
    if (ace) {
      ace.style.pointerEvents = "";
      // the code is read now: what is typed from here on could not reach the new app
      ace.env.editor.setReadOnly(true);
    }
  }
  return !!ace;
}
