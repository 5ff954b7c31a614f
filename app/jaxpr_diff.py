"""Diff two transformations of f: their jaxprs as lines, aligned by the line of code each
equation came from, compared modulo variable names.

Plain data, no Panel (app/panes/jaxpr_diff.py renders it). A jaxpr is listed one equation per
line (a nested jaxpr, jit's or scan's body, as an indented block under its equation), each line
with the user-code line its equation came from (JAX's source_info, as app.sourcemap reads it)
and a *key*: the line with every variable renamed by its order in that line (`b:f32[] = mul a c`
-> `%0:f32[] = mul %1 %2`), so two traces that differ only in the names the printer chose compare
equal. Lines are matched on (code line, key) with difflib; a code edit maps the old code's lines
onto the new code's first (`line_map`), so an equation whose line moved still matches.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

import numpy as np

from . import sandbox

INDENT = "  "
CONST_CHARS = 48  # a folded constant's value, cut to this many characters (its shape is on the line)
FRAME = re.compile(r"^(?P<file>.*):(?P<line>\d+):\d+ \(")


@dataclass(frozen=True)
class Line:
    text: str              # what the pane prints (the printer's names)
    key: str               # the text with each variable renamed by its order in the line
    src: int | None        # the line of user code the equation came from
    eqn: bool = False      # an equation (counted), not a header, footer or constant
    depth: int = 0         # nesting: 0 top level, 1 inside a jit/scan/cond body...


def src_line(eqn, user_file: str = sandbox.USER_FILE) -> int | None:
    from core._engine.base.source_info import summarize
    m = FRAME.match(summarize(eqn.source_info))
    return int(m["line"]) if m and m["file"] == user_file else None


def _sub_jaxprs(v) -> list:
    from core._engine.tracing.jaxpr import ClosedJaxpr, Jaxpr
    items = v if isinstance(v, tuple) else (v,)
    if not items or not all(isinstance(j, (Jaxpr, ClosedJaxpr)) for j in items):
        return []
    return [j.jaxpr if isinstance(j, ClosedJaxpr) else j for j in items]


class _Lister:
    """One jaxpr (and the ones nested in it) as Lines, with the printer's names."""

    def __init__(self, top, user_file: str):
        from core._engine.tracing.jaxpr import PrintContext, _dropvars
        self.ctx = PrintContext(_dropvars(top))
        self.user_file = user_file
        self.lines: list[Line] = []

    def _line(self, parts: list, depth: int, src=None, eqn=False) -> None:
        """`parts`: strings and ('var', v) items; a variable's key is its order in the line."""
        from core._engine.tracing.jaxpr import Literal
        text, key, order = [], [], {}
        for p in parts:
            if isinstance(p, tuple):
                v = p[1]
                name = self.ctx.name(v)
                text.append(name)
                if isinstance(v, Literal):
                    key.append(name)
                else:
                    key.append(f"%{order.setdefault(id(v), len(order))}")
            else:
                text.append(p)
                key.append(p)
        self.lines.append(Line(INDENT * depth + "".join(text), "".join(key), src, eqn, depth))

    @staticmethod
    def _typed(vs) -> list:
        out = []
        for i, v in enumerate(vs):
            out += ([" "] if i else []) + [("var", v), f":{v.aval.str_short()}"]
        return out

    @staticmethod
    def _names(vs, sep=" ") -> list:
        out = []
        for i, v in enumerate(vs):
            out += ([sep] if i else []) + [("var", v)]
        return out

    def block(self, jaxpr, depth: int) -> None:
        consts = self._typed(jaxpr.constvars)
        self._line(["{ lambda ", *consts, "; ", *self._typed(jaxpr.invars), ". let"], depth)
        for e in jaxpr.eqns:
            self.equation(e, depth + 1)
        outs = self._names(jaxpr.outvars, ", ")
        self._line(["in (", *outs, ",) }" if len(jaxpr.outvars) == 1 else ") }"], depth)

    def equation(self, e, depth: int) -> None:
        from core._engine.tracing.jaxpr import format_param
        rule = getattr(e.primitive, "pp_params", None)
        pairs = rule(e.params) if rule else [(k, e.params[k]) for k in sorted(e.params)]
        flat, nested = [], []
        for k, v in pairs:
            subs = _sub_jaxprs(v)
            if subs:
                nested.append((k, subs))
                flat.append(f"{k}={{…}}" if len(subs) == 1 else f"{k}=({'{…} ' * len(subs)}".rstrip() + ")")
            else:
                flat.append(f"{k}={format_param(v)}")
        params = f"[{' '.join(flat)}]" if flat else ""
        lhs = [*self._typed(e.outvars), " = "] if e.outvars else []
        self._line([*lhs, e.primitive.name, params, *([" "] if e.invars else []), *self._names(e.invars)],
                   depth, src_line(e, self.user_file), eqn=True)
        for k, subs in nested:
            for j in subs:
                self._line([f"{k}:"], depth + 1)
                self.block(j, depth + 2)


