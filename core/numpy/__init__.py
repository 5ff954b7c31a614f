"""`jax.numpy`: NumPy's API on jax arrays. Functions promote dtypes (weak types included) and
shapes as JAX does, then call `lax`. Lists are accepted only by array constructors."""
from __future__ import annotations

import builtins
import math
import operator
import string
import sys

import numpy as _np

from .. import array as _array_mod
from .. import dtypes as _dt
from .. import lax
from ..array import Array, DeviceArray, to_numpy as _to_numpy
from ..avals import ShapedArray
from ..dtypes import (bool_, complex64, complex128, float16, float32, float64, int8, int16, int32, int64,
                      promote_types, uint8, uint16, uint32, uint64)
from ..tracing import Tracer, get_aval



def _staged(fn=None, *, static_argnames=(), name=None):
    """Run a jnp function as a nested `jit`, as JAX does for many of them: their jaxprs then
    show `jit[name=... jaxpr={...}]` exactly where JAX's do."""
    if fn is None:
        return lambda f: _staged(f, static_argnames=static_argnames, name=name)
    import functools as _ft
    from ..api import jit
    if name:
        fn.__name__ = name
    return _ft.wraps(fn)(jit(fn, static_argnames=static_argnames))


from ..basearray import Array as ndarray  # noqa: E402  (jnp.ndarray is jax.Array)
pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan
euler_gamma = _np.euler_gamma
newaxis = None

generic = _np.generic
number = _np.number
inexact = _np.inexact
floating = _np.floating
integer = _np.integer
signedinteger = _np.signedinteger
unsignedinteger = _np.unsignedinteger
complexfloating = _np.complexfloating
bool = _np.bool_  # noqa: A001  (jnp.bool is numpy's bool dtype)
dtype = _np.dtype
iinfo = _np.iinfo
finfo = _dt.finfo  # [dtypes] bfloat16's finfo comes from ml_dtypes


class _ScalarType:
    """`jnp.float32(x)` builds a jax array; `jnp.float32` also works wherever a dtype does."""

    def __init__(self, np_type):
        self.dtype = _np.dtype(np_type)
        self.type = np_type
        self.__name__ = self.dtype.name

    def __call__(self, x=0):
        return asarray(x, dtype=self.dtype)

    def __repr__(self):
        return f"<class 'jax.numpy.{self.dtype.name}'>"

    # JAX compares the scalar type, not a dtype coerced from `other`: jnp.float32 == np.float32 and
    # == np.dtype('float32'), but not == 'float32', None, a dict or a structured-dtype spec
    def __eq__(self, other):
        return other is self or self.type == other

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.type)


def _canon(d):
    if isinstance(d, _ScalarType):
        return d.dtype
    return d


# jnp.float32 etc.: usable as dtypes and as constructors
for _name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64", "complex64", "complex128", "bool_"):
    globals()[_name] = _ScalarType(getattr(_np, _name))
# [dtypes] bfloat16 where ml_dtypes is present (CPython); in Pyodide a name that raises on use
from ._unsupported_dtypes import _make as _unsupported_dtype  # noqa: E402
bfloat16 = _ScalarType(_dt.bfloat16) if _dt.bf16 is not None else _unsupported_dtype("bfloat16")
float_ = globals()["float64"]
int_ = globals()["int64"]
complex_ = globals()["complex128"]


def _dtype_arg(d):
    if d is None:
        return None
    if isinstance(d, _ScalarType):
        return d.dtype
    if d is float:
        return _dt.default_float_dtype()
    if d is int:
        return _dt.default_int_dtype()
    if d is complex:
        return _dt.default_complex_dtype()
    if d is builtins.bool:
        return _dt.bool_
    caller = sys._getframe(1).f_code.co_name  # [dtypes] JAX names the function: "... in zeros"
    return _dt.as_dtype(d, caller if not caller.startswith("_") else sys._getframe(2).f_code.co_name)


def _warn_x64(requested, got, where="array"):
    if requested is not None and _np.dtype(requested) != got:
        import warnings
        warnings.warn(f"Explicitly requested dtype {_np.dtype(requested).name} requested in {where} is not "
                      f"available, and will be truncated to dtype {got.name}. To enable more dtypes, set the "
                      "jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment variable. "
                      "See https://github.com/jax-ml/jax#current-gotchas for more.", UserWarning, stacklevel=3)


def _canonical_request(d, where=None):
    """The dtype a request gets (x64 off: float64 -> float32, with JAX's warning naming `where`)."""
    d = _dtype_arg(d)
    if d is None:
        return None
    c = _dt.canonicalize_dtype(d)
    _warn_x64(d, c, where or sys._getframe(1).f_code.co_name)
    return c


def result_type(*args):
    return _dt.result_type(*[_canon(a) for a in args])


def issubdtype(a, b):
    if _dt.is_extended(a) or _dt.is_extended(b):  # key dtypes: only jax.dtypes.extended/prng_key hold them
        return _dt.issubdtype(a, b)
    a = _canon(a)
    b = _canon(b)
    if _dt._is_bfloat16(a):  # [dtypes] ml_dtypes' bfloat16 is no np.floating
        return _dt.issubdtype(a, b)
    if isinstance(b, _np.dtype):
        return _np.issubdtype(_np.dtype(a), b)
    return _np.issubdtype(_np.dtype(a) if not (isinstance(a, type) and issubclass(a, _np.generic)) else a, b)


def isdtype(dt, kind):
    return _np.isdtype(_np.dtype(_canon(dt)), kind)


def can_cast(a, b, casting="safe"):
    return _np.can_cast(_canon(a), _canon(b), casting)


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
        dt = _dt.default_float_dtype()
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
    from ..config import config  # read per call: the flag is scoped by jax.numpy_rank_promotion(...)
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
        dt, weak = _dt.result_type_weak((a1.dtype, a1.weak_type), (_dt.python_scalar_value_dtype(x2), True))
        if dt != a1.dtype or weak != a1.weak_type or (inexact and _dt.kind(dt) not in "fc"):
            return None
        return x1, lax._convert_element_type(x2, dt, weak)
    if isinstance(x2, Tracer):
        t1 = type(x1)
        if t1 is not float and t1 is not int:
            return None
        a2 = x2.aval
        dt, weak = _dt.result_type_weak((_dt.python_scalar_value_dtype(x1), True), (a2.dtype, a2.weak_type))
        if dt != a2.dtype or weak != a2.weak_type or (inexact and _dt.kind(dt) not in "fc"):
            return None
        return lax._convert_element_type(x1, dt, weak), x2
    return None


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


def _unary(name, lax_fn, inexact=False):
    def fn(x, /):
        if type(x) is Array:
            if not inexact or x._value.dtype.kind in "fc":
                return lax_fn(x)  # already of the promoted type
        elif isinstance(x, Tracer) and (not inexact or x.aval.dtype.kind in "fc"):
            return lax_fn(x)  # already of the promoted type (what the general path returns)
        _check_arraylike(name, x)
        (x,) = _promote_dtypes_inexact(x) if inexact else _promote_dtypes(x)
        return lax_fn(x)
    fn.__name__ = name
    return fn


def _binary(name, lax_fn, inexact=False):
    promote_dtypes = _promote_dtypes_inexact if inexact else _promote_dtypes

    def fn(x1, x2, /):
        fast = _eager_binary_args(x1, x2, inexact) or _traced_binary_args(x1, x2, inexact)
        if fast is not None:
            return lax_fn(*fast)
        _check_arraylike(name, x1, x2)
        _check_shapes_broadcast(name, x1, x2)
        a, b = _promote_shapes(name, *promote_dtypes(x1, x2))  # = _promote_args[_inexact]
        return lax_fn(a, b)
    fn.__name__ = name
    return fn


def _compare(name, lax_fn):
    def fn(x1, x2, /):
        fast = _eager_binary_args(x1, x2, False) or _traced_binary_args(x1, x2, False)
        if fast is not None:
            return lax_fn(*fast)
        _check_arraylike(name, x1, x2)
        _check_shapes_broadcast(name, x1, x2)
        a, b = _promote_shapes(name, *_promote_dtypes(x1, x2))  # = _promote_args
        return lax_fn(a, b)
    fn.__name__ = name
    return fn


# ---- constructors -------------------------------------------------------------------------

def _nested_to_numpy(obj):
    if isinstance(obj, (list, tuple)):
        items = [_nested_to_numpy(o) for o in obj]
        return items
    if isinstance(obj, Array):
        return obj._value
    return obj


def array(object, dtype=None, copy=True, order="K", ndmin=0):
    dtype = _canonical_request(dtype)
    if isinstance(object, Tracer):
        out = object if dtype is None else lax._convert_element_type(object, dtype, False)
    elif isinstance(object, (list, tuple)) and builtins.any(isinstance(l, Tracer) for l in _flat_items(object)):
        # as JAX: every element converted to the common (strong) dtype, given a leading axis
        # of length 1, and concatenated
        dt = dtype if dtype is not None else _dt.canonicalize_dtype(result_type(*_flat_items(object)))
        out = lax.concatenate([lax.expand_dims(asarray(array(o, dtype=dt), dtype=dt), (0,)) for o in object], 0)
    else:
        if isinstance(object, Array):
            v = object._value
            weak = False
        else:
            if hasattr(object, "__jax_array__"):
                object = object.__jax_array__()
            if isinstance(object, (list, tuple)):
                leaves = _flat_items(object)
                _check_list_leaves(leaves)
                dt_leaf = _dt.result_type(*leaves) if leaves else _dt.default_float_dtype()
                v = _np.asarray(_nested_to_numpy(object), dtype=dt_leaf if dtype is None else None)
            else:
                v = _np.asarray(object)
                if _dt.is_python_scalar(object):
                    # straight to a requested dtype: jnp.uint32(2998342421) fits, jnp.uint8(300) is
                    # numpy's OverflowError, never a wrapped value
                    v = _np.asarray(object, _dt.python_scalar_value_dtype(object) if dtype is None else dtype)
            # python scalars stay weakly typed (jnp.array(3) is `weak_type=True`), as in JAX
            weak = _dt.is_python_scalar(object) and dtype is None and type(object) is not builtins.bool
        target = dtype if dtype is not None else _dt.canonicalize_dtype(v.dtype)
        _check_numeric_dtype(v)
        out = Array(_np.array(v, dtype=target, copy=True) if (copy or v.dtype != target) else v, weak)
    if ndmin and get_aval(out).ndim < ndmin:
        out = lax.broadcast_to_rank(out, ndmin)
    return out


def _check_numeric_dtype(v):
    if _dt.kind(v.dtype) not in "biufc":
        leaf = v.flat[0].item() if v.size else v
        raise TypeError(f"Value {leaf!r} with dtype {v.dtype} is not a valid JAX array type. "
                        "Only arrays of numeric types are supported by JAX.")


def _flat_items(obj):
    out = []
    for o in obj:
        if isinstance(o, (list, tuple)):
            out.extend(_flat_items(o))
        else:
            out.append(o)
    return out


def _check_list_leaves(leaves):
    for l in leaves:
        if isinstance(l, (str, bytes)):
            v = _np.asarray(l)
            raise TypeError(f"Value {l!r} with dtype {v.dtype} is not a valid JAX array type. "
                            "Only arrays of numeric types are supported by JAX.")
        if not isinstance(l, _ARRAYLIKE):
            raise TypeError(f"JAX only supports number and bool dtypes, got {type(l).__name__} in array")


def asarray(a, dtype=None, order=None, copy=None):
    if dtype is None and isinstance(a, (Array, Tracer)):
        return a
    if dtype is not None:
        dtype = _canonical_request(dtype, "asarray")
    return array(a, dtype=dtype, copy=builtins.bool(copy))


