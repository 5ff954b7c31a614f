"""`jax.extend.core`: JAX's extension API for new primitives and for reading jaxprs.

`Primitive` here is the engine's own primitive class (so `bind` goes through the same traces),
with JAX's `def_impl` / `def_abstract_eval` registration writing into core/_engine/tracing/rules.py's tables.
The rule tables of `jax.interpreters.ad/batching/mlir` write into the same tables, so a
library's primitive works under jit, grad and vmap like a built-in one.
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, NamedTuple

import numpy as np

from .. import dtypes, errors
from ..errors import InconclusiveDimensionOperation, JaxprTypeError  # noqa: F401  (re-exported as JAX does)
from .._engine.tracing import tracing as _tracing
from .._engine.tracing.array import Array, to_numpy
from .._engine.base.avals import ShapedArray
from .._engine.base.dtypes import is_python_scalar as _is_python_scalar
from .._engine.tracing.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from .._engine.tracing.rules import abstract_eval_rules, impl_rules
from .._engine.tracing.tracing import Trace, Tracer, find_top_trace as _find_top_trace, get_aval
from .._engine.transforms.staging import eval_jaxpr


# ---- primitives ------------------------------------------------------------------------------

class _AnyPrimitive(type):
    """Every engine primitive counts as a `jax.extend.core.Primitive`, as every JAX one does."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, _tracing.Primitive) if cls is Primitive else type.__instancecheck__(cls, obj)


class Primitive(_tracing.Primitive, metaclass=_AnyPrimitive):
    """A primitive defined outside the engine: `p = Primitive('name'); p.def_impl(f);
    p.def_abstract_eval(g); p.bind(*args, **params)`. `multiple_results` may be set after
    construction, as JAX allows."""

    def __init__(self, name: str):
        super().__init__(name)
        # the output's weak type comes from abstract evaluation in JAX; eager results are strong
        self.weak_type_rule = self._strong_outputs
        self._impl = None
        self._abstract_eval = None

    def _strong_outputs(self, weak_flags, **params):
        return [False] * 64 if self.multiple_results else False

    def def_impl(self, impl):
        """Eager evaluation: `impl(*arrays, **params)` gets and returns jax arrays."""
        self._impl = impl
        impl_rules[self] = _numpy_impl(self, impl)
        return impl

    def def_abstract_eval(self, abstract_eval):
        """`abstract_eval(*avals, **params)` -> aval (or a list of them when multiple_results)."""
        self._abstract_eval = abstract_eval
        abstract_eval_rules[self] = abstract_eval
        return abstract_eval

    def def_effectful_abstract_eval(self, effectful_abstract_eval):
        """Like def_abstract_eval, for a rule returning (avals, effects); gradpad tracks no effects."""
        def abstract_eval(*avals, **params):
            return effectful_abstract_eval(*avals, **params)[0]
        self.def_abstract_eval(abstract_eval)
        return effectful_abstract_eval

    def bind(self, *args, **params):
        # Eager calls hand the arguments to the impl untouched and return what it returns, as JAX's
        # evaluation does (a Python float in, a Python float out); traced calls go through the traces.
        if self._impl is not None and type(_tracing.find_top_trace(args)) is _tracing.EvalTrace:
            return self._impl(*args, **params)
        return _tracing.bind(self, *args, **params)

    def impl(self, *args, **params):
        if self._impl is None:
            raise NotImplementedError(f"Evaluation rule for '{self.name}' not implemented")
        return self._impl(*args, **params)

    def abstract_eval(self, *avals, **params):
        if self._abstract_eval is None:
            raise NotImplementedError(f"Abstract evaluation for '{self.name}' not implemented")
        return self._abstract_eval(*avals, **params), no_effects

    def get_bind_params(self, params):
        return [], params

    is_effectful = staticmethod(lambda params: False)


def _numpy_impl(prim, fun):
    """An impl_rules entry (numpy in, numpy out) running `fun` on jax arrays, as JAX's impls do."""
    def impl(*nps, **params):
        outs = fun(*[Array(np.asarray(v)) for v in nps], **params)
        if prim.multiple_results:
            return [to_numpy(o) for o in outs]
        return to_numpy(outs)
    return impl


class CallPrimitive(Primitive):
    """A primitive whose first operand is a function to call (JAX's `call_p` family)."""
    multiple_results = True


def call_impl(f, *args, **params):
    return f(*args)


# ---- jaxprs --------------------------------------------------------------------------------

class DropVar(Var):
    """An equation output nobody reads (printed `_`)."""


def new_jaxpr_eqn(invars, outvars, primitive, params, effects=frozenset(), source_info=None, ctx=None):
    return JaxprEqn(primitive, invars, outvars, params, source_info)


def gensym(suffix: str = ""):
    """A function making fresh Vars: `gensym()(aval)`."""
    return Var


