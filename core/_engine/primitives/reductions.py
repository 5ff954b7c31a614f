"""Reductions and scans: reduce_sum/max/min/prod/and/or, argmax/argmin, cumulative ops, sort."""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from ..base.blas import HAS_BLAS
from ..base.fp_errors import _ERR_VAR, _IGNORE_ERRORS, quietly
from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, specialize_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from . import define, never_weak
from ._signed_zero import xla_max_accumulate, xla_max_reduce, xla_min_accumulate, xla_min_reduce


def _lax():
    from ..lax import lax  # INHERENT: up to lax
    return lax


def _reduce_abstract(name):
    def rule(x, axes, out_sharding=None):
        for a in axes:
            if not 0 <= a < x.ndim:
                raise ValueError(f"{name}: axis {a} is out of bounds for array of dimension {x.ndim}")
        return ShapedArray(tuple(d for i, d in enumerate(x.shape) if i not in axes), x.dtype, x.weak_type)
    return rule


def _reduce_batch(prim):
    def rule(axis_data, vals, dims, axes, **params):
        (x,), (d,) = vals, dims
        # numpy ints, as JAX's reducer_batcher makes them (they show in jaxpr text)
        new_axes = tuple(np.where(np.less(axes, d), axes, np.add(axes, 1))) if axes else ()
        out_d = d - sum(1 for a in new_axes if a < d)
        return prim.bind(x, axes=new_axes, **params), out_d
    return rule


def _reduce_pp(params):
    return [(k, params[k]) for k in sorted(params)]


_SIGNED_ZERO_REDUCERS = (xla_max_reduce, xla_min_reduce)


def _reducer(name, np_fn, kinds=None):
    def impl(x, axes, out_sharding=None):
        if dtypes.EMULATED_BF16 and x.dtype == dtypes.bf16 and np_fn in _ROUNDING_REDUCERS:
            return dtypes.emulated_reduce(_ROUNDING_REDUCERS[np_fn], x, axes)   # accumulates in bfloat16, as XLA
        out = quietly(np_fn, x, tuple(axes))
        return out if type(out) is np.ndarray and out.dtype == x.dtype else np.asarray(out, x.dtype)
    impl.np_reduce = np_fn   # (the eager fast path in tracing calls it directly)
    p = define(name, abstract_eval=_reduce_abstract(name), impl=impl)
    batch_rules[p] = _reduce_batch(p)
    if isinstance(getattr(np_fn, "__self__", None), np.ufunc) or np_fn in _SIGNED_ZERO_REDUCERS:  # a ufunc's reduce
        def specialize(avals, axes, out_sharding=None):
            # float reductions keep their dtype: the bare reduce (generated code has the errstate)
            return (lambda x: np_fn(x, axes)) if dtypes.kind(avals[0].dtype) in "fc" else None
        specialize_rules[p] = specialize
    return p


def _adds_in_order(x, axes) -> bool:
    """Whether XLA's CPU sum differs from numpy's here: a float sum over the last axis alone, of 8
    to 32 terms, XLA adds term after term (measured with JAX 0.10.2, eager and jitted when the
    reduce is not fused with what feeds it: 100% of random float32 vectors), where numpy's pairwise
    sum adds in another order from 8 terms on (~50-90% of results then differ in the last bit;
    numpy's sums over a leading axis already go row after row). Beyond 32 XLA vectorizes: not
    emulated."""
    return len(axes) == 1 and 8 <= x.shape[-1] <= 32 and axes[0] == len(x.shape) - 1 and x.dtype.kind == "f"


def _xla_add_reduce(x, axes):
    """np.add.reduce(x, axes) adding in XLA's CPU order (_adds_in_order): numpy's accumulate is
    strictly sequential."""
    if _adds_in_order(x, axes):
        return np.add.accumulate(x, axis=-1)[..., -1]
    blas = _blas_leading_sum(x, axes)
    return blas(x) if blas is not None else np.add.reduce(x, axes)


