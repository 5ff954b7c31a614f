"""Gather and scatter: XLA's general indexing primitives (what `x[idx]` and `x.at[idx]` lower to).

Semantics follow XLA's operation spec: the index vector is the last axis of the indices,
`operand_batching_dims` pair operand axes with index batch axes, and `mode` says what an
out-of-bounds window does: CLIP / PROMISE_IN_BOUNDS clamp it into range (on CPU XLA clamps
both); FILL_OR_DROP fills gathered windows with `fill_value` and drops scattered ones.
"""
from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np

from ..base import dtypes
from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, jvp_rules, transpose_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from ..transforms.batching import bdim_at_front, moveaxis
from . import define


class GatherDimensionNumbers(NamedTuple):
    offset_dims: tuple
    collapsed_slice_dims: tuple
    start_index_map: tuple
    operand_batching_dims: tuple = ()
    start_indices_batching_dims: tuple = ()


class ScatterDimensionNumbers(NamedTuple):
    update_window_dims: tuple
    inserted_window_dims: tuple
    scatter_dims_to_operand_dims: tuple
    operand_batching_dims: tuple = ()
    scatter_indices_batching_dims: tuple = ()


class GatherScatterMode(enum.Enum):
    CLIP = enum.auto()
    FILL_OR_DROP = enum.auto()
    PROMISE_IN_BOUNDS = enum.auto()
    ONE_HOT = enum.auto()

    @staticmethod
    def from_any(s):
        if isinstance(s, GatherScatterMode):
            return s
        if s == "clip":
            return GatherScatterMode.CLIP
        if s is None or s in ("fill", "drop"):
            return GatherScatterMode.FILL_OR_DROP
        if s == "promise_in_bounds":
            return GatherScatterMode.PROMISE_IN_BOUNDS
        if s == "one_hot":
            return GatherScatterMode.ONE_HOT
        raise ValueError(f'Unknown gather mode "{s}"')


def _lax():
    from ..lax import lax  # INHERENT: up to lax
    return lax


