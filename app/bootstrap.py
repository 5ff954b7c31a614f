"""Page-side Python for the static site: `import jax` -> the engine, and the code runner
behind `window.gradpad.runPython`. Pure stdlib; also works (and is tested) under CPython.
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


def run(code: str, ns: dict | None = None) -> dict:
    """Run `code` like a notebook cell: statements, then the repr of a trailing expression.

    Returns {"stdout", "stderr", "result", "error"}; error is None or {"type", "message",
    "traceback"}. Variables persist between calls in the shared namespace."""
    ns = USER_NS if ns is None else ns
    out, err = io.StringIO(), io.StringIO()
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
        tb = traceback.format_exception(type(e), e, e.__traceback__)
        error = {"type": type(e).__name__, "message": str(e), "traceback": "".join(tb)}
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "result": result, "error": error}


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


def install() -> str:
    """Called by the page loader once numpy and the engine wheel are loaded."""
    install_jax_alias()
    return json.dumps(engine_info())


# ---------------------------------------------------------------- Panel (UI stage)
# The page imports these one at a time (roughly equal slices of `import panel`) so that code
# runs asked for meanwhile wait for one slice only.
UI_IMPORT_STEPS = ["param", "bokeh.core.properties", "bokeh.models", "panel"]

def prepare_panel(cdn_root: str) -> None:
    """What Panel 1.9 needs on Pyodide 0.27 before `import panel`."""
    import os

    os.environ["PANEL_CDN_ROOT"] = cdn_root
    try:
        import pyodide.ffi as ffi

        if not hasattr(ffi, "jsnull"):
            ffi.jsnull = object()
    except ImportError:
        pass


def ui_entry():
    """app.main.create_app() when the UI module exists, else None."""
    try:
        spec = importlib.util.find_spec("app.main")
    except ModuleNotFoundError:
        spec = None
    if spec is None:
        return None
    main = importlib.import_module("app.main")
    create = getattr(main, "create_app", None)
    return create() if callable(create) else None


def _model_resources(pydoc) -> dict:
    """The JS/CSS the Bokeh models of a document declare (__javascript__ etc.), in order.
    Panel's own page templates add these as <script> tags; on our page we load exactly what
    the rendered app needs (PANEL_CDN_ROOT makes them self-hosted URLs)."""
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


async def render(target: str, obj) -> None:
    """panel.io.pyodide.write(), plus loading the model JS/CSS the app declares first."""
    import js
    from panel.io.pyodide import _link_docs, _model_json
    from panel.pane import panel as as_panel

    obj = as_panel(obj)
    pydoc, model_json = _model_json(obj, target)
    await js.gradpadLoadResources(json.dumps(_model_resources(pydoc)))
    views = await js.window.Bokeh.embed.embed_item(js.JSON.parse(model_json))
    jsdoc = list(views.roots)[0].model.document
    _link_docs(pydoc, jsdoc)
    pydoc.unhold()
