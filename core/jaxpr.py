"""Jaxprs: the typed, first-order programs that tracing produces, and their printer.

Grammar (as JAX prints it):
    { lambda constvars ; invars . let eqn* in ( outvars ) }
    eqn  ::= outvars = primitive[params] invars
Printing mirrors JAX's document structure so that `str(make_jaxpr(f)(x))` is JAX's text.
"""
from __future__ import annotations

import numpy as np

from . import pretty as pp
from .avals import ShapedArray


class Var:
    __slots__ = ("aval", "count")
    _counter = 0

    def __init__(self, aval: ShapedArray):
        self.aval = aval
        Var._counter += 1
        self.count = Var._counter

    def __repr__(self):
        return f"Var({self.count}:{self.aval.str_short()})"


class Literal:
    """A scalar constant inlined into an equation (`2.0:f32[]`)."""
    __slots__ = ("val", "aval")

    def __init__(self, val, aval: ShapedArray):
        self.val = val
        self.aval = aval

    def __repr__(self):
        return f"Literal({self.val})"


class JaxprEqn:
    __slots__ = ("primitive", "invars", "outvars", "params")

    def __init__(self, primitive, invars, outvars, params):
        self.primitive = primitive
        self.invars = list(invars)
        self.outvars = list(outvars)
        self.params = dict(params)

    def __repr__(self):
        return f"JaxprEqn({self.primitive.name}, {self.invars} -> {self.outvars})"


class Jaxpr:
    __slots__ = ("constvars", "invars", "outvars", "eqns")

    def __init__(self, constvars, invars, outvars, eqns):
        self.constvars = list(constvars)
        self.invars = list(invars)
        self.outvars = list(outvars)
        self.eqns = list(eqns)

    def pretty_print(self, width: int = 80) -> str:
        return pp_toplevel(self).format(width)

    def __str__(self):
        return self.pretty_print()

    __repr__ = __str__

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

    def pretty_print(self, width: int = 80) -> str:
        return self.jaxpr.pretty_print(width)

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


class PrintContext:
    def __init__(self, unused=frozenset()):
        self.names: dict = {}
        self.unused = unused

    def name(self, v) -> str:
        if isinstance(v, Literal):
            return pp_literal(v)
        if v in self.unused:
            return "_"
        n = self.names.get(v)
        if n is None:
            n = self.names[v] = _encode_name(len(self.names))
        return n


def _collect_used(jaxpr: Jaxpr, used: set) -> None:
    for eqn in jaxpr.eqns:
        for v in eqn.invars:
            if isinstance(v, Var):
                used.add(v)
        for p in eqn.params.values():
            for sub in _subjaxprs(p):
                _collect_used(sub, used)
    for v in jaxpr.outvars:
        if isinstance(v, Var):
            used.add(v)


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
    elif isinstance(val, (np.floating, float)):
        s = str(val) if isinstance(val, np.floating) else repr(val)
        if s in ("inf", "-inf", "nan"):
            s = s
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
        return pp.concat([pp.text("("),
                          pp.join(pp.text(" "), [pp_jaxpr(j if isinstance(j, Jaxpr) else j.jaxpr, ctx) for j in v]),
                          pp.text(")")])
    if isinstance(v, Jaxpr):
        return pp_jaxpr(v, ctx)
    if isinstance(v, ClosedJaxpr):
        return pp_jaxpr(v.jaxpr, ctx)
    return pp.text(format_param(v))


def format_param(v) -> str:
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, type) and issubclass(v, np.generic):
        return np.dtype(v).name
    if isinstance(v, tuple):
        inner = ", ".join(format_param(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, (np.integer,)):
        return str(int(v))
    return str(v)


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
    lhs = pp_vars(eqn.outvars, ctx, print_shapes=True)
    rhs = [pp.text(eqn.primitive.name), pp_kv_pairs(pairs, ctx), pp.text(" ") + pp_vars(eqn.invars, ctx)]
    if eqn.outvars:
        return pp.concat([lhs, pp.text(" = "), *rhs])
    return pp.concat(rhs)


def pp_jaxpr(jaxpr: Jaxpr, ctx: PrintContext) -> pp.Doc:
    constvars = pp_vars(jaxpr.constvars, ctx, print_shapes=True)
    invars = pp_vars(jaxpr.invars, ctx, print_shapes=True)
    eqns = pp.join(pp.brk("; "), [pp_eqn(e, ctx) for e in jaxpr.eqns])
    outvars = pp.concat([pp.text("("), pp_vars(jaxpr.outvars, ctx, separator=","),
                         pp.text(")" if len(jaxpr.outvars) != 1 else ",)")])
    return pp.group(pp.nest(2, pp.concat([
        pp.text("{ "), pp.text("lambda "), constvars, pp.text("; "), invars,
        pp.text(". "), pp.text("let"), pp.nest(2, pp.brk() + eqns), pp.brk(),
        pp.text("in "), outvars])) + pp.text(" }"))


def pp_toplevel(jaxpr: Jaxpr) -> pp.Doc:
    used: set = set()
    _collect_used(jaxpr, used)
    unused = {v for e in _all_eqns(jaxpr) for v in e.outvars if v not in used}
    return pp_jaxpr(jaxpr, PrintContext(unused))


def _all_eqns(jaxpr):
    for e in jaxpr.eqns:
        yield e
        for p in e.params.values():
            for sub in _subjaxprs(p):
                yield from _all_eqns(sub)