def _shape_arg(shape):
    if isinstance(shape, (int, _np.integer)):
        return (int(shape),)
    if getattr(shape, "ndim", None) == 0:  # a 0-d array (concrete) stands for one dimension, as in JAX
        shape = (shape,)
    try:
        return tuple(operator.index(d) for d in shape)
    except TypeError:
        got = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
        raise TypeError(f"Shapes must be 1D sequences of concrete values of integer type, got {got}.\n"
                        "If using `jit`, try using `static_argnums` or applying `jit` to smaller "
                        "subfunctions.") from None


def zeros(shape, dtype=None, device=None):
    return lax.full(_shape_arg(shape), 0, _canonical_request(dtype) or _dt.default_float_dtype())


def ones(shape, dtype=None, device=None):
    return lax.full(_shape_arg(shape), 1, _canonical_request(dtype) or _dt.default_float_dtype())


def empty(shape, dtype=None, device=None):
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None, device=None):
    dtype = _canonical_request(dtype)
    if _np.ndim(fill_value):
        return broadcast_to(asarray(fill_value, dtype), _shape_arg(shape))
    return lax.full(_shape_arg(shape), fill_value, dtype, weak_type=None if dtype is None else False)


def _check_like(fun_name, a):
    if not (hasattr(a, "shape") and hasattr(a, "dtype")):  # duck-typed arrays pass, as in JAX
        _check_arraylike(fun_name, a)


def zeros_like(a, dtype=None, shape=None, device=None):
    _check_like("zeros_like", a)
    return lax.full_like(a, 0, _canonical_request(dtype), shape)


def ones_like(a, dtype=None, shape=None, device=None):
    _check_like("ones_like", a)
    return lax.full_like(a, 1, _canonical_request(dtype), shape)


def empty_like(a, dtype=None, shape=None, device=None):
    return zeros_like(a, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None, device=None):
    _check_like("full_like", a)
    return lax.full_like(a, fill_value, _canonical_request(dtype), shape)


def _concrete(x, what):
    if isinstance(x, Tracer):
        v = x.to_concrete_value()
        if v is None:
            from ..errors import ConcretizationTypeError
            raise ConcretizationTypeError(x, f"It arose in the jnp.{what} argument.\n")
        return _np.asarray(v).item()
    if isinstance(x, Array):
        return x._value.item()
    return x


def arange(start, stop=None, step=None, dtype=None):
    dtype = _canonical_request(dtype)
    start_name = "stop" if stop is None and step is None else "start"
    for name, val in ((start_name, start), ("stop", stop), ("step", step)):
        if val is not None and not isinstance(val, Tracer) and _np.ndim(val) != 0:
            raise ValueError(f"jax.numpy.arange: arguments must be scalars; got {name}={_np.asarray(val)}")
    given = [v for v in (start, stop, step) if v is not None]
    start = _concrete(start, "arange")
    stop = _concrete(stop, "arange") if stop is not None else None
    step = _concrete(step, "arange") if step is not None else None
    vals = [v for v in (start, stop, step) if v is not None]
    if dtype is None:  # from the arguments as given: jnp.arange(jnp.int32(4)) stays int32 under x64
        dtype = _dt.result_type(*given)
    dtype = _dt.canonicalize_dtype(dtype)
    if builtins.any(isinstance(v, complex) for v in vals):
        raise ValueError("Passing complex start/stop/step to jnp.arange is no longer supported starting in "
                         "JAX v0.10.0.")
    if stop is None:  # arange(M), and arange(M, None, step) too: M is the stop
        start, stop = 0, start
    # JAX's formulation (values and jaxprs): start + step * iota, computed in the result dtype
    if step is not None:
        working = _dt.float32 if dtype.kind == "f" and dtype.itemsize < 4 else dtype
        size = builtins.max(0, int(_np.ceil((stop - start) / step)))
        return lax.convert_element_type(
            lax.add(lax.convert_element_type(start, working),
                    lax.mul(lax.convert_element_type(step, working), lax.broadcasted_iota(working, (size,), 0))),
            dtype)
    if start == 0:
        return lax.broadcasted_iota(dtype, (builtins.max(0, int(_np.ceil(stop))),), 0)
    size = builtins.max(0, int(_np.ceil(stop - start)))
    return lax.add(lax.convert_element_type(start, dtype), lax.broadcasted_iota(dtype, (size,), 0))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    num = operator.index(_concrete(num, "linspace"))
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    dtype = _canonical_request(dtype, "linspace")
    return _linspace(start, stop, num=num, endpoint=builtins.bool(endpoint), retstep=builtins.bool(retstep),
                     dtype=dtype, axis=operator.index(axis))


@_staged(static_argnames=("num", "endpoint", "retstep", "dtype", "axis"))
def _linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """JAX's formula, start * (1 - t) + stop * t with t = iota / div, then stop appended."""
    _check_arraylike("linspace", start, stop)
    start, stop = asarray(start), asarray(stop)
    if dtype is None:
        dtype = _dt.float_dtype_for(_dt.result_type(start, stop))
    computation_dtype = _dt.float_dtype_for(dtype)
    start = astype(start, computation_dtype)
    stop = astype(stop, computation_dtype)
    bounds_shape = list(_broadcast_shapes(_np.shape(start), _np.shape(stop)))
    b_start = broadcast_to(start, tuple(bounds_shape))
    b_stop = broadcast_to(stop, tuple(bounds_shape))
    axis = len(bounds_shape) + axis + 1 if axis < 0 else axis
    bounds_shape.insert(axis, 1)
    div = (num - 1) if endpoint else num
    if num > 1:
        delta = divide(lax.convert_element_type(subtract(stop, start), computation_dtype),
                       asarray(div, dtype=computation_dtype))
        iota_shape = [1] * len(bounds_shape)
        iota_shape[axis] = div
        step = divide(lax.iota(computation_dtype, div).reshape(iota_shape), asarray(div, computation_dtype))
        step = astype(step, computation_dtype)
        out = add(multiply(b_start.reshape(bounds_shape), subtract(1, step)),
                  multiply(b_stop.reshape(bounds_shape), step))
        if endpoint:
            out = lax.concatenate([out, lax.expand_dims(b_stop, (axis,))], axis)
    elif num == 1:
        delta = asarray(_np.nan if endpoint else subtract(stop, start), dtype=computation_dtype)
        out = b_start.reshape(bounds_shape)
    else:
        empty_shape = list(_broadcast_shapes(_np.shape(start), _np.shape(stop)))
        empty_shape.insert(axis, 0)
        delta = full((), _np.nan, computation_dtype)
        out = zeros(empty_shape, dtype)
    if _np.dtype(dtype).kind in "iu" and get_aval(out).dtype.kind not in "iu":
        out = lax.floor(out)
    result = lax._convert_element_type(out, dtype, False)
    return (result, delta) if retstep else result


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    lin = linspace(start, stop, num, endpoint, dtype=dtype, axis=axis)
    return power(asarray(base, get_aval(lin).dtype), lin)


def eye(N, M=None, k=0, dtype=None):
    dtype = _canonical_request(dtype) or _dt.default_float_dtype()
    M = N if M is None else M
    N, M = operator.index(N), operator.index(M)
    if N < 0 or M < 0:
        raise ValueError(f"negative dimensions are not allowed, got {N} and {M}")
    if isinstance(k, int):  # a Python int offset is clipped to int32's range first, as JAX's
        k = builtins.max(-2**31, builtins.min(k, 2**31 - 1))
    offset = asarray(k)
    if not (offset.shape == () and offset.dtype.kind in "iu"):
        raise ValueError(f"k must be a scalar integer; got {k}")
    i = lax.broadcasted_iota(offset.dtype, (N, M), 0)   # both iotas first, as JAX's _eye
    j = lax.broadcasted_iota(offset.dtype, (N, M), 1)
    return astype(equal(add(i, offset), j), dtype)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    dtype = _canonical_request(dtype) or _dt.default_float_dtype()
    M = N if M is None else M
    return lax.convert_element_type(
        lax.ge(lax.add(lax.broadcasted_iota(_dt.int32, (N, M), 0), Array(_np.asarray(k, _np.int32))),
               lax.broadcasted_iota(_dt.int32, (N, M), 1)), dtype)


@_staged(static_argnames=("k",))
def tril(m, k=0):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("Argument to jax.numpy.tril must be at least 2D")
    N, M = m.shape[-2:]
    mask = lax.broadcast(tri(N, M, k, dtype=_dt.bool_), m.shape[:-2])
    return lax.select(mask, m, zeros_like(m))


@_staged(static_argnames=("k",))
def triu(m, k=0):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("Argument to jax.numpy.triu must be at least 2D")
    N, M = m.shape[-2:]
    mask = lax.broadcast(tri(N, M, k - 1, dtype=_dt.bool_), m.shape[:-2])
    return lax.select(mask, zeros_like(m), m)


def diag(v, k=0):
    v = asarray(v)
    if v.ndim == 1:
        n = v.shape[0] + builtins.abs(k)
        out = zeros((n, n), v.dtype)
        i = arange(v.shape[0])
        return out.at[(i, i + k) if k >= 0 else (i - k, i)].set(v)
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("diag input must be 1d or 2d")


def diagonal(a, offset=0, axis1=0, axis2=1):
    _check_arraylike("diagonal", a)
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions.")
    return _diagonal(a, operator.index(_concrete(offset, "diagonal")), axis1, axis2)


@_staged(static_argnames=("offset", "axis1", "axis2"), name="diagonal")
def _diagonal(a, offset=0, axis1=0, axis2=1):
    shape = a.shape
    a = moveaxis(a, (axis1, axis2), (-2, -1))
    size = builtins.max(0, builtins.min(shape[axis1] + builtins.min(offset, 0), shape[axis2] - builtins.max(offset, 0)))
    i = arange(size)
    j = arange(builtins.abs(offset), builtins.abs(offset) + size)
    return a[..., i, j] if offset >= 0 else a[..., j, i]


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    _check_arraylike("trace", a)
    a = asarray(a)
    if _canon_one(axis1, a.ndim) == _canon_one(axis2, a.ndim):
        raise ValueError(f"axis1 and axis2 can not be same. axis1={axis1} and axis2={axis2}")
    return _trace(a, operator.index(offset), axis1, axis2, _dtype_arg(dtype))


@_staged(static_argnames=("offset", "axis1", "axis2", "dtype"), name="trace")
def _trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """Mask everything but the diagonal with eye(), then sum (JAX's formulation)."""
    shape = a.shape
    a = moveaxis(a, (axis1, axis2), (-2, -1))
    a = where(eye(shape[axis1], shape[axis2], k=offset, dtype=_dt.bool_), a, zeros_like(a))
    return sum(a, axis=(-2, -1), dtype=dtype)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    xi = [asarray(x) for x in xi]
    shape = [x.shape[0] for x in xi]
    if indexing == "xy" and len(xi) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    outs = []
    for i, x in enumerate(xi):
        d = i
        if indexing == "xy" and len(xi) >= 2 and i < 2:
            d = 1 - i
        outs.append(lax.broadcast_in_dim(x, tuple(shape), (d,)))
    return outs


# ---- elementwise --------------------------------------------------------------------------

add = _binary("add", lax.add)
subtract = _binary("subtract", lax.sub)
multiply = _binary("multiply", lax.mul)
maximum = _binary("maximum", lax.max)
minimum = _binary("minimum", lax.min)
equal = _compare("equal", lax.eq)
not_equal = _compare("not_equal", lax.ne)
less = _compare("less", lax.lt)
less_equal = _compare("less_equal", lax.le)
greater = _compare("greater", lax.gt)
greater_equal = _compare("greater_equal", lax.ge)
arctan2 = _binary("arctan2", lax.atan2, inexact=True)
atan2 = arctan2
nextafter = _binary("nextafter", lax.nextafter, inexact=True)


def _bitwise(name, lax_fn):
    def fn(x1, x2, /):
        a, b = _promote_args(name, x1, x2)
        k = get_aval(a).dtype.kind
        if k not in "biu":
            raise TypeError(f"{name} does not accept dtype {get_aval(a).dtype.name}. Accepted dtypes are "
                            "subtypes of bool, integer.")
        return lax_fn(a, b)
    fn.__name__ = name
    return fn


