"""NumPy-style indexing on jax arrays: `x[idx]` and `x.at[idx].set/add/...`.

Static basic indices (ints, slices, None, Ellipsis) lower to slice/rev/squeeze/broadcast_in_dim;
integer-array and traced indices lower to gather/scatter (primitives/indexing.py).
"""
from __future__ import annotations

import operator

import numpy as np

from .. import lax
from ..array import Array
from ..errors import NonConcreteBooleanIndexError
from ..tracing import Tracer, get_aval


def _is_static_int(i):
    return isinstance(i, (int, np.integer)) and not isinstance(i, bool)


def _normalize_index(idx, ndim):
    """Expand to a tuple with Ellipsis replaced by slices; concrete bool masks become int arrays."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    out = []
    for i in idx:
        if isinstance(i, list):
            i = np.asarray(i)
            if i.dtype == object:
                raise TypeError(f"Using a non-tuple sequence for multidimensional indexing is not allowed; "
                                f"use `arr[tuple(seq)]` instead of `arr[seq]`.")
        if isinstance(i, Tracer) and i.aval.dtype == np.bool_:
            raise NonConcreteBooleanIndexError(i)
        if isinstance(i, (Array, np.ndarray)) and np.asarray(i).dtype == np.bool_ and np.ndim(i) > 0:
            out.extend(Array(n.astype(np.int32)) for n in np.nonzero(np.asarray(i)))
            continue
        if isinstance(i, (bool, np.bool_)):
            out.append(np.asarray(i))
            continue
        out.append(i)
    n_real = sum(1 for i in out if i is not None and i is not Ellipsis)
    if sum(1 for i in out if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_real > ndim:
        raise IndexError(f"Too many indices: {ndim}-dimensional array indexed with {n_real} regular indices.")
    if Ellipsis in [i if i is Ellipsis else None for i in out]:
        k = [j for j, i in enumerate(out) if i is Ellipsis][0]
        out = out[:k] + [slice(None)] * (ndim - n_real) + out[k + 1:]
    else:
        out = out + [slice(None)] * (ndim - n_real)
    return out


def _is_basic(idx):
    return all(i is None or isinstance(i, slice) or _is_static_int(i) for i in idx) and all(
        not isinstance(i, slice) or all(v is None or _is_static_int(v) for v in (i.start, i.stop, i.step))
        for i in idx)


def _getitem(x, idx):
    aval = get_aval(x)
    norm = _normalize_index(idx, aval.ndim)
    if _is_basic(norm):
        return _basic_getitem(x, aval, norm)
    from ..primitives import indexing
    return indexing.advanced_getitem(x, norm)


def _basic_getitem(x, aval, idx):
    starts, limits, strides, squeeze_dims, rev_dims, new_axes = [], [], [], [], [], []
    dim = 0
    out_pos = 0
    for i in idx:
        if i is None:
            new_axes.append(out_pos)
            out_pos += 1
            continue
        n = aval.shape[dim]
        if _is_static_int(i):
            j = int(i)
            if not -n <= j < n:
                raise IndexError(f"index {j} is out of bounds for axis {dim} with size {n}")
            j %= n
            starts.append(j)
            limits.append(j + 1)
            strides.append(1)
            squeeze_dims.append(dim)
        else:
            s, e, st = i.indices(n)
            if st > 0:
                cnt = max(0, -(-(e - s) // st))
                starts.append(s)
                limits.append(s + (cnt - 1) * st + 1 if cnt else s)
                strides.append(st)
            else:
                cnt = max(0, -(-(s - e) // -st))
                # reverse, then slice forward
                rs = n - 1 - s
                starts.append(rs)
                limits.append(rs + (cnt - 1) * (-st) + 1 if cnt else rs)
                strides.append(-st)
                rev_dims.append(dim)
            out_pos += 1
        dim += 1
    out = x
    if rev_dims:
        out = lax.rev(out, tuple(rev_dims))
    if any(s != 0 for s in starts) or any(l != n for l, n in zip(limits, aval.shape)) or any(s != 1 for s in strides):
        out = lax.slice(out, starts, limits, None if all(s == 1 for s in strides) else strides)
    if squeeze_dims:
        out = lax.squeeze(out, squeeze_dims)
    if new_axes:
        out = lax.expand_dims(out, tuple(new_axes))
    if out is x and not isinstance(x, Tracer):
        return x
    return out


class _IndexUpdateHelper:
    """`x.at`: functional, out-of-place updates (`x.at[i].set(v)` returns a new array)."""
    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index):
        return _IndexUpdateRef(self.array, index)

    def __repr__(self):
        return f"_IndexUpdateHelper({self.array!r})"


class _IndexUpdateRef:
    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array = array
        self.index = index

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None, fill_value=None):
        return _getitem(self.array, self.index)

    def _update(self, kind, values, mode=None):
        from ..primitives import indexing
        return indexing.scatter_update(self.array, self.index, values, kind, mode)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update("set", values, mode)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update("add", values, mode)

    def subtract(self, values, **kw):
        from . import negative
        return self._update("add", negative(values))

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update("mul", values, mode)

    mul = multiply

    def divide(self, values, **kw):
        from . import reciprocal, asarray
        return self._update("mul", reciprocal(asarray(values)))

    def power(self, values, **kw):
        from . import power
        return self.set(power(self.get(), values))

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update("min", values, mode)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update("max", values, mode)

    def apply(self, func, **kw):
        return self.set(func(self.get()))