# (the emulated bfloat16 rounds each step: the ufunc whose reduce it replays)
_ROUNDING_REDUCERS = {np.add.reduce: np.add, _xla_add_reduce: np.add, np.multiply.reduce: np.multiply}
reduce_sum_p = _reducer("reduce_sum", _xla_add_reduce)  # = np.sum, minus its wrapper (XLA's order)


def eager_mean(x, axes, keepdims):
    """jnp.mean's eager fast path on a float ndarray: what its primitives run (reduce_sum in x's
    dtype, then lax.div by the element count in that dtype), without binding them one by one."""
    if _ERR_VAR is None:
        out = quietly(_mean, x, axes, keepdims)
    else:
        token = _ERR_VAR.set(_IGNORE_ERRORS)   # (quietly, inlined: a small mean is a few us)
        try:
            out = _mean(x, axes, keepdims)
        finally:
            _ERR_VAR.reset(token)
    return out if type(out) is np.ndarray else np.asarray(out, x.dtype)


def _mean(x, axes, keepdims):
    blas = _blas_leading_sum(x, axes)
    if blas is not None:   # as compiled (the sum's specialization): eager and jitted means agree
        total = blas(x)
        if keepdims:
            total = total.reshape([1 if i in axes else d for i, d in enumerate(x.shape)])
    elif not _adds_in_order(x, axes):
        total = np.add.reduce(x, axes, None, None, keepdims)
    else:
        total = np.add.accumulate(x, axis=-1)[..., -1:].reshape([1 if i in axes else d for i, d in enumerate(x.shape)]
                                                              if keepdims else x.shape[:-1])
    count = 1
    for i in axes:
        count *= x.shape[i]
    # JAX's jnp.mean is jitted: XLA multiplies by the reciprocal of the constant count
    return total * (x.dtype.type(1) / x.dtype.type(count))


def eager_var(x, plan):
    """jnp.var's eager fast path on a float ndarray, by a plan from `var_plan`: what its compiled
    jaxpr runs, step for step and so bit for bit (each sum as compiled, BLAS included; mean =
    sum * (1 / n); (x - mean) ** 2 summed, divided by n - correction, NaN where that is not
    positive), without the jit call's argument handling."""
    if _ERR_VAR is None:
        return quietly(_var, x, *plan)
    token = _ERR_VAR.set(_IGNORE_ERRORS)   # (quietly, inlined)
    try:
        return _var(x, *plan)
    finally:
        _ERR_VAR.reset(token)


def var_plan(x, axes, correction, keepdims):
    """What a var of this shape does besides the arithmetic on x: the two sums as compiled, the
    shapes, and the scalars (n, 1 / n, n - correction and its reciprocal in x's dtype)."""
    dt = x.dtype
    count = 1
    for i in axes:
        count *= x.shape[i]
    kept = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    out_shape = kept if keepdims else tuple(d for i, d in enumerate(x.shape) if i not in axes)
    with np.errstate(all="ignore"):
        n, normalizer = dt.type(count), dt.type(count) - dt.type(correction)
        # a division by a broadcast scalar is XLA's multiply by its reciprocal when the scalar has
        # no other use (jnp.mean's by the count it keeps the reduced axes for); var's own divisor
        # n - correction also feeds `normalizer > 0`: a true division (backends/cpu_ufuncs.py)
        mean_by = (np.multiply, dt.type(1) / n) if kept else (np.divide, n)
        var_by = (np.divide, normalizer)
    reshape_to = kept if keepdims and kept else None
    total = _reduce_sum_specialize((x,), axes)   # (reads only shape and dtype)
    if len(axes) == x.ndim:   # one number: it broadcasts as it is (and numpy's reduce is the sum)
        total, kept = _xla_add_reduce, None
    else:
        total = (lambda x, axes, total=total: total(x))   # (BLAS or numpy's reduce, as compiled)
    return total, axes, kept, mean_by, var_by, reshape_to, None if normalizer > 0 else out_shape


