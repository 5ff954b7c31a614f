"""NumPy-style indexing on jax arrays: `x[idx]` and `x.at[idx].set/add/...`.

Like JAX, a read tries three lowerings in turn and uses the first that applies:
  1. static slice: ints, slices, None, Ellipsis          -> slice / rev / squeeze / broadcast_in_dim
  2. dynamic slice: also traced scalar ints (unit steps)  -> dynamic_slice (start indices clamp)
  3. gather: integer arrays and everything else           -> gather (primitives/indexing.py)
Writes (`.at[...]`) always lower to a scatter. Boolean masks must be concrete.
"""
from __future__ import annotations

import enum
import functools
import operator
import types
from typing import NamedTuple, Sequence

import numpy as np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.array import Array
from ...base.errors import NonConcreteBooleanIndexError
from ...tracing.tracing import Tracer, get_aval

_INDEX_DTYPE = np.dtype(np.int32)


@functools.cache
def _jnp():
    # the jnp functions this module calls, from the modules that define them (importing the
    # package face, which imports this module, tied jnp's modules into one circle)
    from ._creation import array, asarray, ones_like
    from ._shapes import broadcast_to
    from ._ufuncs import add, divide, less, multiply, negative, power  # (what jnp.add & co.'s ufunc objects call)
    from ._util import _promote_dtypes
    return types.SimpleNamespace(_promote_dtypes=_promote_dtypes, add=add, array=array, asarray=asarray,
                                 broadcast_to=broadcast_to, divide=divide, less=less, multiply=multiply,
                                 negative=negative, ones_like=ones_like, power=power)


def _ix():
    from ...primitives import indexing
    return indexing


class _T(enum.Enum):
    NONE = "none"
    SLICE = "slice"
    ELLIPSIS = "ellipsis"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    ARRAY = "array"


class _Parsed(NamedTuple):
    index: object
    typ: _T
    axes: tuple          # operand axes this index consumes


def _is_int(i):
    return isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))


def _dtype_of(i):
    if isinstance(i, Tracer):
        return i.aval.dtype
    return np.asarray(i).dtype if not isinstance(i, Array) else i.dtype


def _is_bool_index(i):
    if isinstance(i, (bool, np.bool_)):
        return True
    if isinstance(i, (Array, Tracer, np.ndarray)):
        return _dtype_of(i) == np.bool_
    return isinstance(i, list) and bool(i) and all(isinstance(e, (bool, np.bool_)) for e in i)


def _classify(i):
    if i is None:
        return _T.NONE
    if i is Ellipsis:
        return _T.ELLIPSIS
    if isinstance(i, slice):
        return _T.SLICE
    if _is_int(i):
        return _T.INTEGER
    if _is_bool_index(i):
        return _T.BOOLEAN
    if isinstance(i, (Array, Tracer, np.ndarray)):
        dt = _dtype_of(i)
        if dt.kind in "iu":
            return _T.ARRAY
        raise TypeError(f"Indexer must have integer or boolean type, got indexer with type {dt}")
    if isinstance(i, str):
        raise TypeError(f"JAX does not support string indexing; got idx={i!r}")
    if isinstance(i, Sequence):
        if not i:
            return _T.ARRAY
        dt = np.asarray(i).dtype
        if dt.kind in "iu":
            return _T.ARRAY
        if dt == np.bool_:
            return _T.BOOLEAN
        raise TypeError(f"Indexer must have integer or boolean type, got indexer with type "
                        f"{_dt.canonicalize_dtype(dt) if dt.kind in 'fc' else dt}")
    if isinstance(i, (float, complex, np.generic)):
        raise TypeError(f"Indexer must have integer or boolean type, got indexer with type {np.dtype(type(i))}")
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), newaxis (`None`) and integer or "
                     f"boolean arrays are valid indices. Got {i}")


