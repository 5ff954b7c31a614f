"""Shape-changing primitives: broadcast_in_dim, reshape, transpose, squeeze, iota, slice, pad,
concatenate, rev, dynamic_slice, dynamic_update_slice, split."""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, specialize_rules, transform_ops, transpose_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from ..transforms.batching import bdim_at_front, moveaxis
from . import define, never_weak


def _lax():
    from ..lax import lax  # INHERENT: up to lax
    return lax


# ---- broadcast_in_dim ---------------------------------------------------------------------

def _bid_abstract(x, shape, broadcast_dimensions, sharding=None):
    if len(broadcast_dimensions) != x.ndim:
        raise TypeError(f"broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; "
                        f"got broadcast_dimensions {broadcast_dimensions} for operand ndim {x.ndim}.")
    for i, d in enumerate(broadcast_dimensions):
        if x.shape[i] not in (1, shape[d]):
            raise TypeError(f"broadcast_in_dim operand dimension sizes must either be 1, or be equal to "
                            f"their corresponding dimensions in the target broadcast shape; got operand of "
                            f"shape {x.shape}, target broadcast shape {tuple(shape)}, broadcast_dimensions "
                            f"{tuple(broadcast_dimensions)} ")
    return ShapedArray(shape, x.dtype, x.weak_type)


def _bid_impl(x, shape, broadcast_dimensions, sharding=None):
    expanded = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        expanded[d] = x.shape[i]
    return np.broadcast_to(x.reshape(expanded), shape)


def _bid_specialize(avals, shape, broadcast_dimensions, sharding=None):
    """_bid_impl with the expanded shape computed once; a broadcast that only adds size-1 axes
    is that reshape alone."""
    expanded = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        expanded[d] = avals[0].shape[i]
    expanded, shape = tuple(expanded), tuple(shape)
    if expanded == shape:
        return lambda x: x.reshape(shape)
    return lambda x: np.broadcast_to(x.reshape(expanded), shape)


def _bid_t(ct, x, shape, broadcast_dimensions, sharding=None):
    if type(ct) is ad.Zero:
        return [None]
    lax = _lax()
    # as JAX: every size-1 operand axis is summed away and put back (also one that stays size 1:
    # reduce_sum over it then broadcast_in_dim, the jaxpr JAX prints for a bias of shape (1,))
    unit = tuple(i for i, n in enumerate(x.aval.shape) if n == 1)
    bdims = tuple(np.delete(np.arange(len(shape)), broadcast_dimensions))
    sum_dims = tuple(sorted(bdims + tuple(broadcast_dimensions[i] for i in unit)))
    out = lax.reduce_sum(ct, sum_dims) if sum_dims else ct
    if unit:
        out = lax.expand_dims(out, unit)
    return [out]


def _bid_batch(axis_data, vals, dims, shape, broadcast_dimensions, sharding=None):
    (x,), (d,) = vals, dims
    x = moveaxis(x, d, 0)
    new_shape = (get_aval(x).shape[0],) + tuple(shape)
    new_bdims = (0,) + tuple(np.add(1, broadcast_dimensions))  # (numpy ints, as JAX's rule makes them)
    return broadcast_in_dim_p.bind(x, shape=new_shape, broadcast_dimensions=new_bdims, sharding=sharding), 0


broadcast_in_dim_p = define("broadcast_in_dim", abstract_eval=_bid_abstract, impl=_bid_impl)
specialize_rules[broadcast_in_dim_p] = _bid_specialize
# JAX's printer: shape and sharding are implied by the binder type; empty dims are not shown
broadcast_in_dim_p.pp_params = lambda params: [
    (k, params[k]) for k in sorted(params)
    if k not in ("shape", "sharding") and not (k == "broadcast_dimensions" and not params[k])]
ad.deflinear(broadcast_in_dim_p, _bid_t)
batch_rules[broadcast_in_dim_p] = _bid_batch
transform_ops["broadcast_in_dim_p"] = broadcast_in_dim_p   # batching broadcasts with it (core/_engine/tracing/rules.py)

# ---- reshape ------------------------------------------------------------------------------


def _reshape_abstract(x, new_sizes, dimensions=None, sharding=None):
    if int(np.prod(new_sizes, dtype=np.int64)) != x.size:
        raise TypeError(f"reshape total size must be unchanged, got new_sizes {tuple(new_sizes)} "
                        f"(of total size {int(np.prod(new_sizes, dtype=np.int64))}) for shape "
                        f"{x.shape} (of total size {x.size}).")
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