def _var(x, total, axes, kept, mean_by, var_by, reshape_to, nan_shape):
    mean = total(x, axes)
    if kept:
        mean = mean.reshape(kept)
    mean = mean_by[0](mean, mean_by[1])
    centered = np.square(np.subtract(x, mean))
    out = total(centered, axes)
    if reshape_to:
        out = out.reshape(reshape_to)
    out = var_by[0](out, var_by[1])
    if nan_shape is not None:   # n - correction <= 0: JAX's where(normalizer > 0, var, nan)
        return np.full(nan_shape, np.nan, x.dtype)
    return out if type(out) is np.ndarray else np.asarray(out, x.dtype)


# Summing the leading axes of a large float array (a batch's gradient, the bias of a dense layer):
# numpy's add.reduce walks it one short row at a time, so a (256, 64) column sum costs ~6x a
# same-size multiply; BLAS's vector-matrix product with ones adds the same numbers in vector
# passes (starting from 0.0, as XLA's reduction does: a sum of -0.0s is 0.0 in both). Only where
# numpy has a BLAS (not in Pyodide: there np.dot is numpy's own loop).
_BLAS_SUM_MIN_SIZE = 4096


def _blas_leading_sum(x, axes):
    """The BLAS sum of x's leading axes (see above) as a function of an array shaped like x, or None
    where the sum is numpy's reduce. Eager sums and means take it too, so that they agree with the
    jitted ones (JAX's eager ops are XLA's compiled ones): a (10000, 10) float32 column mean was
    up to 4e-6 apart between the two, and thinking_in_jax's `np.allclose(norm(X), jit(norm)(X),
    atol=1e-6)` said False. (Neither is XLA's order: there the column sums of that array are
    within 1 ulp of the exact sum, the BLAS's up to 15 ulps off, numpy's reduce up to 28.)"""
    lead = len(axes)
    if (HAS_BLAS and x.dtype in (np.float32, np.float64) and 0 < lead < x.ndim and tuple(sorted(axes)) == tuple(range(lead))
            and x.size >= _BLAS_SUM_MIN_SIZE):
        rest = x.shape[lead:]
        ones = np.ones(int(np.prod(x.shape[:lead])), x.dtype)
        matrix = (len(ones), int(np.prod(rest)))
        return lambda x: np.dot(ones, x.reshape(matrix)).reshape(rest)
    return None


def _reduce_sum_specialize(avals, axes, out_sharding=None):
    x = avals[0]
    if x.dtype.kind not in "fc":
        return None
    blas = _blas_leading_sum(x, tuple(axes))
    if blas is not None:
        return blas
    if _adds_in_order(x, tuple(axes)):
        return lambda x: np.add.accumulate(x, axis=-1)[..., -1]
    plain = lambda x: np.add.reduce(x, axes)   # noqa: E731
    plain.add_reduce_axes = axes   # (generated code calls np.add.reduce itself)
    return plain


specialize_rules[reduce_sum_p] = _reduce_sum_specialize


def _reduce_sum_t(ct, x, axes, out_sharding=None):
    if type(ct) is ad.Zero:
        return [None]
    shape = x.aval.shape
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    if kept == tuple(range(len(shape))):   # nothing summed (axes=()): no equation, as in JAX's jaxprs
        return [ct]
    # numpy ints, as JAX's rule computes them (np.delete of an arange): its jaxprs print
    # `broadcast_dimensions=(np.int64(1),)` (int64 on every platform, the page's wasm32 too)
    from .structural import broadcast_in_dim_p
    return [broadcast_in_dim_p.bind(ct, shape=tuple(shape), broadcast_dimensions=tuple(np.int64(i) for i in kept),
                                    sharding=None)]


ad.deflinear(reduce_sum_p, _reduce_sum_t)