def jaxpr_as_fun(closed_jaxpr: ClosedJaxpr, *args):
    """Curried, as JAX's is: `jaxpr_as_fun(cj)(*args)` evaluates the jaxpr."""
    return functools.partial(_eval_closed, closed_jaxpr, *args)


def _eval_closed(closed_jaxpr, *args):
    return eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.consts, *args)


def subjaxprs(jaxpr: Jaxpr):
    """The jaxprs held directly in the params of `jaxpr`'s equations."""
    for eqn in jaxpr.eqns:
        yield from jaxprs_in_params(eqn.params)


def jaxprs_in_params(params):
    for val in params.values():
        vals = val if isinstance(val, (tuple, list)) else (val,)
        for v in vals:
            if isinstance(v, Jaxpr):
                yield v
            elif isinstance(v, ClosedJaxpr):
                yield v.jaxpr


def check_jaxpr(jaxpr: Jaxpr) -> None:
    """Every variable is defined before use, and each equation's outputs have the types its
    primitive's abstract evaluation gives."""
    defined = set(jaxpr.constvars) | set(jaxpr.invars)

    def read(v, where):
        if not isinstance(v, Literal) and v not in defined:
            raise JaxprTypeError(f"Variable '{v}' not defined\n\nin {where}")
        return v.aval

    for eqn in jaxpr.eqns:
        in_avals = [read(v, f"equation {eqn.primitive.name}") for v in eqn.invars]
        rule = abstract_eval_rules.get(eqn.primitive)
        if rule is not None:
            out = rule(*in_avals, **eqn.params)
            outs = out if eqn.primitive.multiple_results else [out]
            for v, a in zip(eqn.outvars, outs):
                if (v.aval.shape, v.aval.dtype) != (a.shape, a.dtype):
                    raise JaxprTypeError(f"Value for variable '{v}' inconsistently typed as {a.str_short()} "
                                         f"for let-binder of type {v.aval.str_short()}")
        defined.update(eqn.outvars)
    for v in jaxpr.outvars:
        read(v, "the jaxpr's outputs")


# ---- avals and values ----------------------------------------------------------------------

class AbstractToken:
    def str_short(self, short_dtypes=False):
        return "Tok"

    def __repr__(self):
        return "AbstractToken()"


class Token:
    def __init__(self, buf=None):
        self._buf = buf


array_types = {np.ndarray, np.bool_, *[np.dtype(t).type for t in "bhilqBHILQefdFD"], Array}


def valid_jaxtype(x) -> bool:
    """Whether `x` is a value JAX can trace (an array or scalar of a JAX dtype)."""
    try:
        aval = get_aval(x) if isinstance(x, Tracer) or hasattr(x, "dtype") or _is_python_scalar(x) else None
    except TypeError:
        return False
    return aval is not None and isinstance(aval, ShapedArray) and aval.dtype.kind in "biufc"


def mapped_aval(size, axis, aval):
    """`aval` with the mapped axis removed (`axis` None: unchanged)."""
    if axis is None:
        return aval
    shape = list(aval.shape)
    del shape[axis]
    return aval.update(shape=tuple(shape))


def unmapped_aval(size, axis, aval, explicit_mesh_axis=None):
    """`aval` with an axis of `size` inserted at `axis` (`axis` None: unchanged)."""
    if axis is None:
        return aval
    shape = list(aval.shape)
    shape.insert(axis, size)
    return aval.update(shape=tuple(shape))


def primal_dtype_to_tangent_dtype(primal_dtype):
    return primal_dtype if np.dtype(primal_dtype).kind in "fc" else dtypes.float0


def concrete_or_error(force, val, context=""):
    """`force(val)` (or `val` itself) when val is concrete; a ConcretizationTypeError otherwise."""
    if force is None:
        force = lambda v: v  # noqa: E731
    if isinstance(val, Tracer):
        concrete = val.to_concrete_value()
        if concrete is None:
            raise errors.ConcretizationTypeError(val, context)
        return force(concrete)
    return force(val)


# ---- effects, debug info, traces -----------------------------------------------------------

class Effect:
    """Base of side effects a primitive may declare (gradpad runs everything in program order)."""


Effects = set[Effect]
no_effects: frozenset = frozenset()


class DebugInfo(NamedTuple):
    traced_for: str
    func_src_info: str
    arg_names: Any
    result_paths: Any


class TraceTag:
    """An identity token for one transformation."""
    _ids = itertools.count()

    def __init__(self):
        self._id = next(self._ids)


def find_top_trace(args) -> Trace:
    """The innermost trace among `args` (or the current one when none is traced)."""
    return _find_top_trace(args)


class OpaqueTraceState:
    """Compares equal exactly when taken under the same trace (flax uses it to refuse mutating a
    variable from inside a transformation it was not created in)."""
    __slots__ = ("_main",)

    def __init__(self, main):
        self._main = main

    def __eq__(self, other):
        return isinstance(other, OpaqueTraceState) and other._main is self._main

    def __hash__(self):
        return id(self._main)