def _as_tuple(idx):
    """A non-tuple index becomes a 1-tuple; non-tuple sequences of indices are refused (as in JAX)."""
    if isinstance(idx, tuple):
        return idx
    if isinstance(idx, Sequence) and not isinstance(idx, str):
        def unpackable(e):
            return (isinstance(e, (np.ndarray, Array, Tracer)) and np.ndim(e) != 0
                    or isinstance(e, (Sequence, slice)) or e is Ellipsis or e is None)
        how = "arr[tuple(seq)]" if any(unpackable(e) for e in idx) else "arr[array(seq)]"
        raise TypeError("Using a non-tuple sequence for multidimensional indexing is not allowed; use "
                        f"`{how}` instead of `arr[seq]`. See https://github.com/jax-ml/jax/issues/4564 "
                        "for more information.")
    return (idx,)


def _static_slice_entry(v):
    """A concrete 0-d integer array as a slice bound is its int (x[0:jnp.array(2)] works in JAX)."""
    if isinstance(v, (Array, np.ndarray)) and np.ndim(v) == 0 and _dtype_of(v).kind in "iu":
        return operator.index(v)
    return v


def _parse(idx, shape):
    idx = tuple(slice(*(_static_slice_entry(v) for v in (i.start, i.stop, i.step))) if isinstance(i, slice) else i
                for i in _as_tuple(idx))
    types = [_classify(i) for i in idx]
    consumed = [np.ndim(i) if t is _T.BOOLEAN else 0 if t in (_T.NONE, _T.ELLIPSIS) else 1
                for i, t in zip(idx, types)]
    ellipses = [k for k, t in enumerate(types) if t is _T.ELLIPSIS]
    if len(ellipses) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    total = sum(consumed)
    if total > len(shape):
        raise IndexError(f"Too many indices: array is {len(shape)}-dimensional, but {total} were indexed")
    if ellipses:
        consumed[ellipses[0]] = len(shape) - total
    out, dim = [], 0
    for i, t, n in zip(idx, types, consumed):
        out.append(_Parsed(i, t, tuple(range(dim, dim + n))))
        dim += n
    # trailing axes are implicitly full slices
    return out


def _expand_ellipses(parsed, shape):
    out, used = [], 0
    for p in parsed:
        used += len(p.axes)
        if p.typ is _T.ELLIPSIS:
            out.extend(_Parsed(slice(None), _T.SLICE, (a,)) for a in p.axes)
        else:
            out.append(p)
    out.extend(_Parsed(slice(None), _T.SLICE, (a,)) for a in range(used, len(shape)))
    return out


def _mode(mode):
    return _ix().GatherScatterMode.from_any(mode) if mode is not None else None


# ---- strategy 1: static slice -------------------------------------------------------------

class _NotApplicable(Exception):
    pass


def _static_slice(x, parsed, shape, mode, normalize=True):
    m = _mode(mode)
    GSM = _ix().GatherScatterMode
    if m not in (None, GSM.PROMISE_IN_BOUNDS, GSM.CLIP):
        raise _NotApplicable
    for p in parsed:
        if p.typ in (_T.ARRAY, _T.BOOLEAN):
            raise _NotApplicable
        if p.typ is _T.SLICE and not all(v is None or _is_int(v) for v in (p.index.start, p.index.stop, p.index.step)):
            raise _NotApplicable
        if p.typ is _T.INTEGER and m is not GSM.CLIP:
            n = shape[p.axes[0]]
            j = int(p.index)
            if not 0 <= (j + n if normalize and j < 0 else j) < n:
                raise _NotApplicable      # out of bounds: the dynamic slice clamps it
    starts, limits, strides, rev, squeeze, newaxes = [], [], [], [], [], []
    for p in _expand_ellipses(parsed, shape):
        if p.typ is _T.NONE:
            newaxes.append(len(starts) - len(squeeze) + len(newaxes))
        elif p.typ is _T.INTEGER:
            axis = p.axes[0]
            n = shape[axis]
            if n == 0:
                raise IndexError(f"index is out of bounds for axis {axis} with size 0")
            j = int(p.index)
            j = min(max(j + n if normalize and j < 0 else j, 0), n - 1)
            starts.append(j)
            limits.append(j + 1)
            strides.append(1)
            squeeze.append(axis)
        else:
            axis = p.axes[0]
            n = shape[axis]
            start, stop, step = p.index.indices(n)
            if step < 0:
                lo = min(n, stop + 1 + abs(start - stop - 1) % abs(step))
                starts.append(lo)
                limits.append(max(lo, start + 1))
                strides.append(-step)
                rev.append(axis)
            else:
                starts.append(start)
                limits.append(max(start, stop))
                strides.append(step)
    trivial = all(s == 1 for s in strides) and len(starts) == len(shape) and all(
        (a, b) == (0, n) for a, b, n in zip(starts, limits, shape))
    out = x if trivial else lax.slice(x, starts, limits, None if all(s == 1 for s in strides) else strides)
    return _reverse_squeeze_expand(out, rev, squeeze, newaxes)



