"""Less common lax operations: top_k (a primitive). (Convolutions: convolution.py; windowed
reductions: windowed.py.)"""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from ..transforms.batching import moveaxis
from . import define


def _lax():
    from ..lax import lax  # INHERENT: up to lax
    return lax


# ---- top_k --------------------------------------------------------------------------------

def _top_k_abstract(x, k):
    if not x.shape:
        raise TypeError("top_k operand must have >= 1 dimension, got ()")
    if not 0 <= k <= x.shape[-1]:
        raise ValueError(f"k argument to top_k must be nonnegative and at most the size of the last dimension "
                         f"({x.shape[-1]}), got {k}")
    shape = x.shape[:-1] + (k,)
    return [ShapedArray(shape, x.dtype, x.weak_type), ShapedArray(shape, np.int32)]


def _top_k_impl(x, k):
    # stable descending order: larger first, ties keep their original order (as XLA's TopK)
    # (integers and bools by ~x: -x wraps unsigned values and the most negative signed one)
    order = np.argsort(-x if dtypes.kind(x.dtype) in "fc" else ~x, axis=-1, kind="stable")[..., :k]  # (bf16 too)
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


top_k_p = define("top_k", abstract_eval=_top_k_abstract, impl=_top_k_impl, multiple_results=True,
                 weak_type_rule=lambda w, k: [w[0], False])


def _top_k_jvp(primals, tangents, k):
    from .indexing import take_along_axis
    vals, idx = top_k_p.bind(primals[0], k=k)
    t = tangents[0]
    return [vals, idx], [take_along_axis(t, idx, -1), ad.Zero(get_aval(idx))]


def _top_k_batch(axis_data, vals, dims, k):
    # top_k works on the last axis; keep the batch axis in front of it
    x = moveaxis(vals[0], dims[0], 0)
    return top_k_p.bind(x, k=k), [0, 0]


ad.jvp_rules[top_k_p] = _top_k_jvp
batch_rules[top_k_p] = _top_k_batch


def top_k(operand, k):
    return list(top_k_p.bind(operand, k=int(k)))  # JAX returns a list [values, indices]


LAX_EXPORTS = {
    "top_k": top_k,
}


# ---- reduce_precision: round to a narrower float format, staying in the same dtype ----------

def _float_layout(dtype):
    """(exponent bits, mantissa bits, unsigned int type of the same width) of a float dtype."""
    fi = dtypes.finfo(dtype)   # (bfloat16's from ml_dtypes: numpy's refuses it)
    return int(fi.nexp), int(fi.nmant), np.dtype(f"uint{dtypes.itemsize_bits(dtype)}")


def _reduce_precision_abstract(x, exponent_bits, mantissa_bits):
    if dtypes.kind(x.dtype) != "f":   # (ml_dtypes' bfloat16 says kind 'V')
        raise TypeError(f"reduce_precision does not accept dtype {x.dtype.name}. Accepted dtypes are subtypes of "
                        "floating.")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _reduce_precision_impl(x, exponent_bits, mantissa_bits):
    """XLA's ReducePrecision on the bits: round the mantissa to nearest even, then overflow to
    signed infinity and flush what the narrower exponent cannot hold to signed zero; NaN stays NaN."""
    x = np.asarray(x)
    _reduce_precision_abstract(ShapedArray(x.shape, x.dtype), exponent_bits, mantissa_bits)
    if dtypes.EMULATED_BF16 and x.dtype == dtypes.bf16:  # float32 bits hold it: reduce those, exactly
        return dtypes.host_array(_reduce_precision_impl(x.astype(np.float32), exponent_bits, mantissa_bits),
                                 x.dtype)
    src_exp, src_mant, utype = _float_layout(x.dtype)
    bits = x.view(utype).copy()
    if mantissa_bits < src_mant:
        shift = src_mant - mantissa_bits
        last = utype.type(1 << shift)
        lowest_kept = (bits & last) >> utype.type(shift)
        bits = bits + (lowest_kept + utype.type((1 << (shift - 1)) - 1))
        bits = bits & ~utype.type((1 << shift) - 1)
    if exponent_bits < src_exp:
        nbits = utype.itemsize * 8
        sign = utype.type(1 << (nbits - 1))
        exp_mask = utype.type(((1 << src_exp) - 1) << src_mant)
        bias, reduced_bias = (1 << (src_exp - 1)) - 1, (1 << (exponent_bits - 1)) - 1
        exponent = bits & exp_mask
        overflow = exponent > utype.type((bias + reduced_bias) << src_mant)
        underflow = exponent <= utype.type((bias - reduced_bias) << src_mant)
        signed_zero = bits & sign
        bits = np.where(overflow, signed_zero | exp_mask, np.where(underflow, signed_zero, bits)).astype(utype)
    out = np.asarray(bits).view(x.dtype)
    return np.where(np.isnan(x), x, out).astype(x.dtype)


