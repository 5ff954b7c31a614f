"""Staging: tracing Python functions into jaxprs (make_jaxpr, and the front half of jit).

A `JaxprTrace` records every primitive applied to its tracers as an equation. Concrete values
that meet a tracer become constants: scalars are inlined as typed literals (`2.0:f32[]`),
arrays become constvars, as in JAX.
"""
from __future__ import annotations

import sys

import numpy as np

from ..tracing.array import Array, to_numpy, trace_epoch
from ..base.avals import ShapedArray, aval_of_value
from ..tracing.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var, ZeroLiteral, is_tangent_zero, owning_eqn
from ..tracing.rules import abstract_eval_rules
from ..base import source_info
from ..tracing import tracing as _tracing
from ..base.source_info import capture as capture_source_info
from ..tracing.tracing import Trace, Tracer, new_main


class JaxprTracer(Tracer):
    __slots__ = ("aval",)  # a plain slot (shadows Tracer.aval): read on every traced op
    _kind = "JitTracer"

    def __init__(self, trace, aval: ShapedArray):
        self._trace = trace
        self.aval = aval


# what `type(x).__name__` says inside jit/make_jaxpr, as in JAX
JaxprTracer.__name__ = JaxprTracer.__qualname__ = "DynamicJaxprTracer"


class JaxprBuilder:
    """Collects equations, constants and tracers while a function is traced."""

    def __init__(self):
        self.eqns: list = []          # (primitive, in_tracers, params, out_tracers, source_info)
        self.arrays_stay_consts = False  # linearize: scalar Arrays are residuals, not literals...
        self.constant_ids: set = set()   # ...except those that entered linearize as constants
        self.consts: dict = {}        # id(const tracer) -> value
        self.literals: dict = {}      # id(const tracer) -> its Literal, for Python scalars made one directly
        self.const_by_id: dict = {}   # id(value) -> const tracer
        self.keepalive: list = []
        self.boundary = id(sys._getframe(1))  # the frame tracing began in: source info looks no further out
        self.name_base = ()  # linearize: name stacks are recorded relative to where it began
        self.debug = None     # core._engine.base.trace_debug.TraceDebug of the function traced, if known
        self.in_tracers = ()  # its argument tracers (what a value depends on, for errors)
        trace_epoch[0] += 1
        self.epoch = trace_epoch[0]   # Arrays born before this stay constvars, 0-d too (as in JAX)

    def new_const(self, trace, val) -> JaxprTracer:
        t = self.const_by_id.get(id(val))
        if t is None:
            t = JaxprTracer(trace, val.aval if type(val) is Array else _const_aval(val))
            self.const_by_id[id(val)] = t
            self.consts[id(t)] = val
            self.keepalive.append(val)
        return t

    def release(self) -> None:
        """Drop the recorded tracers once the jaxpr is built. They point back here through their
        trace's main, so this breaks the cycles and refcounting frees a trace's objects at once
        (otherwise the cyclic GC collects them, in the middle of the next compile or call)."""
        self.eqns, self.consts, self.const_by_id, self.keepalive, self.literals = [], {}, {}, [], {}
        self.in_tracers = ()
        self.debug = None  # its arg_names closure holds the jit wrapper, and so the user's function

    def to_jaxpr(self, in_tracers, out_tracers) -> tuple[Jaxpr, list]:
        var_of: dict = dict(self.literals)
        invars = []
        for t in in_tracers:
            v = var_of[id(t)] = Var(t.aval)
            invars.append(v)
        constvars, constvals = [], []

        def read(t):
            v = var_of.get(id(t))
            if v is not None:
                return v
            if id(t) in self.consts:
                val = self.consts[id(t)]
                if t.aval.shape == () and _literalable(val) and not (isinstance(val, Array) and (
                        getattr(val, "_epoch", self.epoch) < self.epoch
                        or self.arrays_stay_consts and id(val) not in self.constant_ids)):
                    v = (ZeroLiteral if is_tangent_zero(val) else Literal)(
                        val if type(val) is t.aval.dtype.type else _literal_value(val, t.aval), t.aval)
                else:
                    v = Var(t.aval)
                    constvars.append(v)
                    constvals.append(val)
                var_of[id(t)] = v
                return v
            raise AssertionError("tracer from outside this trace reached the jaxpr builder")

        eqns = []
        for prim, ins, params, outs, eqn_source in self.eqns:
            invs = [var_of.get(id(t)) or read(t) for t in ins]
            outvs = []
            for t in outs:
                v = var_of[id(t)] = Var(t.aval)
                outvs.append(v)
            # (params: the dict bind made for this one operation, so the equation may keep it)
            eqns.append(owning_eqn(prim, invs, outvs, params, eqn_source))
        outvars = [read(t) for t in out_tracers]
        return Jaxpr(constvars, invars, outvars, eqns), constvals