def _reverse_squeeze_expand(out, rev, squeeze, newaxes):
    """The common end of the slice and dynamic-slice strategies: negative steps, int indices
    (squeezed axes) and None (new axes)."""
    if rev:
        out = lax.rev(out, tuple(rev))
    if squeeze:
        out = lax.squeeze(out, squeeze)
    if newaxes:
        out = lax.expand_dims(out, tuple(newaxes))
    return out


# ---- strategy 2: dynamic slice ------------------------------------------------------------

def _normalize_start(i, size):
    """A start index with negative values counted from the end (JAX's `_dynamic_slice_indices`)."""
    if _is_int(i):
        return lax._convert_element_type(i + size if i < 0 else i, _dt.python_scalar_dtype(0) if
                                         isinstance(i, int) else np.asarray(i).dtype, False)
    dt = _dtype_of(i)
    if dt.kind == "u":
        return i
    jnp = _jnp()
    size_arr = lax._convert_element_type(size, dt, False)
    return lax.select(jnp.less(i, 0), jnp.add(i, size_arr), i)


def _dynamic_slice(x, parsed, shape, mode, normalize=True):
    m = _mode(mode)
    GSM = _ix().GatherScatterMode
    if m not in (None, GSM.PROMISE_IN_BOUNDS, GSM.CLIP):
        raise _NotApplicable
    for p in parsed:
        if p.typ is _T.SLICE:
            if p.index.step not in (None, 1, -1):
                raise _NotApplicable
            if not all(v is None or _is_int(v) for v in (p.index.start, p.index.stop)):
                raise _NotApplicable
        elif p.typ is _T.ARRAY:
            if isinstance(p.index, Sequence) or np.ndim(p.index) != 0:
                raise _NotApplicable
        elif p.typ is _T.BOOLEAN:
            raise _NotApplicable
    jnp = _jnp()
    starts, sizes, rev, squeeze, newaxes = [], [], [], [], []
    trivial = True
    for p in _expand_ellipses(parsed, shape):
        if p.typ is _T.NONE:
            newaxes.append(len(starts) - len(squeeze) + len(newaxes))
        elif p.typ in (_T.INTEGER, _T.ARRAY):
            trivial = False
            axis = p.axes[0]
            if shape[axis] == 0:
                raise IndexError(f"index is out of bounds for axis {axis} with size 0")
            starts.append(jnp.asarray(p.index))
            sizes.append(1)
            squeeze.append(axis)
        else:
            if p.index != slice(None):
                trivial = False
            n = shape[p.axes[0]]
            start, stop, step = p.index.indices(n)
            if step < 0:
                lo = stop + 1 + abs(start - stop - 1) % abs(step)
                starts.append(lo)
                sizes.append(max(0, start + 1 - lo))
                rev.append(p.axes[0])
            else:
                starts.append(start)
                sizes.append(max(0, stop - start))
    if len(starts) > 1:
        # dynamic_slice wants all start indices of one dtype
        starts = [lax.convert_element_type(s, _INDEX_DTYPE) for s in starts]
    if trivial:
        out = x
    else:
        from ...primitives.structural import dynamic_slice_p
        if normalize:  # else (wrap_negative_indices=False) a negative start is clamped to 0 like any other
            starts = [_normalize_start(s, n) for s, n in zip(starts, shape)]
        starts = [s if isinstance(s, (Array, Tracer)) else Array(np.asarray(s)) for s in starts]
        out = dynamic_slice_p.bind(x, *starts, slice_sizes=tuple(sizes))   # starts already normalized
    return _reverse_squeeze_expand(out, rev, squeeze, newaxes)


# ---- strategy 3: gather -------------------------------------------------------------------