class _AsRepr:
    """Prints a param the way JAX does: dimension numbers as their NamedTuple repr."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __str__(self):
        return repr(self.value)


def _pp_params(params):
    return [(k, _AsRepr(v) if k == "dimension_numbers" else v) for k, v in sorted(params.items())]


# ---- shared numpy machinery: window start positions per index row -------------------------

def _window_starts(operand_shape, indices, start_index_map, operand_batching_dims,
                   indices_batching_dims):
    """(N, operand_ndim) int64 start of each window; N = number of index rows (batch positions)."""
    indices = np.asarray(indices)
    batch_shape = indices.shape[:-1]
    n = int(np.prod(batch_shape, dtype=np.int64))
    rows = indices.reshape(n, indices.shape[-1]).astype(np.int64)
    starts = np.zeros((n, len(operand_shape)), np.int64)
    for k, d in enumerate(start_index_map):
        starts[:, d] = rows[:, k]
    if operand_batching_dims:
        # batch axes of `indices` other than the index-vector axis, in order
        coords = np.unravel_index(np.arange(n), batch_shape) if batch_shape else ()
        for od, idim in zip(operand_batching_dims, indices_batching_dims):
            starts[:, od] = coords[idim]
    return starts


def _in_bounds(starts, operand_shape, window_shape, dims):
    ok = np.ones(starts.shape[0], bool)
    for d in dims:
        ok &= (starts[:, d] >= 0) & (starts[:, d] <= operand_shape[d] - window_shape[d])
    return ok


def _clamp(starts, operand_shape, window_shape):
    hi = np.maximum(np.asarray(operand_shape, np.int64) - np.asarray(window_shape, np.int64), 0)
    return np.clip(starts, 0, hi)


def _window_index(starts, window_shape):
    """Advanced-index tuple selecting, for every row, its whole window: shape (N, *window)."""
    nd = len(window_shape)
    out = []
    for d in range(nd):
        shape = [1] * (nd + 1)
        shape[d + 1] = window_shape[d]
        out.append(starts[:, d].reshape((-1,) + (1,) * nd) + np.arange(window_shape[d]).reshape(shape))
    return tuple(out)


def _place_offset_dims(x, batch_ndim, offset_dims):
    """x has axes (batch..., offset...); move offset axes to positions `offset_dims`."""
    rank = x.ndim
    batch_pos = [i for i in range(rank) if i not in offset_dims]
    return np.moveaxis(x, list(range(rank)), batch_pos + list(offset_dims)) if rank else x


# ---- gather -------------------------------------------------------------------------------

def _gather_shape(operand, indices, dimension_numbers, slice_sizes):
    dn = dimension_numbers
    if len(slice_sizes) != len(operand.shape):
        raise TypeError(f"Gather op must have one slice size for every input dimension; got: "
                        f"len(slice_sizes)={len(slice_sizes)}, input_shape.rank={len(operand.shape)}")
    if indices.shape[-1:] != (len(dn.start_index_map),) if indices.shape else True:
        raise TypeError(f"Gather op has {len(dn.start_index_map)} elements in start_index_map and the "
                        f"bound of dimension index_vector_dim={len(indices.shape) - 1} of indices is "
                        f"{indices.shape[-1] if indices.shape else 0}. These two numbers must be equal.")
    for d, (s, n) in enumerate(zip(slice_sizes, operand.shape)):
        if not 0 <= s <= n:
            raise TypeError(f"Slice size at index {d} in gather op is out of range, must be within "
                            f"[0, {n} + 1), got {s}.")
    dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    offset_sizes = [s for d, s in enumerate(slice_sizes) if d not in dropped]
    batch_sizes = list(indices.shape[:-1])
    rank = len(batch_sizes) + len(offset_sizes)
    out = []
    for pos in range(rank):
        out.append(offset_sizes.pop(0) if pos in dn.offset_dims else batch_sizes.pop(0))
    return tuple(out)


def _check_integer_indices(dtype):
    # JAX's gather/scatter dtype rule, word for word (jnp.take(x, floats) raises it too: eager
    # dispatch skips the shape rule when the operands share a dtype, so the impls ask as well)
    if dtype.kind not in "iu":
        raise ValueError("indices must have an integer type")


def _gather_abstract(operand, indices, *, dimension_numbers, slice_sizes, unique_indices,
                     indices_are_sorted, mode, fill_value):
    _check_integer_indices(indices.dtype)
    shape = _gather_shape(operand, indices, dimension_numbers, slice_sizes)
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _gather_impl(operand, indices, *, dimension_numbers, slice_sizes, unique_indices,
                 indices_are_sorted, mode, fill_value):
    dn = dimension_numbers
    operand = np.asarray(operand)
    indices = np.asarray(indices)
    _check_integer_indices(indices.dtype)
    out_shape = _gather_shape(operand, indices, dn, slice_sizes)
    if 0 in out_shape:
        return np.zeros(out_shape, operand.dtype)
    starts = _window_starts(operand.shape, indices, dn.start_index_map, dn.operand_batching_dims,
                            dn.start_indices_batching_dims)
    ok = None
    if GatherScatterMode.from_any(mode) == GatherScatterMode.FILL_OR_DROP:
        ok = _in_bounds(starts, operand.shape, slice_sizes, dn.start_index_map)
    starts = _clamp(starts, operand.shape, slice_sizes)
    windows = operand[_window_index(starts, slice_sizes)]          # (N, *slice_sizes)
    if ok is not None and not ok.all():
        fill = _default_fill(operand.dtype) if fill_value is None else fill_value
        windows = np.where(ok.reshape((-1,) + (1,) * len(slice_sizes)), windows,
                           np.asarray(fill).astype(operand.dtype))
    dropped = tuple(sorted(set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)))
    windows = windows.reshape((windows.shape[0],) + tuple(
        s for d, s in enumerate(slice_sizes) if d not in dropped))
    windows = windows.reshape(indices.shape[:-1] + windows.shape[1:])
    return np.asarray(_place_offset_dims(windows, indices.ndim - 1, dn.offset_dims), order="C")


def _default_fill(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        return np.nan
    if dtype.kind == "i":
        return np.iinfo(dtype).min
    if dtype.kind == "u":
        return np.iinfo(dtype).max
    return True


def _gather_jvp(primals, tangents, **params):
    operand, indices = primals
    out = gather_p.bind(operand, indices, **params)
    t = tangents[0]
    if type(t) is ad.Zero:
        return out, ad.Zero(get_aval(out))
    tparams = dict(params, fill_value=0 if params["fill_value"] is not None else None)
    return out, gather_p.bind(t, indices, **tparams)


def _gather_t(ct, operand, indices, *, dimension_numbers, slice_sizes, unique_indices,
              indices_are_sorted, mode, fill_value):
    if type(ct) is ad.Zero or not ad.is_undefined(operand):
        return [None, None]
    dn = dimension_numbers
    aval = operand.aval
    zeros = _lax().full(aval.shape, 0, aval.dtype)
    sdn = ScatterDimensionNumbers(update_window_dims=dn.offset_dims,
                                  inserted_window_dims=dn.collapsed_slice_dims,
                                  scatter_dims_to_operand_dims=dn.start_index_map,
                                  operand_batching_dims=dn.operand_batching_dims,
                                  scatter_indices_batching_dims=dn.start_indices_batching_dims)
    out = scatter_add_p.bind(zeros, indices, ct, dimension_numbers=sdn, indices_are_sorted=indices_are_sorted,
                             unique_indices=unique_indices, mode=mode, update_jaxpr=_update_jaxpr("add", aval.dtype),
                             update_consts=())
    return [out, None]


def _shift(dims, k=1):
    return tuple(int(d) + k for d in dims)


def _np_shift(dims):
    # numpy arithmetic, as JAX's batching rule does (its jaxprs then print `np.int64(1)`)
    return tuple(np.add(1, dims)) if len(dims) else ()


def _gather_batch(axis_data, vals, dims, *, dimension_numbers, slice_sizes, unique_indices,
                  indices_are_sorted, mode, fill_value):
    operand, indices = vals
    od, idd = dims
    dn = dimension_numbers
    rest = dict(mode=mode, fill_value=fill_value)
    if idd is None:   # only the operand is batched: the batch axis becomes a full-size window axis
        operand = moveaxis(operand, od, 0)
        new = GatherDimensionNumbers(offset_dims=(0,) + _np_shift(dn.offset_dims),
                                     collapsed_slice_dims=_np_shift(dn.collapsed_slice_dims),
                                     start_index_map=_np_shift(dn.start_index_map),
                                     operand_batching_dims=_np_shift(dn.operand_batching_dims),
                                     start_indices_batching_dims=dn.start_indices_batching_dims)
        sizes = (get_aval(operand).shape[0],) + tuple(slice_sizes)
        return gather_p.bind(operand, indices, dimension_numbers=new, slice_sizes=sizes,
                             unique_indices=unique_indices, indices_are_sorted=indices_are_sorted, **rest), 0
    indices = moveaxis(indices, idd, 0)
    if od is None:    # only the indices: one more batch axis of indices
        new = dn._replace(offset_dims=tuple(1 + d for d in dn.offset_dims),
                          start_indices_batching_dims=_np_shift(dn.start_indices_batching_dims))
        return gather_p.bind(operand, indices, dimension_numbers=new, slice_sizes=tuple(slice_sizes),
                             unique_indices=False, indices_are_sorted=False, **rest), 0
    operand = moveaxis(operand, od, 0)   # both: pair the two batch axes (operand_batching_dims)
    new = GatherDimensionNumbers(offset_dims=_np_shift(dn.offset_dims),
                                 collapsed_slice_dims=_np_shift(dn.collapsed_slice_dims),
                                 start_index_map=_np_shift(dn.start_index_map),
                                 operand_batching_dims=(0,) + _np_shift(dn.operand_batching_dims),
                                 start_indices_batching_dims=(0,) + _np_shift(dn.start_indices_batching_dims))
    first = 0 if get_aval(operand).shape[0] == 0 else 1
    return gather_p.bind(operand, indices, dimension_numbers=new, slice_sizes=(first,) + tuple(slice_sizes),
                         unique_indices=unique_indices, indices_are_sorted=indices_are_sorted, **rest), 0


def batch_dynamic_slice(axis_data, vals, dims, slice_sizes):
    """vmap of dynamic_slice with batched start indices: one clamped gather (what JAX emits)."""
    operand, *starts = vals
    od, *sds = dims
    ndims = get_aval(operand).ndim - (0 if od is None else 1)
    dn = GatherDimensionNumbers(offset_dims=tuple(range(ndims)), collapsed_slice_dims=(),
                                start_index_map=tuple(range(ndims)))
    lax = _lax()
    size = axis_data.size
    index = lax.concatenate([lax.broadcast_in_dim(s, (size, 1), (0,) if d is not None else ())
                             for s, d in zip(starts, sds)], 1)
    return _gather_batch(axis_data, [operand, index], [od, 0], dimension_numbers=dn, slice_sizes=tuple(slice_sizes),
                         unique_indices=True, indices_are_sorted=True, mode=GatherScatterMode.CLIP,
                         fill_value=None)


gather_p = define("gather", abstract_eval=_gather_abstract, impl=_gather_impl,
                  weak_type_rule=lambda w, **p: w[0], pp_params=_pp_params)
jvp_rules[gather_p] = _gather_jvp
transpose_rules[gather_p] = _gather_t
batch_rules[gather_p] = _gather_batch


# ---- scatter family -----------------------------------------------------------------------

def _window_shape(operand_shape, updates_shape, dn):
    """Full-rank window shape in operand axes (1 on inserted and batching axes)."""
    sizes = [updates_shape[d] for d in dn.update_window_dims]
    out = []
    for d in range(len(operand_shape)):
        if d in dn.inserted_window_dims or d in dn.operand_batching_dims:
            out.append(1)
        else:
            out.append(sizes.pop(0))
    return tuple(out)


def _scatter_abstract(operand, indices, updates, *, dimension_numbers, indices_are_sorted, unique_indices,
                      mode, update_jaxpr, update_consts):
    dn = dimension_numbers
    _check_integer_indices(indices.dtype)
    if operand.dtype != updates.dtype:
        raise TypeError(f"Scatter operand and updates must have the same dtype; got {operand.dtype.name} "
                        f"and {updates.dtype.name}")
    n_window = len(dn.update_window_dims)
    if len(updates.shape) != n_window + len(indices.shape) - 1:
        raise TypeError(f"Updates tensor must be of rank {n_window + len(indices.shape) - 1}; got "
                        f"{len(updates.shape)}.")
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


_SCATTER_UFUNCS = {"scatter-add": np.add, "scatter-sub": np.subtract, "scatter-mul": np.multiply,
                   "scatter-min": np.minimum, "scatter-max": np.maximum}


def _make_scatter_impl(name):
    ufunc = _SCATTER_UFUNCS.get(name)

    def impl(operand, indices, updates, *, dimension_numbers, indices_are_sorted, unique_indices, mode,
             update_jaxpr, update_consts):
        dn = dimension_numbers
        out = np.array(operand, copy=True)
        indices = np.asarray(indices)
        updates = np.asarray(updates, out.dtype)
        if out.size == 0 or updates.size == 0:
            return out
        window = _window_shape(out.shape, updates.shape, dn)
        starts = _window_starts(out.shape, indices, dn.scatter_dims_to_operand_dims, dn.operand_batching_dims,
                                dn.scatter_indices_batching_dims)
        # updates: (scatter dims..., window dims...) -> (N, *window)
        scatter_axes = [d for d in range(updates.ndim) if d not in dn.update_window_dims]
        upd = np.transpose(updates, scatter_axes + list(dn.update_window_dims))
        upd = upd.reshape((starts.shape[0],) + window)
        clip = GatherScatterMode.from_any(mode) == GatherScatterMode.CLIP
        if starts.shape[0] == 1 and ufunc is None and out.ndim:
            # one window (x.at[i].set(v) in a loop): a basic slice, no index arrays
            row = starts[0]
            if clip:
                row = np.minimum(np.maximum(row, 0), np.maximum(np.asarray(out.shape) - window, 0))
            elif ((row < 0) | (row > np.asarray(out.shape) - window)).any():
                return out   # XLA skips a window that does not fit
            out[tuple(slice(int(b), int(b) + w) for b, w in zip(row, window))] = upd[0]
            return out
        if clip:
            starts = _clamp(starts, out.shape, window)
        else:   # XLA skips windows that do not fit
            ok = _in_bounds(starts, out.shape, window, range(out.ndim))
            starts, upd = starts[ok], upd[ok]
        scalar = out.ndim == 0  # a 0-d operand (x.at[()]): one window of size 1 in a 1-d view
        target = out.reshape(1) if scalar else out
        idx = _window_index(starts, window) if not scalar else (np.zeros((starts.shape[0],), np.int64),)
        if ufunc is None:
            target[idx] = upd
        elif dtypes.EMULATED_BF16 and out.dtype == dtypes.bf16 and ufunc in (np.add, np.subtract, np.multiply):
            dtypes.emulated_scatter(ufunc, target, idx, upd)   # [dtypes] rounds after each update, as XLA
        else:
            with np.errstate(all="ignore"):   # (inf - inf, an overflow: NaN or inf without a word, as XLA)
                ufunc.at(target, idx, upd)
        return out
    return impl


def _scatter_dnums_to_gather(dn):
    return GatherDimensionNumbers(offset_dims=dn.update_window_dims,
                                  collapsed_slice_dims=dn.inserted_window_dims,
                                  start_index_map=dn.scatter_dims_to_operand_dims,
                                  operand_batching_dims=dn.operand_batching_dims,
                                  start_indices_batching_dims=dn.scatter_indices_batching_dims)


def _gather_like_updates(x, indices, updates_aval, dn, mode, indices_are_sorted, unique_indices, fill_value=None):
    """The values of `x` each update element lands on (the transpose of scatter-add)."""
    xa = get_aval(x)
    return gather_p.bind(x, indices, dimension_numbers=_scatter_dnums_to_gather(dn),
                         slice_sizes=_window_shape(xa.shape, updates_aval.shape, dn),
                         unique_indices=unique_indices, indices_are_sorted=indices_are_sorted,
                         mode=mode, fill_value=fill_value)


def _aval_of(x):
    return x.aval if ad.is_undefined(x) else get_aval(x)


def _scatter_add_t(ct, operand, indices, updates, *, dimension_numbers, indices_are_sorted, unique_indices,
                   mode, update_jaxpr, update_consts):
    if type(ct) is ad.Zero:
        return [None, None, None]
    t_op = ct if ad.is_undefined(operand) else None
    t_up = None
    if ad.is_undefined(updates):
        # fill 0: a dropped (out-of-range) update gets cotangent 0, not the NaN fill of a float gather
        t_up = _gather_like_updates(ct, indices, updates.aval, dimension_numbers, mode, indices_are_sorted,
                                    unique_indices, fill_value=0)
    return [t_op, None, t_up]


def _scatter_t(ct, operand, indices, updates, *, dimension_numbers, indices_are_sorted, unique_indices,
               mode, update_jaxpr, update_consts):
    """Scatter (overwrite): the operand's cotangent loses the overwritten positions."""
    if type(ct) is ad.Zero:
        return [None, None, None]
    ua = _aval_of(updates)
    t_op = t_up = None
    if ad.is_undefined(operand):
        zeros = _lax().full(ua.shape, 0, ua.dtype)
        t_op = scatter_p.bind(ct, indices, zeros, dimension_numbers=dimension_numbers,
                              indices_are_sorted=indices_are_sorted, unique_indices=unique_indices, mode=mode,
                              update_jaxpr=None, update_consts=())
    if ad.is_undefined(updates):
        t_up = _gather_like_updates(ct, indices, ua, dimension_numbers, mode, indices_are_sorted, unique_indices,
                                    fill_value=0)
    return [t_op, None, t_up]


