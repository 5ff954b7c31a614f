"""Where the app runs: the browser page or a `panel serve` session. Everything that touches
the URL, localStorage or the clipboard goes through here so the rest of the app does not care.

In the browser the app runs in a Web Worker (static/worker.js), which has no `document`,
`localStorage` or page URL: the page sends their values with the worker's init message (and
every later change of the hash), and writes go back to the page as messages."""
from __future__ import annotations

import json
import sys

IN_BROWSER = sys.platform == "emscripten"
AUTOSAVE_KEY = "gradpad.code"
PREVIOUS_KEY = "gradpad.previous"


def _js():
    import js  # only exists under Pyodide
    return js


_page_state: dict | None = None


def _page() -> dict:
    """{search, hash, origin, pathname, storage, isolated}: the page as the worker was told."""
    global _page_state
    if _page_state is None:
        raw = getattr(_js(), "gradpadPageState", None)
        _page_state = json.loads(str(raw)) if raw is not None else {}
        _page_state.setdefault("storage", {})
    return _page_state


def _to_page(op: str, key: str, value: str) -> None:
    send = getattr(_js(), "gradpadPageEnv", None)
    if send is not None:
        send(op, key, value)


def page_changed(changes_json: str) -> None:
    """The page reports a change the worker cannot see (the user edited the URL's hash)."""
    _page().update(json.loads(changes_json))


def theme() -> str | None:
    """'dark' or 'light' as the page shows it (the system's setting or the visitor's choice,
    static/theme.js); None outside the page, where CSS media queries follow the system."""
    if not IN_BROWSER:
        return None
    t = _page().get("theme")
    return str(t) if t in ("dark", "light") else None


def run_state(running: bool, measuring: bool = False) -> None:
    """The app starts/ends running the learner's code: the page shows its running indicator
    (and its Stop button can interrupt only while a run is on). `measuring`: a slow pane of the
    same run (timings) calls the learner's code again; Stop works, but it is no new run."""
    if IN_BROWSER:
        mark = getattr(_js(), "gradpadRunState", None)
        if mark is not None:
            mark(running, measuring)


def run_output(line: str) -> None:
    """The line the running code printed last (app.run_progress): the page shows it beside
    "Running… N s" until the run ends."""
    if IN_BROWSER:
        send = getattr(_js(), "gradpadRunOutput", None)
        if send is not None:
            send(line)


def run_stopped() -> None:
    """The learner's code was just stopped (a Stop's KeyboardInterrupt landed): the page ends the
    run at once (Stop within 100 ms); the app draws the stopped run's panes after, its status
    line showing a run in flight until they arrive. The run's own run_state(False) follows."""
    if IN_BROWSER:
        mark = getattr(_js(), "gradpadRunStopped", None)
        if mark is not None:
            mark()


_linked = not IN_BROWSER  # `panel serve` syncs its documents itself
_when_linked: list = []


def when_linked(callback) -> None:
    """Call `callback` once the page shows the app's document and receives its changes (in the
    page the worker renders the document first and links it after the page embedded it: a
    change made in between would never reach the page)."""
    if _linked:
        callback()
    else:
        _when_linked.append(callback)


def document_linked() -> None:
    global _linked
    _linked = True
    while _when_linked:
        _when_linked.pop(0)()


def panes_state(run: int, pending: list, seconds: float = 0.0, phases: dict | None = None) -> None:
    """The panes now show run number `run`; `pending` names those still to be filled in;
    `seconds`: the run's Python time; `phases`: where it went (ms, and epoch-ms stamps that the
    page turns into its own times: `python build.py bench page` prints them). Sent after the
    run's own patches, so the page has applied them when it reads this (gradpad.panes)."""
    if IN_BROWSER:
        try:
            send = getattr(_js(), "gradpadPanes", None)
        except ImportError:  # a test that pretends to be the page
            return
        if send is not None:
            send(run, json.dumps(pending), round(seconds * 1e3, 1), json.dumps(phases or {}))


def location_hash() -> str:
    if IN_BROWSER:
        return str(_page().get("hash") or "")
    try:
        import panel as pn
        return pn.state.location.hash if pn.state.location is not None else ""
    except Exception:  # noqa: BLE001 - no session (tests)
        return ""


def location_search() -> str:
    if IN_BROWSER:
        return str(_page().get("search") or "")
    try:
        import panel as pn
        args = pn.state.session_args or {}
        return "?" + "&".join(f"{k}={v[0].decode()}" for k, v in args.items()) if args else ""
    except Exception:  # noqa: BLE001
        return ""


def page_base() -> str:
    """The page's URL without query or hash (for share and embed links)."""
    if IN_BROWSER:
        page = _page()
        return str(page.get("origin", "")) + str(page.get("pathname", ""))
    try:
        import panel as pn
        loc = pn.state.location
        if loc is not None and loc.href:
            return loc.href.split("#")[0].split("?")[0]
    except Exception:  # noqa: BLE001
        pass
    return "./"


def set_hash(fragment: str, new_entry: bool = False) -> None:
    """Replace the URL's hash without reloading; `new_entry`: as a new browser history entry
    (Back returns to the hash before), else in place."""
    if IN_BROWSER:
        _page()["hash"] = fragment
        _to_page("set_hash", "push" if new_entry else "", fragment)
        return
    try:
        import panel as pn
        if pn.state.location is not None:
            pn.state.location.hash = fragment
    except Exception:  # noqa: BLE001
        pass


def storage_get(key: str) -> str | None:
    if not IN_BROWSER:
        return _memory.get(key)
    v = _page()["storage"].get(key)
    return None if v is None else str(v)


def storage_set(key: str, value: str) -> None:
    if not IN_BROWSER:
        _memory[key] = value
        return
    _page()["storage"][key] = value
    _to_page("storage_set", key, value)


_memory: dict = {}  # stands in for localStorage outside the browser (tests, panel serve)