def _expand_bool_indices(parsed, shape):
    out = []
    for pos, p in enumerate(parsed):
        if p.typ is not _T.BOOLEAN:
            out.append(p)
            continue
        if isinstance(p.index, Tracer) and p.index.to_concrete_value() is None:
            raise NonConcreteBooleanIndexError(p.index)
        mask = np.asarray(p.index.to_concrete_value() if isinstance(p.index, Tracer) else
                          (p.index._value if isinstance(p.index, Array) else p.index))
        if mask.ndim == 0:
            out.append(_Parsed(bool(mask), _T.BOOLEAN, ()))
            continue
        expected = [shape[a] for a in p.axes]
        if not all(s1 in (0, s2) for s1, s2 in zip(mask.shape, expected)):
            raise IndexError(f"boolean index did not match shape of indexed array in index {pos}: "
                             f"got {mask.shape}, expected {expected}")
        out.extend(_Parsed(Array(i.astype(_INDEX_DTYPE)), _T.ARRAY, (a,))
                   for i, a in zip(np.nonzero(mask), p.axes))
    return out


class _GatherPlan(NamedTuple):
    slice_shape: list          # shape of x[idx] before None axes are removed (scatter broadcasts to it)
    gather_slice_shape: list
    indices: object
    dnums: object
    unique_indices: bool
    indices_are_sorted: bool
    reversed_y_dims: list
    newaxis_dims: tuple
    scalar_bool_dims: list


