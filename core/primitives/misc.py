"""Less common lax operations: top_k (a primitive). (Convolutions: convolution.py; windowed
reductions: windowed.py.)"""
from __future__ import annotations

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


LAX_EXPORTS = {
    "top_k": top_k,
}
