// One patch from the worker, applied in parts, each in a task of its own (issue 26: "never frozen").
//
// A run's changes leave the worker as ONE patch (app/batching.py: each patch costs Python a walk
// of the whole document): the inputs, the status line, the pane in view, the timing pane, the
// console... Applying it, BokehJS sets every HTML pane's text (parsed and sanitized), draws the
// figures' new data and builds, renders and measures a view for each new model, in the task that
// applied the patch (Panel's update_children ends in that task's microtasks). Measured on the app
// (headless Chromium, a 2-core machine): 200-450 ms in one task for a run's patch, the page frozen
// meanwhile. The worker marks where each pane's changes start (`patch.parts`: event indices, from
// app.batching.part); here each part is applied in a task of its own, in order, and the page gets
// a turn between two (its heartbeat, input, a frame).
//
// Order is kept, so a model referred to by id was made by an earlier part (BokehJS keeps every
// model a patch made in the document's index until its next recompute, 30 s later), and a pane
// shown again after being hidden (its styles) changes after its new children, never before.
// The loader holds back the worker's later messages until the last part is applied (the run's
// end, the panes' report): the page says "running" until everything the run changed shows.

// `events` split before each index of `starts` (ascending, inside the list; others are ignored).
export function splitAt(events, starts) {
  const cuts = Array.isArray(starts)
    ? [...new Set(starts.filter((i) => Number.isInteger(i) && i > 0 && i < events.length))].sort((a, b) => a - b)
    : [];
  const parts = [];
  let from = 0;
  for (const i of [...cuts, events.length]) {
    parts.push(events.slice(from, i));
    from = i;
  }
  return parts;
}

// A patch's parts as the page applies them: split where the worker said (before the guard
// dropped any event), then only the events the guard kept (`kept`: the patch's events after it).
export function patchParts(parts, kept) {
  const keep = new Set(kept);
  return parts.map((p) => p.filter((e) => keep.has(e))).filter((p) => p.length);
}

// A task boundary that the browser does not throttle in a background tab (setTimeout chains are).
export function nextTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
    ch.port2.postMessage(null);
  });
}
