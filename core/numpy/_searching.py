"""jax.numpy's sorting, searching and counting: where, select, piecewise, nonzero, argwhere,
count_nonzero, sort, argsort, searchsorted, unique."""
from __future__ import annotations

import builtins

import numpy as _np

from .. import dtypes as _dt
from .. import lax
from ..array import Array
from ..tracing import Tracer, get_aval
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
    from . import atleast_1d
    _check_arraylike("argwhere", a)
    if _np.ndim(a) == 0:  # as JAX's: one row per nonzero of atleast_1d(a), with no columns
        rows = nonzero(atleast_1d(a), size=size, fill_value=fill_value)[0]
        return lax.full((get_aval(rows).shape[0], 0), 0, get_aval(rows).dtype)
    return stack(nonzero(a, size=size, fill_value=fill_value), axis=-1)


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


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, size=None,
           fill_value=None):
    v = _np.asarray(asarray(ar))
    res = _np.unique(v, return_index=return_index, return_inverse=return_inverse, return_counts=return_counts,
                     axis=axis)
    if isinstance(res, tuple):
        return tuple(Array(r.astype(_dt.canonicalize_dtype(r.dtype))) for r in res)
    return Array(res.astype(_dt.canonicalize_dtype(res.dtype)))



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
from ._reductions import argmax, _canon_one, sum  # noqa: E402
from ._take import take  # noqa: E402
