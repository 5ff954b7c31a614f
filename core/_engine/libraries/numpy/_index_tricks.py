"""Index builders and structured constructors: tri/diag indices, indices, ix_, diagflat,
geomspace, vander, fromfunction, unravel_index / ravel_multi_index, ediff1d, trapezoid,
digitize, extract, compress, choose, array_equiv, trim_zeros."""
from __future__ import annotations

import operator

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.array import Array
from ...tracing.tracing import Tracer, get_aval


def _int_array(v):
    return Array(_np.asarray(v).astype(_dt.default_int_dtype()))


def tril_indices(n, k=0, m=None):
    return tuple(_int_array(v) for v in _np.tril_indices(n, k, m))


def triu_indices(n, k=0, m=None):
    return tuple(_int_array(v) for v in _np.triu_indices(n, k, m))


def tril_indices_from(arr, k=0):
    shape = get_aval(arr).shape if hasattr(arr, "shape") else _np.shape(arr)
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(shape[-2], k=k, m=shape[-1])


def triu_indices_from(arr, k=0):
    shape = get_aval(arr).shape if hasattr(arr, "shape") else _np.shape(arr)
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(shape[-2], k=k, m=shape[-1])


def diag_indices(n, ndim=2):
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    return (_int_array(_np.arange(n)),) * ndim


def diag_indices_from(arr):
    shape = _np.shape(arr)
    if len(shape) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], len(shape))


def indices(dimensions, dtype=None, sparse=False):
    dt = _dt.canonicalize_dtype(dtype if dtype is not None else _dt.default_int_dtype())
    out = _np.indices(tuple(dimensions), dtype=_np.int64, sparse=sparse)
    if sparse:
        return tuple(Array(v.astype(dt)) for v in out)
    return Array(out.astype(dt))


def ix_(*args):
    from ._creation import asarray
    from ._shapes import reshape
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = asarray(a)
        if get_aval(a).ndim != 1:
            raise ValueError(f"Arguments to jax.numpy.ix_ must be 1-dimensional, got shape {get_aval(a).shape}")
        out.append(reshape(a, (1,) * i + (get_aval(a).shape[0],) + (1,) * (n - i - 1)))
    return tuple(out)


def diagflat(v, k=0):
    from ._creation import asarray, diag
    from ._shapes import ravel
    return diag(ravel(asarray(v)), k)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    from ._util import _promote_args_inexact
    from ._creation import logspace
    from ._ufuncs import log10, sign
    start, stop = _promote_args_inexact("geomspace", start, stop)
    s = sign(start)
    out = s * logspace(log10(start * s), log10(stop * s), num, endpoint=endpoint, base=10.0, dtype=dtype, axis=axis)
    return out if dtype is None else out.astype(dtype)


def vander(x, N=None, increasing=False):
    from ._creation import asarray
    from ._shapes import broadcast_to, expand_dims
    from ._ufuncs import power
    x = asarray(x)
    if get_aval(x).ndim != 1:
        raise ValueError("x must be a one-dimensional array")
    n = get_aval(x).shape[0] if N is None else operator.index(N)
    if n < 0:
        raise ValueError("N must be nonnegative")
    powers = lax.iota(get_aval(x).dtype, n)  # in x's dtype, as JAX's (uint8 powers of uint8)
    if not increasing:
        powers = powers[::-1]
    shape = (get_aval(x).shape[0], n)
    return power(broadcast_to(expand_dims(x, 1), shape), broadcast_to(powers, shape))


def fromfunction(function, shape, *, dtype=float, **kwargs):
    # as JAX's: function sees scalar coordinates, mapped with one vmap per axis (not index grids)
    from ._creation import arange
    from ...api.api import vmap  # INHERENT: up to the api
    shape = tuple(operator.index(s) for s in shape)
    for i in range(len(shape)):
        in_axes = [0 if i == j else None for j in range(len(shape))]
        function = vmap(function, in_axes=tuple(in_axes[::-1]))
    return function(*(arange(s, dtype=dtype) for s in shape), **kwargs)


def unravel_index(indices, shape):
    from ._creation import asarray
    from ._ufuncs import clip, floor_divide, remainder
    idx = asarray(indices)
    sizes = tuple(operator.index(s) for s in shape)
    total = int(_np.prod(sizes))
    idx = clip(lax.select(idx < 0, idx + total, idx), 0, max(total - 1, 0))
    out = []
    for s in reversed(sizes):
        out.append(remainder(idx, s))
        idx = floor_divide(idx, s)
    return tuple(reversed(out))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    from ._creation import asarray
    from ._ufuncs import clip
    if mode == "raise":
        vals = [_np.asarray(asarray(i)) for i in multi_index]
        return _int_array(_np.ravel_multi_index(vals, dims, mode="raise", order=order))
    total = 0
    stride = 1
    pairs = list(zip(multi_index, dims))
    for i, d in (reversed(pairs) if order == "C" else pairs):
        i = asarray(i)
        i = clip(i, 0, d - 1) if mode == "clip" else i % d
        total = total + i * stride
        stride *= d
    return total


