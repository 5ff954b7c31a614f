"""Less common lax operations: top_k (a primitive), and reduce_window, which is written with
slices so that jvp, grad, vmap and jit come for free. (Convolutions: convolution.py.)"""
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
    order = np.argsort(-x if x.dtype.kind != "b" else ~x, axis=-1, kind="stable")[..., :k]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]


top_k_p = define("top_k", abstract_eval=_top_k_abstract, impl=_top_k_impl, multiple_results=True,
                 weak_type_rule=lambda w, k: [w[0], False])


def _top_k_jvp(primals, tangents, k):
    from .. import numpy as jnp
    vals, idx = top_k_p.bind(primals[0], k=k)
    t = tangents[0]
    return [vals, idx], [jnp.take_along_axis(t, idx, axis=-1), ad.Zero(get_aval(idx))]


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


LAX_EXPORTS = {
    "top_k": top_k,
    "reduce_window": reduce_window,
}