reduce_max_p = _reducer("reduce_max", xla_max_reduce)   # (XLA's: -0.0 below +0.0, _signed_zero)
reduce_min_p = _reducer("reduce_min", xla_min_reduce)
reduce_prod_p = _reducer("reduce_prod", np.multiply.reduce)
reduce_and_p = _reducer("reduce_and", lambda x, axis: np.all(x, axis=axis))
reduce_or_p = _reducer("reduce_or", lambda x, axis: np.any(x, axis=axis))
reduce_xor_p = _reducer("reduce_xor", np.bitwise_xor.reduce)
for _p in (reduce_and_p, reduce_or_p, reduce_xor_p):
    ad.defjvp_zero(_p)


def _pp_without_sharding(params):
    return [(k, params[k]) for k in sorted(params) if k != "out_sharding"]


for _p in (reduce_max_p, reduce_min_p, reduce_prod_p, reduce_and_p, reduce_or_p, reduce_xor_p):
    _p.pp_params = _pp_without_sharding   # JAX 0.10 prints out_sharding on reduce_sum only


def _chooser_jvp(prim):
    def jvp(primals, tangents, axes, out_sharding=None):
        lax = _lax()
        (x,), (g,) = primals, tangents
        ans = prim.bind(x, axes=axes, out_sharding=out_sharding)
        shape = get_aval(x).shape
        # JAX's rule: the answer reshaped with size-1 reduced axes, compared by eq's size-1 broadcasting
        kept_dims = tuple(1 if i in axes else d for i, d in enumerate(shape))
        kept = ans if kept_dims == tuple(shape) else lax.reshape(ans, kept_dims)   # (axes=(): as it is, as JAX's)
        location = lax.convert_element_type(lax.eq(x, kept), get_aval(g).dtype)
        counts = lax.reduce_sum(location, axes)
        return ans, lax.div(lax.reduce_sum(lax.mul(g, location), axes), counts)
    return jvp


ad.jvp_rules[reduce_max_p] = _chooser_jvp(reduce_max_p)
ad.jvp_rules[reduce_min_p] = _chooser_jvp(reduce_min_p)


def _prod_jvp(primals, tangents, axes, out_sharding=None):
    """JAX's rule: the reduced axes moved to the front and flattened, then the product taken as a
    tree (halves multiplied pairwise, an odd half padded with 1) under a vmap per kept axis, and
    that tree differentiated with jvp: exact where x has zeros, and JAX's jaxpr text."""
    lax = _lax()
    (x,), (g,) = primals, tangents
    dtype = get_aval(x).dtype
    input_shape = np.array(get_aval(x).shape, dtype=int)
    axes = tuple(axes)
    n = np.prod(input_shape[list(axes)])
    non_axes = np.delete(np.arange(len(input_shape)), axes)
    permutation = axes + tuple(non_axes)
    new_shape = (n,) + tuple(input_shape[non_axes])

    def reshape(v):
        dims = None if tuple(int(p) for p in permutation) == tuple(range(len(input_shape))) else permutation
        if dims is None and tuple(get_aval(v).shape) == tuple(int(d) for d in new_shape) and get_aval(v).shape:
            return v
        return lax.reshape(v, new_shape, None if dims is None else tuple(int(d) for d in dims))
    xs, ts = reshape(x), reshape(ad.instantiate(g))
    # (JAX vmaps its pairwise reducer once per axis: a vmapped mul of operands batched alike is mul)
    reducer = lambda a, b: [lax.mul(a, b)]  # noqa: E731
    one = np.array(1, dtype)

    def reduce_tree(v, axis=0):
        while get_aval(v).shape[axis] > 1:
            m = get_aval(v).shape[axis]
            n1 = (m + 1) // 2
            v1 = lax.slice_in_dim(v, 0, n1)
            v2 = lax.slice_in_dim(v, n1, None)
            if m - n1 != n1:
                paddings = [(0, 0, 0)] * len(get_aval(v).shape)
                paddings[axis] = (0, 1, 0)
                v2 = lax.pad(v2, one, paddings)
            v, = reducer(v1, v2)
        if get_aval(v).shape[axis] == 0:
            return lax.full(tuple(int(d) for d in input_shape[non_axes]), 1, dtype)
        return lax.squeeze(v, (axis,))
    (ans,), (t,) = ad.jvp_flat(lambda v: [reduce_tree(v)], [xs], [ts])
    return ans, t


