"""Shared by jax.numpy's modules: staging a function as a nested jit, and checking and promoting
arguments (dtypes, weak types, ranks) as JAX's jnp functions do before they call lax."""
from __future__ import annotations

import builtins

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.array import Array
from ...tracing.tracing import Tracer


def _staged(fn=None, *, static_argnames=(), name=None):
    """Run a jnp function as a nested `jit`, as JAX does for many of them: their jaxprs then
    show `jit[name=... jaxpr={...}]` exactly where JAX's do."""
    if fn is None:
        return lambda f: _staged(f, static_argnames=static_argnames, name=name)
    import functools as _ft
    from ...api.api import jit  # INHERENT: up to the api
    if name:
        fn.__name__ = name
    return _ft.wraps(fn)(jit(fn, static_argnames=static_argnames))


# ---- argument checking and promotion ------------------------------------------------------

_ARRAYLIKE = (Array, Tracer, _np.ndarray, _np.generic, builtins.bool, int, float, complex)


def _check_arraylike(fun_name, *args):
    for pos, a in enumerate(args):
        if not isinstance(a, _ARRAYLIKE) and not hasattr(a, "__jax_array__"):
            msg = f"{fun_name} requires ndarray or scalar arguments, got {type(a)} at position {pos}."
            raise TypeError(msg)


def _weak(x):
    if type(x) is int:  # JAX first parses a Python int as the default int: a bigger one overflows
        _dt.python_scalar_value_dtype(x)
    return _dt.dtype_and_weak(x)


def _promote_dtypes(*args):
    if len(args) < 2:
        return [lax._convert_element_type(a, *_weak(a)) if not isinstance(a, (Array, Tracer)) else a for a in args]
    dt, weak = _dt.result_type_weak(*[_weak(a) for a in args])
    return [_convert_if_needed(a, dt, weak) for a in args]


def _convert_if_needed(a, dt, weak):
    """`lax._convert_element_type(a, dt, weak)`, minus the call when a tracer already has the
    type (the common case while tracing)."""
    if isinstance(a, Tracer):
        aval = a.aval
        if aval.dtype == dt and aval.weak_type == weak:
            return a
    return lax._convert_element_type(a, dt, weak)


def _promote_dtypes_inexact(*args):
    dt, weak = _dt.result_type_weak(*[_weak(a) for a in args])
    if _dt.kind(dt) not in "fc":
        # JAX 0.10.2's to_inexact_dtype: bool and integers up to 32 bits become float32 even under x64
        # (jnp.sin(int32 array) is float32); only 64-bit integers take the default float
        dt = _dt.default_float_dtype() if _np.dtype(dt).itemsize == 8 else _np.dtype("float32")
    return [_convert_if_needed(a, dt, weak) for a in args]


def _promote_shapes(fun_name, *args):
    if len(args) < 2:
        return list(args)
    shapes = [a.shape if isinstance(a, (Array, Tracer)) else _np.shape(a) for a in args]
    if builtins.all(len(shapes[0]) == len(s) for s in shapes[1:]):
        return list(args)
    nonscalar_ranks = {len(s) for s in shapes if s}
    if len(nonscalar_ranks) < 2:
        return list(args)
    _check_rank_promotion(fun_name, shapes)
    result_rank = len(_broadcast_shapes(*shapes))
    return [lax.broadcast_to_rank(a, result_rank) for a in args]


def _check_rank_promotion(fun_name, shapes):
    """jax_numpy_rank_promotion: 'allow' (numpy's implicit rank promotion), 'warn' or 'raise'."""
    from ...base.config import config  # read per call: the flag is scoped by jax.numpy_rank_promotion(...)
    mode = config.read("jax_numpy_rank_promotion")
    if mode == "allow":
        return
    shown = " ".join(str(tuple(s)) for s in shapes)
    if mode == "raise":
        raise ValueError(f"Operands could not be broadcast together for {fun_name} on shapes {shown} and with the "
                         "config option jax_numpy_rank_promotion='raise'. For more information, see "
                         "https://docs.jax.dev/en/latest/rank_promotion_warning.html.")
    import warnings
    warnings.warn(f"Following NumPy automatic rank promotion for {fun_name} on shapes {shown}. Set the "
                  "jax_numpy_rank_promotion config option to 'allow' to disable this warning; for more information, "
                  "see https://docs.jax.dev/en/latest/rank_promotion_warning.html.", stacklevel=4)


