"""Shape-building lax primitives added for breadth (tile, empty; lax.stack binds structural.py's
stack) and the plain lax helpers
built on existing ones (collapse, broadcast_shapes, broadcast_like, batch_matmul, index_take,
dtype)."""
from __future__ import annotations

import math

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from ..transforms.batching import bdim_at_front
from . import define


def _lax():
    from ..lax import lax  # INHERENT: up to lax; lax wraps these primitives (a layer above)
    return lax


def _as_array(x):
    from ..tracing.array import Array, to_numpy
    from ..tracing.tracing import Tracer
    if isinstance(x, (Array, Tracer)):
        return x
    return _lax().full((), x) if np.ndim(x) == 0 and isinstance(x, (int, float, complex, bool)) \
        else Array(to_numpy(x))


# ---- tile ---------------------------------------------------------------------------------

def _tile_abstract(x, reps):
    if len(reps) != x.ndim:
        raise TypeError(f"reps length must be equal to the ndim of x, got len(reps)={len(reps)} and "
                        f"x.ndim={x.ndim}.")
    return ShapedArray(tuple(d * r for d, r in zip(x.shape, reps)), x.dtype, x.weak_type)


def _tile_impl(x, reps):
    _tile_abstract(ShapedArray(np.shape(x), np.asarray(x).dtype), reps)
    return np.tile(np.asarray(x), reps) if reps else np.asarray(x)


tile_p = define("tile", abstract_eval=_tile_abstract, impl=_tile_impl)


def _tile_transpose(ct, x, reps):
    """Each input element appears once per repetition: sum over the repetition axes."""
    if type(ct) is ad.Zero:
        return [None]
    lax = _lax()
    shape = x.aval.shape
    split = []
    for r, d in zip(reps, shape):
        split += [r, d]
    summed = lax.reduce_sum(lax.reshape(ct, split), tuple(range(0, 2 * len(shape), 2)))
    return [summed]


ad.deflinear(tile_p, _tile_transpose)


def _tile_batch(axis_data, vals, dims, reps):
    x = bdim_at_front(vals[0], dims[0], axis_data.size)
    return tile_p.bind(x, reps=(1,) + tuple(reps)), 0


batch_rules[tile_p] = _tile_batch


def tile(operand, reps):
    return tile_p.bind(_as_array(operand), reps=tuple(int(r) for r in reps))


# ---- stack (structural.py's primitive) ---------------------------------------------------

def stack(operands, axis=0):
    arrays = [_as_array(x) for x in operands]
    if not arrays:
        raise ValueError("stack requires at least one operand")
    nd = get_aval(arrays[0]).ndim + 1
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    from .structural import stack_p
    return stack_p.bind(*arrays, axis=int(axis) % nd)


# ---- empty --------------------------------------------------------------------------------

def _empty_abstract(*, shape, dtype, out_sharding=None):
    from ..base import dtypes
    return ShapedArray(tuple(shape), np.dtype(dtypes.canonicalize_dtype(dtype)), False)


def _empty_impl(*, shape, dtype, out_sharding=None):
    from ..base import dtypes
    return np.zeros(tuple(shape), dtypes.canonicalize_dtype(dtype))  # (XLA's CPU gives zeros)


empty_p = define("empty", abstract_eval=_empty_abstract, impl=_empty_impl,
                 weak_type_rule=lambda weak_flags, **params: False)  # no inputs: strongly typed, as JAX's


def empty(shape, dtype, *, out_sharding=None):
    shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(d) for d in shape)
    return empty_p.bind(shape=shape, dtype=dtype, out_sharding=out_sharding)


# ---- helpers on existing primitives -------------------------------------------------------