# the dtypes a Python scalar operand is made into directly: numpy scalar type and largest finite value
_SCALAR_KINDS = {np.dtype(t): (t, float(np.finfo(t).max)) for t in (np.float16, np.float32, np.float64)}
# (dtype, weak) -> (numpy scalar type, largest finite value, aval of shape (), {value: numpy scalar}),
# or False for a dtype the shortcut leaves to the general path
_SCALAR_ENTRIES: dict = {}


def _scalar_entry(dtype, weak):
    kind = _SCALAR_KINDS.get(dtype)
    entry = _SCALAR_ENTRIES[(dtype, weak)] = False if kind is None else (*kind, ShapedArray((), dtype, weak), {})
    return entry


def _literalable(val) -> bool:
    return isinstance(val, (Array, np.ndarray, np.generic, bool, int, float, complex))


def _literal_value(val, aval):
    return np.asarray(to_numpy(val), aval.dtype)[()]


def _const_aval(val) -> ShapedArray:
    return aval_of_value(val)


def _rebased(src, base):
    if src.name_stack.stack[:len(base)] == base:
        # as JAX's linearize: the tangent equations' stacks start where linearize began, so
        # transposing them under another transformation does not repeat the outer ones
        return source_info.SourceInfo(src.traceback, source_info.NameStack(src.name_stack.stack[len(base):]))
    return src


class JaxprTrace(Trace):
    def pure(self, val):
        return self.main.global_data.new_const(self, val)

    lift = pure

    def scalar_operand(self, value, dtype, weak):
        """`x * 1.0001` while tracing: the Python scalar becomes a const tracer holding a numpy
        scalar of the promoted dtype (a literal in the jaxpr, as the general path's Array would),
        with no Array, no const lookup and a shared aval. Only for the top trace (a higher
        dynamic trace would make it a closed-over input) and values the dtype holds exactly
        enough to need no overflow handling."""
        entry = _SCALAR_ENTRIES.get((dtype, weak))
        if entry is None:
            entry = _scalar_entry(dtype, weak)
        if not entry:
            return None
        make, biggest, aval, made = entry
        dyn = _tracing.dynamic_trace
        if dyn is not None and dyn.level > self.main.level:
            return None
        v = made.get(value)   # (a traced function repeats its constants: numpy scalars are slow to make)
        if v is None:
            if not -biggest <= value <= biggest:   # (NaN fails too: general path)
                return None
            v = make(value)
            if value and len(made) < 1024:   # (not zero: 0.0 and -0.0 are one dict key)
                made[value] = v
        t = JaxprTracer(self, aval)
        builder = self.main.global_data
        builder.literals[id(t)] = Literal(v, aval)   # (what to_jaxpr would make of it, made now)
        builder.keepalive.append(t)   # its id keys `literals` until the jaxpr is built
        return t

    def new_arg(self, aval) -> JaxprTracer:
        return JaxprTracer(self, aval)

    def process_primitive(self, prim, tracers, params):
        out_avals = abstract_eval_rules[prim](*[t.aval for t in tracers], **params)
        builder = self.main.global_data
        if prim.name == "convert_element_type" and not out_avals.shape:
            folded = _fold_convert(builder, self, tracers[0], out_avals)
            if folded is not None:
                return folded
        src = capture_source_info(builder.boundary)   # (inline: this runs for every traced op)
        if builder.name_base:
            src = _rebased(src, builder.name_base)
        if prim.multiple_results:
            outs = [JaxprTracer(self, a) for a in out_avals]
            builder.eqns.append((prim, tracers, params, outs, src))
            return outs
        out = JaxprTracer(self, out_avals)
        builder.eqns.append((prim, tracers, params, [out], src))
        return out


def _fold_convert(builder, trace, t, aval):
    """JAX's constant folding of convert_element_type: a 0-d constant made while tracing (a Python
    scalar, or an Array born in this trace, as a tangent's `1.0`) is converted on the spot into a new
    constant, a literal in the jaxpr (`mul 1.0:f32[] 2.0:f32[]`, no convert_element_type equation).
    Arrays from before the trace are JAX arrays there, which it leaves alone: the equation stays."""
    key = id(t)
    lit = builder.literals.get(key)
    if lit is not None:
        val = lit.val
    elif key in builder.consts:
        val = builder.consts[key]
        if isinstance(val, Array):
            if getattr(val, "_epoch", 0) < builder.epoch or builder.arrays_stay_consts:
                return None
            val = val._value
        elif not isinstance(val, (np.ndarray, np.generic, bool, int, float)):
            return None
    else:
        return None
    if np.shape(val) or aval.dtype.kind not in "biufc":
        return None
    out = np.asarray(val)
    if out.dtype.kind == "c" and aval.dtype.kind != "c":
        out = out.real
    with np.errstate(all="ignore"):
        out = out.astype(aval.dtype)
    return builder.new_const(trace, Array(out, aval.weak_type))


