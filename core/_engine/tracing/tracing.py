"""Primitives, the interpreter stack, and Primitive.bind (in the spirit of Autodidax).

Every operation is a `Primitive`. `bind` finds the innermost ("top") trace among its arguments
and hands the primitive to that trace's `process_primitive`: the eval trace runs numpy, the jvp
trace applies `jvp_rules`, the batch trace `batch_rules`, the jaxpr trace records an equation.
Traces nest by level; `jit`/`make_jaxpr` install a *dynamic* trace so that even operations on
constants are staged out.
"""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from ..base import errors
from ..base.avals import ShapedArray, aval_of_value
from ..base.config import config
from ..base.devices import claims_host_arrays_here as _claims_here, dispatch_hooks as _hooks
from .array import Array, ArrayMethods
from .rules import abstract_eval_rules, impl_rules
from ..base.fp_errors import _ERR_VAR, _IGNORE_ERRORS


class Primitive:
    multiple_results = False
    # lax's n-ary elementwise ops: arrays of different ranks are an error (scalars aside), also
    # eagerly, where numpy would broadcast them silently
    same_rank_operands = False
    # JAX's flags for primitives that call a sub-jaxpr / map over devices (libraries read them)
    call_primitive = False
    map_primitive = False

    def __init__(self, name: str, multiple_results: bool = False):
        self.name = name
        self.multiple_results = multiple_results
        self.weak_type_rule = _all_weak
        self.pp_params = None  # optional: params -> [(key, value)] for jaxpr text

    # bind(*args, **params): the module-level `bind` below, installed as the method itself
    # (no wrapper frame: this runs on every traced op).

    def __repr__(self):
        return self.name

    def bind_with_trace(self, trace, args, *avals_and_params):
        """JAX's `prim.bind_with_trace(trace, args, avals, params)`: bind on `trace` (a trace defined
        outside the engine binds through the one it took with take_current_trace)."""
        params = avals_and_params[-1] if avals_and_params else {}
        main = trace.main
        if main.global_data is trace:
            return trace.process_primitive(self, list(args), params)
        global dynamic_trace
        prev, dynamic_trace = dynamic_trace, (None if main.level == 0 else main)
        try:
            return self.bind(*args, **params)
        finally:
            dynamic_trace = prev


def _all_weak(weak_flags, **params) -> bool:
    return all(weak_flags)


class MainTrace:
    __slots__ = ("level", "trace_type", "global_data", "active")

    def __init__(self, level, trace_type, global_data, active=True):
        self.level = level
        self.trace_type = trace_type
        self.global_data = global_data
        self.active = active

    def __repr__(self):
        return f"MainTrace({self.level}, {self.trace_type.__name__})"


trace_stack: list = []
dynamic_trace: MainTrace | None = None


@contextmanager
def new_main(trace_type, global_data=None, dynamic: bool = False):
    global dynamic_trace
    main = MainTrace(len(trace_stack), trace_type, global_data)
    trace_stack.append(main)
    prev_dynamic = dynamic_trace
    if dynamic:
        dynamic_trace = main
    try:
        yield main
    finally:
        main.active = False
        trace_stack.pop()
        dynamic_trace = prev_dynamic


@contextmanager
def hide_dynamic():
    """Run without the current dynamic trace (used while compiling a nested jit body)."""
    global dynamic_trace
    prev, dynamic_trace = dynamic_trace, None
    try:
        yield
    finally:
        dynamic_trace = prev


class Trace:
    __slots__ = ("main",)

    def __init__(self, main: MainTrace | None = None):
        # No main: a trace defined outside the engine with JAX's stackless API (`class T(jax.core.Trace)`,
        # `super().__init__()`; haiku's to_dot). Its main holds the trace itself as global_data and takes
        # a level when `set_current_trace(t)` makes it current (jax.extend.core).
        self.main = main if main is not None else MainTrace(-1, type(self), self, active=False)

    def pure(self, val):
        # reached only by traces defined outside the engine (every engine trace has its own): JAX's
        # stackless traces get values as they are, and lower the ones they do not own themselves
        return val

    lift = pure

    def scalar_operand(self, value, dtype, weak):
        """A Python scalar already promoted to (dtype, weak) as an operand of this trace's next
        op, made cheaply; None means: convert it the general way (only staging has a shortcut)."""
        return None

    def process_primitive(self, primitive, tracers, params):
        raise NotImplementedError

    def full_raise(self, val):
        if not isinstance(val, Tracer):
            return self.pure(val)
        level = self.main.level
        vm = val._trace.main
        if vm is self.main:
            return val
        if vm.level < level:
            return self.lift(val)
        if not vm.active:
            raise errors.UnexpectedTracerError(_leak_description(val))
        raise errors.UnexpectedTracerError(_leak_description(val))


