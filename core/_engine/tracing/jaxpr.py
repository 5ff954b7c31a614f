"""Jaxprs: the typed, first-order programs that tracing produces, and their printer.

Grammar (as JAX prints it):
    { lambda constvars ; invars . let eqn* in ( outvars ) }
    eqn  ::= outvars = primitive[params] invars
Printing mirrors JAX's document structure so that `str(make_jaxpr(f)(x))` is JAX's text.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..base import dtypes, pretty as pp
from ..base.avals import ShapedArray
from ..base.source_info import SourceInfo, summarize

_NO_SOURCE = SourceInfo()  # built by a pass, not traced: JAX's summarize says 'unknown'


_var_counts = itertools.count(1)


class Var:
    __slots__ = ("aval", "count")

    # (a module counter: bumping a class attribute per Var made every Var twice as costly to make,
    # and tracing makes one per value)
    def __init__(self, aval: ShapedArray, _next_count=_var_counts.__next__):
        self.aval = aval
        self.count = _next_count()

    def __repr__(self):  # as JAX's: Var(id=140020897664640):int32[]
        return f"Var(id={id(self)}):{self.aval.str_short(short_dtypes=False)}"


class Literal:
    """A scalar constant inlined into an equation (`2.0:f32[]`)."""
    __slots__ = ("val", "aval")

    def __init__(self, val, aval: ShapedArray):
        self.val = val
        self.aval = aval

    def __repr__(self):  # JAX keeps a weak int literal as a TypedInt, and shows it
        if self.aval.weak_type and self.aval.dtype.kind in "iu":
            return f"Literal(TypedInt({int(self.val)}, dtype={self.aval.dtype.name}))"
        return f"Literal({self.val})"


class ZeroLiteral(Literal):
    """A 0-d zero a jvp rule made for a zero tangent (`ad.zeros_like_aval`: instantiated tangents,
    select_n's stand-in case, a linear primitive's zero operand). Printed as any literal; partial
    evaluation makes it a residual when tangent work reads it, as JAX's does (the known call
    returns `0.0:f32[]`, the tangent call takes it as an argument)."""
    __slots__ = ()


# id -> the 0-d zeros jvp rules made lately (ad.zeros_like_aval), so that the jaxpr builder knows
# them (staging turns one into a ZeroLiteral); held, so an id is not reused while listed
tangent_zeros: dict = {}


def is_tangent_zero(val) -> bool:
    return tangent_zeros.get(id(val)) is val


class JaxprEqn:
    __slots__ = ("primitive", "invars", "outvars", "params", "source_info")

    def __init__(self, primitive, invars, outvars, params, source_info=None):
        self.primitive = primitive
        self.invars = list(invars)
        self.outvars = list(outvars)
        self.params = dict(params)
        self.source_info = source_info or _NO_SOURCE  # where in user code it was traced (source_info.py)

    def __repr__(self):
        return f"JaxprEqn({self.primitive.name}, {self.invars} -> {self.outvars})"


def owning_eqn(primitive, invars: list, outvars: list, params: dict, source_info) -> JaxprEqn:
    """A JaxprEqn that takes its lists and params dict as they are (no copies): for a builder
    that made them fresh and never touches them again (tracing makes one per operation)."""
    eqn = _new_object(JaxprEqn)
    eqn.primitive, eqn.invars, eqn.outvars, eqn.params = primitive, invars, outvars, params
    eqn.source_info = source_info or _NO_SOURCE
    return eqn


_new_object = object.__new__


class Jaxpr:
    __slots__ = ("constvars", "invars", "outvars", "eqns")

    def __init__(self, constvars, invars, outvars, eqns):
        self.constvars = list(constvars)
        self.invars = list(invars)
        self.outvars = list(outvars)
        self.eqns = list(eqns)

    def pretty_print(self, width: int = 80, *, source_info: bool = False, name_stack: bool = False,
                     **_ignored) -> str:
        """JAX's jaxpr text; `source_info=True` ends each equation's line with `# file:line:col
        (function)`, `name_stack=True` adds its transformation stack (`# [...]`)."""
        return pp_toplevel(self, PrintSettings(source_info, name_stack)).format(width)

    def __str__(self):
        return self.pretty_print()

    __repr__ = __str__

    def replace(self, **changes) -> "Jaxpr":
        """A copy with some of constvars/invars/outvars/eqns replaced (JAX's Jaxpr.replace)."""
        parts = {name: changes.pop(name, getattr(self, name)) for name in self.__slots__}
        changes.pop("effects", None), changes.pop("debug_info", None)  # JAX's, which this one has not
        if changes:
            raise TypeError(f"Jaxpr.replace() got unexpected fields {sorted(changes)}")
        return Jaxpr(**parts)

    @property
    def in_avals(self):
        return [v.aval for v in self.invars]

    @property
    def out_avals(self):
        return [v.aval for v in self.outvars]


class ClosedJaxpr:
    """A jaxpr together with the values of its constvars."""
    __slots__ = ("jaxpr", "consts", "__weakref__")

    def __init__(self, jaxpr: Jaxpr, consts):
        self.jaxpr = jaxpr
        self.consts = list(consts)

    in_avals = property(lambda self: self.jaxpr.in_avals)
    out_avals = property(lambda self: self.jaxpr.out_avals)
    eqns = property(lambda self: self.jaxpr.eqns)
    # the inner jaxpr's variables, as JAX's ClosedJaxpr forwards them (haiku's jaxpr_info reads a
    # custom_jvp_call's call_jaxpr this way)
    constvars = property(lambda self: self.jaxpr.constvars)
    invars = property(lambda self: self.jaxpr.invars)
    outvars = property(lambda self: self.jaxpr.outvars)
    effects = property(lambda self: getattr(self.jaxpr, "effects", set()))
    literals = property(lambda self: self.consts)  # JAX's name for them (custom interpreters guide)

    def pretty_print(self, width: int = 80, **settings) -> str:
        return self.jaxpr.pretty_print(width, **settings)

    def __str__(self):
        return self.jaxpr.pretty_print()

    __repr__ = __str__


# ---- printing ----------------------------------------------------------------------------

_ALPHA = "abcdefghijklmnopqrstuvwxyz"


def _encode_name(n: int) -> str:
    """0 -> a, 25 -> z, 26 -> ba, 27 -> bb, ... (JAX's scheme: the leading digit is never 'a')."""
    s = ""
    while True:
        n, r = divmod(n, 26)
        s = _ALPHA[r] + s
        if n == 0:
            return s


class PrintSettings:
    """What pretty_print adds to the plain text (JAX's JaxprPpSettings)."""
    __slots__ = ("source_info", "name_stack")

    def __init__(self, source_info: bool = False, name_stack: bool = False):
        self.source_info, self.name_stack = source_info, name_stack


class PrintContext:
    """Variable names shared by a jaxpr and every jaxpr nested in it (like JAX's JaxprPpContext)."""

    def __init__(self, names=None, settings: PrintSettings | None = None):
        self.settings = settings or PrintSettings()
        self.names: dict = dict(names or {})
        self.counter = 0
        self.shared_jaxprs: dict = {}     # id(Jaxpr) -> name of a hoisted `let name = {...} in`
        self.shared_names: set = set()

    def _fresh(self) -> str:
        while True:
            n = _encode_name(self.counter)
            self.counter += 1
            if n not in self.shared_names:
                return n

    def name(self, v) -> str:
        if isinstance(v, Literal):
            return pp_literal(v)
        n = self.names.get(v)
        if n is None:
            n = self.names[v] = self._fresh()
        return n

    def suggest_same_names(self, for_vars, like_vars) -> None:
        """Name a call's inner vars after the outer atoms they alias (JAX does this for jit)."""
        if len(for_vars) != len(like_vars):
            return
        used = set()
        for f, l in zip(for_vars, like_vars):
            if isinstance(l, Var) and l not in used and isinstance(f, Var) and f not in self.names:
                used.add(l)
                self.names[f] = self.name(l)


def _subjaxprs(p):
    if isinstance(p, Jaxpr):
        yield p
    elif isinstance(p, ClosedJaxpr):
        yield p.jaxpr
    elif isinstance(p, tuple):
        for q in p:
            if isinstance(q, (Jaxpr, ClosedJaxpr)):
                yield q if isinstance(q, Jaxpr) else q.jaxpr


def pp_literal(lit: Literal) -> str:
    val = lit.val
    if isinstance(val, np.ndarray):
        val = val[()] if val.shape == () else val
    if isinstance(val, (np.bool_, bool)):
        s = str(bool(val))
    elif isinstance(val, (np.floating, float)) or dtypes.kind(lit.aval.dtype) == "f":  # (bfloat16: no np.floating)
        # JAX keeps a weak literal's Python scalar (prints 0.044715) but stores a strong one as the
        # float of its dtype's value (1.67 -> 1.6699999570846558); numpy's shortest repr of the
        # dtype value reproduces the first.
        v = np.asarray(val, lit.aval.dtype) if dtypes.kind(lit.aval.dtype) == "f" else np.asarray(val)
        # (16-bit floats print their value in full: 1.1 as bf16 is 1.1015625)
        s = str(v[()]) if lit.aval.weak_type and dtypes.kind(lit.aval.dtype) == "f" and v.dtype.itemsize > 2 \
            else repr(float(v))
    else:
        s = str(val)
    return f"{s}:{lit.aval.str_short()}"


def pp_vars(vs, ctx: PrintContext, separator: str = "", print_shapes: bool = False) -> pp.Doc:
    if print_shapes:
        items = [pp.text(ctx.name(v) + ":" + v.aval.str_short()) for v in vs]
    else:
        items = [pp.text(ctx.name(v)) for v in vs]
    return pp.nest(2, pp.group(pp.join(pp.text(separator) + pp.group(pp.brk()), items)))


def pp_param_value(v, ctx: PrintContext) -> pp.Doc:
    if isinstance(v, tuple) and v and all(isinstance(j, (Jaxpr, ClosedJaxpr)) for j in v):
        docs = [pp_jaxpr(j if isinstance(j, Jaxpr) else j.jaxpr, ctx) for j in v]
        return pp.group(pp.concat([pp.nest(2, pp.concat([pp.text("("), pp.brk(""), pp.join(pp.brk(), docs)])),
                                   pp.brk(""), pp.text(")")]))
    if isinstance(v, Jaxpr):
        return pp_jaxpr(v, ctx)
    if isinstance(v, ClosedJaxpr):
        return pp_jaxpr(v.jaxpr, ctx)
    return pp.text(format_param(v))


def format_param(v) -> str:
    """`str(v)` as JAX prints params (so numpy ints inside tuples show as `np.int64(1)`)."""
    if isinstance(v, np.dtype):
        return dtypes.dtype_name(v)
    if isinstance(v, type) and issubclass(v, np.generic):
        return np.dtype(v).name
    if isinstance(v, tuple):
        inner = ", ".join(_format_elem(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    return str(v)


def _format_elem(x) -> str:
    if isinstance(x, (tuple, np.dtype)) or (isinstance(x, type) and issubclass(x, np.generic)):
        return format_param(x)
    return repr(x)


def pp_kv_pairs(pairs, ctx) -> pp.Doc:
    if not pairs:
        return pp.nil()
    return pp.group(
        pp.nest(2, pp.concat([pp.text("["), pp.brk(""),
                              pp.join(pp.brk(), [pp.text(f"{k}=") + pp_param_value(v, ctx) for k, v in pairs])]))
        + pp.brk("") + pp.text("]"))


def pp_eqn(eqn: JaxprEqn, ctx: PrintContext) -> pp.Doc:
    rule = getattr(eqn.primitive, "pp_params", None)
    pairs = rule(eqn.params) if rule else [(k, eqn.params[k]) for k in sorted(eqn.params)]
    call_param = getattr(eqn.primitive, "call_jaxpr_param", None)
    if call_param is not None:
        inner = eqn.params[call_param]
        inner = inner.jaxpr if isinstance(inner, ClosedJaxpr) else inner
        if id(inner) not in ctx.shared_jaxprs:
            ctx.suggest_same_names(inner.invars, eqn.invars)
            ctx.suggest_same_names(inner.outvars, eqn.outvars)
    lhs = pp_vars(eqn.outvars, ctx, print_shapes=True)
    where = summarize(eqn.source_info) if ctx.settings.source_info else None
    stack = f"[{eqn.source_info.name_stack}]" if ctx.settings.name_stack else None
    rhs = [pp.text(eqn.primitive.name, stack), pp_kv_pairs(pairs, ctx), pp.text(" ") + pp_vars(eqn.invars, ctx)]
    if eqn.outvars:
        return pp.concat([lhs, pp.text(" = ", where), *rhs])
    return pp.concat([pp.text("", where), *rhs])


def _pp_skeleton(jaxpr: Jaxpr, ctx: PrintContext) -> pp.Doc:
    constvars = pp_vars(jaxpr.constvars, ctx, print_shapes=True)
    invars = pp_vars(jaxpr.invars, ctx, print_shapes=True)
    eqns = pp.join(pp.brk("; "), [pp_eqn(e, ctx) for e in jaxpr.eqns])
    outvars = pp.concat([pp.text("("), pp_vars(jaxpr.outvars, ctx, separator=","),
                         pp.text(")" if len(jaxpr.outvars) != 1 else ",)")])
    return pp.group(pp.nest(2, pp.concat([
        pp.text("{ "), pp.text("lambda "), constvars, pp.text("; "), invars,
        pp.text(". "), pp.text("let"), pp.nest(2, pp.brk() + eqns), pp.brk(),
        pp.text("in "), outvars])) + pp.text(" }"))


def pp_jaxpr(jaxpr: Jaxpr, ctx: PrintContext) -> pp.Doc:
    shared = ctx.shared_jaxprs.get(id(jaxpr))
    if shared is not None:
        return pp.text(shared)
    return _pp_skeleton(jaxpr, ctx)


def _dropvars(jaxpr: Jaxpr) -> dict:
    """Outputs of top-level equations that nothing reads print as `_` (JAX's `_dropvars`)."""
    names: dict = {}
    used = {v for v in jaxpr.outvars if isinstance(v, Var)}
    for eqn in reversed(jaxpr.eqns):
        for v in eqn.outvars:
            if v not in used:
                names[v] = "_"
        used.update(v for v in eqn.invars if isinstance(v, Var))
    return names


def printed_names(jaxpr: Jaxpr) -> dict:
    """Var -> the name it has in `jaxpr`'s printed text, nested jaxprs' vars included (the
    playground's stepper labels its values with them)."""
    ctx = PrintContext(_dropvars(jaxpr))
    pp_toplevel(jaxpr, ctx=ctx)  # names are given as the document is built
    return ctx.names


def pp_toplevel(jaxpr: Jaxpr, settings: PrintSettings | None = None, ctx: PrintContext | None = None) -> pp.Doc:
    ctx = ctx or PrintContext(_dropvars(jaxpr), settings)
    # Jaxprs reached more than once, and nested ones longer than 10 equations, are printed
    # once up front as `let name = { ... } in` and referred to by name (as JAX does).
    counts: dict = {}
    objs: dict = {}
    names: dict = {}
    queue = [jaxpr]
    while queue:
        j = queue.pop(0)
        counts[id(j)] = counts.get(id(j), 0) + 1
        objs[id(j)] = j
        if j is not jaxpr and len(j.eqns) > 10:
            counts[id(j)] += 1
        for eqn in j.eqns:
            name = eqn.params.get("name")
            subs = [s for p in eqn.params.values() for s in _subjaxprs(p)]
            queue.extend(subs)
            if isinstance(name, str):
                for s in subs:
                    names.setdefault(id(s), name.strip("<>"))
    name_counts: dict = {}
    shared = []
    for key, c in counts.items():
        if c == 1:
            continue
        name = names.get(key, "jaxpr")
        count = name_counts.get(name, 0)
        if count > 0:
            name_counts[name] = count + 1
            name += str(count)
        name_counts[name] = name_counts.get(name, 0) + 1
        ctx.shared_names.add(name)
        ctx.shared_jaxprs[key] = name
        shared.append((name, objs[key]))
    docs = [pp.concat([pp.text("let "), pp.text(name), pp.text(" = "), _pp_skeleton(j, ctx), pp.text(" in"),
                       pp.brk()]) for name, j in shared]
    docs.append(pp_jaxpr(jaxpr, ctx))
    return pp.concat(docs)