bitwise_and = _bitwise("bitwise_and", lax.bitwise_and)
bitwise_or = _bitwise("bitwise_or", lax.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", lax.bitwise_xor)


def logical_and(x1, x2, /): return lax.bitwise_and(*_promote_args("logical_and", *_as_bool(x1, x2)))
def logical_or(x1, x2, /): return lax.bitwise_or(*_promote_args("logical_or", *_as_bool(x1, x2)))
def logical_xor(x1, x2, /): return lax.bitwise_xor(*_promote_args("logical_xor", *_as_bool(x1, x2)))


def logical_not(x, /):
    (x,) = _as_bool(x)
    return lax.bitwise_not(x)


def _as_bool(*xs):
    out = []
    for x in xs:
        _check_arraylike("logical", x)
        out.append(x if get_aval(x).dtype == _dt.bool_ else lax.ne(*_promote_args("ne", x, 0)))
    return out


def invert(x, /):
    _check_arraylike("invert", x)
    (x,) = _promote_dtypes(x)
    return lax.bitwise_not(x)


bitwise_not = invert
bitwise_invert = invert


def bitwise_left_shift(x1, x2, /):
    return left_shift(x1, x2)


def bitwise_right_shift(x1, x2, /):
    return right_shift(x1, x2)


def unstack(x, /, *, axis=0):
    _check_arraylike("unstack", x)
    return lax.unstack(asarray(x), axis=axis)


def left_shift(x1, x2, /):
    a, b = _promote_args("left_shift", x1, x2)
    return lax.shift_left(a, b)


def right_shift(x1, x2, /):
    a, b = _promote_args("right_shift", x1, x2)
    if get_aval(a).dtype.kind == "u":
        return lax.shift_right_logical(a, b)
    return lax.shift_right_arithmetic(a, b)


def true_divide(x1, x2, /):
    fast = _eager_binary_args(x1, x2, True) or _traced_binary_args(x1, x2, True)
    if fast is not None:  # operands already of the promoted type
        return lax.div(*fast)
    a, b = _promote_args_inexact("true_divide", x1, x2)
    return lax.div(a, b)


divide = true_divide


@_staged
def floor_divide(x1, x2, /):
    a, b = _promote_args("floor_divide", x1, x2)
    dt = get_aval(a).dtype
    if dt.kind == "u":
        return lax.div(a, b)
    if dt.kind == "i":
        quotient = lax.div(a, b)
        select_ = logical_and(not_equal(lax.sign(a), lax.sign(b)), not_equal(lax.rem(a, b), 0))
        return _where(select_, subtract(quotient, 1), quotient)
    if dt == _dt.bool_:
        raise TypeError("floor_divide does not support bool dtype")
    if dt.kind == "c":
        raise TypeError("floor_divide does not support complex-valued inputs")
    return _float_divmod(a, b)[0]


def _float_divmod(x1, x2):
    # CPython's float_divmod (floatobject.c), as JAX writes it
    mod = lax.rem(x1, x2)
    x1_corrected = _where(equal(x2, 0), x1, lax.sub(x1, mod))
    div = lax.div(x1_corrected, x2)
    ind = lax.bitwise_and(not_equal(mod, 0), not_equal(lax.sign(x2), lax.sign(mod)))
    mod = lax.select(ind, add(mod, x2), mod)
    div = lax.select(ind, subtract(div, 1.0), div)
    return lax.round(div), mod


@_staged
def remainder(x1, x2, /):
    a, b = _promote_args("remainder", x1, x2)
    zero = lax._zero(a)
    if get_aval(b).dtype.kind in "iu":
        b = _where(equal(b, 0), lax._one(b), b)   # x % 0 is 0 for ints, as in JAX
    trunc_mod = lax.rem(a, b)
    trunc_mod_not_zero = lax.ne(trunc_mod, zero)
    do_plus = lax.bitwise_and(lax.ne(lax.lt(trunc_mod, zero), lax.lt(b, zero)), trunc_mod_not_zero)
    return lax.select(do_plus, lax.add(trunc_mod, b), trunc_mod)


mod = remainder


def fmod(x1, x2, /):
    a, b = _promote_args("fmod", x1, x2)
    return lax.rem(a, b)


def divmod(x1, x2, /):
    return floor_divide(x1, x2), remainder(x1, x2)


def _to_numeric(a):
    """JAX's "numeric" promotion: bools become the default int (weak type kept)."""
    aval = get_aval(a)
    return lax._convert_element_type(a, _dt.default_int_dtype(), aval.weak_type) if aval.dtype.kind == "b" else a


def power(x1, x2, /):
    if type(x2) is not int:  # (integer exponents: integer_pow below)
        fast = _eager_binary_args(x1, x2, True)
        if fast is not None:  # float operands already of the promoted type
            return lax.pow(*fast)
    _check_arraylike("power", x1, x2)
    if not isinstance(x2, Tracer) and _np.ndim(x2) == 0 and _np.result_type(x2).kind in "iu":
        # a concrete integer exponent: exact binary exponentiation (x ** 2, x ** jnp.array(3))
        (a,) = _promote_dtypes(x1)
        return lax.integer_pow(_to_numeric(a), operator.index(x2))
    x1, x2 = _promote_shapes("power", asarray(x1), asarray(x2))
    a, b = (_to_numeric(v) for v in _promote_dtypes(x1, x2))
    if get_aval(a).dtype.kind in "iu":
        return _int_power(a, b)
    if get_aval(x1).dtype.kind in "fc" and get_aval(x2).dtype.kind in "iu":
        # an inexact base with integer exponents: lax.pow keeps them integers, so that the
        # derivative is exactly n x**(n-1), 0 where n == 0 (x ** jnp.arange(3) at x = 0)
        return lax.pow(x1, x2)
    return lax.pow(a, b)


pow = power


def _int_power(a, b):
    # JAX's _pow_int_int: binary exponentiation over the low 6 bits of b (more would overflow for
    # any base > 1), so 3 ** 100 and 3 ** -1 wrap exactly as JAX's do; pow(0, b) is 0 for b != 0
    zero, one = lax._zero(b), lax._one(b)
    acc = where(lax.bitwise_and(lax.eq(a, zero), lax.ne(b, zero)), zero, one)
    for _ in range(6):
        acc = where(lax.bitwise_and(b, one), lax.mul(acc, a), acc)
        a = lax.mul(a, a)
        b = lax.shift_right_logical(b, one)
    return acc


def float_power(x1, x2, /):
    return power(*[asarray(x, _dt.default_float_dtype()) for x in (x1, x2)])


negative = _unary("negative", lax.neg)


def positive(x, /):
    _check_arraylike("positive", x)
    return asarray(x)


def absolute(x, /):
    _check_arraylike("absolute", x)
    (x,) = _promote_dtypes(x)
    dt = get_aval(x).dtype
    if dt.kind == "u" or dt == _dt.bool_:
        return x
    return lax.abs(x)


abs = absolute


def sign(x, /):
    _check_arraylike("sign", x)
    (x,) = _promote_dtypes(x)
    return lax.sign(x)


def floor(x, /):
    _check_arraylike("floor", x)
    (x,) = _promote_dtypes(x)
    if get_aval(x).dtype.kind in "iub":
        return x
    return lax.floor(x)


def ceil(x, /):
    _check_arraylike("ceil", x)
    (x,) = _promote_dtypes(x)
    if get_aval(x).dtype.kind in "iub":
        return x
    return lax.ceil(x)


def trunc(x, /):
    _check_arraylike("trunc", x)
    (x,) = _promote_dtypes(x)
    if get_aval(x).dtype.kind in "iub":
        return x
    return where(lax.lt(x, lax._zero(x)), lax.ceil(x), lax.floor(x))


fix = trunc


@_staged(static_argnames=("decimals",))
def round(a, decimals=0, out=None):
    _check_arraylike("round", a)
    (a,) = _promote_dtypes(a)
    dt = get_aval(a).dtype
    if dt.kind in "iub":
        if decimals < 0:  # JAX refuses rather than round 15 to 20
            raise NotImplementedError("integer np.round not implemented for decimals < 0")
        return a
    if decimals == 0:
        return lax.round(a, 1)
    factor = lax._const(a, 10 ** decimals)
    return lax.div(lax.round(lax.mul(a, factor), 1), factor)


around = round
round_ = round


def rint(x, /):
    return round(x)


exp = _unary("exp", lax.exp, True)
exp2 = _unary("exp2", lax.exp2, True)
expm1 = _unary("expm1", lax.expm1, True)
log = _unary("log", lax.log, True)
log1p = _unary("log1p", lax.log1p, True)
sqrt = _unary("sqrt", lax.sqrt, True)
cbrt = _unary("cbrt", lax.cbrt, True)
sin = _unary("sin", lax.sin, True)
cos = _unary("cos", lax.cos, True)
tan = _unary("tan", lax.tan, True)
arcsin = _unary("arcsin", lax.asin, True)
arccos = _unary("arccos", lax.acos, True)
arctan = _unary("arctan", lax.atan, True)
sinh = _unary("sinh", lax.sinh, True)
cosh = _unary("cosh", lax.cosh, True)
tanh = _unary("tanh", lax.tanh, True)
arcsinh = _unary("arcsinh", lax.asinh, True)
arccosh = _unary("arccosh", lax.acosh, True)
arctanh = _unary("arctanh", lax.atanh, True)
asin, acos, atan, asinh, acosh, atanh = arcsin, arccos, arctan, arcsinh, arccosh, arctanh


def log2(x, /):
    (x,) = _promote_dtypes_inexact(x)
    return lax.div(lax.log(x), lax.log(lax._const(x, 2)))


def log10(x, /):
    (x,) = _promote_dtypes_inexact(x)
    return lax.div(lax.log(x), lax.log(lax._const(x, 10)))


def square(x, /):
    _check_arraylike("square", x)
    (x,) = _promote_dtypes(x)
    return lax.square(x) if get_aval(x).dtype.kind in "fc" else lax.integer_pow(x, 2)


def reciprocal(x, /):
    _check_arraylike("reciprocal", x)
    (x,) = _promote_dtypes_inexact(x)
    return lax.integer_pow(x, -1)


def deg2rad(x, /):
    (x,) = _promote_dtypes_inexact(x)
    return lax.mul(x, lax._const(x, pi / 180))


def rad2deg(x, /):
    (x,) = _promote_dtypes_inexact(x)
    return lax.mul(x, lax._const(x, 180 / pi))


radians, degrees = deg2rad, rad2deg


@_staged
def hypot(x1, x2, /):
    # scaled by the larger magnitude, so large inputs do not overflow (as JAX)
    a, b = _promote_args_inexact("hypot", x1, x2)
    a, b = lax.abs(a), lax.abs(b)
    is_inf = lax.bitwise_or(isposinf(a), isposinf(b))
    a, b = maximum(a, b), minimum(a, b)
    x = _where(a == 0, a, a * lax.sqrt(1 + lax.square(lax.div(b, _where(a == 0, ones_like(a), a)))))
    # the constant takes x's weak type, so hypot of two Python floats stays weak (as in JAX)
    inf = lax._convert_element_type(_np.array(_np.inf, get_aval(x).dtype), get_aval(x).dtype, get_aval(x).weak_type)
    return _where(is_inf, inf, x)


from ..api import custom_jvp as _custom_jvp  # noqa: E402


def logaddexp(x1, x2, /):
    # promoted first, as JAX's: the custom_jvp sees arrays of one dtype (its weak types kept)
    return _lax_logaddexp(*_promote_args_inexact("logaddexp", x1, x2))


def _logaddexp(a, b):
    amax = lax.max(a, b)
    delta = lax.sub(a, b)
    # NaN delta: NaNs, or infinities of the same sign (then a + b is right)
    return lax.select(lax.ne(delta, delta), lax.add(a, b),
                      lax.add(amax, lax.log1p(lax.exp(lax.neg(lax.abs(delta))))))


def _replace_inf(x):
    return lax.select(isposinf(real(x)), lax.full_like(x, 0), x)


_logaddexp.__name__ = "logaddexp"  # the name its custom_jvp_call shows
_lax_logaddexp = _custom_jvp(_logaddexp)


@_lax_logaddexp.defjvp
def _logaddexp_jvp(primals, tangents):
    # JAX's rule: finite everywhere, also where an input is +inf
    x1, x2 = primals
    t1, t2 = tangents
    x1, x2, t1, t2 = _promote_args_inexact("logaddexp_jvp", x1, x2, t1, t2)
    out = _lax_logaddexp(x1, x2)
    return out, lax.add(lax.mul(t1, exp(lax.sub(_replace_inf(x1), _replace_inf(out)))),
                        lax.mul(t2, exp(lax.sub(_replace_inf(x2), _replace_inf(out)))))


def sinc(x, /):
    (x,) = _promote_dtypes_inexact(x)
    eq_zero = lax.eq(x, lax._zero(x))
    pi_x = lax.mul(lax._const(x, pi), x)
    safe = where(eq_zero, lax._one(x), pi_x)
    return where(eq_zero, lax._one(x), lax.div(lax.sin(safe), safe))


def isnan(x, /):
    _check_arraylike("isnan", x)
    (x,) = _promote_dtypes(x)
    return lax.ne(x, x)


def isinf(x, /):
    _check_arraylike("isinf", x)
    (x,) = _promote_dtypes(x)
    dt = get_aval(x).dtype
    if dt.kind not in "fc":
        return lax.full_like(x, False, _dt.bool_)
    return lax.eq(lax.abs(x), lax._const(x, _np.inf))


def isposinf(x, /):
    (x,) = _promote_dtypes(x)
    return lax.eq(x, lax._const(x, _np.inf))


def isneginf(x, /):
    (x,) = _promote_dtypes(x)
    return lax.eq(x, lax._const(x, -_np.inf))


def isfinite(x, /):
    _check_arraylike("isfinite", x)
    (x,) = _promote_dtypes(x)
    if get_aval(x).dtype.kind not in "fc":
        return lax.full_like(x, True, _dt.bool_)
    return lax.is_finite(x)


def signbit(x, /):
    (x,) = _promote_dtypes(x)
    dt = get_aval(x).dtype
    if dt.kind in "iu":
        return lax.lt(x, Array(_np.zeros((), dt)))  # a strong 0 (JAX's _constant_like): never weak
    if dt.kind == "b":
        return lax.full_like(x, False, dtype=_dt.bool_)
    if dt.kind != "f":
        raise ValueError(f"jax.numpy.signbit is not well defined for {dt}")
    # the sign bit of the float's own width (float64 under x64 too): an arithmetic shift of its bits
    bits = lax.bitcast_convert_type(x, _np.dtype(f"int{dt.itemsize * 8}"))
    return lax.convert_element_type(lax.shift_right_arithmetic(bits, lax._const(bits, dt.itemsize * 8 - 1)), _dt.bool_)


def copysign(x1, x2, /):
    a, b = _promote_args_inexact("copysign", x1, x2)
    return where(signbit(b), lax.neg(lax.abs(a)), lax.abs(a))


@_staged(static_argnames=("copy",))
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    (x,) = _promote_dtypes(x)
    dt = get_aval(x).dtype
    if dt.kind not in "fc":
        return x
    info = _np.finfo(dt)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    x = where(isnan(x), asarray(nan, dt), x)
    x = where(isposinf(x), asarray(posinf, dt), x)
    return where(isneginf(x), asarray(neginf, dt), x)


def clip(arr=None, /, min=None, max=None, *, a=None, a_min=None, a_max=None):
    x = arr if arr is not None else a
    if x is None:
        raise ValueError("No input was provided to the clip function.")
    _check_arraylike("clip", x)
    return _clip(x, min if min is not None else a_min, max if max is not None else a_max)


@_staged(name="clip")
def _clip(arr, min, max):
    if min is not None:
        arr = maximum(min, arr)
    if max is not None:
        arr = minimum(max, arr)
    return asarray(arr)


def conjugate(x, /):
    (x,) = _promote_dtypes(x)
    return lax.conj(x) if get_aval(x).dtype.kind == "c" else x


conj = conjugate


def real(x, /):
    (x,) = _promote_dtypes(x)
    return lax.real(x) if get_aval(x).dtype.kind == "c" else x


def imag(x, /):
    (x,) = _promote_dtypes(x)
    return lax.imag(x) if get_aval(x).dtype.kind == "c" else lax.full_like(x, 0)


def heaviside(x1, x2, /):
    a, b = _promote_args_inexact("heaviside", x1, x2)
    zero = lax._zero(a)
    return where(lax.lt(a, zero), zero, where(lax.gt(a, zero), lax._one(a), b))


def fmax(x1, x2):
    a, b = _promote_args("fmax", x1, x2)
    return where(isnan(b), a, where(isnan(a), b, lax.max(a, b)))


def fmin(x1, x2):
    a, b = _promote_args("fmin", x1, x2)
    return where(isnan(b), a, where(isnan(a), b, lax.min(a, b)))


@_staged(static_argnames=("equal_nan",))
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _promote_args("isclose", a, b)
    a, b = _promote_args_inexact("isclose", a, b)
    dt = get_aval(a).dtype
    if dt.kind == "c":
        dt = _np.zeros((), dt).real.dtype
    rtol = lax.convert_element_type(rtol, dt)
    atol = lax.convert_element_type(atol, dt)
    both_nan = logical_and(isnan(a), isnan(b))
    check_fin = isfinite(b)
    in_range = lax.le(lax.abs(lax.sub(a, b)), lax.add(atol, lax.mul(rtol, lax.abs(b))))
    out = logical_or(lax.eq(a, b), logical_and(check_fin, in_range))
    return logical_or(out, both_nan) if equal_nan else out


@_staged(static_argnames=("equal_nan",))
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan=False):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return Array(_np.asarray(False))
    return all(equal(a1, a2))


