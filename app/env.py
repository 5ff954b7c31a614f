"""Where the app runs: the browser page (Pyodide; reached through the `js` module) or a
`panel serve` session. Everything that touches the URL, localStorage or the clipboard goes
through here so the rest of the app does not care."""
from __future__ import annotations

import sys

IN_BROWSER = sys.platform == "emscripten"
AUTOSAVE_KEY = "gradpad.code"
PREVIOUS_KEY = "gradpad.previous"


def _js():
    import js  # only exists under Pyodide
    return js


def location_hash() -> str:
    if IN_BROWSER:
        return str(_js().location.hash or "")
    try:
        import panel as pn
        return pn.state.location.hash if pn.state.location is not None else ""
    except Exception:  # noqa: BLE001 - no session (tests)
        return ""


def location_search() -> str:
    if IN_BROWSER:
        return str(_js().location.search or "")
    try:
        import panel as pn
        args = pn.state.session_args or {}
        return "?" + "&".join(f"{k}={v[0].decode()}" for k, v in args.items()) if args else ""
    except Exception:  # noqa: BLE001
        return ""


def page_base() -> str:
    """The page's URL without query or hash (for share and embed links)."""
    if IN_BROWSER:
        loc = _js().location
        return str(loc.origin) + str(loc.pathname)
    try:
        import panel as pn
        loc = pn.state.location
        if loc is not None and loc.href:
            return loc.href.split("#")[0].split("?")[0]
    except Exception:  # noqa: BLE001
        pass
    return "./"


def set_hash(fragment: str) -> None:
    """Replace the URL's hash without adding a history entry or reloading."""
    if IN_BROWSER:
        js = _js()
        js.history.replaceState(None, "", fragment or js.location.pathname + js.location.search)
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
    try:
        v = _js().localStorage.getItem(key)
        return None if v is None else str(v)
    except Exception:  # noqa: BLE001 - storage disabled (private mode, sandboxed iframe)
        return None


def storage_set(key: str, value: str) -> None:
    if not IN_BROWSER:
        _memory[key] = value
        return
    try:
        _js().localStorage.setItem(key, value)
    except Exception:  # noqa: BLE001
        pass


_memory: dict = {}  # stands in for localStorage outside the browser (tests, panel serve)