def _reshape_impl(x, new_sizes, dimensions=None, sharding=None):
    if dimensions is not None:
        x = np.transpose(x, dimensions)
    return np.reshape(x, new_sizes)


def _reshape_batch(axis_data, vals, dims, new_sizes, dimensions=None, sharding=None):
    (x,), (d,) = vals, dims
    x = moveaxis(x, d, 0)
    if dimensions is not None:   # the permutation keeps the batch axis in front (JAX's rule)
        dimensions = (0,) + tuple(np.add(1, dimensions))
    return reshape_p.bind(x, new_sizes=(get_aval(x).shape[0],) + tuple(new_sizes), dimensions=dimensions,
                          sharding=sharding), 0


def _reshape_t(ct, x, new_sizes, dimensions=None, sharding=None):
    """JAX's rule: with `dimensions` (the operand is transposed before the reshape), the cotangent is
    reshaped to the permuted shape and transposed back (the permutation was dropped before: a silently
    wrong gradient of lax.reshape(x, shape, dimensions) and of jnp.prod over inner axes)."""
    if type(ct) is ad.Zero:
        return [None]
    if dimensions is None:
        return [reshape_p.bind(ct, new_sizes=x.aval.shape, dimensions=None, sharding=sharding)]
    lax = _lax()
    out = lax.reshape(ct, tuple(x.aval.shape[d] for d in dimensions))
    return [lax.transpose(out, tuple(np.argsort(dimensions)))]


reshape_p = define("reshape", abstract_eval=_reshape_abstract, impl=_reshape_impl)
specialize_rules[reshape_p] = lambda avals, new_sizes, dimensions=None, sharding=None: (
    None if dimensions is not None else lambda x: x.reshape(new_sizes))
ad.deflinear(reshape_p, _reshape_t)
batch_rules[reshape_p] = _reshape_batch

# ---- transpose ----------------------------------------------------------------------------


def _transpose_abstract(x, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise TypeError(f"transpose permutation isn't a permutation of operand dimensions, got "
                        f"permutation {tuple(permutation)} for operand shape {x.shape}.")
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype, x.weak_type)


def _transpose_batch(axis_data, vals, dims, permutation):
    (x,), (d,) = vals, dims
    perm = (d,) + tuple(p if p < d else p + 1 for p in permutation)
    return transpose_p.bind(x, permutation=perm), 0


transpose_p = define("transpose", abstract_eval=_transpose_abstract,
                     impl=lambda x, permutation: np.transpose(x, permutation))
specialize_rules[transpose_p] = lambda avals, permutation: lambda x: x.transpose(permutation)
ad.deflinear(transpose_p, lambda ct, x, permutation: [
    None if type(ct) is ad.Zero else transpose_p.bind(ct, permutation=tuple(int(i) for i in np.argsort(permutation)))])
batch_rules[transpose_p] = _transpose_batch

# ---- squeeze ------------------------------------------------------------------------------


def _squeeze_abstract(x, dimensions):
    dims = tuple(d % x.ndim for d in dimensions) if x.ndim else ()
    for d in dims:
        if x.shape[d] != 1:
            raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one, "
                             f"got shape={x.shape} and dimensions={tuple(dimensions)}")
    return ShapedArray(tuple(s for i, s in enumerate(x.shape) if i not in dims), x.dtype, x.weak_type)


def _squeeze_batch(axis_data, vals, dims, dimensions):
    (x,), (d,) = vals, dims
    x = moveaxis(x, d, 0)
    nd = get_aval(x).ndim - 1
    return squeeze_p.bind(x, dimensions=tuple(dd % nd + 1 for dd in dimensions)), 0


squeeze_p = define("squeeze", abstract_eval=_squeeze_abstract,
                   impl=lambda x, dimensions: np.squeeze(x, tuple(dimensions)) if dimensions else x)
ad.deflinear(squeeze_p, lambda ct, x, dimensions: [
    None if type(ct) is ad.Zero else _lax().expand_dims(ct, tuple(d % x.aval.ndim for d in dimensions))])
batch_rules[squeeze_p] = _squeeze_batch

# ---- iota ---------------------------------------------------------------------------------


