"""jax.numpy's sorting, searching and counting: where, select, piecewise, nonzero, argwhere,
count_nonzero, sort, argsort, searchsorted (unique: _unique.py)."""
from __future__ import annotations

import builtins
import operator

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.array import Array
from ...tracing.tracing import Tracer, get_aval
from ._util import _broadcast_shapes, _check_arraylike, _promote_dtypes, _staged
from ._dtypes import _canonical_request


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
    # JAX's rule: condlist's first axis lists the conditions, an array's too (numpy wraps an
    # array of x's rank into one condition; JAX does not)
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
    """Indices of a's nonzero entries; a static `size` truncates them or pads them (with zeros,
    or fill_value: a scalar or one per axis), which lets it trace under jit as JAX's does."""
    _check_arraylike("nonzero", a)
    arr = asarray(a)
    if arr.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar).nonzero() instead.")
    if type(arr) is Array:  # eager: numpy finds them (the traced path below gives the same)
        return _nonzero_numpy(arr, size, fill_value)
    mask = arr if arr.dtype == _np.bool_ else lax.ne(arr, lax._zero(arr))
    if size is None:
        count = sum(mask, dtype=_dt.default_int_dtype())
        if isinstance(count, Tracer) and count.to_concrete_value() is None:
            from ...base.errors import ConcretizationTypeError
            raise ConcretizationTypeError(count, "The size argument of jnp.nonzero must be statically specified "
                                                 "to use jnp.nonzero within JAX transformations.")
        size = int(_np.asarray(count if not isinstance(count, Tracer) else count.to_concrete_value()))
    size = operator.index(size)
    if arr.size == 0 or size == 0:
        return tuple(zeros(size, _dt.default_int_dtype()) for _ in arr.shape)
    # the k-th entry: how many positions come before the (k+1)-th True, counted by scattering each
    # position onto its running count of Trues (positions past the size-th True drop out; missing
    # ones give the array's size, which wraps to index 0 on every axis)
    running = cumsum(ravel(mask), dtype=_dt.default_int_dtype())
    flat = cumsum(zeros(size, _dt.default_int_dtype()).at[running].add(1))
    strides = _np.cumprod(arr.shape[::-1])[::-1] // arr.shape
    out = tuple((flat // int(st)) % n for st, n in zip(strides, arr.shape))
    if fill_value is not None:
        fills = fill_value if isinstance(fill_value, tuple) else (fill_value,) * arr.ndim
        if builtins.any(_np.shape(f) != () for f in fills):
            raise ValueError(f"fill_value must be a scalar or a tuple of length {arr.ndim}; got {fill_value}")
        past = lax.iota(_dt.default_int_dtype(), size) >= sum(mask, dtype=_dt.default_int_dtype())
        out = tuple(where(past, f, o) for f, o in zip(fills, out))
    return out


def _nonzero_numpy(arr, size, fill_value):
    found = _np.nonzero(_np.asarray(arr))
    int_t = _dt.default_int_dtype()
    if size is None:
        return tuple(Array(i.astype(int_t)) for i in found)
    size = operator.index(size)
    fills = fill_value if isinstance(fill_value, tuple) else (0 if fill_value is None else fill_value,) * arr.ndim
    if builtins.any(_np.shape(f) != () for f in fills):
        raise ValueError(f"fill_value must be a scalar or a tuple of length {arr.ndim}; got {fill_value}")
    pad = builtins.max(size - found[0].size, 0)
    return tuple(Array(_np.concatenate([i[:size], _np.full(pad, f)]).astype(int_t)) for i, f in zip(found, fills))


def argwhere(a, *, size=None, fill_value=None):
    _check_arraylike("argwhere", a)
    a = asarray(a)
    found = stack(nonzero(a.reshape(1) if a.ndim == 0 else a, size=size, fill_value=fill_value), axis=-1)
    if a.ndim == 0:  # a scalar: one (or no) row of no indices
        return found[:0].reshape(found.shape[0], 0)
    return found


def flatnonzero(a, *, size=None, fill_value=None):
    return nonzero(ravel(a), size=size, fill_value=fill_value)[0]


@_staged(static_argnames=("axis", "keepdims"))
def count_nonzero(a, axis=None, keepdims=False):
    a = asarray(a)
    return sum(lax.ne(a, lax._zero(a)), axis=axis, keepdims=keepdims, dtype=_dt.default_int_dtype())


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
    if get_aval(a).dtype.kind in "fc":  # NaN sorts last (JAX's total order): it is after every number
        v_nan = lax.ne(vv, vv)
        before = before | (v_nan & lax.eq(a, a)) if side == "left" else before | v_nan
    return sum(before, axis=-1, dtype=_dt.int32)


def _partition_keys(name, a, kth, axis):
    """(a with `axis` last, kth made non-negative, keys whose top_k are the smallest of a)."""
    _check_arraylike(name, a)
    a = asarray(a)
    if a.dtype.kind == "c":
        raise NotImplementedError(f"jnp.{name} for complex dtype is not implemented.")
    axis = _canon_one(axis, a.ndim)
    kth = _canon_one(kth, a.shape[axis])
    a = swapaxes(a, axis, -1)
    # unsigned: ~a orders as -a would without wrapping 0 onto itself
    keys = lax.bitwise_not(a) if a.dtype.kind == "u" else lax.neg(a)
    return a, axis, kth, keys


@_staged(static_argnames=("kth", "axis"))
def partition(a, kth, axis=-1):
    """The kth smallest first at kth, the smaller ones before it (ascending) and the larger after
    it (descending), as JAX's top_k based partition orders them."""
    a, axis, kth, keys = _partition_keys("partition", a, kth, axis)
    low = lax.top_k(keys, kth + 1)[0]
    low = lax.bitwise_not(low) if a.dtype.kind == "u" else lax.neg(low)
    high = lax.top_k(a, a.shape[-1] - kth - 1)[0]
    return swapaxes(lax.concatenate([low, high], a.ndim - 1), -1, axis)


@_staged(static_argnames=("kth", "axis"))
def argpartition(a, kth, axis=-1):
    a, axis, kth, keys = _partition_keys("partition", a, kth, axis)
    low = lax.top_k(keys, kth + 1)[1]
    # the rest in index order: top_k of a mask that is 0 at the indices already taken
    taken = (low[..., :, None] == lax.iota(low.dtype, a.shape[-1])).any(-2)
    high = lax.top_k(where(taken, 0.0, 1.0).astype(_dt.default_float_dtype()), a.shape[-1] - kth - 1)[1]
    return swapaxes(lax.concatenate([low, high], a.ndim - 1), -1, axis)

# jax.numpy's modules call one another: imported after this module's definitions, so that the
# import order of the package does not matter (these names are only used at call time)
from ._ufuncs import less, less_equal  # noqa: E402
from ._creation import asarray, astype, full_like, zeros  # noqa: E402
from ._shapes import broadcast_arrays, broadcast_to, ravel, stack, swapaxes  # noqa: E402
from ._reductions import argmax, _canon_one, cumsum, sum  # noqa: E402
from ._take import take  # noqa: E402
