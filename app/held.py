"""Code that is shown but not run: after Python was ended under a run (Stop that had to end the
worker, Restart during a run, a crash) and on reopening a page whose last run never finished.

A run marks itself in the page's storage before it starts and clears the mark when it ends
(`started` / `ended`); a mark still there when the app opens means that code froze or crashed
the page last time, so the app shows it with a question instead of running it again. The
page's worker (static/worker.js, loader.js) passes the reason a fresh Python took over."""
from __future__ import annotations

import hashlib
import json
import sys
import time

from app import env

INFLIGHT_KEY = "gradpad.inflight"

# why the code is held (loader.js sends the first four with the worker that takes over)
REASONS = {
    "stopped": ("Stopped: Python was restarted, because this page cannot interrupt a running "
                "Python (it is not cross-origin isolated: an embed, a first visit or a browser "
                "without shared memory). Variables from earlier runs are gone. Your code is kept "
                "and was not run again."),
    "unresponsive": ("Stopped: Python was restarted, because the code did not respond to the "
                     "interrupt (C code such as a big matrix product, or a loop that catches "
                     "KeyboardInterrupt). Variables from earlier runs are gone. Your code is kept "
                     "and was not run again."),
    "restarted": ("Python was restarted while your code ran. Variables from earlier runs are "
                  "gone. Your code is kept and was not run again."),
    "crashed": ("Python stopped working (probably out of memory) and was restarted. Variables "
                "from earlier runs are gone. Your code is kept and was not run again, so it "
                "cannot crash the page again at once."),
    "unfinished": ("This code did not finish last time: the page was closed, reloaded or froze "
                   "while it ran. It was not run now. Run it?"),
}


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def started(code: str) -> None:
    """A run of `code` starts: marked in the page's storage (written by the page at once, even
    when this worker then never answers again)."""
    env.storage_set(INFLIGHT_KEY, json.dumps({"code": _digest(code), "t": round(time.time())}))


def ended() -> None:
    env.storage_set(INFLIGHT_KEY, "")


def unfinished(code: str) -> bool:
    """The last run of exactly this code started and never ended."""
    raw = env.storage_get(INFLIGHT_KEY)
    if not raw:
        return False
    try:
        return json.loads(raw).get("code") == _digest(code)
    except (ValueError, AttributeError):
        return False


def message(reason: str) -> str:
    return REASONS.get(reason, REASONS["restarted"])


def interruptible_sleep() -> None:
    """Pyodide's time.sleep waits inside C, where Stop's interrupt cannot land (a
    `time.sleep(1e9)` could only be ended with the worker). Sleep in short slices instead, so
    the interrupt lands between two of them and the variables are kept. Browser only."""
    if sys.platform != "emscripten":
        return
    import time as time_module

    real = time_module.sleep
    if getattr(real, "_gradpad_sliced", False):
        return

    def sleep(seconds):
        left = float(seconds)  # TypeError / ValueError as time.sleep raises them
        if left < 0:
            raise ValueError("sleep length must be non-negative")
        end = time_module.monotonic() + left
        while left > 0:
            real(min(left, 0.02))
            left = end - time_module.monotonic()

    sleep._gradpad_sliced = True
    sleep.__doc__ = real.__doc__
    time_module.sleep = sleep