# ---- where / select -----------------------------------------------------------------------

def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    if x is None and y is None:
        return nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("Either both or neither of the x and y arguments should be provided to jax.numpy.where, "
                         "got {} and {}.".format(x, y))
    _check_arraylike("where", condition, x, y)
    return _where(condition, x, y)


@_staged
def _where(condition, x, y):
    if get_aval(condition).dtype != _dt.bool_:
        condition = lax.ne(condition, lax._zero(condition))
    x, y = _promote_dtypes(x, y)
    if _np.ndim(condition) == 0:
        x, y = _broadcast_arrays_like_jax(x, y)
    else:
        condition, x, y = _broadcast_arrays_like_jax(condition, x, y)
    return lax.select(condition, x, y)


def _broadcast_arrays_like_jax(*args):
    shapes = [_np.shape(a) for a in args]
    if builtins.all(s == shapes[0] for s in shapes):
        return list(args)
    shape = _broadcast_shapes(*shapes)
    return [broadcast_to(a, shape) for a in args]


def select(condlist, choicelist, default=0):
    """The choice of the first true condition, as JAX does it: argmax over stacked conditions."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})")
    if len(condlist) == 0:
        raise ValueError("condlist must be non-empty")
    _check_arraylike("select", *condlist, *choicelist, default)
    condlist = [asarray(c) for c in condlist]
    choicelist = _promote_dtypes(asarray(default), *[asarray(c) for c in choicelist])
    conditions = stack(broadcast_arrays(False, *condlist))
    idx = argmax(astype(conditions, _dt.bool_), axis=0)
    return lax.select_n(*broadcast_arrays(idx, *choicelist))


def piecewise(x, condlist, funclist, *args, **kw):
    _check_arraylike("piecewise", x)
    x = asarray(x)
    if isinstance(condlist, (Array, Tracer)) and get_aval(condlist).ndim == get_aval(x).ndim:
        condlist = [condlist]
    condlist = [asarray(c) for c in condlist]
    nc, nf = len(condlist), len(funclist)
    if nf == nc + 1:
        funclist = funclist[-1:] + funclist[:-1]
    elif nf == nc:
        funclist = [0] + list(funclist)
    else:
        raise ValueError(f"with {nc} condition(s), either {nc} or {nc + 1} functions are expected; got {nf}")
    which = zeros(x.shape, _dt.int32)
    for i, c in enumerate(condlist):
        which = where(c, Array(_np.int32(i + 1)), which)
    results = [(f(x, *args, **kw) if callable(f) else full_like(x, f)) for f in funclist]
    results = [broadcast_to(asarray(r, x.dtype), x.shape) for r in results]
    return lax.select_n(which, *results)


def nonzero(a, *, size=None, fill_value=None):
    a = asarray(a)
    if isinstance(a, Tracer) and size is None:
        from ..errors import ConcretizationTypeError
        raise ConcretizationTypeError(a, "The size argument of jnp.nonzero must be statically specified to use "
                                         "jnp.nonzero within JAX transformations.\n")
    v = _np.asarray(a) if not isinstance(a, Tracer) else None
    if v is None:
        raise NotImplementedError("jnp.nonzero with size under a transformation is not supported yet")
    idx = _np.nonzero(v)
    if size is not None:
        fv = 0 if fill_value is None else fill_value
        idx = tuple(_np.concatenate([i[:size], _np.full(builtins.max(0, size - len(i)), fv, i.dtype)]) for i in idx)
    return tuple(Array(i.astype(_dt.default_int_dtype())) for i in idx)


def argwhere(a, *, size=None, fill_value=None):
    return stack(nonzero(a, size=size, fill_value=fill_value), axis=-1)


def flatnonzero(a, *, size=None, fill_value=None):
    return nonzero(ravel(a), size=size, fill_value=fill_value)[0]


@_staged(static_argnames=("axis", "keepdims"))
def count_nonzero(a, axis=None, keepdims=False):
    a = asarray(a)
    return sum(lax.ne(a, lax._zero(a)), axis=axis, keepdims=keepdims, dtype=_dt.default_int_dtype())


# ---- reductions ---------------------------------------------------------------------------

def _canon_axis(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(_canon_one(a, ndim) for a in axis)
    else:
        axes = (_canon_one(axis, ndim),)
    if len(set(axes)) != len(axes):
        raise ValueError(f"duplicate value in 'axis': {axis}")
    return axes


def _canon_one(a, ndim):
    a = operator.index(a)
    if not -ndim <= a < builtins.max(ndim, 1) or (ndim == 0 and a not in (0, -1)):
        raise ValueError(f"axis {a} is out of bounds for array of dimension {ndim}")
    return a % ndim if ndim else 0


def _reduction(a, name, lax_fn, init, axis, dtype, keepdims, initial=None, where_=None, upcast_int=False,
               bool_to_int=False, promote_integers=True):
    if (type(a) is Array and dtype is None and initial is None and where_ is None
            and a._value.dtype.kind in "fc" and a._value.dtype.itemsize > 2):  # [dtypes] (16-bit: upcast below)
        # eager fast path: a float array keeps its dtype; only a weak one becomes strong
        axes = _canon_axis(axis, a._value.ndim)
        out = lax_fn(Array(a._value, False) if a.weak_type else a, axes)
        return lax.expand_dims(out, axes) if keepdims else out
    _check_arraylike(name, a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    aval = get_aval(a)
    dtype = _dtype_arg(dtype)
    if dtype is not None:
        dtype = _dt.canonicalize_dtype(dtype)
    result_dtype = dtype
    if result_dtype is None:
        if upcast_int and (aval.dtype.kind == "b" or (aval.dtype.kind in "iu" and
                                                       aval.dtype.itemsize < _dt.default_int_dtype().itemsize)):
            result_dtype = _dt.default_int_dtype() if aval.dtype.kind != "u" else _dt.default_uint_dtype()
        else:
            result_dtype = aval.dtype
    # JAX reduces in a strongly typed computation dtype: weak inputs give strong results;
    # booleans summed or multiplied become integers first (then the requested dtype)
    if upcast_int and aval.dtype.kind == "b" and _np.dtype(result_dtype).kind != "b":
        a = lax._convert_element_type(a, _dt.default_int_dtype(), False)
    a = lax._convert_element_type(a, result_dtype, False)
    axes = _canon_axis(axis, aval.ndim)
    if upcast_int and _dt.reduction_computation_dtype(result_dtype) != result_dtype:  # [dtypes] f16/bf16
        out = _reduction(lax._convert_element_type(a, _np.float32, False), name, lax_fn, init, axis, None,
                         keepdims, initial, where_)
        return lax._convert_element_type(out, result_dtype, False)
    if where_ is not None:
        a = where(where_, a, lax.full_like(a, init))
    if initial is not None and builtins.any(aval.shape[ax] == 0 for ax in axes):
        # nothing to reduce: the result is `initial` (a reduction of empty axes has no identity
        # for min/max, and JAX starts its reduction from `initial`)
        shape = tuple(d for i, d in enumerate(aval.shape) if i not in axes)
        out = lax.full(shape, initial, result_dtype)
    else:
        out = lax_fn(a, axes)
        if initial is not None:
            out = _combine_initial(name, out, initial)
    if keepdims:
        out = lax.expand_dims(out, axes)
    return out


def _combine_initial(name, out, initial):
    init = lax._convert_element_type(initial, get_aval(out).dtype, False)
    if _np.ndim(init) != 0:
        raise ValueError(f"initial value must be a scalar. Got array of shape {_np.shape(init)}")
    op = {"sum": lax.add, "prod": lax.mul, "max": lax.max, "min": lax.min}.get(name)
    return op(init, out) if op else out


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None, promote_integers=True):
    return _reduction(a, "sum", lax.reduce_sum, 0, axis, dtype, keepdims, initial, where, upcast_int=True)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None, promote_integers=True):
    return _reduction(a, "prod", lax.reduce_prod, 1, axis, dtype, keepdims, initial, where, upcast_int=True)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    if type(a) is Array and initial is None and where is None and a._value.size and a._value.dtype.kind in "fc":
        return _reduction(a, "max", lax.reduce_max, -_np.inf, axis, None, keepdims)  # (eager fast path)
    aval = get_aval(asarray(a)) if not isinstance(a, Tracer) else a.aval
    if aval.size == 0 and initial is None and (axis is None or aval.shape[axis] == 0):
        raise ValueError("zero-size array to reduction operation max which has no identity")
    init = -_np.inf if aval.dtype.kind == "f" else (_np.iinfo(aval.dtype).min if aval.dtype.kind in "iu" else False)
    return _reduction(a, "max", lax.reduce_max, init, axis, None, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    if type(a) is Array and initial is None and where is None and a._value.size and a._value.dtype.kind in "fc":
        return _reduction(a, "min", lax.reduce_min, _np.inf, axis, None, keepdims)  # (eager fast path)
    aval = get_aval(asarray(a)) if not isinstance(a, Tracer) else a.aval
    if aval.size == 0 and initial is None and (axis is None or aval.shape[axis] == 0):
        raise ValueError("zero-size array to reduction operation min which has no identity")
    init = _np.inf if aval.dtype.kind == "f" else (_np.iinfo(aval.dtype).max if aval.dtype.kind in "iu" else True)
    return _reduction(a, "min", lax.reduce_min, init, axis, None, keepdims, initial, where)


amax, amin = max, min


def all(a, axis=None, out=None, keepdims=False, *, where=None):
    a = lax.convert_element_type(asarray(a), _dt.bool_)
    return _reduction(a, "all", lax.reduce_and, True, axis, None, keepdims, None, where)


def any(a, axis=None, out=None, keepdims=False, *, where=None):
    a = lax.convert_element_type(asarray(a), _dt.bool_)
    return _reduction(a, "any", lax.reduce_or, False, axis, None, keepdims, None, where)


alltrue, sometrue = all, any


def _axis_size(aval, axis):
    axes = _canon_axis(axis, aval.ndim)
    n = 1
    for a in axes:
        n *= aval.shape[a]
    return n


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    if type(a) is Array and dtype is None and where is None and a._value.dtype.kind in "fc" \
            and a._value.dtype.itemsize > 2:  # [dtypes] (16-bit floats: upcast below)
        # eager fast path: the general path below with dt = a.dtype
        total = sum(a, axis, keepdims=keepdims)
        return lax.div(total, Array(_np.array(_axis_size(a, axis), a._value.dtype), False))
    _check_arraylike("mean", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    aval = get_aval(a)
    if dtype is None:
        dt = aval.dtype if _dt.kind(aval.dtype) in "fc" else _dt.default_float_dtype()
    else:
        dt = _dt.canonicalize_dtype(_dtype_arg(dtype))
    if _dt.reduction_computation_dtype(dt) != dt:  # [dtypes] f16/bf16: averaged in float32, rounded once
        return lax._convert_element_type(mean(a, axis, _np.float32, keepdims=keepdims, where=where), dt, False)
    if where is None:
        normalizer = _axis_size(aval, axis)
        total = sum(a, axis, dtype=dt, keepdims=keepdims)
        return lax.div(total, lax._convert_element_type(normalizer, dt, False))
    normalizer = sum(broadcast_to(where, aval.shape), axis, dtype=dt, keepdims=keepdims)
    return lax.div(sum(a, axis, dtype=dt, keepdims=keepdims, where=where), normalizer)


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        if returned:
            return avg, full_like(avg, _axis_size(get_aval(asarray(a)), axis))
        return avg
    a, weights = _promote_dtypes_inexact(a, weights)
    if get_aval(weights).shape != get_aval(a).shape:
        weights = lax.broadcast_in_dim(weights, get_aval(a).shape, (_canon_one(axis, get_aval(a).ndim),))
    wsum = sum(weights, axis, keepdims=keepdims)
    avg = lax.div(sum(lax.mul(a, weights), axis, keepdims=keepdims), wsum)
    return (avg, wsum) if returned else avg


@_staged(static_argnames=("rowvar", "bias", "ddof"))
def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None):
    """Covariance matrix of the variables in m's rows (columns when rowvar=False), as numpy."""
    if y is not None:
        m, y = _promote_args_inexact("cov", m, y)
        if get_aval(y).ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    else:
        (m,) = _promote_args_inexact("cov", m)
    if get_aval(m).ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    X = atleast_2d(m)
    if not rowvar and get_aval(m).ndim != 1:
        X = X.T
    if get_aval(X).shape[0] == 0:
        return array([]).reshape(0, 0)
    if y is not None:
        y2 = atleast_2d(y)
        if not rowvar and get_aval(y2).shape[0] != 1:
            y2 = y2.T
        X = concatenate((X, y2), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        w = asarray(fweights)
    if aweights is not None:
        w = asarray(aweights) if w is None else w * asarray(aweights)
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        f = get_aval(X).shape[1] - ddof
    elif ddof == 0:
        f = w_sum
    elif aweights is None:
        f = w_sum - ddof
    else:
        f = w_sum - ddof * sum(w * asarray(aweights)) / w_sum
    X = X - avg[:, None]
    X_T = X.T if w is None else (X * w).T
    return true_divide(dot(X, X_T.conj()), f).squeeze()


@_staged(static_argnames=("rowvar",))
def corrcoef(x, y=None, rowvar=True):
    """Pearson correlation coefficients (cov normalised by the standard deviations)."""
    c = cov(x, y, rowvar)
    if len(_np.shape(c)) == 0:
        return true_divide(c, c)
    d = diag(c)
    stddev = sqrt(real(d)).astype(get_aval(c).dtype)
    c = c / stddev[:, None] / stddev[None, :]
    real_part = clip(real(c), -1, 1)
    if get_aval(c).dtype.kind == "c":
        return lax.complex(real_part, clip(imag(c), -1, 1))
    return real_part


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None,
        mean=None):
    correction = _correction(ddof, correction)
    _check_arraylike("var", a)
    return _var(asarray(a), axis=_axis_arg(axis), dtype=_dtype_arg(dtype), correction=correction,
                keepdims=keepdims, where=where, a_mean=mean)