def listing(jaxpr, user_file: str = sandbox.USER_FILE) -> list[Line]:
    """`jaxpr` (a Jaxpr or ClosedJaxpr) as Lines: one per equation, nested bodies indented."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    lister = _Lister(jaxpr, user_file)
    lister.block(jaxpr, 0)
    return lister.lines


# ---------------------------------------------------------------- after the CPU compiler's passes
def compiled_listing(closed, user_file: str = sandbox.USER_FILE) -> list[Line]:
    """The equations jit's CPU compiler keeps of `closed` (core/_engine/backends/cpu.py: nested jit calls
    inlined, constants folded, common subexpressions shared, dead code dropped), as a jaxpr with
    the folded values as constants (a line each, `const`, not counted as equations)."""
    from core._engine.backends import cpu
    from core._engine.tracing.jaxpr import Jaxpr, Literal
    program = cpu.optimized(closed)
    if not hasattr(program, "eqns"):  # bfloat16 without ml_dtypes: interpreted equation by equation
        raise ValueError("the CPU compiler runs this jaxpr equation by equation (emulated bfloat16): "
                         "it has no passes to show")
    used: dict = {}
    for e in program.eqns:
        for v in e.invars:
            if not isinstance(v, Literal) and v in program.consts:
                used[v] = None
    for v in program.outvars:
        if not isinstance(v, Literal) and v in program.consts:
            used[v] = None
    jaxpr = Jaxpr(list(used), closed.jaxpr.invars, program.outvars, program.eqns)
    lister = _Lister(jaxpr, user_file)
    lister.block(jaxpr, 0)
    lines = lister.lines
    consts = []
    for v in used:
        value = np.asarray(program.consts[v])
        shown = repr(value.item()) if value.ndim == 0 else \
            np.array2string(value.ravel(), threshold=4, edgeitems=2, precision=4, separator=", ")
        shown = shown if len(shown) <= CONST_CHARS else shown[:CONST_CHARS - 1] + "…"
        name = lister.ctx.name(v)
        consts.append(Line(f"{INDENT}const {name}:{v.aval.str_short()} = {shown}",
                           f"const %0:{v.aval.str_short()} = {shown}", None, False, 1))
    return lines[:1] + consts + lines[1:]


# ---------------------------------------------------------------- the diff
@dataclass
class Row:
    tag: str                  # "same", "removed" (left only), "added" (right only)
    left: Line | None
    right: Line | None

    @property
    def line(self) -> Line:
        return self.right if self.right is not None else self.left


@dataclass
class Diff:
    rows: list = field(default_factory=list)
    added: int = 0            # equations only on the right
    removed: int = 0          # equations only on the left
    same: int = 0             # equations on both (modulo names)
    left_eqns: int = 0
    right_eqns: int = 0


def code_line_map(old_code: str, new_code: str) -> dict:
    """old line number -> new line number (1-based) for the lines an edit kept, and the lines of
    a changed block paired in order (an edited line keeps its equations' alignment)."""
    a, b = old_code.splitlines(), new_code.splitlines()
    out = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("equal", "replace"):
            for k in range(min(i2 - i1, j2 - j1)):
                out[i1 + k + 1] = j1 + k + 1
    return out


def _keyed(lines: list[Line], line_map: dict | None) -> list:
    out = []
    for ln in lines:
        src = ln.src
        if src is not None and line_map is not None:
            src = line_map.get(src, ("gone", src))  # a deleted line's equations match nothing by line
        out.append((src, ln.key.strip()))
    return out


def diff(left: list[Line], right: list[Line], line_map: dict | None = None) -> Diff:
    """Rows of a unified diff of two listings, matched on (code line, key); `line_map` moves
    the left listing's code lines to the right's (code_line_map, for two versions of the code)."""
    a, b = _keyed(left, line_map), _keyed(right, None)
    d = Diff(left_eqns=sum(ln.eqn for ln in left), right_eqns=sum(ln.eqn for ln in right))
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                d.rows.append(Row("same", left[i], right[j]))
                d.same += right[j].eqn
            continue
        _unmatched(d, left, right, a, b, range(i1, i2), range(j1, j2))
    return d


def _unmatched(d: Diff, left, right, a, b, li: range, rj: range) -> None:
    """Rows for lines the (code line, key) match left out: a line whose text (key) is the same on
    both sides and whose code line is missing on one side (`empty2` of grad(f) has none, grad(jit(f))'s
    has one) is the same line ("aligned by code line where both have one"); the rest removed, added."""
    def removed(i):
        d.rows.append(Row("removed", left[i], None))
        d.removed += left[i].eqn

    def added(j):
        d.rows.append(Row("added", None, right[j]))
        d.added += right[j].eqn

    ka, kb = [a[i][1] for i in li], [b[j][1] for j in rj]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes():
        if tag == "equal":
            for i, j in zip(li[i1:i2], rj[j1:j2]):
                if a[i][0] is None or b[j][0] is None:
                    d.rows.append(Row("same", left[i], right[j]))
                    d.same += right[j].eqn
                else:
                    removed(i)
                    added(j)
            continue
        for i in li[i1:i2]:
            removed(i)
        for j in rj[j1:j2]:
            added(j)


# ---------------------------------------------------------------- the views one can pick
# key -> what the menu says; `prev_*` are the last run's (the code before the latest edit)
VIEWS = {
    "f": "f",
    "jit": "jit(f)",
    "grad": "grad(f)",
    "grad_jit": "grad(jit(f))",
    "vmap0": "vmap(f, in_axes=0)",
    "vmap1": "vmap(f, in_axes=1)",
    "jvp": "jvp(f)",
    "compiled": "f, CPU-compiled",
    "grad_compiled": "grad(f), CPU-compiled",
    "prev_f": "f, last run",
    "prev_grad": "grad(f), last run",
}
# the pairs offered first (the menu's presets)
PAIRS = [("f", "jit"), ("grad", "grad_jit"), ("vmap0", "vmap1"), ("prev_f", "f"), ("prev_grad", "grad"),
         ("grad", "grad_compiled"), ("f", "grad")]
VIEW_CODE = {
    "f": "jax.make_jaxpr(f)({args})",
    "jit": "jax.make_jaxpr(jax.jit(f))({args})",
    "grad": "jax.make_jaxpr(jax.grad(f))({args})",
    "grad_jit": "jax.make_jaxpr(jax.grad(jax.jit(f)))({args})",
    "vmap0": "jax.make_jaxpr(jax.vmap(f, in_axes=0))(*batched)  # each argument stacked 3 times on axis 0",
    "vmap1": "jax.make_jaxpr(jax.vmap(f, in_axes=1))(*batched)  # each argument stacked 3 times on axis 1",
    "jvp": "t = jax.tree.map(jnp.ones_like, ({args},)); jax.make_jaxpr(lambda *p: jax.jvp(f, p, t))({args})",
    "compiled": "the equations jax.jit(f)'s CPU compiler keeps: nested jits inlined, constants folded, "
                "common subexpressions shared, dead code dropped (core/_engine/backends/cpu.py)",
    "grad_compiled": "the same for jax.jit(jax.grad(f))",
    "prev_f": "jax.make_jaxpr(f)(...) of the code's last run",
    "prev_grad": "jax.make_jaxpr(jax.grad(f))(...) of the code's last run",
}


@dataclass
class Side:
    view: str
    lines: list | None = None
    error: str = ""           # why this side has no jaxpr (in words)


def _stacked(args, axis: int):
    from app.analysis import _jax
    jax = _jax()
    jnp = jax.numpy

    def stack(a):
        a = jnp.asarray(a)
        if axis > a.ndim:
            raise ValueError(f"in_axes={axis} needs every input to have at least {axis} axis; "
                             f"this one has shape {tuple(a.shape)}")
        return jnp.stack([a] * 3, axis=axis)
    return jax.tree_util.tree_map(stack, args)


def _traced(view: str, fn, args, has_aux: bool):
    from app.analysis import _jax
    jax = _jax()
    if view == "grad_jit":
        return jax.make_jaxpr(jax.grad(jax.jit(fn), has_aux=has_aux))(*args)
    if view in ("vmap0", "vmap1"):
        axis = int(view[-1])
        return jax.make_jaxpr(jax.vmap(fn, in_axes=axis))(*_stacked(tuple(args), axis))
    raise ValueError(view)


def side(a, view: str, previous=None) -> Side:
    """View `view` of the analysis `a` (app.analysis.Analysis); `previous`: the last run's."""
    from app import analysis
    src = previous if view.startswith("prev_") else a
    base = view[5:] if view.startswith("prev_") else view
    if src is None:
        return Side(view, error="there is no earlier run of different code yet: edit the code and run it")
    if src.function is None or src.args_error is not None:
        return Side(view, error="that run has no function to trace" if src is previous
                    else "no function to trace")
    if src is previous and previous.function.name != a.function.name:
        return Side(view, error=f"the last run showed {previous.function.name}, not {a.function.name}")
    compiled = base in ("compiled", "grad_compiled")
    if base in ("f", "grad", "jit", "jvp") or compiled:
        jv_view = {"compiled": "f", "grad_compiled": "grad"}.get(base, base)
        analysis.complete(src, views=(jv_view,))
        jv = src.jaxprs[jv_view]
        if jv.error is not None:
            return Side(view, error=jv.error.headline())
        if compiled:
            lines, err = sandbox.guarded_call(compiled_listing, jv.closed, seconds=10.0)
            return Side(view, lines) if err is None else Side(view, error=err.headline())
        return Side(view, listing(jv.closed))
    fn = analysis.value_part(src.function.fn) if src.has_aux and base == "vmap0" else src.function.fn
    with sandbox.captured():
        closed, err = sandbox.guarded_call(_traced, base, fn, src.args, src.has_aux, seconds=10.0)
    if err is not None:
        return Side(view, error=err.headline())
    return Side(view, listing(closed))


@dataclass
class Comparison:
    left: Side
    right: Side
    diff: Diff | None = None
    renamed: bool = False     # the code changed between the two: code lines mapped (line_map)
    args: str = ""            # the input's source (the views' code names it)


def compare(a, left: str, right: str, previous=None) -> Comparison:
    """The diff of views `left` and `right` of the analysis `a` (and of the last run's)."""
    lv, rv = side(a, left, previous), side(a, right, previous)
    c = Comparison(lv, rv, args=a.args_source)
    if lv.lines is None or rv.lines is None:
        return c
    line_map = None
    old = previous.code if previous is not None else None
    if left.startswith("prev_") != right.startswith("prev_") and old is not None:
        line_map = code_line_map(old, a.code) if left.startswith("prev_") else \
            {v: k for k, v in code_line_map(old, a.code).items()}
        c.renamed = True
    c.diff = diff(lv.lines, rv.lines, line_map)
    return c


def summary(c: Comparison) -> dict:
    """Plain data for the page API's snapshot and the tests."""
    if c.diff is None:
        return {"left": c.left.view, "right": c.right.view, "error": c.left.error or c.right.error}
    d = c.diff
    return {"left": c.left.view, "right": c.right.view, "added": d.added, "removed": d.removed, "same": d.same,
            "rows": [[r.tag, r.line.text.strip()] for r in d.rows if r.tag != "same"]}