def _broadcast_shapes(*shapes):
    try:
        return tuple(_np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={[tuple(s) for s in shapes]}") from None


def _promote_args(fun_name, *args):
    _check_arraylike(fun_name, *args)
    return _promote_shapes(fun_name, *_promote_dtypes(*args))


def _promote_args_inexact(fun_name, *args):
    _check_arraylike(fun_name, *args)
    return _promote_shapes(fun_name, *_promote_dtypes_inexact(*args))


_LAX_NAMES = {"subtract": "sub", "multiply": "mul", "maximum": "max", "minimum": "min", "equal": "eq",
              "not_equal": "ne", "less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge",
              "arctan2": "atan2", "true_divide": "div", "divide": "div", "power": "pow"}


def _check_shapes_broadcast(name, *args):
    """Same-rank shapes must match (or be 1) per axis: lax's TypeError; rank promotion handles the
    rest and raises numpy-style ValueError (JAX's split of the two cases)."""
    shapes = [a.shape if isinstance(a, (Array, Tracer)) else _np.shape(a) for a in args]
    if builtins.all(s == shapes[0] or not s for s in shapes):
        return   # equal shapes or scalars: nothing to check (the common case, kept cheap)
    if len({len(s) for s in shapes}) == 1:
        for ds in zip(*shapes):
            if len({d for d in ds if d != 1}) > 1:
                raise TypeError(f"{_LAX_NAMES.get(name, name)} got incompatible shapes for broadcasting: "
                                f"{', '.join(map(str, shapes))}.")
    else:
        _broadcast_shapes(*shapes)


def _traced_binary_args(x1, x2, inexact):
    """The promoted operands of a binary op in the two commonest traced cases (two tracers of one
    strong type and shape; a tracer and a Python int/float), else None for the general path.
    Same result as `_promote_shapes(*_promote_dtypes[_inexact](x1, x2))`, in far fewer calls."""
    if isinstance(x1, Tracer):
        a1 = x1.aval
        if isinstance(x2, Tracer):
            a2 = x2.aval
            if (a1.weak_type or a2.weak_type or a1.dtype != a2.dtype or a1.shape != a2.shape
                    or (inexact and _dt.kind(a1.dtype) not in "fc")):
                return None
            return x1, x2
        t2 = type(x2)
        if t2 is not float and t2 is not int:
            return None
        dt, weak = _with_python_scalar(a1.dtype, a1.weak_type, x2, t2)
        if dt != a1.dtype or weak != a1.weak_type or (inexact and _dt.kind(dt) not in "fc"):
            return None
        c = x1._trace.scalar_operand(x2, dt, weak)
        return x1, (lax._convert_element_type(x2, dt, weak) if c is None else c)
    if isinstance(x2, Tracer):
        t1 = type(x1)
        if t1 is not float and t1 is not int:
            return None
        a2 = x2.aval
        dt, weak = _with_python_scalar(a2.dtype, a2.weak_type, x1, t1)
        if dt != a2.dtype or weak != a2.weak_type or (inexact and _dt.kind(dt) not in "fc"):
            return None
        c = x2._trace.scalar_operand(x1, dt, weak)
        return (lax._convert_element_type(x1, dt, weak) if c is None else c), x2
    return None


def operator_primitives(u) -> dict:
    """jnp function (of the jnp module u) -> its primitive, for operators on tracers of a
    numeric dtype (core._engine.tracing.array's shortcut)."""
    from ...primitives import elementwise as ew
    return {u.add: ew.add_p, u.subtract: ew.sub_p, u.multiply: ew.mul_p, u.equal: ew.eq_p,
            u.not_equal: ew.ne_p, u.less: ew.lt_p, u.less_equal: ew.le_p, u.greater: ew.gt_p,
            u.greater_equal: ew.ge_p}


# (dtype, weak, float or int, x64) -> the promoted (dtype, weak) of an array of that dtype and a
# Python scalar of that type (symmetric: the order of the operands does not change it)
_SCALAR_PROMOTED: dict = {}


def _with_python_scalar(dtype, weak, x, t):
    """_dt.result_type_weak((dtype, weak), (python_scalar_value_dtype(x), True)), looked up."""
    if t is int or _dt._strict[0]:   # (an int's value is range-checked; strict mode checks operands)
        return _dt.result_type_weak((dtype, weak), (_dt.python_scalar_value_dtype(x), True))
    key = (dtype, weak, t, _dt._x64[0])
    hit = _SCALAR_PROMOTED.get(key)
    if hit is None:
        hit = _SCALAR_PROMOTED[key] = _dt.result_type_weak((dtype, weak), (_dt.python_scalar_value_dtype(x), True))
    return hit


def _fits_int32(i: int) -> bool:
    """A bigger Python int takes the general path, which raises JAX's OverflowError."""
    return -2147483648 <= i <= 2147483647


def _eager_binary_args(x1, x2, inexact):
    """`_traced_binary_args` for concrete arrays: two arrays of one dtype and shape, or a float
    array and a Python int/float; else None. Promotion would change no value and the lax rule
    gives the same weak type, so these skip it (the eager fast path of every jnp binary op)."""
    if type(x1) is Array:
        v1 = x1._value
        t2 = type(x2)
        if t2 is Array:
            v2 = x2._value
            if v1.dtype != v2.dtype or v1.shape != v2.shape or v1.dtype.kind not in ("fc" if inexact else "fiuc"):
                return None
            return x1, x2
        if (t2 is float or t2 is int and _fits_int32(x2)) and v1.dtype.kind in "fc":
            return x1, lax._convert_element_type(x2, v1.dtype, x1.weak_type)
        return None
    if type(x2) is Array and (type(x1) is float or type(x1) is int and _fits_int32(x1)) \
            and x2._value.dtype.kind in "fc":
        return lax._convert_element_type(x1, x2._value.dtype, x2.weak_type), x2
    return None


def _replace(shape, axis, v):
    """shape with its entry at axis set to v (a shape helper of the reductions and statistics)."""
    s = list(shape)
    s[axis] = v
    return tuple(s)
