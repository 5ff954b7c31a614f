// The page's changes to the app's document, on their way to the Python worker.
//
// BokehJS reports each property change as its own event. One keystroke in the editor sets two
// (the code and its live copy, code_input), and a replace (a selection typed over, a paste)
// is a removal then an insertion: four changes, each the whole code. Sent one by one, the
// worker applies each in turn and the app reacts to every intermediate text (autosave, the
// address bar, a run scheduled and dropped) before it sees the newest one. Here the changes of
// one task leave together, as ONE patch, holding the newest value of each property only.
//
// Properties that only report the page's layout back (a plot's measured size) are not sent:
// nothing in Python reads them, and each one cost the worker a patch to apply between a run's
// slices.
export const LAYOUT_ONLY = new Set(["inner_width", "inner_height", "outer_width", "outer_height"]);

// A ModelChangedEvent: a property set to a value (the column-data events hold `data` or
// `patches` instead, a message `msg_data`; those are never merged).
const isPropertyChange = (e) => e && e.model && typeof e.attr === "string" && "value" in e;

// The events of one task, in order, each property's last change only (at its last place).
export function coalesce(events) {
  const last = new Map();
  events.forEach((e, i) => { if (isPropertyChange(e)) last.set(e.model.id + "\u0000" + e.attr, i); });
  return events.filter((e, i) => !isPropertyChange(e) ||
    (!LAYOUT_ONLY.has(e.attr) && last.get(e.model.id + "\u0000" + e.attr) === i));
}

// {listen, flush}: `listen` is the on_change listener for `jsdoc`; it queues, and the queue
// leaves once the current task's code is done. `flush()` sends it now: called before any other
// message to the worker, so that a call made right after a change (an edit, then
// gradpad.snapshot()) still reaches Python after it. `send(patch)` posts; `stats` counts the
// events seen, merged into a later one, kept on the page (layout), and the patches sent.
export function makeOutbox(jsdoc, send, stats) {
  let queued = [];
  const flush = () => {
    if (!queued.length) return;
    const events = coalesce(queued);
    const layout = queued.filter((e) => isPropertyChange(e) && LAYOUT_ONLY.has(e.attr)).length;
    stats.events += queued.length;
    stats.layout += layout;
    stats.merged += queued.length - layout - events.length;
    queued = [];
    if (!events.length) return;
    stats.sent++;
    send(jsdoc.create_json_patch(events));
  };
  const listen = (event) => {
    if (!queued.length) queueMicrotask(flush);
    queued.push(event);
  };
  return { listen, flush };
}