reduce_precision_p = define("reduce_precision", abstract_eval=_reduce_precision_abstract,
                            impl=_reduce_precision_impl)
ad.deflinear(reduce_precision_p, lambda ct, x, **p: [None if type(ct) is ad.Zero else reduce_precision_p.bind(ct, **p)])


def _reduce_precision_batch(axis_data, vals, dims, **p):
    return reduce_precision_p.bind(vals[0], **p), dims[0]


batch_rules[reduce_precision_p] = _reduce_precision_batch


def reduce_precision(operand, exponent_bits, mantissa_bits):
    """Round `operand` as if stored with `exponent_bits` / `mantissa_bits`, keeping its dtype."""
    from ..tracing.array import Array, to_numpy
    from ..tracing.tracing import Tracer
    exponent_bits, mantissa_bits = int(exponent_bits), int(mantissa_bits)
    if exponent_bits < 1 or mantissa_bits < 0:
        raise ValueError(f"reduce_precision needs exponent_bits >= 1 and mantissa_bits >= 0, got {exponent_bits} "
                         f"and {mantissa_bits}")
    x = operand if isinstance(operand, (Array, Tracer)) else _lax().full((), operand) if np.ndim(operand) == 0 \
        else Array(to_numpy(operand))
    return reduce_precision_p.bind(x, exponent_bits=exponent_bits, mantissa_bits=mantissa_bits)


def reduce_xor(operand, axes):
    from .reductions import reduce_xor_p
    return reduce_xor_p.bind(operand, axes=tuple(int(a) for a in axes), out_sharding=None)


LAX_EXPORTS.update({
    "reduce_precision": reduce_precision,
    "reduce_precision_p": reduce_precision_p,
    "reduce_xor": reduce_xor,
})


# ---- approx_max_k / approx_min_k: exact on this backend (as XLA's CPU fallback) -------------

def _approx_abstract(x, k, reduction_dimension, recall_target, is_max_k, reduction_input_size_override,
                     aggregate_to_topk):
    if not x.shape:
        raise TypeError("approx_top_k operand must have >= 1 dimension, got ()")
    dim = reduction_dimension % x.ndim
    if not 0 <= k <= x.shape[dim]:
        raise ValueError(f"k must be smaller than the size of reduction_dim ({x.shape[dim]}), got {k}")
    shape = x.shape[:dim] + (k,) + x.shape[dim + 1:]
    return [ShapedArray(shape, x.dtype, x.weak_type), ShapedArray(shape, np.int32)]


def _approx_impl(x, k, reduction_dimension, recall_target, is_max_k, reduction_input_size_override,
                 aggregate_to_topk):
    x = np.asarray(x)
    dim = reduction_dimension % x.ndim
    moved = np.moveaxis(x, dim, -1)
    key = moved if not is_max_k else (-moved if moved.dtype.kind != "b" else ~moved)
    order = np.argsort(key, axis=-1, kind="stable")[..., :k]
    vals = np.take_along_axis(moved, order, axis=-1)
    return [np.moveaxis(vals, -1, dim), np.moveaxis(order.astype(np.int32), -1, dim)]


approx_top_k_p = define("approx_top_k", abstract_eval=_approx_abstract, impl=_approx_impl, multiple_results=True,
                        weak_type_rule=lambda w, **p: [w[0], False])


def _approx_jvp(primals, tangents, **p):
    vals, idx = approx_top_k_p.bind(primals[0], **p)
    dim = p["reduction_dimension"] % get_aval(primals[0]).ndim
    from .indexing import take_along_axis
    t = ad.instantiate(tangents[0])
    return [vals, idx], [take_along_axis(t, idx, dim), ad.Zero(get_aval(idx))]


def _approx_batch(axis_data, vals, dims, **p):
    x = moveaxis(vals[0], dims[0], 0)
    nd = get_aval(x).ndim - 1
    q = dict(p, reduction_dimension=p["reduction_dimension"] % nd + 1)
    return approx_top_k_p.bind(x, **q), [0, 0]


ad.jvp_rules[approx_top_k_p] = _approx_jvp
batch_rules[approx_top_k_p] = _approx_batch


def _approx_k(is_max_k):
    def fn(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
           aggregate_to_topk=True):
        if not aggregate_to_topk:
            raise NotImplementedError("approx_max_k/approx_min_k with aggregate_to_topk=False (TPU-specific "
                                      "partial results) is not supported; use aggregate_to_topk=True")
        return list(approx_top_k_p.bind(operand, k=int(k), reduction_dimension=int(reduction_dimension),
                                        recall_target=float(recall_target), is_max_k=is_max_k,
                                        reduction_input_size_override=int(reduction_input_size_override),
                                        aggregate_to_topk=bool(aggregate_to_topk)))
    fn.__name__ = "approx_max_k" if is_max_k else "approx_min_k"
    return fn


LAX_EXPORTS.update({"approx_max_k": _approx_k(True), "approx_min_k": _approx_k(False),
                    "approx_top_k_p": approx_top_k_p})
