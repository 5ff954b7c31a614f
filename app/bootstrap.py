"""Python side of the page's worker (static/worker.js): `import jax` -> the engine, the code
runner behind `window.gradpad.runPython`, and the Panel app rendered in the worker and kept
in sync with the page's BokehJS through JSON patches. The runner is pure stdlib and also
works (and is tested) under CPython.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import importlib.abc
import importlib.util
import io
import json
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout

ENGINE = "core"
ALIAS = "jax"


class _JaxAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import jax`, `import jax.numpy as jnp`, `from jax import lax` ... resolve to `core`.

    The aliased names are the very same module objects as the engine's (no copies), so
    `jax.numpy is core.numpy`."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != ALIAS and not fullname.startswith(ALIAS + "."):
            return None
        real = ENGINE + fullname[len(ALIAS):]
        try:
            if importlib.util.find_spec(real) is None:
                return None
        except ModuleNotFoundError:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        module = importlib.import_module(ENGINE + spec.name[len(ALIAS):])
        spec.loader_state = module.__spec__
        return module

    def exec_module(self, module):
        # the import system stamped our alias spec on the engine's module: put its own back
        real_spec = getattr(module.__spec__, "loader_state", None)
        if real_spec is not None:
            module.__spec__ = real_spec


def install_jax_alias() -> None:
    if not any(isinstance(f, _JaxAlias) for f in sys.meta_path):
        sys.meta_path.insert(0, _JaxAlias())


USER_NS: dict = {"__name__": "__main__", "__builtins__": builtins}

# a run that prints more than this keeps the first lines/characters and says how much it dropped
MAX_OUTPUT_LINES = 5_000
MAX_OUTPUT_CHARS = 200_000


class _CappedOutput(io.StringIO):
    """stdout/stderr of one run: the first MAX_OUTPUT_LINES lines (and MAX_OUTPUT_CHARS
    characters); the rest is counted, not kept, so an endless print loop cannot eat the memory."""

    def __init__(self):
        super().__init__()
        self.lines = 0
        self.dropped_lines = 0
        self.full = False

    def write(self, s: str) -> int:
        if self.full:
            self.dropped_lines += s.count("\n")
            return len(s)
        room_lines = MAX_OUTPUT_LINES - self.lines
        room_chars = MAX_OUTPUT_CHARS - self.tell()
        kept = s
        parts = s.split("\n")
        if len(parts) - 1 >= room_lines:
            kept = "\n".join(parts[:room_lines]) + "\n"
            self.full = True
        if len(kept) > room_chars:
            kept = kept[:max(room_chars, 0)]
            self.full = True
        if self.full:
            self.dropped_lines += s.count("\n") - kept.count("\n")
        self.lines += kept.count("\n")
        super().write(kept)
        return len(s)

    def text(self) -> str:
        body = self.getvalue()
        if self.full:
            more = f"{self.dropped_lines:,} more lines" if self.dropped_lines else "more output"
            body += (f"\n… output truncated: {more} not shown (a run keeps the first "
                     f"{MAX_OUTPUT_LINES:,} lines)\n")
        return body


def run(code: str, ns: dict | None = None) -> dict:
    """Run `code` like a notebook cell: statements, then the repr of a trailing expression.

    Returns {"stdout", "stderr", "result", "error"}; error is None or {"type", "message",
    "traceback"}. Variables persist between calls in the shared namespace."""
    ns = USER_NS if ns is None else ns
    out, err = _CappedOutput(), _CappedOutput()
    result = error = None
    try:
        tree = ast.parse(code, "<gradpad>", "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        with redirect_stdout(out), redirect_stderr(err):
            exec(compile(tree, "<gradpad>", "exec"), ns)
            if last is not None:
                value = eval(compile(last, "<gradpad>", "eval"), ns)
                result = repr(value)
    except BaseException as e:  # noqa: BLE001 - everything is reported to the page
        from app.sandbox import as_memory_error

        e = as_memory_error(e) or e
        tb = traceback.format_exception(type(e), e, e.__traceback__)
        error = {"type": type(e).__name__, "message": str(e), "traceback": "".join(tb)}
    if error is not None and error["type"] == "KeyboardInterrupt" and not error["message"]:
        error["message"] = "the run was stopped (Stop button, Esc or gradpad.interrupt())"
    return {"stdout": out.text(), "stderr": err.text(), "result": result, "error": error}


def run_json(code: str) -> str:
    return json.dumps(run(code))


def engine_info() -> dict:
    """Versions, plus how long importing numpy and the engine took (ms; the page reports it)."""
    import time

    info: dict = {"python": sys.version.split()[0], "import_ms": {}}
    t0 = time.perf_counter()
    try:
        import numpy

        info["numpy"] = numpy.__version__
    except ImportError:
        pass
    t1 = time.perf_counter()
    try:
        core = importlib.import_module(ENGINE)
        info["engine"] = getattr(core, "__version__", "dev")
    except Exception as e:  # noqa: BLE001
        info["engine_error"] = f"{type(e).__name__}: {e}"
    t2 = time.perf_counter()
    info["import_ms"] = {"numpy": round(1000 * (t1 - t0)), "engine": round(1000 * (t2 - t1))}
    return info


def install(interruptible: bool = False) -> str:
    """Called by the page's worker once numpy and the engine wheel are loaded. `interruptible`:
    the page can stop runs through Pyodide's interrupt buffer (it is cross-origin isolated),
    so the app's time budget is not needed."""
    install_jax_alias()
    from app import held

    held.interruptible_sleep()
    from app import run_progress, sandbox

    sandbox.output_reporter = run_progress.Reporter  # a run's last printed line shows as it runs
    if interruptible:
        sandbox.INTERRUPTIBLE = True
    info = json.dumps(engine_info())
    if ENGINE in sys.modules:
        # `jax.X.Y` for engine modules under another name or path (`jax.extend.core.primitives`,
        # numpyro's first import) from runPython too, as the app's runs get it (core.install_as_jax)
        from core import jax_names
        jax_names.install(ENGINE)
    return info