def ediff1d(ary, to_end=None, to_begin=None):
    from ._creation import asarray
    from ._shapes import concatenate, ravel
    a = ravel(asarray(ary))
    parts = [a[1:] - a[:-1]]
    if to_begin is not None:
        parts.insert(0, ravel(asarray(to_begin)).astype(get_aval(a).dtype))
    if to_end is not None:
        parts.append(ravel(asarray(to_end)).astype(get_aval(a).dtype))
    return concatenate(parts) if len(parts) > 1 else parts[0]


def trapezoid(y, x=None, dx=1.0, axis=-1):
    from ._util import _promote_args_inexact
    from ._reductions import diff, sum as _sum
    from ._shapes import moveaxis
    if x is None:
        (y,) = _promote_args_inexact("trapezoid", y)
        y = moveaxis(y, axis, -1)
        return dx * _sum(y[..., 1:] + y[..., :-1], axis=-1) * 0.5
    y, x = _promote_args_inexact("trapezoid", y, x)
    y = moveaxis(y, axis, -1)
    d = diff(x) if get_aval(x).ndim == 1 else moveaxis(diff(x, axis=axis), axis, -1)
    return 0.5 * _sum(d * (y[..., 1:] + y[..., :-1]), axis=-1)


def digitize(x, bins, right=False, *, method=None):
    from ._creation import asarray
    from ._searching import searchsorted
    bins = asarray(bins)
    if get_aval(bins).ndim != 1:
        raise ValueError(f"digitize: bins must be a 1-dimensional array; got bins={bins}")
    if get_aval(bins).shape[0] == 0:
        return lax.full_like(asarray(x), 0, _np.int32)
    from ._searching import where
    side = "left" if right else "right"
    kw = {} if method is None else {"method": method}
    # as JAX's: the ends decide (traceably) whether bins decrease; a decreasing search runs on the
    # reversed bins with the same side
    n = get_aval(bins).shape[0]
    return where(bins[-1] >= bins[0], searchsorted(bins, x, side=side, **kw),
                 n - searchsorted(bins[::-1], x, side=side, **kw))


def extract(condition, arr, *, size=None, fill_value=0):
    from ._util import _check_arraylike
    from ._shapes import ravel
    _check_arraylike("extreact", condition, arr, fill_value)  # sic: JAX 0.10.2's message spells it so
    return compress(ravel(condition), ravel(arr), size=size, fill_value=fill_value)


def compress(condition, a, axis=None, *, size=None, fill_value=0, out=None):
    """The slices of a along axis where condition holds. With a static `size` it traces (under
    jit and vmap): the selected slices first, in order, then fill_value, `size` of them, as JAX's."""
    from ._util import _check_arraylike
    from ._reductions import any as _any
    from ._searching import argsort, where
    from ._creation import array, asarray
    from ._shapes import expand_dims, moveaxis, ravel
    _check_arraylike("compress", condition, a, fill_value)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.compress is not supported.")
    cond = asarray(condition).astype(bool)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1D array")
    arr = ravel(asarray(a)) if axis is None else moveaxis(asarray(a), axis, 0)
    axis = 0 if axis is None else axis
    cond, extra = cond[:arr.shape[0]], cond[arr.shape[0]:]
    arr = arr[:cond.shape[0]]
    if size is None:
        if _any(extra):
            raise ValueError("condition contains entries that are out of bounds")
        picked = arr[cond]
    elif not 0 <= size <= arr.shape[0]:
        raise ValueError("size must be positive and not greater than the size of the array axis;"
                         f" got size={size} for a.shape[axis]={arr.shape[0]}")
    else:
        arr = where(expand_dims(cond, tuple(range(1, arr.ndim))), arr, array(fill_value, dtype=arr.dtype))
        picked = arr[argsort(cond, stable=True, descending=True)][:size]
    return moveaxis(picked, 0, axis)


def choose(a, choices, out=None, mode="raise"):
    from ._creation import array, asarray
    from ._shapes import broadcast_arrays
    from ._take import take_along_axis
    from ._ufuncs import clip
    a = asarray(a)
    choices = [asarray(c) for c in choices]
    n = len(choices)
    if mode == "raise":
        av = _np.asarray(a)
        if av.size and (av.min() < 0 or av.max() >= n):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = a % n
    elif mode == "clip":
        a = clip(a, 0, n - 1)
    else:
        raise ValueError(f"mode={mode!r} not understood. Must be 'raise', 'wrap', or 'clip'")
    arrs = broadcast_arrays(a, *choices)
    stacked = array(list(arrs[1:]))  # one array of the choices: strongly typed, as JAX's
    return take_along_axis(stacked, arrs[0][None], axis=0)[0]