def _to_gather(parsed, shape, normalize=True):
    """Plan a gather for `x[idx]` (JAX's `_index_to_gather`): indices, dimension numbers, shapes.
    `normalize=False` (`wrap_negative_indices=False`): negative indices stay negative, out of bounds."""
    jnp = _jnp()
    parsed = [_Parsed(jnp.asarray(p.index), p.typ, p.axes) if isinstance(p.index, (list, tuple)) else p
              for p in parsed]
    adv_positions = [k for k, p in enumerate(parsed) if p.typ in (_T.ARRAY, _T.INTEGER)]
    contiguous = all(b - a == 1 for a, b in zip(adv_positions, adv_positions[1:]))
    parsed = _expand_ellipses(parsed, shape)

    # scalar booleans act like a new axis of length 1 (True) or 0 (False)
    scalar_bool_dims = [k for k, p in enumerate(parsed) if p.typ is _T.BOOLEAN]
    shape = list(shape)
    new_parsed, dim = [], 0
    for k, p in enumerate(parsed):
        if p.typ is _T.BOOLEAN:
            shape.insert(k, 1)
            new_parsed.append(_Parsed(np.arange(int(p.index)), _T.ARRAY, (dim,)))
            dim += 1
        else:
            new_parsed.append(_Parsed(p.index, p.typ, tuple(range(dim, dim + len(p.axes)))))
            dim += len(p.axes)
    parsed = [_normalize(p, shape) for p in new_parsed] if normalize else new_parsed

    advanced = any(p.typ is _T.ARRAY and np.ndim(p.index) > 0 for p in parsed)
    adv_arrays, adv_idx_pos, adv_x_axes = [], [], []
    if advanced:
        j = 0
        for k, p in enumerate(parsed):
            if p.typ is _T.NONE:
                continue
            if p.typ in (_T.ARRAY, _T.INTEGER):
                adv_arrays.append(jnp.asarray(p.index))
                adv_idx_pos.append(k)
                adv_x_axes.append(j)
            j += 1

    x_axis = y_axis = collapsed_y_axis = 0
    offset_dims, collapsed, start_index_map = [], [], []
    gather_indices, gather_indices_shape = [], []
    slice_shape, newaxis_dims, reversed_y_dims, gather_slice_shape = [], [], [], []
    for k, p in enumerate(parsed):
        if adv_arrays and ((contiguous and k == adv_idx_pos[0]) or (not contiguous and k == 0)):
            arrs = _broadcast_arrays(adv_arrays)
            bshape = list(get_aval(arrs[0]).shape)
            start = len(gather_indices_shape)
            gather_indices.extend((lax.convert_element_type(a, _INDEX_DTYPE), start) for a in arrs)
            gather_indices_shape += bshape
            start_index_map.extend(adv_x_axes)
            collapsed.extend(adv_x_axes)
            slice_shape.extend(bshape)
            y_axis += len(bshape)
            collapsed_y_axis += len(bshape)
        if k in adv_idx_pos:
            x_axis += 1
            gather_slice_shape.append(1)
            continue
        if p.typ in (_T.INTEGER, _T.ARRAY) and np.ndim(p.index) == 0:
            if shape[x_axis] == 0:
                raise IndexError(f"index is out of bounds for axis {x_axis} with size 0")
            gather_indices.append((lax.convert_element_type(p.index, _INDEX_DTYPE), len(gather_indices_shape)))
            collapsed.append(x_axis)
            gather_slice_shape.append(1)
            start_index_map.append(x_axis)
            x_axis += 1
        elif p.typ is _T.NONE:
            slice_shape.append(1)
            newaxis_dims.append(y_axis)
            y_axis += 1
        elif p.typ is _T.SLICE:
            if not all(v is None or _is_int(v) for v in (p.index.start, p.index.stop, p.index.step)):
                raise IndexError(f"Slice entries must be static integers. Got {p.index} at position {k}")
            start, step, size = _canonicalize_slice(p.index, shape[x_axis])
            slice_shape.append(size)
            if step == 1:
                if size != shape[x_axis]:
                    gather_indices.append((lax.convert_element_type(start, _INDEX_DTYPE), len(gather_indices_shape)))
                    start_index_map.append(x_axis)
                gather_slice_shape.append(size)
                offset_dims.append(collapsed_y_axis)
            else:
                idx = jnp.add(jnp.array(start, dtype=_INDEX_DTYPE),
                              jnp.multiply(jnp.array(step, dtype=_INDEX_DTYPE), lax.iota(_INDEX_DTYPE, size)))
                if step < 0:
                    reversed_y_dims.append(collapsed_y_axis)
                    idx = lax.rev(idx, (0,))
                gather_slice_shape.append(1)
                gather_indices.append((idx, len(gather_indices_shape)))
                start_index_map.append(x_axis)
                gather_indices_shape.append(size)
                collapsed.append(x_axis)
            collapsed_y_axis += 1
            y_axis += 1
            x_axis += 1
        else:
            raise IndexError(f"Got unsupported indexer at position {k}: {p.index!r}")

    if not gather_indices:
        indices = Array(np.zeros((0,), _INDEX_DTYPE))
    elif len(gather_indices) == 1:
        g, _ = gather_indices[0]
        indices = lax.expand_dims(g, (get_aval(g).ndim,))
    else:
        last = len(gather_indices_shape)
        full = tuple(gather_indices_shape) + (1,)
        indices = lax.concatenate([lax.broadcast_in_dim(g, full, tuple(range(i, i + get_aval(g).ndim)))
                                   for g, i in gather_indices], last)
    dnums = _ix().GatherDimensionNumbers(offset_dims=tuple(offset_dims), collapsed_slice_dims=tuple(sorted(collapsed)),
                                         start_index_map=tuple(start_index_map))
    return _GatherPlan(slice_shape, gather_slice_shape, indices, dnums, not adv_arrays, not adv_arrays,
                       reversed_y_dims, tuple(newaxis_dims), scalar_bool_dims), shape


def _normalize(p, shape):
    """Negative indices count from the end: python ints now, arrays with a staged select."""
    if p.typ is _T.INTEGER:
        n = shape[p.axes[0]]
        if isinstance(p.index, np.unsignedinteger):
            return p
        return _Parsed(p.index + n if p.index < 0 else p.index, p.typ, p.axes)
    if p.typ is _T.ARRAY:
        idx = p.index
        if not isinstance(idx, (Array, Tracer)):
            idx = _jnp().asarray(idx)
        if _dtype_of(idx).kind == "u":
            return _Parsed(idx, p.typ, p.axes)
        jnp = _jnp()
        n = lax._const(idx, shape[p.axes[0]])
        return _Parsed(lax.select(jnp.less(idx, 0), lax.add(idx, n), idx), p.typ, p.axes)
    return p