def _current_main():
    main = _tracing.trace_stack[-1]
    dyn = _tracing.dynamic_trace
    return dyn if dyn is not None and dyn.level > main.level else main


def get_opaque_trace_state(convention=None) -> OpaqueTraceState:
    return OpaqueTraceState(_current_main())


def trace_state_clean() -> bool:
    """True at top level: no transformation is being traced (numpyro asks before caching)."""
    return len(_tracing.trace_stack) == 1 and _tracing.dynamic_trace is None


class _TraceContext:
    """Makes `main` the trace that binds of non-tracer values go to (None: evaluation), and
    restores the previous one on exit, as JAX's trace context does."""
    __slots__ = ("main", "prev")

    def __init__(self, main):
        self.main = main

    def __enter__(self):
        self.prev = _tracing.dynamic_trace
        _tracing.dynamic_trace = self.main
        return self

    def __exit__(self, *exc):
        _tracing.dynamic_trace = self.prev
        return False


class take_current_trace:
    """`with take_current_trace() as trace:` the current trace; inside, evaluation is current
    (JAX's TakeCurrentTraceContextManager: a custom trace binds through the one it took)."""
    __slots__ = ("ctx",)

    def __enter__(self):
        trace = _find_top_trace(())
        self.ctx = _TraceContext(None)
        self.ctx.__enter__()
        return trace

    def __exit__(self, *exc):
        return self.ctx.__exit__(*exc)


class _ExternalTraceContext(_TraceContext):
    """Makes a trace defined outside the engine (JAX's stackless `jax.core.Trace` subclass) current: its
    main joins the trace stack above every trace there, so its tracers outrank the values it binds
    through its parent trace, and leaves it on exit (its tracers are then stale, as escaped ones are)."""
    __slots__ = ("pushed",)

    def __enter__(self):
        main = self.main
        self.pushed = not main.active
        if self.pushed:
            main.level, main.active = len(_tracing.trace_stack), True
            _tracing.trace_stack.append(main)
        return super().__enter__()

    def __exit__(self, *exc):
        super().__exit__(*exc)
        if self.pushed:
            self.main.active = False
            _tracing.trace_stack.remove(self.main)
        return False


def set_current_trace(trace, check_leaks=False):
    """`with set_current_trace(trace):` binds of values that are not tracers go to `trace`."""
    main = getattr(trace, "main", None)
    if not isinstance(main, _tracing.MainTrace):
        raise TypeError(f"set_current_trace expects a jax.core.Trace, got {type(trace).__name__}")
    if main.global_data is trace:
        return _ExternalTraceContext(main)
    return _TraceContext(None if main.level == 0 else main)


def unsafe_am_i_under_a_jit_DO_NOT_USE() -> bool:
    return _tracing.dynamic_trace is not None


def _batch_mains():
    from .._engine.transforms.batching import BatchTrace
    return [m for m in _tracing.trace_stack if m.trace_type is BatchTrace]


def unsafe_am_i_under_a_vmap_DO_NOT_USE() -> bool:
    return bool(_batch_mains())


def unsafe_get_axis_names_DO_NOT_USE() -> list:
    return [m.global_data.name for m in _batch_mains() if m.global_data.name is not None]


__all__ = ["AbstractToken", "CallPrimitive", "ClosedJaxpr", "DebugInfo", "DropVar", "Effect", "Effects",
           "InconclusiveDimensionOperation", "Jaxpr", "JaxprEqn", "JaxprTypeError", "Literal", "Primitive",
           "Token", "TraceTag", "Var", "array_types", "call_impl", "check_jaxpr", "concrete_or_error",
           "find_top_trace", "gensym", "get_opaque_trace_state", "jaxpr_as_fun", "jaxprs_in_params",
           "set_current_trace", "take_current_trace",
           "mapped_aval", "new_jaxpr_eqn", "no_effects", "primal_dtype_to_tangent_dtype", "subjaxprs",
           "unmapped_aval", "unsafe_am_i_under_a_jit_DO_NOT_USE", "unsafe_am_i_under_a_vmap_DO_NOT_USE",
           "unsafe_get_axis_names_DO_NOT_USE", "valid_jaxtype"]



# JAX has `jax.extend.core.primitives` as a submodule: this module answers as a package so that the
# import system asks core/jax_names.py, which maps the child to core/extend/core_primitives.py
__path__: list = []


def __getattr__(name):
    # `jax.extend.core.primitives` without importing it first, as on JAX (its package imports it; haiku's
    # to_dot reads `jax_core.primitives.jit_p`)
    if name == "primitives":
        from . import core_primitives
        return core_primitives
    raise AttributeError(f"module 'jax.extend.core' has no attribute {name!r}")