def _leak_description(t) -> str:
    # JAX's words: "float32[3] wrapped in a BatchTracer" (no weak-type mark)
    return f"{t.aval.str_short(short_dtypes=False)} wrapped in a {type(t).__name__}"


class Tracer(ArrayMethods):
    """Base of every tracer. Array-like methods and operators come from `ArrayMethods`."""
    # weak references as JAX's tracers allow them (TensorFlow Probability's caches key on them: distrax)
    __slots__ = ("_trace", "__weakref__")
    __array_priority__ = 1000
    _kind = "Tracer"

    def __init__(self, trace, aval=None):
        """JAX's `Tracer(trace, aval)`, for tracers defined outside the engine (haiku's DotTracer);
        engine tracers set their own fields."""
        self._trace = trace
        self.__dict__["_external_aval"] = aval

    @property
    def aval(self) -> ShapedArray:
        try:
            return self.__dict__["_external_aval"]
        except (AttributeError, KeyError):
            raise NotImplementedError from None

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: _public_dtype(self.aval.dtype))
    ndim = property(lambda self: self.aval.ndim)
    size = property(lambda self: self.aval.size)
    weak_type = property(lambda self: self.aval.weak_type)

    def full_lower(self):
        return self

    def to_concrete_value(self):
        """The concrete value behind this tracer, or None if it depends on traced inputs."""
        return None

    def __bool__(self):
        v = self.to_concrete_value()
        if v is None:
            raise errors.TracerBoolConversionError(self)
        return bool(v)

    def __index__(self):
        v = self.to_concrete_value()
        if v is None:
            raise errors.TracerIntegerConversionError(self)
        return int(v)

    def __int__(self):
        v = self.to_concrete_value()
        if v is None:
            raise errors.ConcretizationTypeError(self, "The problem arose with the `int` function. If trying to convert the "
                                             "data type of a value, try using `x.astype(int)` or `jnp.array(x, int)` instead.\n")
        return int(v)

    def __float__(self):
        v = self.to_concrete_value()
        if v is None:
            raise errors.ConcretizationTypeError(self, "The problem arose with the `float` function. If trying to convert the "
                                             "data type of a value, try using `x.astype(float)` or `jnp.array(x, float)` instead.\n")
        return float(v)

    def __complex__(self):
        v = self.to_concrete_value()
        if v is None:
            raise errors.ConcretizationTypeError(self, "The problem arose with the `complex` function. If trying to convert the "
                                             "data type of a value, try using `x.astype(complex)` or `jnp.array(x, complex)` instead.\n")
        return complex(v)

    def __array__(self, dtype=None, copy=None):
        v = self.to_concrete_value()
        if v is None:
            raise errors.TracerArrayConversionError(self)
        return np.asarray(v, dtype=dtype)

    def __hash__(self):
        raise TypeError(f"unhashable type: '{type(self).__name__}'")

    def __setitem__(self, idx, value):
        raise TypeError(  # JAX's words, the same for tracers and concrete arrays
            "JAX arrays are immutable and do not support in-place item assignment. Instead of x[idx] = y, "
            "use x = x.at[idx].set(y) or another .at[] method: "
            "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html")

    def item(self):
        v = self.to_concrete_value()
        if v is None:
            raise errors.ConcretizationTypeError(self, "This occurred in the item() method of jax.Array\n")
        return np.asarray(v).item()

    def tolist(self):
        return np.asarray(self).tolist()

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __repr__(self):
        return f"{self._kind}({self.aval.str_long()})"


def find_top_trace(xs) -> Trace:
    top = None
    trace = None   # a top tracer's own trace: reused (traces hold nothing but their main)
    for x in xs:
        if isinstance(x, Tracer):
            m = x._trace.main
            if not m.active:
                raise errors.UnexpectedTracerError(_leak_description(x))
            if top is None or m.level > top.level:
                top, trace = m, x._trace
    if top is None:
        top = trace_stack[0]
    if dynamic_trace is not None and dynamic_trace.level > top.level:
        # global_data is the trace itself for a trace defined outside the engine (see Trace.__init__)
        top, trace = dynamic_trace, dynamic_trace.global_data
    if trace is not None and type(trace) is top.trace_type:
        return trace
    return top.trace_type(top)


_debug_checks = [False]  # jax_debug_nans or jax_debug_infs is on (kept current by config)


def _on_config(name, value) -> None:
    if name in ("jax_debug_nans", "jax_debug_infs"):
        _debug_checks[0] = bool(config.read("jax_debug_nans") or config.read("jax_debug_infs"))


config.on_change(_on_config)


def eager_fast_path_ok() -> bool:
    """Nothing is being traced and no backend hook or debug check wants to see each op on host arrays."""
    return (dynamic_trace is None and len(trace_stack) == 1 and not _debug_checks[0]
            and (not _hooks.claims_host_arrays or not _claims_here()))