def trace_to_jaxpr(fun, in_avals, dynamic: bool = True, debug=None) -> tuple[Jaxpr, list]:
    """Trace `fun(*tracers) -> list of outputs` into a jaxpr over `in_avals`; `debug` (a
    core._engine.base.trace_debug.TraceDebug): the user's function, for errors raised while tracing it."""
    builder = JaxprBuilder()
    builder.debug = debug
    outermost = len(_tracing.trace_stack) == 1   # (leak checks: see below)
    # a jaxpr's equations carry the scopes entered inside it only (JAX's sub-jaxprs of jit, cond
    # and scan print `[]` under an outer named_scope or transformation)
    with new_main(JaxprTrace, builder, dynamic=dynamic) as main, source_info.reset_name_stack():
        trace = JaxprTrace(main)
        ins = [trace.new_arg(a) for a in in_avals]
        builder.in_tracers = ins
        outs = fun(*ins)
        outs = [trace.full_raise(o) for o in outs]
        result = builder.to_jaxpr(ins, outs)
        builder.release()
    # only a trace begun outside every other one is checked: inside a transformation, its
    # bookkeeping still holds the inner trace's tracers at this point
    if dynamic and outermost and _tracing.config.read("jax_check_tracer_leaks"):
        del ins, outs
        _check_leaks(trace)
    return result


def _check_leaks(trace) -> None:
    """(docs3) jax.checking_leaks(): once a jit's tracing is over, no tracer of it may still be
    referenced (one stored in a global or a list outside the function escaped), as JAX checks."""
    import gc
    gc.collect()
    leaked = [r for r in gc.get_referrers(trace) if isinstance(r, Tracer)]
    if leaked:
        listed = "\n\n".join(f"Traced<{t.aval.str_short(short_dtypes=False)}>with<DynamicJaxprTrace>"
                               for t in leaked)
        raise Exception(f"Leaked trace DynamicJaxprTrace. Leaked tracer(s):\n\n{listed}")


def trace_to_closed_jaxpr(fun, in_avals) -> ClosedJaxpr:
    jaxpr, consts = trace_to_jaxpr(fun, in_avals)
    return ClosedJaxpr(jaxpr, consts)


def convert_constvars_to_invars(jaxpr: Jaxpr) -> Jaxpr:
    return Jaxpr([], list(jaxpr.constvars) + list(jaxpr.invars), jaxpr.outvars, jaxpr.eqns)


# ---- evaluating a jaxpr with any trace (used by transformations of call primitives) ---------

def eval_jaxpr(jaxpr: Jaxpr, consts, *args, on_eqn=None):
    """`on_eqn(index, eqn, invals, outvals)`, when given, hears each equation's values as it is
    evaluated (the playground's stepper shows them: the same interpreter, nothing re-derived)."""
    from ..tracing.tracing import bind
    env: dict = {}

    def read(v):
        return literal_array(v) if isinstance(v, Literal) else env[v]

    for v, x in zip(jaxpr.constvars, consts):
        env[v] = x
    for v, x in zip(jaxpr.invars, args):
        env[v] = x
    sources = source_info._current
    for index, eqn in enumerate(jaxpr.eqns):
        # re-staged equations keep the line they were traced from (as JAX's eval_jaxpr does)
        sources.append(source_info.reentered(eqn.source_info))
        try:
            outs = bind(eqn.primitive, *[read(v) for v in eqn.invars], **eqn.params)
        finally:
            sources.pop()
        if eqn.primitive.multiple_results:
            for v, o in zip(eqn.outvars, outs):
                env[v] = o
        else:
            env[eqn.outvars[0]] = outs
        if on_eqn is not None:
            on_eqn(index, eqn, [read(v) for v in eqn.invars],
                   list(outs) if eqn.primitive.multiple_results else [outs])
    return [read(v) for v in jaxpr.outvars]


def literal_array(lit: Literal):
    from ..tracing.array import Array
    return Array(np.asarray(lit.val, lit.aval.dtype), lit.aval.weak_type)


def eval_closed_jaxpr(cj: ClosedJaxpr, *args):
    return eval_jaxpr(cj.jaxpr, cj.consts, *args)
