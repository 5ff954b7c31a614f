"""jax.numpy's reductions: sum, prod, max, min, all, any, ptp, argmax/argmin, cumulative sums
and products, diff (logsumexp: _logsumexp.py)."""
from __future__ import annotations

import builtins
import operator

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.array import Array
from ...tracing.tracing import Tracer, eager_fast_path_ok, get_aval
from ...primitives.reductions import eager_arg_reduce   # [speed]
from ._util import _check_arraylike, _replace, _staged
from ._dtypes import _canonical_request, _dtype_arg


# ---- reductions ---------------------------------------------------------------------------

def _canon_axis(axis, ndim, any_iterable=True):
    """The axes `axis` names, each in [0, ndim). any_iterable: as JAX's reductions (sum, mean, var, ...,
    its `_ensure_optional_axes`), an index or any iterable of indices (a range, an integer numpy
    array); else (logsumexp) an index, a tuple, a list or a numpy array only."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)) or (not any_iterable and isinstance(axis, _np.ndarray)):
        raw = tuple(axis)
    else:
        try:
            raw = (operator.index(axis),)
        except TypeError:
            if not any_iterable:
                raise
            raw = tuple(operator.index(a) for a in axis)  # (not iterable: JAX's "... is not iterable")
    axes = tuple(_canon_one(a, ndim) for a in raw)
    if len(set(axes)) != len(axes):
        raise ValueError(f"duplicate value in 'axis': {raw if any_iterable else axis}")
    return axes


def _static_axis(axis, name):
    value = axis.to_concrete_value()
    if value is None:
        from ...base.errors import ConcretizationTypeError
        raise ConcretizationTypeError(axis, f"axis argument to jnp.{name}().")
    return operator.index(value)


def _canon_one(a, ndim):
    a = operator.index(a)
    if not -ndim <= a < builtins.max(ndim, 1) or (ndim == 0 and a not in (0, -1)):
        raise ValueError(f"axis {a} is out of bounds for array of dimension {ndim}")
    return a % ndim if ndim else 0


def _reduction(a, name, lax_fn, init, axis, dtype, keepdims, initial=None, where_=None, upcast_int=False,
               bool_to_int=False, promote_integers=True):
    if (type(a) is Array and dtype is None and initial is None and where_ is None
            and a._value.dtype.kind in "fc" and a._value.dtype.itemsize > 2
            and a._value.dtype.isnative):  # [dtypes] (16-bit: upcast below; the emulated bf16 is not native)
        # eager fast path: a float array keeps its dtype; only a weak one becomes strong
        axes = _canon_axis(axis, a._value.ndim)
        out = lax_fn(Array(a._value, False) if a.weak_type else a, axes)
        return lax.expand_dims(out, axes) if keepdims else out
    _check_arraylike(name, a)
    _dt.check_not_jax_array_protocol(a)   # JAX 0.10: a reduction does not convert a user's __jax_array__
    if isinstance(axis, Tracer):  # a traced axis: JAX's error (the axis must be static)
        axis = _static_axis(axis, name)
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


def ptp(a, axis=None, out=None, keepdims=False):
    _check_arraylike("ptp", a)
    return _ptp(a, tuple(axis) if isinstance(axis, list) else axis, out, keepdims)


def _ptp_body(a, axis=None, out=None, keepdims=False):
    return subtract(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


def _make_ptp():
    _ptp_body.__name__ = "_ptp"   # (JAX's jit is `_ptp`)
    return _staged(_ptp_body, static_argnames=("axis", "keepdims"))


_ptp = _make_ptp()


def _arg_reduce(a, axis, keepdims, lax_fn, name):
    if type(a) is Array and a._value.size and a._value.dtype.isnative and eager_fast_path_ok():   # [speed] eager fast path
        np_fn = _np.argmax if name == "argmax" else _np.argmin
        axis = None if axis is None else _canon_one(axis, a._value.ndim)
        return Array(eager_arg_reduce(np_fn, a._value, axis, keepdims, _dt.default_int_dtype()), False)
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
            result = compute = _promote_integer_dtype(a.dtype) if promote_integers or a.dtype.kind == "b" else a.dtype
            # [dtypes] no float32 upcast here: JAX's cumsum/cumprod of f16/bf16 accumulate in their own dtype
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
    from ...api.api import jit  # INHERENT: up to the api
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


# jax.numpy's modules call one another: imported after this module's definitions, so that the
# import order of the package does not matter (these names are only used at call time)
from ._ufuncs import not_equal, subtract  # noqa: E402
from ._creation import asarray, _concrete  # noqa: E402
from ._shapes import broadcast_to, concatenate, ravel  # noqa: E402
from ._searching import where  # noqa: E402