def bind(prim: Primitive, /, *args, **params):  # (/: a parameter may be named "prim": equinox's vprim)
    if (dynamic_trace is None and len(trace_stack) == 1 and not _debug_checks[0]
            and (not _hooks.claims_host_arrays or not _claims_here())):
        # eager on plain concrete arrays (what every jnp call on arrays ends in): straight to numpy
        fast = _EAGER_FAST.get(prim, _UNKNOWN)
        if fast is _UNKNOWN:
            fast = _eager_fast(prim)
        if fast is not None:
            out = fast(args, params)
            if out is not None:
                return out
        for a in args:
            if type(a) is not Array:
                break
        else:
            return _eval_impl(prim, [a._value for a in args], [a.weak_type for a in args], params)
    trace = find_top_trace(args)
    main = trace.main
    # tracers of the top trace need no raising (inlined check: this runs on every traced op)
    tracers = [a if isinstance(a, Tracer) and a._trace.main is main else trace.full_raise(a) for a in args]
    outs = trace.process_primitive(prim, tracers, params)
    if prim.multiple_results:
        return [full_lower(o) for o in outs]
    return full_lower(outs)


Primitive.bind = bind


# jax.random registers its key dtype's public face (`key<fry>`, a subdtype of prng_key): a traced
# key's `.dtype` is that, as a concrete key's is, not the structured numpy dtype that holds it
key_dtype_view: list = [None, None]   # [the numpy dtype, its public face]


def _public_dtype(dt):
    if dt.kind == "V" and dt == key_dtype_view[0]:
        return key_dtype_view[1]
    return dt


def full_lower(x):
    return x.full_lower() if isinstance(x, Tracer) else x


def get_aval(x) -> ShapedArray:
    return x.aval if isinstance(x, Tracer) else aval_of_value(x)


# ---- evaluation (level 0) --------------------------------------------------------------------

class EvalTrace(Trace):
    """Runs each primitive's numpy implementation on concrete values."""

    def pure(self, x):
        return x

    lift = pure

    def process_primitive(self, prim, vals, params):
        from .array import to_numpy
        if _hooks.eager is not None:  # an accelerator backend is loaded
            out = _hooks.eager(prim, vals, params)
            if out is not NotImplemented:
                return out
        out = _eval_impl(prim, [to_numpy(v) for v in vals], [_weak_of(v) for v in vals], params)
        if _debug_checks[0]:
            _check_nans(prim, [o._value for o in out] if prim.multiple_results else out._value)
        return out


# ---- eager fast paths ------------------------------------------------------------------------
# Elementwise primitives and reductions with the default weak-type rule, on Arrays of one dtype
# and one shape: exactly what _eval_impl does (it validates only mixed dtypes or shapes), minus
# its generic Python. Every jnp elementwise function, operator and common reduction ends here:
# that generic Python was most of their cost on small arrays.

_UNKNOWN = object()
_EAGER_FAST: dict = {}   # primitive -> fast(args, params) -> Array, or None for the general path


def _eager_fast(prim):
    impl = impl_rules.get(prim)
    fast = None
    if impl is not None and not prim.multiple_results and prim.weak_type_rule is _all_weak:
        raw = getattr(impl, "raw", None)          # a ufunc under ignored errors, whatever the params
        reducer = getattr(impl, "np_reduce", None)   # np.<ufunc>.reduce(x, axes)
        if callable(raw):
            fast = _elementwise(raw, True, getattr(impl, "kinds", None))
        elif prim.same_rank_operands:               # lax's other binary elementwise ops
            fast = _elementwise(impl, False)
        elif reducer is not None:
            fast = _reduction(reducer)
    _EAGER_FAST[prim] = fast
    return fast


def _ignoring_errors(fn, *vals):
    if _ERR_VAR is None:
        with np.errstate(all="ignore"):
            return fn(*vals)
    token = _ERR_VAR.set(_IGNORE_ERRORS)
    try:
        return fn(*vals)
    finally:
        _ERR_VAR.reset(token)


