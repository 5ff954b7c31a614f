"""Open a primitive's rules: what the engine does with a primitive, as its own source code.

Clicking a primitive's name in a jaxpr (static/rules.js) asks the page API's "rules" call for
`rules_of(name)`: the functions registered for it in core's rule tables (core/_engine/tracing/rules.py, filled in
by core/_engine/primitives/*), each with `inspect.getsource` of the registered object and a one-line
note. A rule made by a helper (`ad.defjvp(sin_p, lambda g, x: ...)` registers a generic `jvp`
whose closure holds the lambda) shows the helper's function and then the functions it closes
over, which are where the primitive's own mathematics is written.

In the page the engine's wheel holds bytecode only: the .py text comes from core-sources.zip
(tools/site.py), fetched once on the first rule shown, and is put in linecache under the file
names the bytecode carries, where inspect.getsource looks.
"""
from __future__ import annotations

import inspect
import io
import linecache
import textwrap
import types
import zipfile

FETCH_SOURCES = None          # set by app.lazy_files in the page: () -> the zip's bytes, or None
_sources_loaded = False

# table, title, what it is for (one line, plain words)
RULES = (
    ("abstract_eval_rules", "abstract eval (shape rule)",
     ("Given only the inputs' shapes and dtypes, the output's shape and dtype: what tracing uses to "
      "write the equation into the jaxpr without computing anything.")),
    ("impl_rules", "impl (evaluation)",
     "What runs when the equation is evaluated on real values (numpy arrays)."),
    ("jvp_rules", "jvp rule (forward mode)",
     ("From the primal inputs and their tangents, the primal output and its tangent: jvp uses it, "
      "and grad starts from it.")),
    ("transpose_rules", "transpose rule (reverse mode)",
     ("For a primitive linear in some inputs: sends the output's cotangent back to those inputs. "
      "This is grad's backward pass, one equation at a time.")),
    ("batch_rules", "batching rule (vmap)",
     "How to compute it on inputs that carry an extra batch axis, and where that axis ends up."),
    ("wgsl_rules", "WGSL template (WebGPU)",
     "The expression the WebGPU compiler writes into a fused shader ({0}, {1}: the inputs)."),
)
ABSENT = {
    "transpose_rules": "no transpose rule (not linear): grad never transposes this primitive; its "
                       "jvp rule writes the tangent with linear primitives, and those are transposed.",
    "jvp_rules": "no jvp rule: this primitive cannot be differentiated (or its transformation "
                 "handles it before it is bound).",
    "batch_rules": "no batching rule: vmap of a function using it raises an error.",
    "wgsl_rules": "no WGSL template: the WebGPU compiler gives it a kernel of its own or leaves it "
                  "to the CPU.",
    "abstract_eval_rules": "no shape rule registered.",
    "impl_rules": "no evaluation rule registered.",
}
MAX_CLOSED_OVER = 4           # helper functions shown under a generic rule


def primitive_named(name: str):
    from core._engine.tracing import rules
    from core._engine.primitives import _load_all
    _load_all()
    for p in list(rules.abstract_eval_rules) + list(rules.jvp_rules) + list(rules.impl_rules):
        if getattr(p, "name", None) == name:
            return p
    return None


def _ensure_sources() -> None:
    """In the page: core's .py text into linecache, under the file names its bytecode carries."""
    global _sources_loaded
    if _sources_loaded or FETCH_SOURCES is None:
        return
    _sources_loaded = True
    data = FETCH_SOURCES()
    if not data:
        return
    import core
    root = core.__file__.replace("\\", "/").rsplit("/core/", 1)[0] + "/"
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for rel in z.namelist():
            text = z.read(rel).decode("utf-8")
            for filename in (root + rel, root + rel[:-3] + ".pyc"):
                linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)


def source_of(obj) -> str | None:
    """inspect.getsource of a rule, or None where there is no source (a builtin, a string)."""
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        if FETCH_SOURCES is not None and not _sources_loaded:
            _ensure_sources()
            return source_of(obj)
        return None


def _where(fn) -> str:
    code = getattr(fn, "__code__", None)
    if code is None:
        return ""
    path = code.co_filename.replace("\\", "/")
    path = "core/" + path.rsplit("/core/", 1)[1] if "/core/" in path else path.rsplit("/", 1)[-1]
    return f"{path.removesuffix('.pyc').removesuffix('.py')}.py:{code.co_firstlineno}"


def _closed_over(fn) -> list:
    """The functions a generic rule's closure holds (a helper's lambdas: the primitive's maths)."""
    out = []
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        for f in (v if isinstance(v, (list, tuple)) else (v,)):
            if isinstance(f, types.FunctionType) and f.__module__.startswith("core") and f not in out:
                out.append(f)
    return out[:MAX_CLOSED_OVER]


def rule_entry(table: str, title: str, note: str, rule) -> dict:
    if rule is None:
        return {"table": table, "title": title, "note": ABSENT[table], "present": False, "parts": []}
    if isinstance(rule, str):  # a WGSL template is the text itself
        return {"table": table, "title": title, "note": note, "present": True,
                "parts": [{"where": "", "source": rule}]}
    parts = [{"where": _where(rule), "source": _text(rule)}]
    if "<locals>" in getattr(rule, "__qualname__", ""):
        # a helper's generic rule: the functions it was given (the primitive's own maths) first
        own = []
        for f in _closed_over(rule):
            part = {"where": _where(f), "source": _text(f), "role": "own"}
            same = next((o for o in own if (o["where"], o["source"]) == (part["where"], part["source"])), None)
            if same is None:
                own.append(part)
            else:  # two rules written on one line (mul's jvp: one lambda per input): shown once
                same["count"] = same.get("count", 1) + 1
        if own:
            parts[0]["role"] = "helper"
            parts = own + parts
    return {"table": table, "title": title, "note": note, "present": True, "parts": parts}


def _text(fn) -> str:
    src = source_of(fn)
    return textwrap.dedent(src).rstrip() if src else repr(fn)


def rules_of(name: str) -> dict:
    """Every registered rule of primitive `name`, as source code with a note each."""
    from core._engine.tracing import rules
    p = primitive_named(str(name))
    if p is None:
        return {"primitive": name, "error": f"no primitive named {name!r} is registered in the engine"}
    entries = []
    for table, title, note in RULES:
        entries.append(rule_entry(table, title, note, dict.get(getattr(rules, table), p)))
    return {"primitive": p.name, "rules": entries}