def _correction(ddof, correction):
    """var's and std's degrees-of-freedom correction, given as ddof or (array API) correction."""
    if correction is None:
        return ddof
    if not isinstance(ddof, int) or ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def _axis_arg(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def _var_promote_types(a_dtype, dtype):
    if dtype is not None:
        dtype = _dt.canonicalize_dtype(dtype)
        if _dt.kind(dtype) not in "fc":
            raise ValueError(f"dtype argument to jnp.var must be inexact; got {dtype}")
        return _dt.float_dtype_for(a_dtype) if a_dtype.kind != "c" else a_dtype, dtype
    computation = _dt.float_dtype_for(a_dtype)
    return _dt.reduction_computation_dtype(computation), computation  # [dtypes] f16/bf16 in float32


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def _var(a, *, axis=None, dtype=None, correction=0, keepdims=False, where=None, a_mean=None):
    computation_dtype, dtype = _var_promote_types(get_aval(a).dtype, dtype)
    a = astype(a, computation_dtype)
    if a_mean is None:
        a_mean = mean(a, axis, dtype=computation_dtype, keepdims=True, where=where)
    else:
        a_mean = astype(asarray(a_mean), computation_dtype)
    centered = lax.sub(a, a_mean)
    if computation_dtype.kind == "c":
        centered = lax.real(lax.mul(centered, lax.conj(centered)))
        computation_dtype = get_aval(centered).dtype
    else:
        centered = lax.square(centered)
    if where is None:
        normalizer = lax._convert_element_type(_axis_size(get_aval(a), axis), computation_dtype, False)
    else:
        normalizer = sum(broadcast_to(where, get_aval(a).shape), axis, dtype=computation_dtype, keepdims=keepdims)
    normalizer = lax.sub(normalizer, lax.convert_element_type(correction, computation_dtype))
    result = sum(centered, axis, dtype=computation_dtype, keepdims=keepdims, where=where)
    result = astype(lax.div(result, normalizer), dtype)
    return _where(greater(normalizer, 0), result, _np.nan)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None, mean=None):
    correction = _correction(ddof, correction)
    _check_arraylike("std", a)
    return _std(asarray(a), axis=_axis_arg(axis), dtype=_dtype_arg(dtype), correction=correction,
                keepdims=keepdims, where=where, mean=mean)


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def _std(a, *, axis=None, dtype=None, correction=0, keepdims=False, where=None, mean=None):
    return lax.sqrt(var(a, axis=axis, dtype=dtype, correction=correction, keepdims=keepdims, where=where,
                        mean=mean))