def _prod_of_others(x, axes):
    lax = _lax()
    # exclusive cumulative products from both sides along the flattened reduced axes
    shape = get_aval(x).shape
    kept = [i for i in range(len(shape)) if i not in axes]
    perm = tuple(kept) + tuple(axes)
    xt = lax.transpose(x, perm)
    n = int(np.prod([shape[a] for a in axes]))
    flat = lax.reshape(xt, tuple(shape[i] for i in kept) + (n,))
    ones = lax.full(tuple(shape[i] for i in kept) + (1,), 1, get_aval(x).dtype)
    left = lax.concatenate([ones, lax.cumprod(flat, len(kept))[..., :-1]], len(kept))
    right = lax.concatenate([lax.cumprod(flat[..., ::-1], len(kept))[..., :-1][..., ::-1], ones], len(kept))
    prod = lax.mul(left, right)
    back = lax.reshape(prod, tuple(shape[i] for i in kept) + tuple(shape[a] for a in axes))
    return lax.transpose(back, tuple(np.argsort(perm)))


ad.jvp_rules[reduce_prod_p] = _prod_jvp


# ---- argmax / argmin ----------------------------------------------------------------------

def _arg_abstract(x, axes, index_dtype):
    return ShapedArray(tuple(d for i, d in enumerate(x.shape) if i not in axes), index_dtype, False)


def _arg_impl(fn):
    def impl(x, axes, index_dtype):
        return np.asarray(fn(x, axis=axes[0]), index_dtype)
    return impl


def _arg_batch(prim):
    def rule(axis_data, vals, dims, axes, index_dtype):
        (x,), (d,) = vals, dims
        new_axes = tuple(a + (1 if a >= d else 0) for a in axes)
        out_d = d - sum(1 for a in new_axes if a < d)
        return prim.bind(x, axes=new_axes, index_dtype=index_dtype), out_d
    return rule


def eager_arg_reduce(np_fn, x, axis, keepdims, index_dtype):
    """jnp.argmax/argmin's eager fast path on a non-empty ndarray (axis None: of the flattened
    array): what their primitives run (reshape, then the arg reduction), without binding them."""
    flat = axis is None
    out = np.asarray(np_fn(x.reshape(-1) if flat else x, axis=0 if flat else axis), index_dtype)
    if keepdims:
        out = out.reshape((1,) * x.ndim) if flat else np.expand_dims(out, axis)
    return out


argmax_p = define("argmax", abstract_eval=_arg_abstract, impl=_arg_impl(np.argmax), weak_type_rule=never_weak)
argmin_p = define("argmin", abstract_eval=_arg_abstract, impl=_arg_impl(np.argmin), weak_type_rule=never_weak)
for _p in (argmax_p, argmin_p):
    ad.defjvp_zero(_p)
    batch_rules[_p] = _arg_batch(_p)


# ---- cumulative ---------------------------------------------------------------------------

def _cum_impl(np_fn):
    def impl(x, axis, reverse):
        blocked = _BLOCKED_SCANS.get(np_fn)
        if blocked is not None and x.dtype in dtypes._NARROW_FLOATS:
            if reverse and x.shape[axis] <= _SCAN_BLOCK:   # XLA sums each suffix first to last
                return _suffix_scan(blocked[0], x, axis, dtypes.step_rounding(x.dtype))
            if not reverse:
                return _blocked_scan(*blocked, x, axis, dtypes.step_rounding(x.dtype))
        if reverse:
            x = np.flip(x, axis)
        if blocked is not None and x.dtype in dtypes._NARROW_FLOATS:
            out = _blocked_scan(*blocked, x, axis, dtypes.step_rounding(x.dtype))
        else:
            with np.errstate(all="ignore"):
                out = np.asarray(np_fn(x, axis=axis), x.dtype)
        return np.flip(out, axis) if reverse else out
    return impl