def _iota_impl(dtype, shape, dimension, sharding=None):
    r = np.arange(shape[dimension], dtype=dtype)
    bshape = [1] * len(shape)
    bshape[dimension] = shape[dimension]
    return np.broadcast_to(r.reshape(bshape), shape)


iota_p = define("iota", abstract_eval=lambda dtype, shape, dimension, sharding=None: ShapedArray(shape, dtype),
                impl=_iota_impl, weak_type_rule=never_weak)

# ---- slice --------------------------------------------------------------------------------


def _slice_abstract(x, start_indices, limit_indices, strides=None):
    strides = strides or (1,) * x.ndim
    shape = tuple(max(0, -(-(hi - lo) // st)) for lo, hi, st in zip(start_indices, limit_indices, strides))
    return ShapedArray(shape, x.dtype, x.weak_type)


def _slice_impl(x, start_indices, limit_indices, strides=None):
    strides = strides or (1,) * x.ndim
    return x[tuple(slice(lo, hi, st) for lo, hi, st in zip(start_indices, limit_indices, strides))]


def _slice_t(ct, x, start_indices, limit_indices, strides=None):
    if type(ct) is ad.Zero:
        return [None]
    shape = x.aval.shape
    cshape = get_aval(ct).shape
    lo = tuple(int(i) for i in start_indices)
    # numpy ints where JAX's rule computes with numpy (its jaxprs print `np.int64(1)`)
    if strides is None or all(st == 1 for st in strides):
        hi = tuple(np.int64(s - l) for s, l in zip(shape, limit_indices))
        interior = (0,) * len(shape)
    else:
        hi = tuple(np.int64(s - (l + (c - 1) * st + 1) if c else s - l)
                   for s, l, c, st in zip(shape, lo, cshape, strides))
        interior = tuple(np.int64(st - 1) for st in strides)
    return [pad_p.bind(ct, _lax()._zero(ct), padding_config=tuple(zip(lo, hi, interior)))]


def _slice_batch(axis_data, vals, dims, start_indices, limit_indices, strides=None):
    (x,), (d,) = vals, dims
    size = get_aval(x).shape[d]
    st = list(start_indices)
    st.insert(d, 0)
    li = list(limit_indices)
    li.insert(d, size)
    sr = None
    if strides is not None:
        sr = list(strides)
        sr.insert(d, 1)
        sr = tuple(sr)
    return slice_p.bind(x, start_indices=tuple(st), limit_indices=tuple(li), strides=sr), d


slice_p = define("slice", abstract_eval=_slice_abstract, impl=_slice_impl)
ad.deflinear(slice_p, _slice_t)
batch_rules[slice_p] = _slice_batch

# ---- pad ----------------------------------------------------------------------------------


def _pad_abstract(x, pv, padding_config):
    shape = tuple(lo + hi + d + max(0, d - 1) * interior
                  for d, (lo, hi, interior) in zip(x.shape, padding_config))
    return ShapedArray(shape, x.dtype, x.weak_type and pv.weak_type)


def _pad_impl(x, pv, padding_config):
    pv = np.asarray(pv, x.dtype)
    for axis, (lo, hi, it) in enumerate(padding_config):
        n = x.shape[axis]
        if it > 0 and n > 1:
            shape = list(x.shape)
            shape[axis] = n + (n - 1) * it
            y = np.full(shape, pv, x.dtype)
            idx = [slice(None)] * x.ndim
            idx[axis] = slice(None, None, it + 1)
            y[tuple(idx)] = x
            x = y
        for amount, front in ((lo, True), (hi, False)):
            if amount > 0:
                shape = list(x.shape)
                shape[axis] = amount
                pad = np.full(shape, pv, x.dtype)
                x = np.concatenate([pad, x] if front else [x, pad], axis=axis)
            elif amount < 0:
                idx = [slice(None)] * x.ndim
                idx[axis] = slice(-amount, None) if front else slice(None, x.shape[axis] + amount)
                x = x[tuple(idx)]
    return x


def _pad_t(ct, x, pv, padding_config):
    if type(ct) is ad.Zero:
        return [None, None]
    lax = _lax()
    t_x = None
    if ad.is_undefined(x):
        lo = tuple(lo for lo, _, _ in padding_config)
        hi = tuple(hi for _, hi, _ in padding_config)
        interior = tuple(it for _, _, it in padding_config)
        # JAX's rule computes the configs with numpy, so its jaxprs show np.int64 entries
        # (`padding_config=((np.int64(-1), np.int64(-1), np.int64(0)),)`, `strides=(np.int64(1),)`)
        unpad = tuple(zip(np.negative(lo), np.negative(hi), np.zeros_like(interior)))
        unpadded = pad_p.bind(ct, lax._zero(ct), padding_config=unpad)
        t_x = slice_p.bind(unpadded, start_indices=tuple(np.zeros_like(lo)), limit_indices=get_aval(unpadded).shape,
                           strides=tuple(np.add(interior, 1)))
    t_pv = None
    if ad.is_undefined(pv):
        t_pv = lax.sub(lax.reduce_sum(ct, tuple(range(get_aval(ct).ndim))),
                       lax.reduce_sum(t_x, tuple(range(get_aval(t_x).ndim))) if t_x is not None else 0)
    return [t_x, t_pv]


def _pad_batch(axis_data, vals, dims, padding_config):
    (x, pv), (d, dpv) = vals, dims
    if dpv is not None:
        # JAX's rule: pad with zeros, then select the per-example padding value where padded
        from ..lax import lax  # INHERENT: up to lax
        x = bdim_at_front(x, d, axis_data.size)
        cfg = ((0, 0, 0),) + tuple(padding_config)
        zero = lax.full((), 0, get_aval(x).dtype)
        padded = pad_p.bind(x, zero, padding_config=cfg)
        mask = pad_p.bind(lax.full(get_aval(x).shape, True, np.bool_), lax.full((), False, np.bool_),
                          padding_config=cfg)
        shape = get_aval(padded).shape
        pvb = lax.broadcast_in_dim(moveaxis(pv, dpv, 0), shape, (0,))
        return lax.select(mask, padded, pvb), 0
    cfg = list(padding_config)
    cfg.insert(d, (0, 0, 0))
    return pad_p.bind(x, pv, padding_config=tuple(cfg)), d


pad_p = define("pad", abstract_eval=_pad_abstract, impl=_pad_impl,
               weak_type_rule=lambda w, **p: all(w))
ad.deflinear(pad_p, _pad_t)
batch_rules[pad_p] = _pad_batch

# ---- concatenate --------------------------------------------------------------------------


def _concat_abstract(*xs, dimension):
    if len({x.dtype for x in xs}) > 1:
        raise TypeError(f"concatenate requires arguments to have the same dtypes, got "
                        f"{', '.join(x.dtype.name for x in xs)}.")
    _check_concat_shapes([x.shape for x in xs], dimension)
    shape = list(xs[0].shape)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return ShapedArray(shape, xs[0].dtype, all(x.weak_type for x in xs))


def _check_concat_shapes(shapes, dimension):
    if len({len(s) for s in shapes}) > 1:
        raise TypeError(f"Cannot concatenate arrays with different numbers of dimensions: got "
                        f"{', '.join(str(tuple(s)) for s in shapes)}.")
    others = {tuple(d for i, d in enumerate(s) if i != dimension) for s in shapes}
    if len(others) > 1:
        raise TypeError("Cannot concatenate arrays with shapes that differ in dimensions other than the one "
                        f"being concatenated: concatenating along dimension {dimension} for shapes "
                        f"{', '.join(str(tuple(s)) for s in shapes)}.")


def _concat_impl(*xs, dimension):
    _check_concat_shapes([x.shape for x in xs], dimension)
    return np.concatenate(xs, axis=dimension)


def _concat_t(ct, *xs, dimension):
    if type(ct) is ad.Zero:
        return [None] * len(xs)
    # JAX's rule: one `split` of the cotangent into every operand's part (those of operands that
    # are not linear go unused)
    sizes = tuple((x.aval if ad.is_undefined(x) else get_aval(x)).shape[dimension] for x in xs)
    parts = split_p.bind(ct, sizes=sizes, axis=dimension)
    return [p if ad.is_undefined(x) else None for p, x in zip(parts, xs)]


def _concat_batch(axis_data, vals, dims, dimension):
    size = axis_data.size
    xs = [bdim_at_front(x, d, size) for x, d in zip(vals, dims)]
    return concatenate_p.bind(*xs, dimension=dimension + 1), 0


concatenate_p = define("concatenate", abstract_eval=_concat_abstract, impl=_concat_impl)
ad.deflinear(concatenate_p, _concat_t)
batch_rules[concatenate_p] = _concat_batch

# ---- rev ----------------------------------------------------------------------------------

rev_p = define("rev", abstract_eval=lambda x, dimensions: x,
               impl=lambda x, dimensions: np.flip(x, dimensions) if dimensions else x)
ad.deflinear(rev_p, lambda ct, x, dimensions: [None if type(ct) is ad.Zero else rev_p.bind(ct, dimensions=dimensions)])
batch_rules[rev_p] = lambda ad_, vals, dims, dimensions: (
    rev_p.bind(vals[0], dimensions=tuple(d + (1 if d >= dims[0] else 0) for d in dimensions)), dims[0])

# ---- dynamic_slice / dynamic_update_slice -------------------------------------------------


def _clamp_starts(shape, sizes, starts):
    return [int(min(max(int(s), 0), d - z)) for s, d, z in zip(starts, shape, sizes)]


def _ds_impl(x, *starts, slice_sizes):
    st = _clamp_starts(x.shape, slice_sizes, [np.asarray(s).item() for s in starts])
    return x[tuple(slice(s, s + z) for s, z in zip(st, slice_sizes))]


def _ds_jvp(primals, tangents, slice_sizes):
    x, *starts = primals
    out = dynamic_slice_p.bind(x, *starts, slice_sizes=slice_sizes)
    t = tangents[0]
    if type(t) is ad.Zero:
        return out, ad.Zero(get_aval(out))
    return out, dynamic_slice_p.bind(t, *starts, slice_sizes=slice_sizes)


def _ds_t(ct, x, *starts, slice_sizes):
    lax = _lax()
    if type(ct) is ad.Zero:
        return [None] * (1 + len(starts))
    zeros = lax.full(x.aval.shape, 0, x.aval.dtype)
    return [dynamic_update_slice_p.bind(zeros, ct, *starts)] + [None] * len(starts)


def _ds_batch(axis_data, vals, dims, slice_sizes):
    x, *starts = vals
    dx, *dstarts = dims
    if all(d is None for d in dstarts):
        st = list(starts)
        st.insert(dx, _lax()._zero_index(starts[0] if starts else 0))
        ss = list(slice_sizes)
        ss.insert(dx, get_aval(x).shape[dx])
        return dynamic_slice_p.bind(x, *st, slice_sizes=tuple(ss)), dx
    from .indexing import batch_dynamic_slice   # batched start indices: a gather, as in JAX
    return batch_dynamic_slice(axis_data, vals, dims, slice_sizes)


dynamic_slice_p = define("dynamic_slice",
                         abstract_eval=lambda x, *s, slice_sizes: ShapedArray(slice_sizes, x.dtype, x.weak_type),
                         impl=_ds_impl, weak_type_rule=lambda w, **p: w[0])
ad.jvp_rules[dynamic_slice_p] = _ds_jvp
transpose_rules[dynamic_slice_p] = _ds_t
batch_rules[dynamic_slice_p] = _ds_batch


def _dus_impl(x, upd, *starts):
    st = _clamp_starts(x.shape, upd.shape, [np.asarray(s).item() for s in starts])
    out = x.copy()
    out[tuple(slice(s, s + z) for s, z in zip(st, upd.shape))] = upd
    return out


def _dus_jvp(primals, tangents):
    x, upd, *starts = primals
    tx, tu = tangents[0], tangents[1]
    out = dynamic_update_slice_p.bind(x, upd, *starts)
    if type(tx) is ad.Zero and type(tu) is ad.Zero:
        return out, ad.Zero(get_aval(out))
    return out, dynamic_update_slice_p.bind(ad.instantiate(tx), ad.instantiate(tu), *starts)


def _dus_t(ct, x, upd, *starts):
    lax = _lax()
    if type(ct) is ad.Zero:
        return [None] * (2 + len(starts))
    ua = upd.aval if ad.is_undefined(upd) else get_aval(upd)
    t_x = dynamic_update_slice_p.bind(ct, lax.full(ua.shape, 0, ua.dtype), *starts) if ad.is_undefined(x) else None
    t_u = dynamic_slice_p.bind(ct, *starts, slice_sizes=ua.shape) if ad.is_undefined(upd) else None
    return [t_x, t_u] + [None] * len(starts)


def _dus_batch(axis_data, vals, dims):
    x, upd, *starts = vals
    dx, du, *dstarts = dims
    size = axis_data.size
    if all(d is None for d in dstarts):
        x = bdim_at_front(x, dx, size)
        upd = bdim_at_front(upd, du, size)
        return dynamic_update_slice_p.bind(x, upd, _lax()._zero_index(starts[0] if starts else 0), *starts), 0
    from ..lax import lax  # INHERENT: up to lax
    return lax._batched_dynamic_update_slice(size, x, dx, upd, du, starts, dstarts), 0


dynamic_update_slice_p = define("dynamic_update_slice", abstract_eval=lambda x, u, *s: x,
                                impl=_dus_impl, weak_type_rule=lambda w, **p: w[0])
ad.jvp_rules[dynamic_update_slice_p] = _dus_jvp
transpose_rules[dynamic_update_slice_p] = _dus_t
batch_rules[dynamic_update_slice_p] = _dus_batch

# ---- split --------------------------------------------------------------------------------


def _split_abstract(x, sizes, axis):
    outs = []
    for s in sizes:
        shape = list(x.shape)
        shape[axis] = s
        outs.append(ShapedArray(shape, x.dtype, x.weak_type))
    return outs


def _split_impl(x, sizes, axis):
    return np.split(x, np.cumsum(sizes)[:-1], axis=axis)


split_p = define("split", abstract_eval=_split_abstract, impl=_split_impl, multiple_results=True,
                 weak_type_rule=lambda w, sizes, axis: [w[0]] * len(sizes))


def _split_jvp(primals, tangents, sizes, axis):
    outs = split_p.bind(primals[0], sizes=sizes, axis=axis)
    t = tangents[0]
    return outs, split_p.bind(t, sizes=sizes, axis=axis)


def _split_t(cts, x, sizes, axis):
    if all(type(c) is ad.Zero for c in cts):
        return [None]
    cts = [ad.instantiate(c) for c in cts]
    # (lax.concatenate of one operand is that operand: JAX's jaxprs show no concatenate then)
    return [cts[0] if len(cts) == 1 else concatenate_p.bind(*cts, dimension=axis)]


ad.jvp_rules[split_p] = _split_jvp
transpose_rules[split_p] = _split_t
batch_rules[split_p] = lambda ad_, vals, dims, sizes, axis: (
    split_p.bind(vals[0], sizes=sizes, axis=axis + (1 if axis >= dims[0] else 0)), [dims[0]] * len(sizes))

# ---- stack / unstack (jnp.stack of a list binds `stack`, as in JAX 0.10) -------------------


def _stack_abstract(*xs, axis):
    if len({x.shape for x in xs}) > 1:
        raise ValueError("All input arrays must have the same shape.")
    if len({x.dtype for x in xs}) > 1:
        raise TypeError(f"stack requires arguments to have the same dtypes, got "
                        f"{', '.join(x.dtype.name for x in xs)}.")
    shape = list(xs[0].shape)
    shape.insert(axis, len(xs))
    return ShapedArray(tuple(shape), xs[0].dtype, all(x.weak_type for x in xs))


def _unstack_abstract(x, axis):
    shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
    return [ShapedArray(shape, x.dtype, x.weak_type)] * x.shape[axis]


stack_p = define("stack", abstract_eval=_stack_abstract, impl=lambda *xs, axis: np.stack(xs, axis=axis))
unstack_p = define("unstack", abstract_eval=_unstack_abstract, multiple_results=True,
                   impl=lambda x, axis: [np.take(x, i, axis=axis) for i in range(x.shape[axis])],
                   weak_type_rule=lambda w, axis: w[0])
ad.deflinear(stack_p, lambda ct, *xs, axis: (
    [None] * len(xs) if type(ct) is ad.Zero else unstack_p.bind(ct, axis=axis)))
ad.jvp_rules[unstack_p] = lambda primals, tangents, axis: (
    unstack_p.bind(primals[0], axis=axis), unstack_p.bind(ad.instantiate(tangents[0]), axis=axis))
transpose_rules[unstack_p] = lambda cts, x, axis: [stack_p.bind(*[ad.instantiate(c) for c in cts], axis=axis)]
batch_rules[stack_p] = lambda axis_data, vals, dims, axis: (
    stack_p.bind(*[bdim_at_front(v, d, axis_data.size) for v, d in zip(vals, dims)], axis=axis + 1), 0)
batch_rules[unstack_p] = lambda axis_data, vals, dims, axis: (
    unstack_p.bind(moveaxis(vals[0], dims[0], 0), axis=axis + 1),
    [0] * (get_aval(vals[0]).shape[axis + (1 if axis >= dims[0] else 0)]))
