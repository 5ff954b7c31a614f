"""Automatic differentiation: forward mode (jvp), linearize, transposition and reverse mode.

`jvp` pushes (primal, tangent) pairs through `jvp_rules`. `linearize` is jvp whose tangents are
tracers of a jaxpr trace one level up, so every tangent operation is recorded into a linear
jaxpr while primal work runs (or is staged) below; residuals are the jaxpr's constants.
`vjp`/`grad` transpose that linear jaxpr with `transpose_rules` (a backward pass).
Tangents may be symbolic zeros (`Zero`), so untouched inputs cost nothing and stay out of jaxprs.
"""
from __future__ import annotations

from contextlib import nullcontext as _no_context


from ..base.avals import ShapedArray
from ..base.tree_util import register_pytree_node
from ..tracing.rules import jvp_rules, linearize_rules, transform_ops, transpose_rules
from ..tracing.tracing import Trace, Tracer, bind, get_aval, new_main
from .staging import JaxprBuilder, JaxprTrace, literal_array
from ..tracing.jaxpr import Literal, tangent_zeros
from ..base import source_info


class Zero:
    """A symbolic zero tangent/cotangent of a given aval."""
    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self):
        return f"Zero({self.aval})"   # as JAX: Zero(float32[3]), Zero(float0[])


# As in JAX, a symbolic zero is a pytree node with no leaves (its aval the node's data): a
# function under vmap, jit or eval_shape may take or return one, and it passes through as
# structure, never as a value (equinox's vprim vmaps a jvp rule whose tangents may be Zero).
register_pytree_node(Zero, lambda z: ((), z.aval), lambda aval, _: Zero(aval))


class UndefinedPrimal:
    """Marks a linear input of an equation during transposition."""
    __slots__ = ("aval",)

    def __init__(self, aval):
        self.aval = aval

    def __repr__(self):
        return f"UndefinedPrimal({self.aval.str_short()})"


def is_undefined(x) -> bool:
    return type(x) is UndefinedPrimal


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    """Integer and bool primals have float0 tangents in JAX; we use the same dtype, zero-valued."""
    return ShapedArray(aval.shape, aval.dtype, aval.weak_type)


_in_jvp_rule = [0]   # how many jvp rules are running (JVPTrace.process_primitive)


def zeros_like_aval(aval: ShapedArray):
    z = transform_ops["full"](aval.shape, 0, aval.dtype, weak_type=aval.weak_type)
    if _in_jvp_rule[0] and aval.shape == () and not isinstance(z, Tracer):
        # a jvp rule's 0-d zero for a zero tangent: staged, it is a ZeroLiteral (tracing/jaxpr.py)
        tangent_zeros[id(z)] = z
        if len(tangent_zeros) > 256:
            del tangent_zeros[next(iter(tangent_zeros))]
    return z


def instantiate(t):
    return zeros_like_aval(t.aval) if type(t) is Zero else t


def add_tangents(a, b):
    if type(a) is Zero:
        return b
    if type(b) is Zero:
        return a
    return transform_ops["add_any_p"].bind(a, b)


# ---- forward mode -------------------------------------------------------------------------

class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent")
    _kind = "JVPTracer"

    def __init__(self, trace, primal, tangent):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self):
        return get_aval(self.primal)

    def full_lower(self):
        if type(self.tangent) is Zero:
            return self.primal.full_lower() if isinstance(self.primal, Tracer) else self.primal
        return self

    def to_concrete_value(self):
        p = self.primal
        return p.to_concrete_value() if isinstance(p, Tracer) else p

    def __repr__(self):
        t = self.tangent
        return f"JVPTracer(primal={_short(self.primal)}, tangent={_short(t)})"


def _short(x):
    if isinstance(x, Zero):
        return f"Zero({x.aval.str_short()})"
    if isinstance(x, Tracer):
        return repr(x)
    return str(x)


class JVPTrace(Trace):
    tracer_type = JVPTracer

    def pure(self, val):
        return self.tracer_type(self, val, Zero(get_aval(val).strip_weak_type() if False else get_aval(val)))

    lift = pure

    def process_primitive(self, prim, tracers, params):
        # tuples, as JAX hands a jvp rule (equinox's vprim passes them on as a vmap in_axes prefix)
        primals = tuple([t.primal for t in tracers])
        tangents = tuple([t.tangent for t in tracers])
        if all(type(t) is Zero for t in tangents):
            out = bind(prim, *primals, **params)
            if prim.multiple_results:
                return [self.tracer_type(self, o, Zero(get_aval(o))) for o in out]
            return self.tracer_type(self, out, Zero(get_aval(out)))
        rule = jvp_rules.get(prim)
        if rule is None:
            raise NotImplementedError(f"Differentiation rule for '{prim.name}' not implemented")
        _in_jvp_rule[0] += 1
        try:
            primal_out, tangent_out = rule(primals, tangents, **params)
        finally:
            _in_jvp_rule[0] -= 1
        if prim.multiple_results:
            return [self.tracer_type(self, p, t) for p, t in zip(primal_out, tangent_out)]
        return self.tracer_type(self, primal_out, tangent_out)


