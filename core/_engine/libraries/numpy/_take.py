"""`jnp.take` and `jnp.take_along_axis`: a gather along one axis whose out-of-bounds mode is
JAX's. Both default to "fill" (NaN for floats, the dtype's minimum for signed ints, ...), not to
the clamping of `x[i]`: a silent clamp would hand back real data for a bad index."""
from __future__ import annotations

import functools
import types
import numpy as np

from ...lax import lax
from ...tracing.tracing import get_aval
from ._indexing import _getitem


@functools.cache
def _jnp():
    # the jnp functions this module calls, from the modules that define them (importing the
    # package face, which imports this module, tied jnp's modules into one circle)
    from ._creation import asarray
    from ._reductions import _canon_one
    from ._searching import where
    from ._shapes import broadcast_shapes, broadcast_to, ravel
    from ._ufuncs import mod
    return types.SimpleNamespace(_canon_one=_canon_one, asarray=asarray, broadcast_shapes=broadcast_shapes,
                                 broadcast_to=broadcast_to, mod=mod, ravel=ravel, where=where)


def _ix():
    from ...primitives import indexing
    return indexing


def _take_indices(indices, size, mode):
    """(indices, gather mode) for jnp.take's `mode`: fill wraps negatives (gather does not),
    wrap takes the index modulo the axis, clip clamps the raw index (-1 becomes 0)."""
    jnp, ix = _jnp(), _ix()
    if mode is None or mode == "fill":
        return jnp.where(indices < 0, indices + size, indices), ix.GatherScatterMode.FILL_OR_DROP
    if mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.take is not supported.")
    if mode == "wrap":
        return jnp.mod(indices, lax._const(indices, size)), ix.GatherScatterMode.PROMISE_IN_BOUNDS
    if mode == "clip":
        return indices, ix.GatherScatterMode.CLIP
    raise ValueError(f"Invalid mode '{mode}' for np.take")


def take(a, indices, axis=None, out=None, mode=None, unique_indices=False, indices_are_sorted=False,
         fill_value=None):
    import operator
    return _take(a, indices, axis=None if axis is None else operator.index(axis), out=out, mode=mode,
                 unique_indices=unique_indices, indices_are_sorted=indices_are_sorted, fill_value=fill_value)


def _take_body(a, indices, axis=None, out=None, mode=None, unique_indices=False, indices_are_sorted=False,
               fill_value=None):
    """jnp.take, staged as JAX's `_take` (a nested jit: jaxprs show `jit[name=_take ...]`)."""
    from ._util import _check_arraylike
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.take is not supported.")
    _check_arraylike("take", a, indices)
    jnp = _jnp()
    a, indices = jnp.asarray(a), jnp.asarray(indices)
    if axis is None:
        a, axis = jnp.ravel(a), 0
    shape = get_aval(a).shape
    axis = jnp._canon_one(axis, len(shape))
    indices, gather_mode = _take_indices(indices, shape[axis], mode)
    idx_shape = get_aval(indices).shape
    if shape[axis] == 0:
        if int(np.prod(idx_shape)) != 0:
            raise IndexError("Cannot do a non-empty jnp.take() from an empty axis.")
        return a
    if int(np.prod(idx_shape)) == 0:
        out_shape = shape[:axis] + idx_shape + shape[axis + 1:]
        return lax.full(out_shape, 0, get_aval(a).dtype, weak_type=get_aval(a).weak_type)
    nd = len(idx_shape)
    ix = _ix()
    dnums = ix.GatherDimensionNumbers(
        offset_dims=tuple(range(axis)) + tuple(range(axis + nd, len(shape) + nd - 1)),
        collapsed_slice_dims=(axis,), start_index_map=(axis,))
    slice_sizes = tuple(1 if d == axis else s for d, s in enumerate(shape))
    return ix.gather(a, lax.expand_dims(indices, (nd,)), dnums, slice_sizes, mode=gather_mode,
                     unique_indices=unique_indices, indices_are_sorted=indices_are_sorted, fill_value=fill_value)


def _make_take():
    from ._util import _staged
    body = _take_body
    body.__name__ = "_take"
    return _staged(body, static_argnames=("axis", "mode", "unique_indices", "indices_are_sorted", "fill_value"))


_take = _make_take()


def take_along_axis(arr, indices, axis, mode=None, fill_value=None):
    jnp = _jnp()
    arr, indices = jnp.asarray(arr), jnp.asarray(indices)
    if not np.issubdtype(get_aval(indices).dtype, np.integer):
        raise TypeError(f"take_along_axis indices must be of integer type, got {get_aval(indices).dtype}")
    if axis is None:
        if get_aval(indices).ndim != 1:
            raise ValueError(f"take_along_axis indices must be 1D if axis=None, got shape {get_aval(indices).shape}")
        arr, axis = jnp.ravel(arr), 0
    if get_aval(arr).ndim != get_aval(indices).ndim:
        raise ValueError("indices and arr must have the same number of dimensions; "
                         f"{get_aval(indices).ndim} vs. {get_aval(arr).ndim}")
    axis = jnp._canon_one(axis, get_aval(arr).ndim)
    idx = []
    for d, n in enumerate(get_aval(arr).shape):
        if d == axis:
            idx.append(indices)  # negatives wrap in the indexing below, as JAX's do here
        else:
            shape = [1] * get_aval(arr).ndim
            shape[d] = n
            idx.append(lax.broadcast_in_dim(lax.iota(get_aval(indices).dtype, n), tuple(shape), (d,)))
    bshape = jnp.broadcast_shapes(*[get_aval(i).shape for i in idx])
    return _getitem(arr, tuple(jnp.broadcast_to(i, bshape) for i in idx), "fill" if mode is None else mode,
                    fill_value)