def _scatter_sub_t(ct, operand, indices, updates, **params):
    """scatter-sub is scatter-add of -updates: the updates' cotangent is the gathered -ct."""
    t_op, _, t_up = _scatter_add_t(ct, operand, indices, updates, **params)
    return [t_op, None, None if t_up is None else _lax().neg(t_up)]


def _scatter_mul_t(ct, operand, indices, updates, **params):
    if type(ct) is ad.Zero:
        return [None, None, None]
    if ad.is_undefined(updates):
        raise NotImplementedError("scatter_mul gradients are only implemented if `updates` is not linear")
    return [scatter_mul_p.bind(ct, indices, updates, **params) if ad.is_undefined(operand) else None, None, None]


def _scatter_jvp(prim):
    def jvp(primals, tangents, **params):
        operand, indices, updates = primals
        tx, _, tu = tangents
        out = prim.bind(operand, indices, updates, **params)
        if type(tx) is ad.Zero and type(tu) is ad.Zero:
            return out, ad.Zero(get_aval(out))
        lax = _lax()
        name = prim.name
        if name in ("scatter", "scatter-add", "scatter-sub"):
            return out, prim.bind(ad.instantiate(tx), indices, ad.instantiate(tu), **params)
        if name == "scatter-mul":
            t = ad.Zero(get_aval(out))
            if type(tx) is not ad.Zero:
                t = prim.bind(tx, indices, updates, **params)
            if type(tu) is not ad.Zero:   # exact when indices are unique (as in JAX)
                ua = get_aval(updates)
                placed = scatter_p.bind(lax.full(get_aval(operand).shape, 0, ua.dtype), indices, tu,
                                        **dict(params, update_jaxpr=None))
                t = ad.add_tangents(t, lax.mul(placed, operand))
            return out, t
        # scatter-min / scatter-max: the tangent follows whichever value won
        ua = get_aval(updates)
        won = _gather_like_updates(out, indices, ua, params["dimension_numbers"], params["mode"],
                                   params["indices_are_sorted"], params["unique_indices"])
        kept = lax.eq(operand, out)
        t = ad.Zero(get_aval(out))
        if type(tx) is not ad.Zero:
            t = lax.select(kept, tx, lax.full_like(tx, 0))
        if type(tu) is not ad.Zero:
            contrib = lax.select(lax.eq(updates, won), tu, lax.full_like(tu, 0))
            zeros = lax.full(get_aval(operand).shape, 0, ua.dtype)
            t = ad.add_tangents(t, scatter_add_p.bind(zeros, indices, contrib,
                                                      **dict(params, update_jaxpr=_update_jaxpr("add", ua.dtype))))
        return out, t
    return jvp