# ---------------------------------------------------------------- Panel (UI stage)
# The page imports these one at a time (roughly equal slices of `import panel`) so that code
# runs asked for meanwhile wait for one slice only.
UI_IMPORT_STEPS = ["param", "bokeh.core.properties", "bokeh.models", "panel"]

def prepare_panel(cdn_root: str) -> None:
    """What Panel 1.9 needs on Pyodide 0.27 before `import panel`."""
    import os

    os.environ["PANEL_CDN_ROOT"] = cdn_root
    # Bokeh checks every model of a document each time it is turned into JSON (the app's first
    # render, each cell's): 18-25 ms in the page for the app's 124 models, beside 69 ms for the JSON
    # itself (51 of 134 ms in CPython), on every visit's way to the UI. Its findings are log lines
    # no learner sees; they are checked on the app's document in CPython instead
    # (tests/app/test_document_checks.py).
    os.environ["BOKEH_VALIDATE_DOC"] = "no"  # (bokeh.settings: perform_document_validation)
    try:
        import pyodide.ffi as ffi

        if not hasattr(ffi, "jsnull"):
            ffi.jsnull = object()
    except ImportError:
        pass
    _skip_panel_pandas_patch()
    from app import bokeh_import

    bokeh_import.start()  # bokeh's models without their unread signatures (ended in panel_imported)


_NO_PYODIDE_HTTP = "gradpad: stands in for pyodide_http while panel.io.pyodide is imported"


def _skip_panel_pandas_patch() -> None:
    """panel.io.pyodide imports pandas (7 MB, a second of import) only to wrap pandas.read_csv /
    read_json for URLs, and only when `pyodide_http` is missing. The page ships no pandas until
    code imports it (tools/site.py DEFERRED), so a stand-in module is there while panel is
    imported (panel_imported() removes it): panel then leaves pandas alone."""
    if "pyodide_http" in sys.modules or importlib.util.find_spec("pyodide_http") is not None:
        return
    import types

    stub = types.ModuleType("pyodide_http", _NO_PYODIDE_HTTP)
    stub.patch_all = lambda: None
    sys.modules["pyodide_http"] = stub


def panel_imported() -> None:
    """After `import panel` and the app: the stand-in of _skip_panel_pandas_patch goes (user code
    sees none), and bokeh's Model.parameters is the real one again (app/bokeh_import.py)."""
    from app import bokeh_import

    bokeh_import.end()
    stub = sys.modules.get("pyodide_http")
    if stub is not None and stub.__doc__ == _NO_PYODIDE_HTTP:
        del sys.modules["pyodide_http"]


def ui_entry(code: str | None = None, autorun: bool = True):
    """app.main.create_app() when the UI module exists, else None. `code`: the editor's code
    to start with (after "Restart Python"); `autorun` False: nothing runs (a standby worker)."""
    try:
        spec = importlib.util.find_spec("app.main")
    except ModuleNotFoundError:
        spec = None
    if spec is None:
        panel_imported()
        return None
    try:
        main = importlib.import_module("app.main")
    finally:
        panel_imported()
    create = getattr(main, "create_app", None)
    if not callable(create):
        return None
    if not autorun:
        return create(code=code, autorun=False)
    return create(code=code) if code is not None else create()


