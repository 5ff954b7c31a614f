"""jnp.unique with a static `size`: traceable (sort, mark each first occurrence, gather the marked
entries with nonzero(size=)), so it runs under jit as JAX's does. Without `size` it needs concrete
values (its output shape depends on them) and numpy computes it."""
from __future__ import annotations

import math
import operator

import numpy as _np

from ...base import dtypes as _dt
from ...tracing.tracing import Tracer

SIZE_HINT = ("To make jnp.unique() compatible with JIT and other transforms, you can specify a concrete "
             "value for the size argument, which will determine the output size.")


def _concrete_or_error(x, context):
    if isinstance(x, Tracer):
        v = x.to_concrete_value()
        if v is None:
            from ...base.errors import ConcretizationTypeError
            raise ConcretizationTypeError(x, context)
        return v
    return x


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, size=None, fill_value=None, sorted=True):
    _check_arraylike("unique", ar)
    arr = asarray(ar)
    if size is None:
        arr = asarray(_concrete_or_error(arr, "The error arose for the first argument of jnp.unique(). "
                                         + SIZE_HINT))
        return _unique_numpy(arr, return_index, return_inverse, return_counts, axis, equal_nan)
    size = operator.index(_concrete_or_error(size, "The error arose for the size argument of jnp.unique(). "
                                             + SIZE_HINT))
    shape, flattened = arr.shape, axis is None
    if flattened:
        arr, axis = ravel(arr), 0
    out = _unique_sized(arr, _canon_one(axis, arr.ndim), return_index, return_inverse, return_counts,
                        equal_nan, size, fill_value)
    if return_inverse and flattened:  # the inverse indexes the flattened input: shaped like the input
        k = 2 if return_index else 1
        out = (*out[:k], out[k].reshape(shape), *out[k + 1:])
    return out[0] if len(out) == 1 else out


def _unique_numpy(arr, return_index, return_inverse, return_counts, axis, equal_nan):
    v = _np.asarray(arr)
    res = _np.unique(v, return_index=return_index, return_inverse=return_inverse, return_counts=return_counts,
                     axis=axis, equal_nan=equal_nan)
    if isinstance(res, tuple):
        return tuple(Array(r.astype(_dt.canonicalize_dtype(r.dtype))) for r in res)
    return Array(res.astype(_dt.canonicalize_dtype(res.dtype)))


def _unique_sized(arr, axis, return_index, return_inverse, return_counts, equal_nan, size, fill_value):
    """(values, [index], [inverse], [counts]) along axis, each `size` long."""
    n = arr.shape[axis]
    if n == 0 and size and fill_value is None:
        raise ValueError("jnp.unique: for zero-sized input with nonzero size argument, fill_value must be specified")
    rows = moveaxis(arr, axis, 0)
    width = math.prod(rows.shape[1:])
    int_t = _dt.default_int_dtype()
    if width == 0:
        perm = zeros(1, int_t)
    else:
        keys = rows.reshape(n, width)
        perm = lexsort(tuple(keys[:, j] for j in range(width - 1, -1, -1)))
    rows = rows[perm]
    if rows.size:
        differs = rows[1:] != rows[:-1]
        if equal_nan and _dt.kind(rows.dtype) in "fc":
            differs = differs & ~(isnan(rows[1:]) & isnan(rows[:-1]))
        first = concatenate([ones(1, bool), any(differs, axis=tuple(range(1, rows.ndim)))])
    else:
        first = zeros(n, bool)
    ind = nonzero(first, size=size)[0]
    values = rows[ind] if rows.size else rows
    if fill_value is not None:
        fv = asarray(fill_value).astype(values.dtype)
        if values.shape[0]:
            valid = (arange(size) < first.sum()).reshape((size,) + (1,) * (values.ndim - 1))
            values = where(valid, values, fv)
        else:
            values = full((size,) + values.shape[1:], fv, values.dtype)
    out = (moveaxis(values, 0, axis),)
    if return_index:
        out += (perm[ind] if rows.size else perm,)
    if return_inverse:
        if rows.size:
            out += (zeros(first.shape, int_t).at[perm].set(cumsum(first, dtype=int_t) - 1),)
        else:
            out += (zeros(n, int_t),)
    if return_counts:
        if rows.size:
            starts = nonzero(first, size=size + 1)[0]
            starts = starts.at[1:].set(where(starts[1:] != 0, starts[1:], first.size))
            out += (diff(starts),)
        else:
            out += (full((1,), n, int_t) if n else zeros(0, int_t),)
    return out


# jax.numpy's modules call one another: imported after the definitions (used at call time only)
from ...tracing.array import Array  # noqa: E402
from ._aliases import lexsort  # noqa: E402
from ._creation import arange, asarray, full, ones, zeros  # noqa: E402
from ._reductions import _canon_one, any, cumsum, diff  # noqa: E402
from ._searching import nonzero, where  # noqa: E402
from ._shapes import concatenate, moveaxis, ravel  # noqa: E402
from ._ufuncs import isnan  # noqa: E402
from ._util import _check_arraylike  # noqa: E402