def _scatter_batch(prim):
    def rule(axis_data, vals, dims, *, dimension_numbers, **params):
        size = axis_data.size
        operand, indices, updates = (bdim_at_front(v, d, size) for v, d in zip(vals, dims))
        dn = dimension_numbers
        new = ScatterDimensionNumbers(update_window_dims=_shift(dn.update_window_dims),
                                      inserted_window_dims=_shift(dn.inserted_window_dims),
                                      scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                                      operand_batching_dims=(0,) + _shift(dn.operand_batching_dims),
                                      scatter_indices_batching_dims=(0,) + _shift(dn.scatter_indices_batching_dims))
        return prim.bind(operand, indices, updates, dimension_numbers=new, **params), 0
    return rule


def _define_scatter(name):
    p = define(name, abstract_eval=_scatter_abstract, impl=_make_scatter_impl(name),
               weak_type_rule=lambda w, **params: w[0], pp_params=_pp_params)
    jvp_rules[p] = _scatter_jvp(p)
    batch_rules[p] = _scatter_batch(p)
    return p


scatter_p = _define_scatter("scatter")
scatter_add_p = _define_scatter("scatter-add")
scatter_mul_p = _define_scatter("scatter-mul")
scatter_sub_p = _define_scatter("scatter-sub")
scatter_min_p = _define_scatter("scatter-min")
scatter_max_p = _define_scatter("scatter-max")
transpose_rules[scatter_p] = _scatter_t
transpose_rules[scatter_add_p] = _scatter_add_t
transpose_rules[scatter_mul_p] = _scatter_mul_t
transpose_rules[scatter_sub_p] = _scatter_sub_t