def ptp(a, axis=None, out=None, keepdims=False):
    return subtract(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


def _arg_reduce(a, axis, keepdims, lax_fn, name):
    _check_arraylike(name, a)
    a = asarray(a)
    aval = get_aval(a)
    if axis is None:
        a = ravel(a)
        axis = 0
        if aval.size == 0:
            raise ValueError(f"attempt to get {name} of an empty sequence")
    axis = _canon_one(axis, get_aval(a).ndim)
    out = lax_fn(a, axis, _dt.default_int_dtype())
    if keepdims:
        out = lax.expand_dims(out, (axis,) if get_aval(a).ndim == aval.ndim else tuple(range(aval.ndim)))
    return out


def argmax(a, axis=None, out=None, keepdims=None):
    return _arg_reduce(a, axis, keepdims, lax.argmax, "argmax")


def argmin(a, axis=None, out=None, keepdims=None):
    return _arg_reduce(a, axis, keepdims, lax.argmin, "argmin")


def _promote_integer_dtype(dt):
    """Bools and narrow ints accumulate in the default int (uint) width, as JAX's."""
    if dt.kind == "b":
        return _dt.default_int_dtype()
    wide = {"i": _dt.default_int_dtype(), "u": _dt.default_uint_dtype()}.get(dt.kind)
    return wide if wide is not None and dt.itemsize < wide.itemsize else dt


def _cumulative(name, lax_fn, promote_integers=False):
    """jnp.cumsum/cumprod (ints keep their dtype, bools become ints) and the array API's
    cumulative_sum (narrow ints widened too), staged under JAX's name."""
    def fn(a, axis=None, dtype=None):
        a = asarray(a)
        if axis is None or a.ndim == 0:
            a = lax.reshape(a, (a.size,))
        axis = _canon_one(0 if axis is None else axis, a.ndim)
        if dtype is None:
            result = _promote_integer_dtype(a.dtype) if promote_integers or a.dtype.kind == "b" else a.dtype
            compute = _dt.reduction_computation_dtype(result)  # [dtypes] f16/bf16 accumulate in float32
        elif _np.dtype(dtype) == _dt.bool_:  # accumulate "any nonzero so far" in ints, never -1 + 1
            result = _dt.bool_
            if a.dtype != result:
                a = lax.ne(a, Array(_np.zeros((), a.dtype)))
            compute = _promote_integer_dtype(result)
        else:
            result = compute = _dtype_arg(dtype)
        out = lax_fn(lax._convert_element_type(a, compute, False), axis)
        return lax._convert_element_type(out, result, False)
    fn.__name__ = name
    from ..api import jit
    staged = jit(fn, static_argnames=("axis", "dtype"))   # JAX's jaxprs show `jit[name=cumsum ...]`

    def call(a, axis=None, dtype=None, out=None):
        _check_arraylike(name, a)
        if out is not None:
            raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported")
        return staged(a, axis=axis, dtype=_canonical_request(dtype, name) if dtype is not None else None)
    call.__name__ = name
    return call


cumsum = _cumulative("cumsum", lax.cumsum)
cumprod = _cumulative("cumprod", lax.cumprod)
_cumsum_with_promotion = _cumulative("_cumsum_with_promotion", lax.cumsum, promote_integers=True)
_cumulative_prod = _cumulative("cumulative_prod", lax.cumprod)


def _array_api_cumulative(what, staged, initial):
    def fn(x, /, *, axis=None, dtype=None, include_initial=False):
        x = asarray(x)
        if x.ndim == 0:
            raise ValueError(f"The input must be non-scalar to take a cumulative {what}, however a scalar value "
                             "or scalar array was given.")
        if axis is None:
            if x.ndim > 1:
                raise ValueError(f"The input array has rank {x.ndim}, however axis was not set to an explicit "
                                 "value. The axis argument is only optional for one-dimensional arrays.")
            axis = 0
        axis = _canon_one(axis, x.ndim)
        out = staged(x, axis=axis, dtype=dtype)
        if include_initial:
            shape = list(x.shape)
            shape[axis] = 1
            out = lax.concatenate([lax.full(tuple(shape), initial, get_aval(out).dtype), out], axis)
        return out
    return fn


cumulative_sum = _array_api_cumulative("sum", _cumsum_with_promotion, 0)
cumulative_prod = _array_api_cumulative("product", _cumulative_prod, 1)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    _check_arraylike("diff", a)
    n = operator.index(_concrete(n, "diff"))
    axis = operator.index(axis)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    return _diff(asarray(a), n, axis, prepend, append) if n else asarray(a)


@_staged(static_argnames=("n", "axis"), name="diff")
def _diff(a, n=1, axis=-1, prepend=None, append=None):
    if a.ndim == 0:
        raise ValueError(f"diff requires input that is at least one dimensional; got {a}")
    axis = _canon_one(axis, a.ndim)
    combined = []
    if prepend is not None:
        p = asarray(prepend)
        combined.append(broadcast_to(p, _replace(a.shape, axis, 1)) if not _np.ndim(p) else p)
    combined.append(a)
    if append is not None:
        q = asarray(append)
        combined.append(broadcast_to(q, _replace(a.shape, axis, 1)) if not _np.ndim(q) else q)
    if len(combined) > 1:
        a = concatenate(combined, axis)
    hi = tuple(slice(1, None) if i == axis else slice(None) for i in range(a.ndim))
    lo = tuple(slice(None, -1) if i == axis else slice(None) for i in range(a.ndim))
    op = not_equal if a.dtype == _dt.bool_ else subtract
    for _ in range(n):
        a = op(a[hi], a[lo])
    return a


def _replace(shape, axis, v):
    s = list(shape)
    s[axis] = v
    return tuple(s)


def median(a, axis=None, keepdims=False):
    return quantile(a, 0.5, axis=axis, keepdims=keepdims)


def quantile(a, q, axis=None, method="linear", keepdims=False):
    a = asarray(a, _dt.default_float_dtype() if asarray(a).dtype.kind not in "fc" else None)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = _canon_one(axis, a.ndim)
    s = sort(a, axis=axis)
    n = a.shape[axis]
    qa = asarray(q, a.dtype)
    pos = lax.mul(qa, lax._const(qa, n - 1))
    lo = lax.floor(pos)
    hi = lax.ceil(pos)
    lo_i = lax.convert_element_type(lo, _np.int32)
    hi_i = lax.convert_element_type(hi, _np.int32)
    vlo = take(s, lo_i, axis=axis)
    vhi = take(s, hi_i, axis=axis)
    frac = lax.sub(pos, lo)
    out = add(vlo, multiply(subtract(vhi, vlo), frac))
    if keepdims:
        out = expand_dims(out, axis)
    return out


def percentile(a, q, axis=None, method="linear", keepdims=False):
    return quantile(a, true_divide(q, 100.0), axis, method, keepdims)


def _nan_reduction(a, name, reduction, init, nan_if_all_nan, axis, keepdims, **kw):
    """A reduction that skips NaNs (they count as `init`), staged as JAX stages it; with
    nan_if_all_nan an all-NaN slice gives NaN."""
    _check_arraylike(name, a)
    a = asarray(a)
    aval = get_aval(a)
    if aval.dtype.kind not in "fc":
        return reduction(a, axis=axis, keepdims=keepdims, **kw)
    out = reduction(_where(lax.ne(a, a), _np.array(init, aval.dtype), a), axis=axis, keepdims=keepdims, **kw)
    if nan_if_all_nan:
        return _where(all(lax.ne(a, a), axis=axis, keepdims=keepdims), _np.array(_np.nan, aval.dtype), out)
    return out


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def nansum(a, axis=None, dtype=None, keepdims=False):
    return _nan_reduction(a, "nansum", sum, 0, False, axis, keepdims, dtype=dtype)


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def nanprod(a, axis=None, dtype=None, keepdims=False):
    return _nan_reduction(a, "nanprod", prod, 1, False, axis, keepdims, dtype=dtype)


@_staged(static_argnames=("axis", "keepdims"))
def nanmax(a, axis=None, keepdims=False):
    return _nan_reduction(a, "nanmax", max, -_np.inf, True, axis, keepdims)


@_staged(static_argnames=("axis", "keepdims"))
def nanmin(a, axis=None, keepdims=False):
    return _nan_reduction(a, "nanmin", min, _np.inf, True, axis, keepdims)


@_staged(static_argnames=("axis", "dtype", "keepdims"))
def nanmean(a, axis=None, dtype=None, keepdims=False):
    _check_arraylike("nanmean", a)
    a = asarray(a)
    aval = get_aval(a)
    if aval.dtype.kind not in "fc":
        return mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    dtype = dtype or aval.dtype
    normalizer = sum(lax.bitwise_not(lax.ne(a, a)), axis=axis, dtype=dtype, keepdims=keepdims)
    return lax.div(nansum(a, axis, dtype=dtype, keepdims=keepdims), normalizer)


# ---- linear algebra -----------------------------------------------------------------------

def _dot_dtype(a, b):
    a, b = _promote_dtypes(a, b)
    return a, b, get_aval(a).dtype


def dot(a, b, *, precision=None, preferred_element_type=None):
    _check_arraylike("dot", a, b)
    a, b, dt = _dot_dtype(a, b)
    pet = _dtype_arg(preferred_element_type) or dt
    aa, ba = get_aval(a), get_aval(b)
    if aa.ndim == 0 or ba.ndim == 0:
        return lax.mul(a, b)
    if ba.ndim == 1:
        contract = ((aa.ndim - 1,), (0,))
    else:
        contract = ((aa.ndim - 1,), (ba.ndim - 2,))
    out = lax.dot_general(a, b, (contract, ((), ())), precision=precision, preferred_element_type=pet)
    return lax._convert_element_type(out, dt, aa.weak_type and ba.weak_type) if pet != dt else out


def matmul(a, b, *, precision=None, preferred_element_type=None):
    _check_arraylike("matmul", a, b)
    a, b, dt = _dot_dtype(a, b)
    pet = _dtype_arg(preferred_element_type) or dt
    aa, ba = get_aval(a), get_aval(b)
    if aa.ndim == 0 or ba.ndim == 0:
        raise ValueError(f"matmul operand {0 if aa.ndim == 0 else 1} must have ndim at least 1, "
                         f"got {builtins.min(aa.ndim, ba.ndim)}")
    a_is_vec, b_is_vec = aa.ndim == 1, ba.ndim == 1
    if aa.ndim <= 2 and ba.ndim <= 2:
        dn = (((aa.ndim - 1,), (0,)), ((), ()))
        return lax.dot_general(a, b, dn, precision=precision, preferred_element_type=pet)
    if a_is_vec:
        a = lax.expand_dims(a, (0,))
    if b_is_vec:
        b = lax.expand_dims(b, (1,))
    aa, ba = get_aval(a), get_aval(b)
    batch = _broadcast_shapes(aa.shape[:-2], ba.shape[:-2])
    a = broadcast_to(a, batch + aa.shape[-2:])
    b = broadcast_to(b, batch + ba.shape[-2:])
    nb = len(batch)
    dn = (((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb))))
    out = lax.dot_general(a, b, dn, precision=precision, preferred_element_type=pet)
    if a_is_vec:
        out = lax.squeeze(out, (nb,))
    if b_is_vec:
        out = lax.squeeze(out, (get_aval(out).ndim - 1,))
    return out


def vdot(a, b, *, precision=None):
    return dot(ravel(conjugate(a)), ravel(b), precision=precision)


def inner(a, b, *, precision=None):
    _check_arraylike("inner", a, b)
    a, b, dt = _dot_dtype(a, b)
    aa, ba = get_aval(a), get_aval(b)
    if aa.ndim == 0 or ba.ndim == 0:
        return lax.mul(a, b)
    return lax.dot_general(a, b, (((aa.ndim - 1,), (ba.ndim - 1,)), ((), ())), precision=precision,
                           preferred_element_type=dt)


def outer(a, b, out=None):
    _check_arraylike("outer", a, b)
    a, b = ravel(a), ravel(b)
    a, b = _promote_dtypes(a, b)
    return multiply(lax.expand_dims(a, (1,)), b)


def tensordot(a, b, axes=2, *, precision=None, preferred_element_type=None):
    _check_arraylike("tensordot", a, b)
    a, b, dt = _dot_dtype(a, b)
    aa, ba = get_aval(a), get_aval(b)
    if isinstance(axes, int):
        if axes > builtins.min(aa.ndim, ba.ndim):
            raise TypeError(f"Number of tensordot axes (axes {axes}) exceeds input ranks ({aa.shape} and {ba.shape})")
        contract = (tuple(range(aa.ndim - axes, aa.ndim)), tuple(range(axes)))
    else:
        ax, bx = axes
        ax = (ax,) if isinstance(ax, int) else tuple(ax)
        bx = (bx,) if isinstance(bx, int) else tuple(bx)
        contract = (tuple(_canon_one(i, aa.ndim) for i in ax), tuple(_canon_one(i, ba.ndim) for i in bx))
    return lax.dot_general(a, b, (contract, ((), ())), precision=precision,
                           preferred_element_type=_dtype_arg(preferred_element_type) or dt)


