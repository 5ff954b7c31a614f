"""Less common lax operations: top_k (a primitive), and reduce_window / convolutions, which are
written with slices and dot_general so that jvp, grad, vmap and jit come for free."""
from __future__ import annotations

import itertools

import numpy as np

from ..avals import ShapedArray
from ..rules import batch_rules
from ..tracing import get_aval
from ..transforms import ad
from ..transforms.batching import moveaxis
from . import define


def _lax():
    from .. import lax
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
    order = np.argsort(-x if x.dtype.kind in "fc" else ~x, axis=-1, kind="stable")[..., :k]
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


# ---- windows and padding ------------------------------------------------------------------

def _padding_pairs(padding, in_shape, window, strides, dilation=None):
    dilation = dilation or (1,) * len(window)
    eff = [(w - 1) * d + 1 for w, d in zip(window, dilation)]
    if isinstance(padding, str):
        if padding.upper() == "VALID":
            return [(0, 0)] * len(window)
        if padding.upper() == "SAME":
            pads = []
            for n, w, s in zip(in_shape, eff, strides):
                out = -(-n // s)
                total = max((out - 1) * s + w - n, 0)
                pads.append((total // 2, total - total // 2))
            return pads
        raise ValueError(f"Unknown padding {padding!r}: use 'VALID', 'SAME' or a sequence of (low, high) pairs")
    return [tuple(int(v) for v in p) for p in padding]


def _window_slices(x, window, strides, dilation, out_shape):
    """Yield (offset, strided slice of x) for every position inside the window."""
    lax = _lax()
    for offs in itertools.product(*[range(w) for w in window]):
        starts = [o * d for o, d in zip(offs, dilation)]
        limits = [s + (n - 1) * st + 1 for s, n, st in zip(starts, out_shape, strides)]
        yield offs, lax.slice(x, starts, limits, None if all(s == 1 for s in strides) else strides)


def reduce_window(operand, init_value, computation, window_dimensions, window_strides, padding,
                  base_dilation=None, window_dilation=None):
    lax = _lax()
    aval = get_aval(operand)
    window = tuple(int(w) for w in window_dimensions)
    strides = tuple(int(s) for s in window_strides)
    dil = tuple(window_dilation) if window_dilation else (1,) * len(window)
    if base_dilation and any(b != 1 for b in base_dilation):
        raise NotImplementedError("reduce_window with base_dilation is not supported yet")
    pads = _padding_pairs(padding, aval.shape, window, strides, dil)
    init = lax._convert_element_type(init_value, aval.dtype, False)
    x = lax.pad(operand, init, [(lo, hi, 0) for lo, hi in pads]) if any(p != (0, 0) for p in pads) else operand
    padded = get_aval(x).shape
    out_shape = [(n - ((w - 1) * d + 1)) // s + 1 for n, w, d, s in zip(padded, window, dil, strides)]
    acc = None
    for _, sl in _window_slices(x, window, strides, dil, out_shape):
        acc = sl if acc is None else computation(acc, sl)
    return computation(acc, lax.full_like(acc, init)) if acc is not None else acc


# ---- convolution --------------------------------------------------------------------------

def conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None, rhs_dilation=None,
                         dimension_numbers=None, feature_group_count=1, batch_group_count=1,
                         precision=None, preferred_element_type=None):
    """N-d convolution as a sum over kernel offsets of strided slices contracted with dot_general.
    Layouts: lhs (N, C, spatial...), rhs (O, I, spatial...), out (N, O, spatial...) unless
    `dimension_numbers` says otherwise (given as layout strings like ('NHWC', 'HWIO', 'NHWC'))."""
    lax = _lax()
    if feature_group_count != 1 or batch_group_count != 1:
        raise NotImplementedError("grouped convolutions are not supported yet")
    if lhs_dilation and any(d != 1 for d in lhs_dilation):
        raise NotImplementedError("lhs_dilation (transposed convolution) is not supported yet")
    nd = get_aval(lhs).ndim - 2
    lhs_spec, rhs_spec, out_spec = _conv_specs(dimension_numbers, nd)
    lhs = lax.transpose(lhs, lhs_spec)
    rhs = lax.transpose(rhs, rhs_spec)
    la, ra = get_aval(lhs), get_aval(rhs)
    window = ra.shape[2:]
    strides = tuple(window_strides) if window_strides else (1,) * nd
    dil = tuple(rhs_dilation) if rhs_dilation else (1,) * nd
    pads = _padding_pairs(padding, la.shape[2:], window, strides, dil)
    if any(p != (0, 0) for p in pads):
        lhs = lax.pad(lhs, lax._zero(lhs), [(0, 0, 0), (0, 0, 0)] + [(lo, hi, 0) for lo, hi in pads])
    padded = get_aval(lhs).shape[2:]
    out_sp = [(n - ((w - 1) * d + 1)) // s + 1 for n, w, d, s in zip(padded, window, dil, strides)]
    acc = None
    full_strides = (1, 1) + strides
    for offs in itertools.product(*[range(w) for w in window]):
        starts = [0, 0] + [o * d for o, d in zip(offs, dil)]
        limits = list(get_aval(lhs).shape[:2]) + [s + (n - 1) * st + 1 for s, n, st in zip(starts[2:], out_sp, strides)]
        sl = lax.slice(lhs, starts, limits, None if all(s == 1 for s in full_strides) else full_strides)
        k = rhs[(slice(None), slice(None)) + offs]  # (O, I)
        # (N, C, sp...) x (O, C) -> (N, sp..., O)
        term = lax.dot_general(sl, k, (((1,), (1,)), ((), ())), precision=precision,
                               preferred_element_type=preferred_element_type)
        acc = term if acc is None else lax.add(acc, term)
    out = lax.transpose(acc, (0, nd + 1) + tuple(range(1, nd + 1)))  # (N, O, sp...)
    inv = tuple(int(i) for i in np.argsort(out_spec))
    return lax.transpose(out, inv)


def _conv_specs(dimension_numbers, nd):
    """Permutations taking each operand to (batch/out-feature, feature/in-feature, spatial...)."""
    if dimension_numbers is None:
        ident = tuple(range(nd + 2))
        return ident, ident, ident
    lhs_s, rhs_s, out_s = dimension_numbers
    if isinstance(lhs_s, str):
        sp = [c for c in lhs_s if c not in "NC"]
        lhs_p = (lhs_s.index("N"), lhs_s.index("C")) + tuple(lhs_s.index(c) for c in sp)
        rsp = [c for c in rhs_s if c not in "OI"]
        rhs_p = (rhs_s.index("O"), rhs_s.index("I")) + tuple(rhs_s.index(c) for c in rsp)
        out_p = (out_s.index("N"), out_s.index("C")) + tuple(out_s.index(c) for c in sp)
        return lhs_p, rhs_p, out_p
    return tuple(lhs_s), tuple(rhs_s), tuple(out_s)


def conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None):
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, precision=None,
                              preferred_element_type=None):
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                                precision=precision, preferred_element_type=preferred_element_type)


LAX_EXPORTS = {
    "top_k": top_k,
    "reduce_window": reduce_window,
    "conv": conv,
    "conv_general_dilated": conv_general_dilated,
    "conv_with_general_padding": conv_with_general_padding,
}