_KIND_TO_PRIM = {"set": scatter_p, "add": scatter_add_p, "sub": scatter_sub_p, "mul": scatter_mul_p, "min": scatter_min_p,
                 "max": scatter_max_p}


def _update_jaxpr(op, dtype):
    """The scalar combiner JAX records in scatter params (`{ lambda ; a b. let c = add a b in (c,) }`)."""
    if op is None:
        return None
    from ..transforms.staging import trace_to_jaxpr
    lax = _lax()
    fn = {"add": lax.add, "sub": lax.sub, "mul": lax.mul, "min": lax.min, "max": lax.max}[op]
    aval = ShapedArray((), np.dtype(dtype))
    jaxpr, _ = trace_to_jaxpr(lambda a, b: [fn(a, b)], [aval, aval])
    return jaxpr


_KIND_TO_OP = {"set": None, "add": "add", "sub": "sub", "mul": "mul", "min": "min", "max": "max"}


# ---- lax-level wrappers -------------------------------------------------------------------

def gather(operand, start_indices, dimension_numbers, slice_sizes, *, unique_indices=False,
           indices_are_sorted=False, mode=None, fill_value=None):
    """`lax.gather`: mode None means PROMISE_IN_BOUNDS; FILL_OR_DROP gets a dtype-default fill."""
    if mode is None:
        mode = GatherScatterMode.PROMISE_IN_BOUNDS
    mode = GatherScatterMode.from_any(mode)
    if mode == GatherScatterMode.FILL_OR_DROP:
        if fill_value is None:
            fill_value = _default_fill(get_aval(operand).dtype)
    else:
        fill_value = None
    return gather_p.bind(operand, start_indices, dimension_numbers=dimension_numbers,
                         slice_sizes=tuple(int(s) for s in slice_sizes), unique_indices=bool(unique_indices),
                         indices_are_sorted=bool(indices_are_sorted), mode=mode, fill_value=fill_value)