def _canonicalize_slice(s, size):
    """(first element, step, length) of x[s] along an axis of `size` (JAX's canonicalize_slice)."""
    step = 1 if s.step is None else operator.index(s.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")

    def clamp(i):
        if i >= 0:
            return min(size, i) if step > 0 else min(size - 1, i)
        return max(0, size + i) if step > 0 else max(-1, size + i)
    start = (0 if step > 0 else size - 1) if s.start is None else clamp(operator.index(s.start))
    stop = (size if step > 0 else -1) if s.stop is None else clamp(operator.index(s.stop))
    gap = abs(step)
    distance = (stop - start) if step > 0 else (start - stop)
    return start, step, max(0, distance + gap - 1) // gap


def _broadcast_arrays(arrs):
    shapes = [get_aval(a).shape for a in arrs]
    if all(s == shapes[0] for s in shapes):
        return list(arrs)
    try:
        out_shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes "
                         f"{' '.join(str(s) for s in shapes)}") from None
    return [_jnp().broadcast_to(a, out_shape) for a in arrs]


def _gather(x, parsed, shape, mode, fill_value, unique_indices=False, indices_are_sorted=False, normalize=True):
    plan, _ = _to_gather(_expand_bool_indices(parsed, shape), shape, normalize)
    if fill_value is not None:
        if isinstance(fill_value, Tracer):
            from ...base.errors import ConcretizationTypeError
            raise ConcretizationTypeError(fill_value, "fill_value argument to indexed get()")
        if np.ndim(fill_value) != 0:
            raise ValueError("fill_value argument to indexed get() must be a scalar")
        if isinstance(fill_value, (np.ndarray, Array)):
            fill_value = np.asarray(fill_value).item()
    y = x
    if plan.scalar_bool_dims:
        y = lax.expand_dims(y, tuple(plan.scalar_bool_dims))
    if 0 in plan.slice_shape:
        return lax.full(tuple(plan.slice_shape), 0, get_aval(x).dtype, weak_type=get_aval(x).weak_type)
    if 0 not in get_aval(plan.indices).shape:
        y = _ix().gather(y, plan.indices, plan.dnums, plan.gather_slice_shape,
                         unique_indices=unique_indices or plan.unique_indices,
                         indices_are_sorted=indices_are_sorted or plan.indices_are_sorted,
                         mode=mode, fill_value=fill_value)
    if plan.reversed_y_dims:
        y = lax.rev(y, tuple(plan.reversed_y_dims))
    if plan.newaxis_dims:
        y = lax.expand_dims(y, plan.newaxis_dims)
    return y


# ---- entry points -------------------------------------------------------------------------

def _getitem(x, idx, mode=None, fill_value=None, unique_indices=False, indices_are_sorted=False, normalize=True):
    if not isinstance(x, (Array, Tracer)):
        x = _jnp().asarray(x)
    from ..dslice import apply_dynamic_slices  # [docs2] jax.ds entries: dynamic slices first
    x, idx = apply_dynamic_slices(x, idx)
    shape = get_aval(x).shape
    parsed = _parse(idx, shape)
    for strategy in (_static_slice, _dynamic_slice):
        try:
            return strategy(x, parsed, shape, mode, normalize)
        except _NotApplicable:
            pass
    return _gather(x, parsed, shape, mode, fill_value, unique_indices, indices_are_sorted, normalize)