def _model_resources(pydoc) -> dict:
    """The JS/CSS the Bokeh models of a document declare (__javascript__ etc.), in order.
    Panel's own page templates add these as <script> tags; on our page the main thread loads
    exactly what the rendered app needs (PANEL_CDN_ROOT makes them self-hosted URLs)."""
    seen: set = set()
    out: dict = {"js": [], "modules": [], "css": []}
    classes = []
    for root in pydoc.roots:
        for model in root.references():
            cls = type(model)
            if cls not in seen:
                seen.add(cls)
                classes.append(cls)
    for cls in classes:
        for key, attr in (("js", "__javascript__"), ("modules", "__javascript_modules__"), ("css", "__css__")):
            try:
                urls = getattr(cls, attr, None) or []
            except Exception:  # noqa: BLE001 - a classproperty that fails means no resources
                urls = []
            for u in ([urls] if isinstance(urls, str) else list(urls)):
                if isinstance(u, str) and u not in out[key]:
                    out[key].append(u)
    return out


# ---------------------------------------------------------------- the app's document
# The worker renders the app into a Bokeh document and posts its JSON; the page embeds it
# with BokehJS. From then on both sides exchange JSON patches (Panel's pyodide-worker scheme).
_doc = None
_prebuilt = None  # a standby worker's app, built before it is needed (see prebuild)
# The first view holds only the tab in view: render() serializes the playground's tabs with Panel's
# `dynamic` (each hidden tab a placeholder), and once the page has embedded that view (link) the
# hidden tabs are built and sent as one patch, after the page's UI is up. Their Bokeh models were
# about half of the app's serialization in a warm visit (0.4-0.9 s of 0.8-1.3 s, in the page).
# They show the same Panel objects, so what they show is the current run's, as before.
_hidden_tabs = None


def _only_tab_in_view(obj):
    """The playground's tabs switched to render only the tab in view; None where there are none."""
    tabs = getattr(getattr(obj, "playground", None), "tabs", None)
    if not isinstance(getattr(tabs, "dynamic", None), bool) or tabs.dynamic:
        return None
    tabs.dynamic = True
    return tabs


def show_hidden_tabs() -> None:
    """The tabs render() left out of the first view, built and sent (one patch); the tabs stay
    rendered from then on, as they were before (switching to one needs no Python)."""
    global _hidden_tabs
    tabs, _hidden_tabs = _hidden_tabs, None
    if tabs is None or not tabs.dynamic:
        return
    from app import batching

    with batching.one_update():
        tabs.dynamic = False


def prebuild() -> None:
    """A standby worker (static/worker.js) builds the app while the page's current worker works:
    when it takes over, only the code and the notice change and the document is serialized."""
    global _prebuilt
    _prebuilt = ui_entry(autorun=False)


def prerender(target: str) -> str:
    """A standby's prebuilt app as JSON (render's answer), serialized while it stands by: the page
    renders it hidden when its main thread is idle (static/prerender.js), the worker links it,
    and at the take-over only `take_over`'s changes (the code, the notice) reach the page, as one
    patch: no document is built, serialized or rendered after the Stop."""
    global _doc
    if _prebuilt is None:
        return json.dumps({"kind": "placeholder"})
    from panel.io.pyodide import _model_json
    from panel.pane import panel as as_panel

    from app import page_api

    _doc, model_json = _model_json(as_panel(_prebuilt), target)
    return json.dumps({"kind": "app", "model": model_json, "resources": _model_resources(_doc),
                       "page": page_api.page_options()})


def take_over(code: str | None = None, held: str | None = None) -> None:
    """The prerendered and linked app (prerender, link) replaces the ended Python's: what render
    does to a prebuilt app before serializing it, sent as one batch of changes."""
    global _prebuilt
    obj, _prebuilt = _prebuilt, None
    from app import batching, env, theme_switch

    with batching.one_update():
        if env.theme() is not None:  # the page's theme may have switched since this app was built
            theme_switch.switch(obj.playground, env.theme())
        obj.playground.take_over(code, held)


def render(target: str, code: str | None = None, held: str | None = None) -> str:
    """The app as JSON for the page: {kind, model (for Bokeh.embed.embed_item), resources,
    page (options for the page shell)}; kind is "placeholder" when there is no app.
    `held`: why this Python replaced an ended one (app.held.REASONS): the code is shown, not run."""
    global _doc, _prebuilt, _hidden_tabs
    obj, _prebuilt = _prebuilt, None
    if obj is not None:
        from app import env, theme_switch
        if env.theme() is not None:  # the page's theme may have switched since this app was built
            theme_switch.switch(obj.playground, env.theme())
        obj.playground.take_over(code, held)
    else:
        obj = ui_entry(code, autorun=held is None)
        if obj is not None and held is not None:
            obj.playground.take_over(code, held)
    if obj is None:
        return json.dumps({"kind": "placeholder"})
    from panel.io.pyodide import _model_json
    from panel.pane import panel as as_panel

    from app import page_api

    _hidden_tabs = _only_tab_in_view(obj)
    _doc, model_json = _model_json(as_panel(obj), target)
    return json.dumps({"kind": "app", "model": model_json, "resources": _model_resources(_doc),
                       "page": page_api.page_options()})