def array_equiv(a1, a2):
    from ._reductions import all as _all
    from ._creation import asarray
    a1, a2 = asarray(a1), asarray(a2)
    return _all(a1 == a2)   # like JAX, shapes that do not broadcast raise (TypeError), not False


def trim_zeros(filt, trim="fb", axis=None):
    """JAX's: along each axis in `axis` (all by default), drop the leading ('f') and/or trailing
    ('b') slices that are all zero; the bounds come from the concrete value."""
    from ._util import _check_arraylike
    from ._creation import asarray
    from ._reductions import _canon_one
    _check_arraylike("trim_zeros", filt)
    a = asarray(filt)
    v = a.to_concrete_value() if isinstance(a, Tracer) else _np.asarray(a)
    if v is None:
        from ...base.errors import ConcretizationTypeError
        raise ConcretizationTypeError(a, "Error arose in the `filt` argument of trim_zeros()\n")
    axes = [_canon_one(ax, v.ndim) for ax in (range(v.ndim) if axis is None else _np.atleast_1d(axis).tolist())]
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis: {tuple(axes)}")
    axes = set(axes) if v.ndim else set()
    front, back = "f" in trim.lower(), "b" in trim.lower()
    if not axes or not (front or back):
        return a
    index = []
    for ax in range(v.ndim):
        if ax not in axes:
            index.append(slice(None))
            continue
        nz = _np.flatnonzero(_np.any(v, axis=tuple(i for i in range(v.ndim) if i != ax)))
        if nz.size == 0:
            index.append(slice(0, 0))
            continue
        index.append(slice(int(nz[0]) if front else None, int(nz[-1]) + 1 if back else None))
    return a[tuple(index)]


def mask_indices(n, mask_func, k=0, *, size=None):
    """The (rows, cols) where mask_func(ones((n, n)), k) is nonzero, e.g. jnp.triu's."""
    from ._searching import nonzero
    from ._creation import ones
    return tuple(nonzero(mask_func(ones((n, n)), k), size=size))


def _immutable(name):
    return ValueError(f"jax.numpy.{name} cannot modify arrays in-place, because JAX arrays are immutable. "
                      "Pass inplace=False to instead return an updated array.")


def _tile_to(v, n):
    """v (1-d) repeated, or cut, to length n: numpy's put and place reuse values cyclically."""
    from ._shapes import tile
    return tile(v, -(-n // v.shape[0]))[:n] if v.shape[0] != n else v


def place(arr, mask, vals, *, inplace=True):
    from ._util import _check_arraylike
    from ._creation import asarray
    from ._shapes import ravel
    from ._searching import where
    _check_arraylike("place", arr, mask, vals)
    data, mask, vals = asarray(arr), asarray(mask), ravel(asarray(vals))
    if inplace:
        raise _immutable("place")
    if data.size != mask.size:
        raise ValueError("place: arr and mask must be the same size")
    if not vals.size:
        raise ValueError("Cannot place values from an empty array")
    if not data.size:
        return data
    # the k-th True position gets vals[k % len(vals)]; the padding index mask.size is dropped
    where_true = where(ravel(mask), size=mask.size, fill_value=mask.size)[0]
    flat = ravel(data).at[where_true].set(_tile_to(vals, where_true.shape[0]), mode="drop")
    return flat.reshape(data.shape)


def put(a, ind, v, mode=None, *, inplace=True):
    from ._util import _check_arraylike
    from ._creation import asarray
    from ._ufuncs import clip
    from ._shapes import ravel
    from ._index_tricks import unravel_index
    if inplace:
        raise _immutable("put")
    _check_arraylike("put", a, ind, v)
    a, ind, v = asarray(a), ravel(asarray(ind)), ravel(asarray(v))
    if not a.size or not ind.size or not v.size:
        return a
    v = _tile_to(v, ind.shape[0])
    if mode is None:
        scatter_mode = "drop"
    elif mode == "clip":
        ind, scatter_mode = clip(ind, 0, a.size - 1), "promise_in_bounds"
    elif mode == "wrap":
        ind, scatter_mode = ind % a.size, "promise_in_bounds"
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.put is not supported.")
    else:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got mode={mode!r}")
    return a.at[unravel_index(ind, a.shape)].set(v, mode=scatter_mode)