def _cum_batch(prim):
    def rule(axis_data, vals, dims, axis, reverse):
        (x,), (d,) = vals, dims
        return prim.bind(x, axis=axis + (1 if axis >= d else 0), reverse=reverse), d
    return rule


def _cum(name, np_fn):
    p = define(name, abstract_eval=lambda x, axis, reverse: x, impl=_cum_impl(np_fn))
    batch_rules[p] = _cum_batch(p)
    return p


# JAX lowers cumsum/cumprod/cumlogsumexp to a reduce_window, which XLA's CPU compiler rewrites
# into a blocked scan: blocks of 16 scanned element by element, the blocks' totals scanned the same
# way (recursively), each block's exclusive prefix then combined with its elements. In float16 and
# bfloat16, which round after every combine, that order shows (bf16 cumsum of arange(100) ends in
# 4960; element by element gives 4928), so the narrow floats take it here (measured against JAX
# 0.10.2 on random inputs: equal bit for bit); wider floats keep numpy's order (within an ulp).
_BLOCKED_SCANS = {np.cumsum: (np.add, 0.0), np.cumprod: (np.multiply, 1.0),
                  np.logaddexp.accumulate: (np.logaddexp, -np.inf)}
_SCAN_BLOCK = 16


def _suffix_scan(ufunc, x, axis, rounded):
    """A short reverse scan as XLA's reduce_window computes it: each suffix x[i:] combined first
    to last."""
    v = np.moveaxis(x, axis, 0)
    out = v.copy()
    with np.errstate(all="ignore"):
        for i in range(v.shape[0]):
            acc = v[i]
            for j in range(i + 1, v.shape[0]):
                acc = rounded(np.asarray(ufunc(acc, v[j]))).astype(x.dtype)
            out[i] = acc
    return np.moveaxis(out, 0, axis)


