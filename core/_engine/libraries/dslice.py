"""jax.ds (jax.dslice): a slice given by a start, which may be traced, and a static size, so that
x[jax.ds(i, n)] works under jit. Indexing applies each such slice as a dynamic_slice along its axis
(start clamped so the window fits, a negative start counted from the end, as JAX's)."""
from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass
class Slice:
    start: object
    size: object
    stride: int = 1

    def __post_init__(self):
        if self.stride < 0:
            raise ValueError("`stride` must be >= 0.")


def dslice(start, size=None, stride=None):
    """ds(None) is `:`, ds(j) is `:j`, ds(i, j) is `i:i+j`, ds(i, j, k) is `i:i+j:k`."""
    if start is None:
        return slice(None)
    if stride is None:
        stride = 1
    if not isinstance(stride, int):
        raise ValueError("Non-static stride in `dslice`")
    if size is None:
        start, size = 0, start
    return Slice(start, size, stride)


def _axes_taken(item, ndim):
    """How many of the array's axes an index entry consumes (Ellipsis: resolved by the caller)."""
    if item is None:
        return 0
    if isinstance(item, (bool, np.bool_)):
        return 0
    dt = getattr(item, "dtype", None)
    if dt is not None and np.dtype(dt) == np.bool_:
        return np.ndim(item)
    return 1


def apply_dynamic_slices(x, idx):
    """(x cut by every Slice in idx along its axis, idx with those entries made plain strided slices);
    (x, idx) unchanged when idx holds no Slice."""
    items = idx if isinstance(idx, tuple) else (idx,)
    if not any(isinstance(it, Slice) for it in items):
        return x, idx
    from ..lax import lax
    from .numpy._creation import asarray
    from ..tracing.tracing import get_aval
    ndim = get_aval(x).ndim
    named = sum(_axes_taken(it, ndim) for it in items if it is not Ellipsis)
    axis, out = 0, []
    for it in items:
        if it is Ellipsis:
            axis += ndim - named
            out.append(it)
            continue
        if isinstance(it, Slice):
            size = int(it.size)
            window = (size - 1) * it.stride + 1 if size else 0
            # (dynamic_slice_in_dim counts a negative start from the end and clamps the window in)
            x = lax.dynamic_slice_in_dim(x, asarray(it.start), window, axis)
            it = slice(None, None, it.stride)
        axis += _axes_taken(it, ndim)
        out.append(it)
    return x, tuple(out)