def scatter_update(x, index, values, kind, mode=None, indices_are_sorted=False, unique_indices=False,
                   normalize=True):
    """`x.at[index].<kind>(values)` for kind in set/add/mul/min/max (JAX's `_scatter_update`)."""
    jnp = _jnp()
    x = jnp.asarray(x)
    xa = get_aval(x)
    if isinstance(values, int) and not isinstance(values, bool) and xa.dtype.kind in "iu" and \
            np.iinfo(xa.dtype).min <= values <= np.iinfo(xa.dtype).max:
        y = jnp.asarray(values, dtype=xa.dtype)
    else:
        y = jnp.asarray(values)
    shape = xa.shape
    parsed = _expand_bool_indices(_parse(index, shape), shape)
    plan, _ = _to_gather(parsed, shape, normalize)
    if 0 in plan.slice_shape:
        return x
    ya = get_aval(y)
    if _dt.result_type_weak((ya.dtype, ya.weak_type), (xa.dtype, xa.weak_type))[0] != xa.dtype:
        import warnings
        warnings.warn("scatter inputs have incompatible types: cannot safely cast value from "
                      f"dtype={ya.dtype} to dtype={xa.dtype} with jax_numpy_dtype_promotion=standard. "
                      "In future JAX releases this will result in an error.", FutureWarning, stacklevel=4)
    x2, y = jnp._promote_dtypes(x, y)
    y = jnp.broadcast_to(y, tuple(plan.slice_shape))
    if plan.newaxis_dims:
        y = lax.squeeze(y, plan.newaxis_dims)
    if plan.reversed_y_dims:
        y = lax.rev(y, tuple(plan.reversed_y_dims))
    if plan.scalar_bool_dims:
        x2 = lax.expand_dims(x2, tuple(plan.scalar_bool_dims))
    ix = _ix()
    dn = plan.dnums
    sdn = ix.ScatterDimensionNumbers(update_window_dims=dn.offset_dims, inserted_window_dims=dn.collapsed_slice_dims,
                                     scatter_dims_to_operand_dims=dn.start_index_map,
                                     operand_batching_dims=dn.operand_batching_dims,
                                     scatter_indices_batching_dims=dn.start_indices_batching_dims)
    op = {"set": ix.scatter, "add": ix.scatter_add, "mul": ix.scatter_mul, "min": ix.scatter_min,
          "max": ix.scatter_max}[kind]
    out = op(x2, plan.indices, y, sdn, indices_are_sorted=plan.indices_are_sorted or indices_are_sorted,
             unique_indices=plan.unique_indices or unique_indices, mode=mode)
    if plan.scalar_bool_dims:
        out = lax.squeeze(out, tuple(plan.scalar_bool_dims))
    return lax._convert_element_type(out, xa.dtype, xa.weak_type)


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

    def __repr__(self):
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    # wrap_negative_indices=False: a negative index is out of bounds (handled by `mode`), not counted
    # from the end; the index arithmetic (select(i < 0, i + n, i)) is then not staged either
    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None, fill_value=None, out_sharding=None,
            wrap_negative_indices=True):
        return _getitem(self.array, self.index, mode, fill_value, unique_indices, indices_are_sorted,
                        bool(wrap_negative_indices))

    def _update(self, kind, values, indices_are_sorted=False, unique_indices=False, mode=None, wrap=True):
        return scatter_update(self.array, self.index, values, kind, mode, indices_are_sorted, unique_indices,
                              bool(wrap))

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
            wrap_negative_indices=True):
        return self._update("set", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
            wrap_negative_indices=True):
        return self._update("add", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices)

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
                 wrap_negative_indices=True):
        return self._update("add", _jnp().negative(values), indices_are_sorted, unique_indices, mode,
                            wrap_negative_indices)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
                 wrap_negative_indices=True):
        return self._update("mul", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices)

    mul = multiply

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
               wrap_negative_indices=True):
        jnp = _jnp()
        return jnp.divide(self.array, self._scatter_ones("mul", values, mode, indices_are_sorted, unique_indices,
                                                         wrap_negative_indices))

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
              wrap_negative_indices=True):
        jnp = _jnp()
        return jnp.power(self.array, self._scatter_ones("mul", values, mode, indices_are_sorted, unique_indices,
                                                        wrap_negative_indices))

    def _scatter_ones(self, kind, values, mode, indices_are_sorted, unique_indices, wrap=True):
        """ones_like(x) with `values` at the indexed positions (x / that == divide at those positions)."""
        jnp = _jnp()
        return scatter_update(jnp.ones_like(self.array), self.index, values, kind, mode, indices_are_sorted,
                              unique_indices, bool(wrap))

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
            wrap_negative_indices=True):
        return self._update("min", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
            wrap_negative_indices=True):
        return self._update("max", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices)

    def apply(self, func, *, indices_are_sorted=False, unique_indices=False, mode=None, out_sharding=None,
              wrap_negative_indices=True):
        """Apply a unary ufunc at the indexed positions (each position once)."""
        got = self.get(mode=mode, wrap_negative_indices=wrap_negative_indices)
        return self._update("set", func(got), indices_are_sorted, unique_indices, mode, wrap_negative_indices)
