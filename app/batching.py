"""Many pane updates as one document update.

Each `column.objects = [...]` makes Panel walk the whole Bokeh document (~3000 models): it
recomputes the document's model index and runs its preprocessing hooks (links, stylesheets)
once per assignment, and posts each change as its own patch. In the page (Pyodide) that was
most of a run's time. Inside `one_update()` every assignment only swaps its children: the
index is recomputed once, the hooks run once, and the changes leave as one held batch.

This leans on Panel 1.9's internals (`Panel._batch_update`, `state._views`, the document's
freeze counter); without them (another Panel) it falls back to plain updates.
"""
from __future__ import annotations

import contextlib
import time


_layout_changed = False
flush_seconds = 0.0  # the last batch's send: the model index rebuilt, the held patches serialised and sent
# The page's link (app.bootstrap.link): sends a list of document events as ONE patch. Panel's
# own link serialises each event alone, and each serialisation walks every model of the
# document (~3000 here) for the references the page already has: tens of ms per batch in the
# page. A batch released here is collected and sent once.
_send_events = None
_collected: list | None = None
# Parts of a batch (issue 26, "never frozen"): the page applies a batch's patch in the parts marked
# here, each in a task of its own (static/patch_chunks.js), so that its main thread is never held
# by all of a run's panes at once. `part()` closes the part so far: each change held since the last
# mark is tagged with its part's number (PART_ATTR on the event), and the page's link
# (app.bootstrap) sends where each part starts.
PART_ATTR = "_gradpad_part"
_held_docs: list = []
_part = 0


def part() -> None:
    """Inside `one_update`: the changes made since the last call (or since the batch began) are
    one part of its patch; the next ones go in the next part. Outside a batch: nothing."""
    global _part
    if not _held_docs:
        return
    for doc in _held_docs:
        for event in getattr(doc.callbacks, "_held_events", ()):
            if getattr(event, PART_ATTR, None) is None:
                setattr(event, PART_ATTR, _part)
    _part += 1


def part_starts(events) -> list:
    """Where each part after the first begins in `events` (a batch's, in order): the indices at
    which an event's part differs from the one before it (an event not tagged belongs to the last)."""
    tags = [getattr(e, PART_ATTR, None) for e in events]
    tags = [float("inf") if t is None else t for t in tags]
    return [i for i in range(1, len(tags)) if tags[i] != tags[i - 1]]


def set_sender(send_events) -> None:
    global _send_events
    _send_events = send_events


def collect(event) -> bool:
    """Called for each document change on its way to the page: True when a batch took it."""
    if _collected is None:
        return False
    _collected.append(event)
    return True


def layout_changed() -> None:
    """A layout's children were replaced inside `one_update` (Panel's hooks must then run)."""
    global _layout_changed
    _layout_changed = True


@contextlib.contextmanager
def _frozen_index(models):
    """The document's model index frozen; rebuilt on the way out only if a change asked for it.

    Bokeh asks (`models.invalidate()`) whenever a property's old or new value holds models (a
    layout's children, a pane's new figure); a text or style change does not. The rebuild
    walks every model of the document (tens of ms in the page), so a batch of text and style
    changes (a hidden tab shown again, unchanged) skips it."""
    asked = []
    models._push_freeze()
    models.invalidate = lambda: asked.append(True)  # while frozen bokeh's own would do nothing
    try:
        yield
    finally:
        del models.invalidate
        if asked or _layout_changed:
            models._pop_freeze()
        else:
            models._freeze_count -= 1


@contextlib.contextmanager
def one_update():
    global _layout_changed, flush_seconds, _collected
    flush_seconds = 0.0
    try:
        from panel.io.document import hold
        from panel.io.state import state
        from panel.layout.base import Panel
        views = [(view, root, doc) for view, root, doc, _comm in list(state._views.values())
                 if doc is not None and hasattr(doc, "models")]
        Panel._batch_update  # noqa: B018 - the flag this relies on exists
    except Exception:  # noqa: BLE001 - another Panel: unbatched, still correct
        yield
        return
    if not views or Panel._batch_update:  # nothing rendered yet, or already inside a batch
        yield
        return
    docs = list(dict.fromkeys(doc for _v, _r, doc in views))
    flush_started = time.perf_counter()
    try:
        with contextlib.ExitStack() as stack:
            for doc in docs:
                stack.enter_context(hold(doc))        # exits last: the changes leave together
            for doc in docs:
                stack.enter_context(_frozen_index(doc.models))  # exits first: the index rebuilt once, if needed
            _layout_changed = False
            Panel._batch_update = True
            _held_docs[:] = docs
            try:
                yield
            finally:
                Panel._batch_update = False
                _held_docs.clear()
            if _layout_changed:  # the hooks each update skipped, once (text changes need none)
                for view, root, _doc in views:
                    view._preprocess(root)
            flush_started = time.perf_counter()
            if _send_events is not None:
                _collected = []  # the hold's release (on leaving this block) passes its events here
    finally:  # whatever happened, events are never left collected (the page would see none again)
        events, _collected = _collected, None
        if events:
            _send_events(events)
    flush_seconds = time.perf_counter() - flush_started