def _scatter_wrapper(kind):
    def fn(operand, scatter_indices, updates, dimension_numbers, *, indices_are_sorted=False,
           unique_indices=False, mode=None):
        prim = _KIND_TO_PRIM[kind]
        dtype = get_aval(operand).dtype
        return prim.bind(operand, scatter_indices, updates, dimension_numbers=dimension_numbers,
                         indices_are_sorted=bool(indices_are_sorted), unique_indices=bool(unique_indices),
                         mode=GatherScatterMode.from_any(mode), update_jaxpr=_update_jaxpr(_KIND_TO_OP[kind], dtype),
                         update_consts=())
    fn.__name__ = {"set": "scatter"}.get(kind, f"scatter_{kind}")
    return fn


scatter = _scatter_wrapper("set")
scatter_add = _scatter_wrapper("add")
scatter_mul = _scatter_wrapper("mul")
scatter_sub = _scatter_wrapper("sub")
scatter_min = _scatter_wrapper("min")
scatter_max = _scatter_wrapper("max")


def scatter_apply(operand, scatter_indices, func, dimension_numbers, *, update_shape=(), **kw):
    """`lax.scatter_apply`: apply `func` at the indexed positions (gather, map, scatter)."""
    sizes = _window_shape(get_aval(operand).shape, update_shape, dimension_numbers)
    vals = gather(operand, scatter_indices, _scatter_dnums_to_gather(dimension_numbers), sizes, mode=kw.get("mode"))
    return scatter(operand, scatter_indices, func(vals), dimension_numbers, **kw)