def jvp_flat(fun, primals, tangents):
    """fun: flat list -> flat list. Returns (primals_out, tangents_out), tangents possibly Zero."""
    with new_main(JVPTrace) as main:
        trace = JVPTrace(main)
        ins = [JVPTracer(trace, p, t) for p, t in zip(primals, tangents)]
        outs = fun(*ins)
        outs = [trace.full_raise(o) for o in outs]
        return [o.primal for o in outs], [o.tangent for o in outs]


# ---- linearize ----------------------------------------------------------------------------

class LinearizeTracer(JVPTracer):
    __slots__ = ()
    _kind = "GradTracer"

    def __repr__(self):
        t = self.tangent
        return f"GradTracer(primal={_short(self.primal)}, typeof(tangent)={t.aval.str_short()})"


class LinearizeTrace(JVPTrace):
    tracer_type = LinearizeTracer

    def pure(self, val):
        # A value that enters as a constant (a Python scalar in `c * 0.9`, a literal of a re-traced
        # body) is no residual: the linear jaxpr keeps it as a literal, as JAX's partial evaluation
        # does. Computed primals (inputs and their results) stay residuals. Recorded by id in the
        # builder; a reused id can only turn a scalar residual into an equal literal.
        consts = self.main.global_data
        if consts is not None:
            consts.add(id(val))
        return JVPTrace.pure(self, val)

    lift = JVPTrace.lift

    def process_primitive(self, prim, tracers, params):
        rule = linearize_rules.get(prim)
        if rule is not None and any(type(t.tangent) is not Zero for t in tracers):
            return rule(self, tracers, **params)
        return JVPTrace.process_primitive(self, prim, tracers, params)


class LinearJaxpr:
    """The linear part of a linearized function: tangents in -> tangents out, with residuals."""

    def __init__(self, jaxpr, residuals, in_avals):
        self.jaxpr = jaxpr
        self.residuals = residuals
        self.in_avals = in_avals


def linearize_flat(fun, primals, name_stack: bool = False):
    """Returns (primals_out, LinearJaxpr). Primal work happens at the caller's level.
    name_stack: equations traced inside say `jvp(...)` (jax.vjp/grad/linearize, as JAX's)."""
    builder = JaxprBuilder()
    builder.arrays_stay_consts = True  # residuals stay residuals (the vjp function's leaves), as in JAX
    builder.name_base = source_info.current_name_stack().stack
    with new_main(LinearizeTrace, builder.constant_ids) as main, \
            (source_info.transform_name_stack("jvp") if name_stack else _no_context()):
        with new_main(JaxprTrace, builder) as tmain:
            ttrace = JaxprTrace(tmain)
            trace = LinearizeTrace(main)
            in_avals = [get_aval(p) for p in primals]
            tangents_in = [ttrace.new_arg(tangent_aval(a)) for a in in_avals]
            ins = [LinearizeTracer(trace, p, t) for p, t in zip(primals, tangents_in)]
            outs = fun(*ins)
            outs = [trace.full_raise(o) for o in outs]
            primals_out = [o.primal for o in outs]
            tangents_out = [ttrace.full_raise(instantiate(o.tangent)) if type(o.tangent) is Zero else o.tangent
                            for o in outs]
            tangents_out = [ttrace.full_raise(t) for t in tangents_out]
            jaxpr, residuals = builder.to_jaxpr(tangents_in, tangents_out)
    return primals_out, LinearJaxpr(jaxpr, residuals, in_avals)


def eval_linear(lin: LinearJaxpr, tangents):
    from .staging import eval_jaxpr
    return eval_jaxpr(lin.jaxpr, lin.residuals, *tangents)


# ---- transposition ------------------------------------------------------------------------