def broadcast_shapes(*shapes):
    """NumPy's broadcasting of shapes (as tuples of ints)."""
    shapes = [tuple(int(d) for d in s) for s in shapes]
    if not shapes:
        raise ValueError("broadcast_shapes needs at least one shape")
    nd = max(len(s) for s in shapes)
    padded = [(1,) * (nd - len(s)) + s for s in shapes]
    out = []
    for sizes in zip(*padded):
        big = {d for d in sizes if d != 1}
        if len(big) > 1:
            raise ValueError(f"Incompatible shapes for broadcasting: shapes={[tuple(s) for s in shapes]}")
        out.append(big.pop() if big else 1)
    return tuple(out)


def broadcast_like(arr, like_arr):
    lax = _lax()
    arr = _as_array(arr)
    like = get_aval(like_arr).shape
    nd = get_aval(arr).ndim
    return lax.broadcast_in_dim(arr, like, tuple(range(len(like) - nd, len(like))))


def collapse(operand, start_dimension, stop_dimension=None):
    """Merge dimensions [start, stop) into one (row-major)."""
    shape = get_aval(operand).shape
    lo, hi, _ = slice(start_dimension, stop_dimension).indices(len(shape))
    if hi < lo:
        raise ValueError(f"Invalid dimension range passed to collapse: {shape}[{start_dimension}:{stop_dimension}]")
    return _lax().reshape(operand, shape[:lo] + (math.prod(shape[lo:hi]),) + shape[hi:])


def batch_matmul(lhs, rhs, precision=None):
    la, ra = get_aval(lhs), get_aval(rhs)
    if min(la.ndim, ra.ndim) < 2:
        raise ValueError(f"Arguments to batch_matmul must be at least 2D, got {la.ndim}, {ra.ndim}")
    if la.ndim != ra.ndim:
        raise ValueError(f"Arguments to batch_matmul must have same ndim, got {la.ndim}, {ra.ndim}")
    batch = tuple(range(la.ndim - 2))
    return _lax().dot_general(lhs, rhs, (((la.ndim - 1,), (ra.ndim - 2,)), (batch, batch)), precision=precision)


def index_take(src, idxs, axes):
    """src at the index arrays `idxs` along `axes` (indices wrap modulo the axis sizes)."""
    from .indexing import GatherDimensionNumbers, gather
    lax = _lax()
    shape = get_aval(src).shape
    indices = lax.concatenate([lax.expand_dims(_as_array(i), (1,)) for i in idxs], 1)
    ia = get_aval(indices)
    sizes = lax.broadcast_in_dim(_as_array(np.array([shape[a] for a in axes], ia.dtype)), ia.shape, (ia.ndim - 1,))
    indices = lax.rem(lax.add(lax.rem(indices, sizes), sizes), sizes)  # a modulo that is never negative
    slice_sizes = [1 if i in axes else d for i, d in enumerate(shape)]
    dn = GatherDimensionNumbers(offset_dims=tuple(range(1, len(shape) - len(axes) + 1)),
                                collapsed_slice_dims=tuple(axes), start_index_map=tuple(axes))
    return gather(src, indices, dn, tuple(slice_sizes))


def dtype(x):
    """The canonical dtype JAX would give x (Python scalars: the default types)."""
    from ..base import dtypes
    from ..tracing.array import Array
    from ..tracing.tracing import Tracer
    if isinstance(x, (Array, Tracer)):
        return get_aval(x).dtype
    if isinstance(x, (bool, int, float, complex)):
        return np.dtype(dtypes.dtype_and_weak(x)[0])
    if isinstance(x, type) or isinstance(x, (str, np.dtype)):
        return np.dtype(dtypes.canonicalize_dtype(x))
    return np.dtype(dtypes.canonicalize_dtype(np.result_type(x)))


LAX_EXPORTS = {
    "tile": tile, "tile_p": tile_p, "stack": stack, "empty": empty,
    "broadcast_shapes": broadcast_shapes, "broadcast_like": broadcast_like, "collapse": collapse,
    "batch_matmul": batch_matmul, "index_take": index_take, "dtype": dtype,
}