def take_along_axis(x, idx, axis, mode=None):
    """`x` taken at `idx` (shaped as x) along `axis`: one gather batched over the other axes, as
    JAX's sort jvp takes its tangents. Rules use it where jax.numpy (a layer above) would offer
    `jnp.take_along_axis`."""
    aval = get_aval(x)
    axis %= aval.ndim
    others = tuple(np.delete(np.arange(aval.ndim, dtype=np.int64), axis))  # (numpy ints: JAX's jaxprs show them)
    dnums = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(axis,), start_index_map=(axis,),
                                   operand_batching_dims=others, start_indices_batching_dims=others)
    from .structural import broadcast_in_dim_p
    idx = broadcast_in_dim_p.bind(idx, shape=tuple(get_aval(idx).shape) + (1,),
                                  broadcast_dimensions=tuple(range(aval.ndim)), sharding=None)
    return gather(x, idx, dnums, (1,) * aval.ndim, mode=mode)


LAX_EXPORTS = {
    "gather": gather, "scatter": scatter, "scatter_add": scatter_add, "scatter_mul": scatter_mul,
    "scatter_min": scatter_min, "scatter_max": scatter_max, "scatter_apply": scatter_apply,
    "GatherDimensionNumbers": GatherDimensionNumbers, "ScatterDimensionNumbers": ScatterDimensionNumbers,
    "GatherScatterMode": GatherScatterMode,
    # lax area (issue 11): scatter_sub and the primitives by their lax names (theirs have hyphens)
    "scatter_sub": scatter_sub, "scatter_p": scatter_p, "scatter_add_p": scatter_add_p, "scatter_sub_p": scatter_sub_p,
    "scatter_mul_p": scatter_mul_p, "scatter_min_p": scatter_min_p, "scatter_max_p": scatter_max_p,
}
