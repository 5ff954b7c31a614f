"""Shape rearrangements built from flips, transposes and slices: rot90, unstack, append,
delete, insert, trim_zeros, plus the bit-counting and shift aliases of the array API."""
from __future__ import annotations

import operator

import numpy as _np

from .. import lax
from ..tracing import get_aval


def rot90(m, k=1, axes=(0, 1)):
    from . import _canon_one, _check_arraylike, asarray, flip, swapaxes
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




def append(arr, values, axis=None):
    from . import asarray, concatenate, ravel
    if axis is None:
        return concatenate([ravel(asarray(arr)), ravel(asarray(values))], 0)
    return concatenate([arr, values], axis=axis)


def delete(arr, obj, axis=None, *, assume_unique_indices=False):
    """Keeps the complement of `obj` along axis (obj must be concrete: the output size depends on it)."""
    from . import _canon_one, asarray, ravel, take
    a = asarray(arr)
    if axis is None:
        a, axis = ravel(a), 0
    axis = _canon_one(axis, get_aval(a).ndim)
    n = get_aval(a).shape[axis]
    keep = _np.ones(n, bool)
    keep[_np.arange(n)[obj] if isinstance(obj, slice) else _np.asarray(obj)] = False
    return take(a, asarray(_np.nonzero(keep)[0].astype(_np.int32)), axis=axis)


def insert(arr, obj, values, axis=None):
    """numpy.insert with concrete positions: scatter the old and new items into a longer array."""
    from . import _canon_one, asarray, broadcast_to, moveaxis, ravel, zeros
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
    from . import _check_arraylike, abs as _abs, asarray
    _check_arraylike("bitwise_count", x)
    x = asarray(x)
    if get_aval(x).dtype.kind not in "iub":
        raise TypeError(f"bitwise_count requires an integer input, got {get_aval(x).dtype}")
    # JAX counts the bits of |x| and always answers in uint8
    return lax.convert_element_type(lax.population_count(_abs(x)), _np.uint8)