def _blocked_scan(ufunc, identity, x, axis, rounded):
    """Inclusive scan of `x` along `axis` in XLA's blocked order, each combine computed by numpy in
    x's dtype and passed through `rounded` (where the emulated bfloat16 rounds)."""
    def combine(a, b):
        return rounded(np.asarray(ufunc(a, b))).astype(x.dtype)

    def scan(v):   # along axis 0
        n = v.shape[0]
        if n <= _SCAN_BLOCK:
            out = v.copy()
            for i in range(1, n):
                out[i] = combine(out[i - 1], v[i])
            return out
        k = -(-n // _SCAN_BLOCK)
        padded = np.concatenate([v, np.full((k * _SCAN_BLOCK - n,) + v.shape[1:], identity, v.dtype)])
        blocks = padded.reshape((k, _SCAN_BLOCK) + v.shape[1:]).swapaxes(0, 1)   # (16, k, ...)
        inner = scan(blocks)                                                      # within each block
        totals = scan(inner[-1])                                                  # across blocks
        before = np.concatenate([np.full((1,) + totals.shape[1:], identity, v.dtype), totals[:-1]])
        return combine(before, inner).swapaxes(0, 1).reshape(padded.shape)[:n]

    with np.errstate(all="ignore"):
        return np.moveaxis(scan(np.moveaxis(x, axis, 0)), 0, axis)


cumsum_p = _cum("cumsum", np.cumsum)
cumprod_p = _cum("cumprod", np.cumprod)
cummax_p = _cum("cummax", xla_max_accumulate)
cummin_p = _cum("cummin", xla_min_accumulate)
cumlogsumexp_p = _cum("cumlogsumexp", np.logaddexp.accumulate)
ad.deflinear(cumsum_p, lambda ct, x, axis, reverse: [
    None if type(ct) is ad.Zero else cumsum_p.bind(ct, axis=axis, reverse=not reverse)])


def _cumprod_jvp(primals, tangents, axis, reverse):
    lax = _lax()
    (x,), (g,) = primals, tangents
    ans = cumprod_p.bind(x, axis=axis, reverse=reverse)
    # d/dx of prefix products: cumsum(g / x) * ans (valid away from zeros)
    return ans, lax.mul(ans, cumsum_p.bind(lax.div(g, x), axis=axis, reverse=reverse))


ad.jvp_rules[cumprod_p] = _cumprod_jvp


def _cumext_jvp(prim):
    def jvp(primals, tangents, axis, reverse):
        lax = _lax()
        (x,), (g,) = primals, tangents
        ans = prim.bind(x, axis=axis, reverse=reverse)
        # tangent flows from the position that attains the running extreme
        n = get_aval(x).shape[axis]
        idx = lax.broadcasted_iota(np.int32, get_aval(x).shape, axis)
        hit = lax.select(lax.eq(x, ans), idx, lax.full_like(idx, -1 if not reverse else n))
        src = cummax_p.bind(hit, axis=axis, reverse=reverse) if not reverse else cummin_p.bind(hit, axis=axis, reverse=reverse)
        from .indexing import GatherScatterMode, take_along_axis
        src = lax.select(lax.lt(src, lax.full_like(src, 0)), lax.add(src, lax.full_like(src, n)), src)  # -1: the last
        return ans, take_along_axis(g, src, axis, GatherScatterMode.FILL_OR_DROP)
    return jvp


ad.jvp_rules[cummax_p] = _cumext_jvp(cummax_p)
ad.jvp_rules[cummin_p] = _cumext_jvp(cummin_p)


# ---- sort ---------------------------------------------------------------------------------

def _sort_abstract(*operands, dimension, is_stable, num_keys):
    return list(operands)


def _sort_impl(*operands, dimension, is_stable, num_keys):
    keys = operands[:num_keys]
    if num_keys == 1:
        k = keys[0]
        if dtypes.kind(k.dtype) == "f":
            # NaNs last, -0.0 before 0.0, as XLA's total order. (ml_dtypes' bfloat16, numpy kind
            # 'V', sorts wrongly around NaN in numpy: its values sort exactly as float32)
            order = np.argsort(k if k.dtype.kind == "f" else k.astype(np.float32), axis=dimension, kind="stable")
        else:
            order = np.argsort(k, axis=dimension, kind="stable")
    else:
        moved = [np.moveaxis(k, dimension, -1) for k in keys]
        flat = [m.reshape(-1, m.shape[-1]) for m in moved]
        rows = [np.lexsort([f[r] for f in reversed(flat)]) for r in range(flat[0].shape[0])]
        order = np.moveaxis(np.stack(rows).reshape(moved[0].shape), -1, dimension)
    return [np.take_along_axis(o, order, axis=dimension) for o in operands]


sort_p = define("sort", abstract_eval=_sort_abstract, impl=_sort_impl, multiple_results=True,
                weak_type_rule=lambda w, **p: list(w))


def _sort_jvp(primals, tangents, dimension, is_stable, num_keys):
    lax = _lax()
    shape = get_aval(primals[0]).shape
    # JAX's index dtype: the smallest unsigned one that holds every index
    iota = lax.broadcasted_iota(np.uint32 if max(shape, default=0) <= np.iinfo(np.uint32).max else np.uint64,
                                shape, dimension)
    outs = sort_p.bind(*primals, iota, dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    perm = outs[-1]
    from .indexing import take_along_axis
    touts = [ad.Zero(get_aval(o)) if type(t) is ad.Zero else take_along_axis(t, perm, dimension)
             for o, t in zip(outs[:-1], tangents)]
    return outs[:-1], touts


def _sort_batch(axis_data, vals, dims, dimension, is_stable, num_keys):
    size = axis_data.size
    from ..transforms.batching import bdim_at_front
    xs = [bdim_at_front(x, d, size) for x, d in zip(vals, dims)]
    outs = sort_p.bind(*xs, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys)
    return outs, [0] * len(outs)


ad.jvp_rules[sort_p] = _sort_jvp
batch_rules[sort_p] = _sort_batch
