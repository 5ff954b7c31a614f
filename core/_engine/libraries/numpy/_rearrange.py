"""Shape rearrangements built from flips, transposes and slices: rot90, unstack, append,
delete, insert, trim_zeros, plus the bit-counting and shift aliases of the array API."""
from __future__ import annotations

import operator

import numpy as _np

from ...lax import lax
from ...tracing.tracing import Tracer, get_aval


def rot90(m, k=1, axes=(0, 1)):
    from ._reductions import _canon_one
    from ._util import _check_arraylike
    from ._creation import asarray
    from ._shapes import flip, swapaxes
    _check_arraylike("rot90", m)
    m = asarray(m)
    nd = get_aval(m).ndim
    if nd < 2:
        raise ValueError("rot90 requires its first argument to have ndim at least two, but got first argument of "
                         f"shape {get_aval(m).shape}, which has ndim {nd}")
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    ax1, ax2 = (_canon_one(a, nd) for a in axes)
    if ax1 == ax2:
        raise ValueError("Axes must be different")
    k = operator.index(k) % 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, ax1), ax2)
    if k == 1:
        return swapaxes(flip(m, ax2), ax1, ax2)
    return flip(swapaxes(m, ax1, ax2), ax2)




def _append(arr, values, axis=None):
    """jnp.append, staged as JAX's (a nested jit named `append`; a list argument is no array)."""
    from ._shapes import concatenate, ravel
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis=axis)


def _make_append():
    from ._util import _staged
    return _staged(_append, static_argnames=("axis",), name="append")


append = _make_append()


def delete(arr, obj, axis=None, *, assume_unique_indices=False):
    """The complement of `obj` along axis. A static int or slice, or integer indices promised
    unique (assume_unique_indices=True), trace under jit; other indices must be concrete (the
    output size depends on them), as in JAX."""
    from ._reductions import _canon_one
    from ._util import _check_arraylike
    from ._creation import arange, asarray
    from ._ufuncs import clip
    from ._shapes import concatenate, ravel
    from ._searching import sort, where
    _check_arraylike("delete", arr)
    a = asarray(arr)
    if axis is None:
        a, axis = ravel(a), 0
    axis = _canon_one(axis, a.ndim)
    n = a.shape[axis]
    lead = (slice(None),) * axis
    if isinstance(obj, (int, _np.integer)) and not isinstance(obj, (bool, _np.bool_)):
        k = _canon_one(int(obj), n)
        return concatenate([a[lead + (slice(0, k),)], a[lead + (slice(k + 1, None),)]], axis=axis)
    if isinstance(obj, slice):
        obj, assume_unique_indices = _np.arange(n)[obj], True
    _check_arraylike("delete", a, obj)
    if assume_unique_indices and _np.issubdtype(_np.dtype(get_aval(asarray(obj)).dtype), _np.integer):
        # the kept positions: 0..n-len(obj)-1, each shifted past the deleted indices at or before it
        gone = ravel(asarray(obj))
        gone = sort(clip(where(gone < 0, gone + n, gone), 0, n))
        gone = gone - arange(gone.size, dtype=gone.dtype)
        kept = arange(n - gone.size, dtype=gone.dtype)
        kept = kept + (kept[None, :] >= gone[:, None]).sum(0, dtype=kept.dtype)
        return a[lead + (kept,)]
    if isinstance(obj, Tracer):
        concrete = obj.to_concrete_value()
        if concrete is None:
            from ...base.errors import ConcretizationTypeError
            raise ConcretizationTypeError(obj, "The error arose in the 'obj' array argument of jnp.delete().")
        obj = concrete
    idx = _np.asarray(obj)
    if _np.issubdtype(idx.dtype, _np.integer):
        keep = _np.ones(n, bool)
        keep[idx] = False
    elif idx.dtype == bool:
        if idx.shape != (n,):
            raise ValueError("np.delete(arr, obj): for boolean indices, obj must be one-dimensional "
                             "with length matching specified axis.")
        keep = ~idx
    else:
        raise ValueError(f"np.delete(arr, obj): got obj.dtype={idx.dtype}; must be integer or bool.")
    return a[lead + (_np.nonzero(keep)[0].astype(_np.int32),)]


def insert(arr, obj, values, axis=None):
    """numpy.insert with concrete positions: scatter the old and new items into a longer array."""
    from ._reductions import _canon_one
    from ._creation import asarray, zeros
    from ._shapes import broadcast_to, moveaxis, ravel
    a = asarray(arr)
    if axis is None:
        a, axis = ravel(a), 0
    axis = _canon_one(axis, get_aval(a).ndim)
    a = moveaxis(a, axis, 0)
    n = get_aval(a).shape[0]
    pos = _np.arange(n + 1)[obj] if isinstance(obj, slice) else _np.asarray(obj)
    scalar_pos = pos.ndim == 0
    pos = _np.where(pos < 0, pos + n, pos).reshape(-1)
    vals = asarray(values, dtype=get_aval(a).dtype)
    if scalar_pos:
        vals = moveaxis(vals, axis, 0) if get_aval(vals).ndim == get_aval(a).ndim else vals[None]
    else:
        vals = moveaxis(vals, axis, 0) if get_aval(vals).ndim == get_aval(a).ndim else vals
    k = get_aval(vals).shape[0] if get_aval(vals).ndim else 1
    if not scalar_pos and k == 1 and len(pos) > 1:
        k = len(pos)
    if scalar_pos:
        pos = _np.full(k, pos[0])
    order = _np.argsort(pos, kind="stable")
    new_at = pos[order] + _np.arange(k)
    old_at = _np.ones(n + k, bool)
    old_at[new_at] = False
    vals = broadcast_to(vals, (k,) + get_aval(a).shape[1:])
    out = zeros((n + k,) + get_aval(a).shape[1:], get_aval(a).dtype)
    out = out.at[_np.nonzero(old_at)[0]].set(a)
    out = out.at[new_at].set(vals[order])
    return moveaxis(out, 0, axis)


def bitwise_count(x, /):
    from ._util import _check_arraylike
    from ._ufuncs import abs as _abs
    from ._creation import asarray
    _check_arraylike("bitwise_count", x)
    x = asarray(x)
    if get_aval(x).dtype.kind not in "iub":
        raise TypeError(f"bitwise_count requires an integer input, got {get_aval(x).dtype}")
    # JAX counts the bits of |x| and always answers in uint8
    return lax.convert_element_type(lax.population_count(_abs(x)), _np.uint8)



