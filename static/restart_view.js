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

// the note above the old view, gone with it (when #app is no longer stale); `progress()`: where
// the new Python's start is ("loading numpy… about 9 s left"), the note says it every PROGRESS_MS
const PROGRESS_MS = 500;
function restartNote(app, progress) {
  const note = document.createElement("p");
  note.className = "gp-restart-note";
  note.setAttribute("role", "status");
  const rest = " The panes below are from before the Stop; variables from earlier runs are gone. " +
    "You can keep typing: the new Python opens the code as you leave it.";
  const line = document.createElement("span");
  line.className = "gp-restart-progress";
  line.setAttribute("aria-live", "off"); // the start is said once; its countdown is for the eye
  const say = () => { line.textContent = "Starting a fresh Python" + (progress ? `: ${progress()}.` : "…"); };
  say();
  note.append(line, rest);
  app.before(note);
  const ticks = progress ? setInterval(say, PROGRESS_MS) : 0;
  const gone = new MutationObserver(() => {
    if (app.classList.contains("gp-stale") && app.isConnected) return;
    clearInterval(ticks);
    note.remove();
    gone.disconnect();
  });
  gone.observe(app, { attributes: true, attributeFilter: ["class"] });
}

// The old view's editor takes typing (#app.gp-stale's `pointer-events: none` is inherited: the
// rest of the old view stays inert) until the new view replaces it. Returns that editor, or null.
export function liveEditor(app) {
  const ace = findEditor(app);
  if (ace) ace.style.pointerEvents = "auto";
  return ace;
}

// `until`: the new worker is ready to show its app (or failed: then the caller goes on too).
// Returns the old view's editor (live: see liveEditor), or null.
// The new app opens with the code read once the learner pauses: a key pressed less than TYPING_MS
// ago holds the read (up to HOLD_MS), so a restart that ends mid-word loses no keystroke. What is
// typed after the read (while the new app draws) is carried over by lateTyping/carryTyping.
const TYPING_MS = 600;
const HOLD_MS = 5000;
export async function keepTyping(app, until, progress = null) {
  const ace = liveEditor(app);
  restartNote(app, progress);
  let lastKey = -Infinity;
  const typed = () => { lastKey = performance.now(); };
  if (ace) ace.addEventListener("keydown", typed, true);
  try {
    await until;
    const held = performance.now();
    while (performance.now() - lastKey < TYPING_MS && performance.now() - held < HOLD_MS)
      await new Promise((r) => setTimeout(r, 100));
  } finally {
    if (ace) ace.removeEventListener("keydown", typed, true);
  }
  return ace;
}

// What was typed into the old view's editor after its code (`code`: what the new Python opens
// with) was read: read just before the old view goes. null: nothing was.
export function lateTyping(ace, code) {
  if (!ace || !ace.env || typeof code !== "string") return null;
  const ed = ace.env.editor;
  const text = ed.getValue();
  if (text === code) return null;
  return { text, cursor: ed.getCursorPosition(), focused: ed.isFocused() };
}

// ...put into the new view's editor once that is in the page, as if typed there (the app hears of
// it as of any edit); the caret where it was, and the focus if the old editor had it. Returns
// whether it was carried (not into a read-only editor).
export function carryTyping(app, late) {
  if (!late) return false;
  const ace = findEditor(app);
  if (!ace || ace.env.editor.getReadOnly()) return false;
  const ed = ace.env.editor;
  ed.setValue(late.text, 1);
  ed.clearSelection();
  ed.moveCursorToPosition(late.cursor);
  if (late.focused) ed.focus();
  return true;
}

// Where a new Python's start is, and about how long is left: `stage` the worker's last stage
// (runtime, numpy, engine, ui), `elapsedMs` since it started, `expectedMs` how long the last start
// in this page took (null: not known).
const STAGE_WORDS = { runtime: "the Python runtime", numpy: "numpy", engine: "the engine", ui: "the app" };
const STAGE_ORDER = ["runtime", "numpy", "engine", "ui"];
export function startProgress(stage, elapsedMs, expectedMs) {
  const i = STAGE_ORDER.indexOf(stage);
  const what = i < 0 ? "starting" : `loading ${STAGE_WORDS[stage]} (step ${i + 1} of ${STAGE_ORDER.length})`;
  if (!expectedMs) return what;
  const left = Math.round((expectedMs - elapsedMs) / 1000);
  return left >= 1 ? `${what}, about ${left} s left` : `${what}, almost there`;
}