def _elementwise(fn, quiet, kinds=None):
    """quiet: fn is a raw ufunc (params are ignored); else fn is the impl, taken without params.
    kinds: the dtype kinds the primitive accepts (others: the general path raises JAX's TypeError,
    where numpy would answer, e.g. lax.exp of int32 in float64)."""
    def fast(args, params):
        if len(args) == 2:
            a, b = args
            if type(a) is not Array or type(b) is not Array:
                return None
            x, y = a._value, b._value
            # (a 0-d operand broadcasts: _eval_impl validates neither case either)
            if x.dtype != y.dtype or (x.shape != y.shape and x.ndim and y.ndim) or not x.dtype.isnative:
                return None   # (the emulated bfloat16 is float32 in the non-native byte order: general path)
            vals, weak = (x, y), a.weak_type and b.weak_type
        elif len(args) == 1 and type(args[0]) is Array and args[0]._value.dtype.isnative:
            a = args[0]
            vals, weak = (a._value,), a.weak_type
        else:
            return None
        if kinds and vals[0].dtype.kind not in kinds:
            return None
        if not quiet:
            if params:
                return None
            out = fn(*vals)
        elif _ERR_VAR is None:
            out = _ignoring_errors(fn, *vals)
        else:   # (inlined: this is most of an eager op's Python)
            token = _ERR_VAR.set(_IGNORE_ERRORS)
            try:
                out = fn(*vals)
            finally:
                _ERR_VAR.reset(token)
        return Array(out if type(out) is np.ndarray else np.asarray(out), weak)
    return fast


def _reduction(reduce):
    """reduce_sum/max/min/prod: the ufunc's reduce over `axes`, in the operand's dtype."""
    def fast(args, params):
        if len(args) != 1 or type(args[0]) is not Array:
            return None
        a = args[0]
        x = a._value
        if not x.dtype.isnative:   # the emulated bfloat16: general path (it rounds the result)
            return None
        out = _ignoring_errors(reduce, x, params["axes"])
        if type(out) is not np.ndarray or out.dtype != x.dtype:
            out = np.asarray(out, x.dtype)
        return Array(out, a.weak_type)
    return fast


def _eval_impl(prim, nps, weaks, params):
    """Run prim's numpy implementation on ndarrays; the result as Array(s) with JAX's weak types."""
    if len(nps) > 1 and (any(a.dtype != nps[0].dtype for a in nps[1:]) or
                         (prim.same_rank_operands and len({a.shape for a in nps if a.ndim}) > 1)):
        # mixed dtypes or ranks: validate with the shape rule (raises JAX's TypeError for lax
        # ops); other calls skip this so eager dispatch stays cheap
        abstract_eval_rules[prim](*[ShapedArray(a.shape, a.dtype, w) for a, w in zip(nps, weaks)], **params)
    out = impl_rules[prim](*nps, **params)
    if _EMULATED_BF16 and _touches_bf16(nps, params):
        out = _retag_bf16(prim, nps, weaks, params, out)
    weak = prim.weak_type_rule(weaks, **params)
    if prim.multiple_results:
        return [Array(np.asarray(o), _out_weak(weak, i)) for i, o in enumerate(out)]
    return Array(out if type(out) is np.ndarray else np.asarray(out), weak)


# ---- the emulated bfloat16 (no ml_dtypes: the page): numpy computed in float32; each result the
# shape rule types as bfloat16 is re-tagged here, and Array() rounds it to nearest even
from ..base.dtypes import EMULATED_BF16 as _EMULATED_BF16, bf16 as _BF16  # noqa: E402


_BF16_DTYPE_TYPE = type(_BF16)


def _touches_bf16(nps, params) -> bool:
    # (plain loops, cheap tests first: this runs on every eager op in the page)
    for a in nps:
        dt = a.dtype
        if not dt.isnative and dt == _BF16:
            return True
    for v in params.values():
        if type(v) is _BF16_DTYPE_TYPE and v == _BF16:
            return True
    return False


def _retag_bf16(prim, nps, weaks, params, out):
    avals = abstract_eval_rules[prim](*[ShapedArray(a.shape, a.dtype, w) for a, w in zip(nps, weaks)], **params)
    if not prim.multiple_results:
        return _as_bf16_if(out, avals)
    return [_as_bf16_if(o, a) for o, a in zip(out, avals)]


def _as_bf16_if(value, aval):
    value = np.asarray(value)
    return value.astype(_BF16) if aval.dtype == _BF16 and value.dtype != _BF16 else value


def _out_weak(weak, i):
    return weak[i] if isinstance(weak, (list, tuple)) else weak


def _weak_of(v) -> bool:
    w = getattr(v, "weak_type", None)
    if w is not None:
        return w
    return type(v) in (int, float, complex)


def _check_nans(prim, out):
    """jax_debug_nans / jax_debug_infs: fail at the primitive that produced the bad value."""
    outs = out if prim.multiple_results else [out]
    for o in outs:
        o = np.asarray(o)
        if o.dtype.kind not in "fc":
            continue
        if config.read("jax_debug_nans") and np.isnan(o).any():
            from ..base.jit_nan_note import note_if_inside_jnp  # conf2: JAX's jnp functions are jits
            note_if_inside_jnp()
            raise FloatingPointError(f"invalid value (nan) encountered in {prim.name}")
        if config.read("jax_debug_infs") and np.isinf(o).any():
            raise FloatingPointError(f"invalid value (inf) encountered in {prim.name}")


trace_stack.append(MainTrace(0, EvalTrace, None))
