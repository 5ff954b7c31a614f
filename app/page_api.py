"""The Panel app's side of the page API: `window.gradpad.load()` / `.snapshot()`, Ctrl+Enter and
a new #hash. The page's JS (static/loader.js) owns the API, the key and hash listeners and the
postMessage protocol for a host page; it forwards these calls to the worker, which answers
through `call` (app.bootstrap.call). Pyodide only (main.create_app installs the playground).

Host protocol (loader.js): post `{gradpad: "load", id, args: {code, example, panes}}`,
`{gradpad: "snapshot", id}`, `{gradpad: "runPython", id, args: {code}}`,
`{gradpad: "interrupt", id}` or `{gradpad: "restart", id}` to the iframe; it answers
`{gradpad: "result", id, result}` or `{gradpad: "error", id, error}` to the sender's origin."""
from __future__ import annotations

import json

_playground = None


def install(playground) -> None:
    global _playground
    _playground = playground


def current():
    """The installed app (a Playground, or app.lesson's Lesson), or None."""
    return _playground


def page_options() -> dict:
    """What the page shell needs to know about the app (an iframe has no room for the header)."""
    return {"embed": bool(_playground is not None and _playground.embed.embed),
            "lesson": hasattr(_playground, "cells")}  # a lesson page (app.lesson): its cells are no autosave


def _load(args):
    args = args or {}
    where = {"cell": args["cell"]} if "cell" in args else {}  # a lesson page: which cell (app.lesson)
    try:
        return _playground.load(code=args.get("code"), example=args.get("example"), panes=args.get("panes"), **where)
    except KeyboardInterrupt:
        # a Stop can land in the app's own code around the learner's (Panel's watchers applying
        # the new code): the load ends as a stopped run does, code kept, instead of failing the call
        snap = _playground.snapshot()
        snap["error"] = {"type": "KeyboardInterrupt", "hint": None, "line": None,
                         "message": "the run was stopped (Stop button, Esc or gradpad.interrupt())"}
        return snap


def _snapshot(args):
    return _playground.snapshot()


def _run(args):
    """Ctrl/Cmd+Enter on the page: one key press is one run (see Playground.run)."""
    if hasattr(_playground, "key_run"):  # a lesson page: the cell typed in last
        return _playground.key_run()
    _playground.run(function=_playground.function_select.value or None, remeasure=True)
    return None


def _hash(args):
    """A share link or #example=NAME pasted into this tab: apply it without a reload."""
    from app import env, share

    fragment = str((args or {}).get("hash") or "")
    if not hasattr(_playground, "apply_state"):  # a lesson page: its link is the lesson, read once
        return None
    env.page_changed(json.dumps({"hash": fragment}))
    try:
        state = share.parse_hash(fragment)
    except ValueError as e:
        _playground._notify(str(e))
        return None
    if state is not None:
        _playground._stash_unsaved()
        _playground.apply_state(state, run=True)
        _playground.offer_own_code()
    return None


def _stepper(args):
    """The Jaxpr pane's stepper asks for its steps (static/stepper.js): app.panes.stepper."""
    from app.panes import stepper as stepper_pane
    return stepper_pane.steps_for(_playground.analysis, (args or {}).get("view"), (args or {}).get("token"))


def _rules(args):
    """A primitive's name clicked in a jaxpr (static/rules.js): its rules' source (app.rules_view)."""
    from app import rules_view
    return rules_view.rules_of(str((args or {}).get("primitive", "")))


def _theme(args):
    """The page switched its theme (static/theme_switch.js): the app follows in place."""
    from app import theme_switch

    return theme_switch.switch(_playground, str((args or {}).get("theme")))


CALLS = {"load": _load, "snapshot": _snapshot, "run": _run, "hash": _hash, "theme": _theme,
         "stepper": _stepper, "rules": _rules}


def call(name: str, args):
    if _playground is None:
        raise RuntimeError("the playground UI is not loaded yet")
    try:
        handler = CALLS[name]
    except KeyError:
        raise ValueError(f"unknown page API call {name!r}; known: {', '.join(CALLS)}") from None
    return handler(args)