def kron(a, b):
    a, b = _promote_dtypes(asarray(a), asarray(b))
    out = multiply(lax.expand_dims(a, tuple(range(1, 2 * get_aval(a).ndim, 2))),
                   lax.expand_dims(b, tuple(range(0, 2 * get_aval(b).ndim, 2))))
    return reshape(out, tuple(x * y for x, y in zip(get_aval(a).shape, get_aval(b).shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    _check_arraylike("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    return _cross(asarray(a), asarray(b), axisa=axisa, axisb=axisb, axisc=axisc)


@_staged(static_argnames=("axisa", "axisb", "axisc"), name="cross")
def _cross(a, b, axisa, axisb, axisc):
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    na, nb = get_aval(a).shape[-1], get_aval(b).shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    if na == 2 and nb == 2:
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    a0, a1 = a[..., 0], a[..., 1]
    a2 = a[..., 2] if na == 3 else zeros_like(a0)
    b0, b1 = b[..., 0], b[..., 1]
    b2 = b[..., 2] if nb == 3 else zeros_like(b0)
    c = array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
    return moveaxis(c, 0, axisc)


def einsum(subscripts, *operands, optimize="optimal", precision=None, preferred_element_type=None, _dot_general=None):
    from ._einsum import einsum as _einsum
    return _einsum(subscripts, *operands, precision=precision, preferred_element_type=preferred_element_type)


# ---- shapes -------------------------------------------------------------------------------

def shape(a):
    return _np.shape(a)


def ndim(a):
    return _np.ndim(a)


def size(a, axis=None):
    s = _np.shape(a)
    return int(_np.prod(s)) if axis is None else s[axis]


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    _check_arraylike("reshape", a)
    if shape is None:
        shape = newshape
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    aval = get_aval(a)
    shape = _compute_newshape(aval, shape)
    if order == "F":
        return lax.transpose(lax.reshape(lax.transpose(a, tuple(reversed(range(aval.ndim)))), tuple(reversed(shape))),
                             tuple(reversed(range(len(shape)))))
    return lax.reshape(a, shape)


def _compute_newshape(aval, newshape):
    """The shape with its one -1 resolved; errors quote `newshape` as the user wrote it (JAX's)."""
    shape = _shape_arg(newshape)
    if shape.count(-1) > 1:
        raise TypeError(f"can only specify one unknown axis size with a `-1` value, got {newshape}")
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        if aval.size % known:  # (a 0 among the known sizes is JAX's ZeroDivisionError too)
            raise TypeError(f"cannot reshape array of shape {aval.shape} (size {aval.size}) into shape {newshape} "
                            f"because the product of specified axis sizes ({known}) does not evenly divide "
                            f"{aval.size}")
        return tuple(aval.size // known if d == -1 else d for d in shape)
    if math.prod(shape) != aval.size:
        raise TypeError(f"cannot reshape array of shape {aval.shape} (size {aval.size}) into shape {newshape} "
                        f"(size {math.prod(shape)})")
    return shape


def ravel(a, order="C"):
    _check_arraylike("ravel", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    return reshape(a, (get_aval(a).size,), order)


def transpose(a, axes=None):
    _check_arraylike("transpose", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    nd = get_aval(a).ndim
    axes = tuple(range(nd))[::-1] if axes is None else tuple(_canon_one(i, nd) for i in axes)
    return lax.transpose(a, axes)


def permute_dims(a, axes):
    return transpose(a, axes)


def matrix_transpose(x):
    return swapaxes(x, -1, -2)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    nd = a.ndim
    perm = list(range(nd))
    i, j = _canon_one(axis1, nd), _canon_one(axis2, nd)
    perm[i], perm[j] = perm[j], perm[i]
    return lax.transpose(a, tuple(perm))


def moveaxis(a, source, destination):
    a = asarray(a)
    nd = a.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [_canon_one(s, nd) for s in src]
    dst = [_canon_one(d, nd) for d in dst]
    perm = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return lax.transpose(a, tuple(perm))


def rollaxis(a, axis, start=0):
    a = asarray(a)
    axis = _canon_one(axis, a.ndim)
    if start > axis:
        start -= 1
    return moveaxis(a, axis, start)


def expand_dims(a, axis):
    _check_arraylike("expand_dims", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return lax.expand_dims(a, axes)  # (lax checks and canonicalizes, as JAX's)


def squeeze(a, axis=None):
    _check_arraylike("squeeze", a)
    a = asarray(a) if not isinstance(a, (Array, Tracer)) else a
    aval = get_aval(a)
    if axis is None:
        axes = tuple(i for i, d in enumerate(aval.shape) if d == 1)
    else:
        axes = _canon_axis(axis, aval.ndim)
        for ax in axes:
            if aval.shape[ax] != 1:
                raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one, "
                                 f"got shape={aval.shape} and dimensions={axes}")
    return lax.squeeze(a, axes) if axes else a


def broadcast_to(array, shape):
    _check_arraylike("broadcast_to", array)
    a = asarray(array) if not isinstance(array, (Array, Tracer)) else array
    shape = _shape_arg(shape)
    aval = get_aval(a)
    if aval.shape == shape:
        return a
    nlead = len(shape) - aval.ndim
    if nlead < 0:
        raise ValueError(f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}")
    if builtins.any(d != 1 and d != s for d, s in zip(aval.shape, shape[nlead:])):
        from ..errors import _type_str
        raise ValueError(f"Incompatible types for broadcasting: input type={_type_str(aval)} and requested "
                         f"type={_type_str(ShapedArray(shape, aval.dtype))}")
    diff = [i for i, (d, s) in enumerate(zip(aval.shape, shape[nlead:])) if d != s]
    if diff:
        kept = [i for i in range(aval.ndim) if i not in diff]
        a = lax.reshape(a, tuple(aval.shape[i] for i in kept))
        return lax.broadcast_in_dim(a, shape, tuple(nlead + i for i in kept))
    return lax.broadcast_in_dim(a, shape, tuple(range(nlead, len(shape))))


def broadcast_arrays(*args):
    shp = _broadcast_shapes(*[_np.shape(a) for a in args])
    return [broadcast_to(a, shp) for a in args]


def broadcast_shapes(*shapes):
    return _broadcast_shapes(*shapes)


@_staged
def atleast_1d(*arys):
    outs = [asarray(a) if asarray(a).ndim >= 1 else reshape(a, (1,)) for a in arys]
    return outs[0] if len(outs) == 1 else outs


@_staged
def atleast_2d(*arys):
    outs = []
    for a in arys:
        a = asarray(a)
        outs.append(a if a.ndim >= 2 else lax.broadcast_to_rank(a, 2))
    return outs[0] if len(outs) == 1 else outs


@_staged
def atleast_3d(*arys):
    outs = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = expand_dims(a, -1)
        outs.append(a)
    return outs[0] if len(outs) == 1 else outs


def concatenate(arrays, axis=0, dtype=None):
    if isinstance(arrays, (Array, Tracer)):
        return _concat_array(arrays, axis)
    if not len(arrays):
        raise ValueError("Need at least one array to concatenate.")
    _check_arraylike("concatenate", *arrays)
    arrays = _promote_dtypes(*[asarray(a) if not isinstance(a, (Array, Tracer)) else a for a in arrays])
    if dtype is not None:
        arrays = [lax.convert_element_type(a, _dtype_arg(dtype)) for a in arrays]
    if axis is None:  # (0-d arrays included, as JAX's)
        return concatenate([ravel(a) for a in arrays], 0)
    nd = get_aval(arrays[0]).ndim
    if nd == 0:
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    axis = _canon_one(axis, nd)
    if len(arrays) == 1:
        return arrays[0]
    return lax.concatenate(arrays, axis)


def _concat_array(a, axis):
    return concatenate([a[i] for i in range(get_aval(a).shape[0])], axis)


concat = concatenate


def stack(arrays, axis=0, out=None, dtype=None):
    if not len(arrays):
        raise ValueError("Need at least one array to stack.")
    arrays = [asarray(a) if not isinstance(a, (Array, Tracer)) else a for a in arrays]
    shapes = {get_aval(a).shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError("All input arrays must have the same shape.")
    nd = get_aval(arrays[0]).ndim + 1
    axis = _canon_one(axis, nd)
    if dtype is not None:
        arrays = [asarray(a, dtype=dtype) for a in arrays]
    else:
        arrays = _promote_dtypes(*arrays)
    from ..primitives.structural import stack_p
    return stack_p.bind(*arrays, axis=axis)


def vstack(tup, dtype=None):
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype)


def hstack(tup, dtype=None):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs[0].ndim == 1 else 1, dtype=dtype)


def dstack(tup, dtype=None):
    return concatenate([atleast_3d(a) for a in tup], 2, dtype=dtype)


def column_stack(tup):
    arrs = [asarray(a) for a in tup]
    arrs = [a.reshape(-1, 1) if a.ndim < 2 else a for a in arrs]
    return concatenate(arrs, 1)


row_stack = vstack


def split(ary, indices_or_sections, axis=0):
    return _split("split", ary, indices_or_sections, axis)


def array_split(ary, indices_or_sections, axis=0):
    return _split("array_split", ary, indices_or_sections, axis)


def _split(name, ary, indices_or_sections, axis):
    ary = asarray(ary)
    axis = _canon_one(axis, ary.ndim)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, (int, _np.integer)):
        k = int(indices_or_sections)
        if name == "split" and n % k:
            raise ValueError(f"array split does not result in an equal division: rest is {n % k}")
        q, r = builtins.divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
    else:
        idx = [int(_concrete(i, name)) for i in indices_or_sections]
        bounds = [0] + [builtins.min(builtins.max(i if i >= 0 else i + n, 0), n) for i in idx] + [n]
        sizes = [builtins.max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])]
    from ..primitives.structural import split_p
    # numpy ints, as JAX computes them with np.diff (its jaxprs print `sizes=(np.int64(1), ...)`)
    return list(split_p.bind(ary, sizes=tuple(_np.int64(z) for z in sizes), axis=axis))


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 1 if asarray(ary).ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def tile(A, reps):
    A = asarray(A)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    nd = builtins.max(A.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    A = reshape(A, (1,) * (nd - A.ndim) + A.shape)
    expanded = []
    for r, d in zip(reps, A.shape):
        expanded += [r, d]
    bshape = tuple(expanded)
    out = lax.broadcast_in_dim(A, bshape, tuple(range(1, 2 * nd, 2)))
    return reshape(out, tuple(r * d for r, d in zip(reps, A.shape)))


def repeat(a, repeats, axis=None, *, total_repeat_length=None):
    a = asarray(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = _canon_one(axis, a.ndim)
    if total_repeat_length is not None:
        return _repeat_to_length(a, repeats, axis, total_repeat_length)
    if isinstance(repeats, int):
        shape = list(a.shape)
        b = lax.broadcast_in_dim(a, tuple(shape[:axis + 1] + [repeats] + shape[axis + 1:]),
                                 tuple(i if i <= axis else i + 1 for i in range(a.ndim)))
        shape[axis] *= repeats
        return reshape(b, tuple(shape))
    reps = _np.asarray(_to_numpy(repeats) if not isinstance(repeats, Tracer) else _concrete(repeats, "repeat"))
    idx = _np.repeat(_np.arange(a.shape[axis]), reps)
    return take(a, Array(idx.astype(_np.int32)), axis=axis)


def _repeat_to_length(a, repeats, axis, total):
    """jnp.repeat with total_repeat_length (repeats may be traced), as JAX computes it: cut at
    `total`, or padded with the last element; the gather indices come from a cumsum of block starts."""
    repeats = broadcast_to(ravel(asarray(repeats)), (a.shape[axis],))
    if total == 0:
        shape = list(a.shape)
        shape[axis] = 0
        return zeros(tuple(shape), a.dtype)
    if a.shape[axis] == 0:
        return a
    exclusive = roll(repeats, 1).at[0].set(0)
    starts = zeros((total,), _dt.int32).at[cumsum(exclusive)].add(1)
    return take(a, cumsum(starts) - 1, axis=axis)


def flip(m, axis=None):
    _check_arraylike("flip", m)
    return _flip(asarray(m), axis if axis is None or isinstance(axis, int) else tuple(axis))


@_staged(static_argnames=("axis",))
def _flip(m, axis=None):
    axes = tuple(range(m.ndim)) if axis is None else _canon_axis(axis, m.ndim)
    return lax.rev(m, axes)


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    axes = tuple(_canon_one(ax, a.ndim) for ax in axes)
    shifts = (shift,) if _np.ndim(shift) == 0 and not isinstance(shift, (list, tuple)) else tuple(shift)
    shifts = tuple(int(_concrete(sh, "roll")) for sh in shifts)
    return _roll_static(a, shifts, axes)


@_staged(static_argnames=("shift", "axis"))
def _roll_static(a, shift, axis):
    for ax, sh in zip(*_np.broadcast_arrays(axis, shift)):
        ax, sh = int(ax), int(sh)
        n = a.shape[ax]
        if n == 0:
            continue
        i = (-sh) % n
        a = lax.concatenate([_slice_in_dim(a, i, n, ax), _slice_in_dim(a, 0, i, ax)], ax)
    return a


def _slice_in_dim(a, start, limit, axis):
    """lax.slice_in_dim as JAX writes it (explicit unit strides show in the jaxpr)."""
    starts = [0] * a.ndim
    limits = list(a.shape)
    starts[axis], limits[axis] = start, limit
    return lax.slice(a, starts, limits, (1,) * a.ndim)


def pad(array, pad_width, mode="constant", constant_values=0):
    a = asarray(array)
    nd = a.ndim
    pw = _np.broadcast_to(_np.asarray(pad_width, dtype=int).reshape(-1, 2) if _np.ndim(pad_width) else
                          _np.asarray([[pad_width, pad_width]]), (nd, 2))
    if mode != "constant":
        raise NotImplementedError(f"jnp.pad mode={mode!r} is not supported yet; use mode='constant'")
    if _np.any(pw < 0):
        raise ValueError("index can't contain negative values")
    if nd == 0:
        return a
    # numpy ints in the padding config, as JAX's jaxprs show (np.int64(1), np.int64(1), 0)
    widths = tuple((_np.int64(lo), _np.int64(hi)) for lo, hi in pw)
    return _pad(a, widths, constant_values)


@_staged(static_argnames=("pad_width",))
def _pad(a, pad_width, constant_values):
    cv = lax._convert_element_type(asarray(constant_values), a.dtype, get_aval(a).weak_type)
    if _np.ndim(cv) != 0:
        raise NotImplementedError("jnp.pad: only scalar constant_values are supported")
    return st_pad(a, cv, tuple((lo, hi, 0) for lo, hi in pad_width))


def st_pad(a, cv, config):
    from ..primitives.structural import pad_p
    return pad_p.bind(a, cv, padding_config=config)


@_staged(static_argnames=("axis", "kind", "order", "stable", "descending"))
def sort(a, axis=-1, kind=None, order=None, stable=True, descending=False):
    _check_arraylike("sort", a)
    _check_sort_args("sort", kind, order)
    a = asarray(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = _canon_one(axis, a.ndim)
    out = lax.sort(a, axis)
    return lax.rev(out, (axis,)) if descending else out


def _check_sort_args(name, kind, order):
    if kind is not None:
        raise TypeError(f"'kind' argument to {name} is not supported. Use stable=True or stable=False to specify "
                        "sort stability.")
    if order is not None:
        raise TypeError(f"'order' argument to {name} is not supported.")


@_staged(static_argnames=("axis", "kind", "order", "stable", "descending", "dtype"))
def argsort(a, axis=-1, kind=None, order=None, stable=True, descending=False, dtype=None):
    _check_arraylike("argsort", a)
    _check_sort_args("argsort", kind, order)
    a = asarray(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = _canon_one(axis, a.ndim)
    idx_dtype = _canonical_request(dtype, "argsort") if dtype is not None else _dt.default_int_dtype()
    iota = lax.broadcasted_iota(idx_dtype, a.shape, axis)
    # descending as JAX: sort ascending and reverse (never negate: -x wraps for unsigned ints and
    # moves NaNs); a stable one reverses first so that ties keep their original order
    if descending and stable:
        a, iota = lax.rev(a, (axis,)), lax.rev(iota, (axis,))
    _, perm = lax.sort((a, iota), axis, stable, 1)
    return lax.rev(perm, (axis,)) if descending else perm


def searchsorted(a, v, side="left", sorter=None, method="scan"):
    a = asarray(a)
    v = asarray(v)
    if side not in ("left", "right"):
        raise ValueError(f"{side!r} is an invalid value for keyword 'side'")
    if sorter is not None:
        a = take(a, asarray(sorter))
    a, v = _promote_dtypes(a, v)
    # the insertion index of each v = how many elements of a come before it: a < v on the
    # left side, a <= v on the right; comparing a against v[..., None] broadcasts to (..., n)
    vv = lax.expand_dims(v, (get_aval(v).ndim,))
    before = less(a, vv) if side == "left" else less_equal(a, vv)
    return sum(before, axis=-1, dtype=_dt.int32)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, size=None,
           fill_value=None):
    v = _np.asarray(asarray(ar))
    res = _np.unique(v, return_index=return_index, return_inverse=return_inverse, return_counts=return_counts,
                     axis=axis)
    if isinstance(res, tuple):
        return tuple(Array(r.astype(_dt.canonicalize_dtype(r.dtype))) for r in res)
    return Array(res.astype(_dt.canonicalize_dtype(res.dtype)))


def bincount(x, weights=None, minlength=0, *, length=None):
    x = asarray(x)
    if length is None:
        length = builtins.max(int(_concrete(max(x), "bincount")) + 1, minlength)
    w = ones_like(x) if weights is None else asarray(weights)
    return zeros(length, get_aval(w).dtype).at[x].add(w)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    if isinstance(bins, str):
        raise NotImplementedError("string values for `bins` not implemented.")
    _check_arraylike("histogram_bin_edges", a, bins)
    arr = asarray(a)
    dtype = _dt.canonicalize_dtype(arr.dtype if arr.dtype.kind in "fc" else _dt.default_float_dtype())
    if _np.ndim(bins) == 1:
        return asarray(bins, dtype=dtype)
    n = operator.index(_concrete(bins, "histogram_bin_edges") if isinstance(bins, (Array, Tracer)) else bins)
    rng = asarray([arr.min(), arr.max()] if range is None else range, dtype=dtype)
    if rng.shape != (2,):
        raise ValueError(f"`range` must be either None or a sequence of scalars, got {rng}")
    flat = ptp(rng) == 0  # one value: a unit-wide range around it, as JAX's
    return linspace(where(flat, rng[0] - 0.5, rng[0]), where(flat, rng[1] + 0.5, rng[1]), n + 1, dtype=dtype)


def histogram(a, bins=10, range=None, weights=None, density=None):
    """JAX's histogram: float counts (weighted, or densities), traceable for a static bin count."""
    if weights is None:
        _check_arraylike("histogram", a, bins)
        (a,) = _promote_dtypes_inexact(asarray(a))
        weights = ones_like(a)
    else:
        _check_arraylike("histogram", a, bins, weights)
        if _np.shape(a) != _np.shape(weights):
            raise ValueError("weights should have the same shape as a.")
        a, weights = _promote_dtypes_inexact(asarray(a), asarray(weights))
    edges = histogram_bin_edges(a, bins, range, weights)
    n = get_aval(edges).shape[0]
    idx = searchsorted(edges, a, side="right")
    idx = where(a == edges[-1], n - 1, idx)  # the last edge belongs to the last bin
    counts = zeros(n, get_aval(weights).dtype).at[idx].add(weights)[1:]
    if density:
        counts = counts / diff(edges) / counts.sum()
    return counts, edges


def interp(x, xp, fp, left=None, right=None, period=None):
    x, xp, fp = _promote_dtypes_inexact(x, xp, fp)
    i = clip(searchsorted(xp, x, side="right"), 1, get_aval(xp).shape[0] - 1)
    x0, x1 = take(xp, i - 1), take(xp, i)
    y0, y1 = take(fp, i - 1), take(fp, i)
    df = y1 - y0
    dx = x1 - x0
    out = y0 + (x - x0) * df / dx
    out = where(x < xp[0], fp[0] if left is None else left, out)
    out = where(x > xp[-1], fp[-1] if right is None else right, out)
    return out


def astype(x, dtype, /, *, copy=False, device=None):
    _check_arraylike("astype", x)
    dt = _canonical_request(dtype)
    return lax._convert_element_type(x, dt, False)


def copy(a, order=None):
    return array(a, copy=True)


def iscomplexobj(x):
    return get_aval(asarray(x)).dtype.kind == "c"


def isrealobj(x):
    return not iscomplexobj(x)


def isscalar(element):
    return _np.isscalar(element) or (isinstance(element, (Array, Tracer)) and get_aval(element).ndim == 0)


def save(*a, **k):
    raise NotImplementedError("jnp.save is not available in the playground")


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    from ..nn import logsumexp as _lse
    return _lse(a, axis=axis, b=b, keepdims=keepdims, return_sign=return_sign)


# ---- indexing -----------------------------------------------------------------------------

from ._indexing import _getitem, _IndexUpdateHelper  # noqa: E402
from ._take import take, take_along_axis  # noqa: E402

from . import linalg  # noqa: E402,F401
from . import fft  # noqa: E402,F401
from ._vectorize import vectorize  # noqa: E402,F401
from ._unsupported_dtypes import UNSUPPORTED_DTYPES as _UNSUPPORTED_DTYPES  # noqa: E402
globals().update(_UNSUPPORTED_DTYPES)  # float8_e4m3fn, int4, ...: names whose use raises NotImplementedError
from ._products import matvec, vecdot, vecmat  # noqa: E402,F401
from ._sets import (intersect1d, isin, setdiff1d, setxor1d, union1d, unique_all, unique_counts,  # noqa: E402,F401
                    unique_inverse, unique_values)
# (unstack, bitwise shifts and cumulative_sum/prod are defined above, with their golden cases)
from ._rearrange import append, bitwise_count, delete, insert, rot90  # noqa: E402,F401
from ._signal import convolve, correlate  # noqa: E402,F401
from ._more_math import (angle, fabs, frexp, gcd, i0, iscomplex, isreal, isrealobj, lcm, ldexp,  # noqa: E402,F401
                         logaddexp2, modf, nanargmax, nanargmin, nancumprod, nancumsum, nanstd, nanvar)
from ._index_tricks import (array_equiv, choose, compress, diag_indices, diag_indices_from,  # noqa: E402,F401
                            diagflat, digitize, ediff1d, extract, fromfunction, geomspace, indices, ix_,
                            ravel_multi_index, trapezoid, tril_indices, tril_indices_from, trim_zeros,
                            triu_indices, triu_indices_from, unravel_index, vander)
from ._array_api import __array_api_version__, __array_namespace_info__, from_dlpack  # noqa: E402,F401
from . import _array_api  # noqa: E402,F401
from ._windows import bartlett, blackman, hamming, hanning, kaiser  # noqa: E402,F401
from ._polynomial import poly, polyadd, polyder, polyint, polymul, polysub, polyval  # noqa: E402,F401
from ._aliases import (ComplexWarning, apply_along_axis, apply_over_axes, character, dsplit,  # noqa: E402,F401
                       fill_diagonal, flexible, get_printoptions, index_exp, iterable, lexsort, object_,
                       printoptions, put_along_axis, resize, s_, set_printoptions, sort_complex)
single, double, csingle, cdouble, uint = float32, float64, complex64, complex128, uint64  # NumPy's C-style names

_array_mod._jnp = sys.modules[__name__]


from .._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