def link(send_patch) -> None:
    """The page embedded the document: from now on every change here is sent as a patch.
    Panel's `_link_docs_worker`, but a batch of changes (app.batching) leaves as one patch."""
    from app import env

    _link_doc(_doc, send_patch)
    if _hidden_tabs is not None:
        # after the worker has told the page its UI is up (the loop's next turn), before the slow
        # panes that document_linked starts; at once where no loop runs (CPython tests)
        from app.main import event_loop

        loop = event_loop()
        if loop is None:
            show_hidden_tabs()
        else:
            loop.call_soon(show_hidden_tabs)
    env.document_linked()  # changes made from now on reach the page (the app's slow panes wait for this)


# the page each linked document's patches go to: the app's page, and on a lesson page of cell
# frames (static/lesson.js) each cell frame's own document
_senders: dict = {}


def _send_batch(events) -> None:
    """A batch (app.batching) may hold changes of several documents: each goes to its own page."""
    by_doc: dict = {}
    for event in events:
        by_doc.setdefault(getattr(event, "document", None), []).append(event)
    for doc, evs in by_doc.items():
        send = _senders.get(id(doc))
        if send is not None:
            send(evs)


def _link_doc(doc, send_patch) -> None:
    import functools

    import js
    import pyodide
    from bokeh.events import DocumentReady
    from panel.io.pyodide import _dict_converter, _process_document_events
    from panel.io.state import state

    from app import batching

    def send(events):
        json_patch, buffer_map = _process_document_events(doc, events)
        starts = batching.part_starts(events)
        if starts:  # applied in these parts, a task each (app.batching.part, static/patch_chunks.js)
            json_patch["parts"] = starts
        send_patch(pyodide.ffi.to_js(json_patch, dict_converter=_dict_converter),
                   js.Map.new(js.Object.entries(pyodide.ffi.to_js(buffer_map))))

    def on_change(event):
        if getattr(event, "setter", None) == "js":  # the page's own change, applied here: not sent back
            return
        if not batching.collect(event):
            send([event])

    _senders[id(doc)] = send
    batching.set_sender(_send_batch)
    doc.on_change(on_change)
    doc.unhold()
    doc.on_event("document_ready", functools.partial(state._schedule_on_load, doc))
    doc.callbacks.trigger_event(DocumentReady())


# ---------------------------------------------------------------- a lesson's cell frames
# static/worker.js "a lesson's other cells": a frame showing one cell of the lesson this Python
# built (app.lesson), as its own document; `client` is that frame's number in the worker.
_cell_docs: dict = {}


def render_cell(client: int, index: int, code: str | None = None, held: str | None = None) -> str:
    """Cell `index` of the lesson on show as JSON for a cell frame (as `render`). `code`: the
    frame's editor text after a restart, shown with why it was not run (`held`)."""
    from panel.io.pyodide import _model_json

    from app import lesson, page_api
    owner = page_api.current()
    if not isinstance(owner, lesson.Lesson):
        return json.dumps({"kind": "placeholder"})
    doc, model_json = _model_json(owner.cell_frame_view(int(index), code, held), "app")
    _cell_docs[int(client)] = doc
    return json.dumps({"kind": "app", "model": model_json, "resources": _model_resources(doc),
                       "page": page_api.page_options()})


def link_cell(client: int, send_patch) -> None:
    _link_doc(_cell_docs[int(client)], send_patch)


def apply_cell_patch(client: int, patch) -> None:
    from panel.io.pyodide import _convert_json_patch

    _cell_docs[int(client)].apply_json_patch(_convert_json_patch(patch), setter="js")


def apply_patch(patch) -> None:
    """A change made on the page (a widget edited, a button clicked)."""
    from panel.io.pyodide import _convert_json_patch

    _doc.apply_json_patch(_convert_json_patch(patch), setter="js")


def call(name: str, args_json: str) -> str:
    """The page API (`gradpad.load`, `.snapshot`, Ctrl+Enter, a new #hash): see app.page_api."""
    from app import page_api

    return json.dumps(page_api.call(name, json.loads(args_json)))