def backward_pass(jaxpr, consts, cts_out, transform_stack: bool = True):
    """Cotangents of `jaxpr`'s invars given cotangents of its outvars (Zero where none).
    transform_stack: the cotangent equations' name stacks say `transpose(...)` (not for the
    body of a call being transposed, as JAX's)."""
    linear = set(jaxpr.invars)
    for eqn in jaxpr.eqns:
        if any(not isinstance(v, Literal) and v in linear for v in eqn.invars):
            linear.update(eqn.outvars)
    env: dict = dict(zip(jaxpr.constvars, consts))

    def read(v):
        return literal_array(v) if isinstance(v, Literal) else env[v]

    sources = source_info._current  # the source info staging records (pushed per equation below)
    # Non-linear equations (only residual inputs) run forward first.
    for eqn in jaxpr.eqns:
        if eqn.outvars and eqn.outvars[0] not in linear:
            sources.append(source_info.reentered(eqn.source_info))  # staged again: still the primal's line
            try:
                outs = bind(eqn.primitive, *[read(v) for v in eqn.invars], **eqn.params)
            finally:
                sources.pop()
            outs = outs if eqn.primitive.multiple_results else [outs]
            env.update(zip(eqn.outvars, outs))

    ct_env: dict = {}

    def write_ct(v, ct):
        if isinstance(v, Literal) or v not in linear or ct is None or type(ct) is Zero:
            return
        ct_env[v] = add_tangents(ct_env[v], ct) if v in ct_env else ct

    for v, ct in zip(jaxpr.outvars, cts_out):
        write_ct(v, ct)
    with source_info.transform_name_stack("transpose") if transform_stack else _no_context():
        _transpose_eqns(jaxpr, linear, ct_env, read, write_ct, sources)
    return [ct_env.get(v, Zero(v.aval)) for v in jaxpr.invars]


def _transpose_eqns(jaxpr, linear, ct_env, read, write_ct, sources):
    for eqn in reversed(jaxpr.eqns):
        if not eqn.outvars or eqn.outvars[0] not in linear:
            continue
        cts = [ct_env.pop(v, None) for v in eqn.outvars]
        if all(c is None for c in cts):
            continue
        cts = [Zero(v.aval) if c is None else c for c, v in zip(cts, eqn.outvars)]
        invals = [UndefinedPrimal(v.aval) if (not isinstance(v, Literal) and v in linear) else read(v)
                  for v in eqn.invars]
        rule = transpose_rules.get(eqn.primitive)
        if rule is None:
            raise NotImplementedError(f"Transpose rule (for reverse-mode differentiation) for "
                                      f"'{eqn.primitive.name}' not implemented")
        ct_arg = cts if eqn.primitive.multiple_results else cts[0]
        sources.append(source_info.reentered(eqn.source_info))  # each cotangent points at its primal's line
        try:
            cts_in = rule(ct_arg, *invals, **eqn.params)
            for v, ct in zip(eqn.invars, cts_in):
                write_ct(v, ct)
        finally:
            sources.pop()


def vjp_flat(fun, primals, name_stack: bool = False):
    primals_out, lin = linearize_flat(fun, primals, name_stack)

    def f_vjp(cts):
        cts_in = backward_pass(lin.jaxpr, lin.residuals, cts)
        return cts_in
    return primals_out, f_vjp, lin


# ---- helpers for primitive files ----------------------------------------------------------

def _sum_of_rules(prim, rules, sees_output: bool):
    """A jvp rule summing per-argument tangent rules over the nonzero tangents."""
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        extra = (out,) if sees_output else ()
        acc = None
        for rule, t in zip(rules, tangents):
            if rule is None or type(t) is Zero:
                continue
            contrib = rule(t, *extra, *primals, **params)
            acc = contrib if acc is None else add_tangents(acc, contrib)
        return out, (Zero(get_aval(out)) if acc is None else acc)
    return jvp


def defjvp(prim, *rules):
    """Per-argument tangent rules `rule(t, *primals, **params)`, summed (JAX's ad.defjvp)."""
    jvp_rules[prim] = _sum_of_rules(prim, rules, sees_output=False)


def defjvp2(prim, *rules):
    """Like defjvp but rules also see the primal output: `rule(t, ans, *primals)`."""
    jvp_rules[prim] = _sum_of_rules(prim, rules, sees_output=True)


def defjvp_zero(prim):
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if prim.multiple_results:
            return out, [Zero(get_aval(o)) for o in out]
        return out, Zero(get_aval(out))
    jvp_rules[prim] = jvp


def deflinear(prim, transpose):
    """A primitive linear in all its inputs: jvp applies it to tangents; `transpose(ct, *args)`."""
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        tangents = [instantiate(t) for t in tangents]
        return out, prim.bind(*tangents, **params)
    jvp_rules[prim] = jvp
    transpose_rules[prim] = transpose
