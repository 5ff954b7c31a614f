"""The post-import snapshot's maker (static/worker.js, makeImportsSnapshot) builds the app once
and throws it away before it saves the interpreter's memory.

A first app build in an interpreter pays for work done once per interpreter: Panel applying
its classes' signatures, param and Bokeh filling their per-class caches on a class's first
instance, the first serialization of each model type. Done here, it is in the snapshot, and
every Python restored from it (a warm visit, a standby, a restart) builds the learner's app
without it.

Nothing of the thrown-away app may outlive the warm-up: nothing is run (no learner's code,
no variables), its document leaves Panel's registry of views, the page API forgets it, and
callbacks waiting for a linked document are dropped. It has no page: the maker's worker has
no page state, and the restored Python reads its own page's (app.env) when it builds.
"""
from __future__ import annotations

import gc


def build_and_forget() -> dict:
    """Build and serialize the app as app.bootstrap.render does, nothing run; then drop it.
    Returns what it built (for the maker's log): {"models": n, "json_chars": n}."""
    import importlib

    from panel.io.pyodide import _model_json
    from panel.io.state import state
    from panel.pane import panel as as_panel

    from app import env, page_api

    waiting = list(env._when_linked)
    main = importlib.import_module("app.main")
    viewable = as_panel(main.create_app(autorun=False))
    try:
        doc, model_json = _model_json(viewable, "app")
        built = {"models": len(doc.models), "json_chars": len(model_json)}
        for root in list(doc.roots):  # as Panel's _server_destroy ends a session's document
            viewable._cleanup(root)
            state._views.pop(root.ref["id"], None)
        viewable._documents.pop(doc, None)
    finally:
        page_api.install(None)
        env._when_linked[:] = waiting
        env._page_state = None  # read from the page that restores the snapshot, never this one
    del viewable, doc, model_json
    gc.collect()
    return built
