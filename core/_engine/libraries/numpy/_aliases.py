"""NumPy names that jax.numpy re-exports (type aliases, index expressions, print options), and
small sorting / placement routines composed from existing jnp functions."""
from __future__ import annotations

import operator

import numpy as _np

from ...tracing.tracing import get_aval

character = _np.character
flexible = _np.flexible
object_ = _np.object_
ComplexWarning = _np.exceptions.ComplexWarning
s_ = _np.s_
index_exp = _np.index_exp
iterable = _np.iterable
printoptions = _np.printoptions
get_printoptions = _np.get_printoptions
set_printoptions = _np.set_printoptions


def lexsort(keys, axis=-1):
    """Sort by the last key, ties broken by the one before, ...: stable argsorts from the first key on."""
    from ._searching import argsort
    from ._creation import asarray
    from ._take import take_along_axis
    keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if len({get_aval(k).shape for k in keys}) > 1:
        raise ValueError("all keys need to be the same shape")
    if not get_aval(keys[0]).shape:   # 0-d keys (a 1-d array's elements): JAX's answer is 0
        from ...base import dtypes as _dt
        from ...lax import lax
        return lax.full((), 0, _dt.default_int_dtype())
    order = argsort(keys[0], axis=axis, stable=True)
    for k in keys[1:]:
        order = take_along_axis(order, argsort(take_along_axis(k, order, axis=axis), axis=axis, stable=True),
                                axis=axis)
    return order


def sort_complex(a):
    from ._util import _check_arraylike
    from ._creation import asarray
    from ._searching import sort
    from ...base import dtypes as _dt
    from ...lax import lax
    _check_arraylike("sort_complex", a)
    a = sort(asarray(a), axis=-1)  # JAX's sorts along the last axis (numpy's along the first)
    dt = get_aval(a).dtype
    # the canonical complex type (complex64 for int32 without x64, with no truncation warning)
    return lax.convert_element_type(a, dt if dt.kind == "c" else _dt.canonicalize_dtype(_np.result_type(dt, _np.complex64)))


def put_along_axis(arr, indices, values, axis, inplace=True, *, mode=None):
    from ._creation import arange, asarray
    from ._shapes import broadcast_to, reshape
    if inplace:
        # JAX 0.10.2's message, its missing space ("arraysare") included
        raise ValueError("jax.numpy.put_along_axis cannot modify arrays in-place, because JAX arrays"
                         "are immutable. Pass inplace=False to instead return an updated array.")
    arr, indices = asarray(arr), asarray(indices)
    nd = get_aval(arr).ndim
    axis = axis % nd
    shape = get_aval(indices).shape
    idx = []
    for d in range(nd):
        if d == axis:
            idx.append(indices)
        else:
            iota = reshape(arange(shape[d]), tuple(shape[d] if i == d else 1 for i in range(nd)))
            idx.append(broadcast_to(iota, shape))
    return arr.at[tuple(idx)].set(values, mode=mode)


def fill_diagonal(a, val, wrap=False, *, inplace=True):
    from ._creation import asarray, arange
    from ._shapes import ravel
    if inplace:
        raise ValueError("JAX arrays are immutable, so fill_diagonal cannot modify the input in place; "
                         "pass inplace=False to get the updated array instead.")
    a = asarray(a)
    shape = get_aval(a).shape
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    n = min(shape)
    idx = arange(n)
    val = ravel(asarray(val, dtype=get_aval(a).dtype))
    vals = val[arange(n) % get_aval(val).shape[0]] if get_aval(val).shape[0] else val
    return a.at[(idx,) * len(shape)].set(vals)


def dsplit(ary, indices_or_sections):
    from ._creation import asarray
    from ._shapes import split
    a = asarray(ary)
    if get_aval(a).ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, axis=2)


def resize(a, new_shape):
    from ._creation import asarray
    from ._shapes import concatenate, ravel, reshape
    if isinstance(new_shape, int):
        new_shape = (new_shape,)
    a = ravel(asarray(a))
    total = int(_np.prod(new_shape))
    n = get_aval(a).shape[0]
    if n == 0 or total == 0:
        from ._creation import zeros
        return zeros(new_shape, get_aval(a).dtype)
    reps = -(-total // n)
    return reshape(concatenate([a] * reps)[:total], new_shape)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """vmap of func1d over every 1-d slice along axis; its output dims take axis's place."""
    from ...api.api import vmap  # INHERENT: up to the api
    from ._creation import asarray
    from ._shapes import moveaxis, reshape
    arr = asarray(arr)
    nd = get_aval(arr).ndim
    axis = operator.index(axis) % nd
    arr = moveaxis(arr, axis, -1)
    batch = get_aval(arr).shape[:-1]
    out = vmap(lambda x: func1d(x, *args, **kwargs))(reshape(arr, (-1, get_aval(arr).shape[-1])))
    out = reshape(out, batch + get_aval(out).shape[1:])
    core = get_aval(out).ndim - len(batch)
    return moveaxis(out, tuple(range(len(batch), len(batch) + core)), tuple(range(axis, axis + core)))


def apply_over_axes(func, a, axes):
    from ._creation import asarray
    from ._shapes import expand_dims
    a = asarray(a)
    for axis in axes:
        b = func(a, axis)
        a = b if get_aval(b).ndim == get_aval(a).ndim else expand_dims(b, axis)
    return a
