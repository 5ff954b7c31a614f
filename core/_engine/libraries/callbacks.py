"""`jax.pure_callback` and `jax.experimental.io_callback`: calling Python from traced code.

Both are primitives, so a callback runs when the computation runs (eagerly, or each time a
jitted function is called; never while tracing, and never in a `cond` branch that is not taken).
`pure_callback` may be removed when its result is unused and cannot be differentiated;
`io_callback` is effectful: it always runs, in program order.
"""
from __future__ import annotations

import numpy as np

from . import numpy as jnp
from ..tracing.array import Array
from ..base.avals import ShapedArray
from ..base.errors import JaxRuntimeError
from ..primitives import define
from ..tracing.rules import batch_rules, jvp_rules, transpose_rules
from ..tracing.tracing import bind
from ..base.tree_util import tree_flatten, tree_leaves, tree_unflatten


class _FlatCallback:
    """The `callback` param: rebuilds the user's arguments from flat runtime values, calls the
    function and flattens its result."""

    def __init__(self, callback_func, in_tree):
        self.callback_func = callback_func
        self.in_tree = in_tree

    def __call__(self, *vals):
        args, kwargs = tree_unflatten(self.in_tree, [Array(np.asarray(v)) for v in vals])
        return self.callback_func(*args, **kwargs)

    def __repr__(self):
        return f"_FlatCallback(callback_func={self.callback_func!r}, in_tree={self.in_tree!r})"


def _run(callback, result_avals, vals):
    out = tree_leaves(callback(*vals))
    if len(out) != len(result_avals):
        raise JaxRuntimeError(f"RuntimeError: Mismatched number of outputs from callback. Expected: "
                              f"{len(result_avals)}, Actual: {len(out)}")
    results = []
    for i, (o, aval) in enumerate(zip(out, result_avals)):
        o = np.asarray(o)
        if o.shape != aval.shape:
            raise JaxRuntimeError(f"RuntimeError: Incorrect output shape for return value #{i}: Expected: "
                                  f"{aval.shape}, Actual: {o.shape}")
        results.append(o.astype(aval.dtype, copy=False))
    return results


def _pure_impl(*vals, callback, result_avals, sharding, vmap_method):
    return _run(callback, result_avals, vals)


def _io_impl(*vals, callback, result_avals, sharding, ordered):
    return _run(callback, result_avals, vals)


def _result_avals(*avals, result_avals, **params):
    return list(result_avals)


pure_callback_p = define("pure_callback", abstract_eval=_result_avals, impl=_pure_impl, multiple_results=True,
                         weak_type_rule=lambda w, result_avals, **p: [False] * len(result_avals))
io_callback_p = define("io_callback", abstract_eval=_result_avals, impl=_io_impl, multiple_results=True,
                       weak_type_rule=lambda w, result_avals, **p: [False] * len(result_avals))
io_callback_p.effectful = True  # runs even when its results are unused, never folded


def _no_jvp(message):
    def rule(primals, tangents, **params):
        raise ValueError(message)
    return rule


jvp_rules[pure_callback_p] = _no_jvp("Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use "
                                     "callbacks while taking gradients.")
jvp_rules[io_callback_p] = _no_jvp("IO callbacks do not support JVP.")


def _no_transpose(ct, *args, **params):
    raise ValueError("Pure callbacks do not support transpose. Please use `jax.custom_vjp` to use callbacks "
                     "while taking gradients.")


transpose_rules[pure_callback_p] = _no_transpose


# ---- vmap: how the callback sees the batch (the vmap_method) -------------------------------

def _to_front(x, d):
    return x if d is None or d == 0 else jnp.moveaxis(x, d, 0)


def _batched_avals(result_avals, size):
    return tuple(ShapedArray((size, *a.shape), a.dtype) for a in result_avals)


def _sequential(prim, size, vals, dims, params):
    """One call per batch element (what `vmap_method='sequential'` asks for)."""
    vals = [_to_front(v, d) for v, d in zip(vals, dims)]
    rows = [bind(prim, *[v if d is None else v[i] for v, d in zip(vals, dims)], **params) for i in range(size)]
    return [jnp.stack(col) for col in zip(*rows)] if rows and rows[0] else []


def _vectorized(prim, size, vals, dims, params, unbatched):
    """One call with the batch as a leading axis; `unbatched` says what unbatched arguments get."""
    args = [unbatched(v, size) if d is None else _to_front(v, d) for v, d in zip(vals, dims)]
    params = dict(params, result_avals=_batched_avals(params["result_avals"], size))
    return bind(prim, *args, **params)


_VMAP_METHODS = {
    "sequential": lambda p, n, v, d, k: _sequential(p, n, v, d, k),
    "sequential_unrolled": lambda p, n, v, d, k: _sequential(p, n, v, d, k),
    "expand_dims": lambda p, n, v, d, k: _vectorized(p, n, v, d, k, lambda x, size: jnp.expand_dims(x, 0)),
    "broadcast_all": lambda p, n, v, d, k: _vectorized(
        p, n, v, d, k, lambda x, size: jnp.broadcast_to(x, (size, *jnp.shape(x)))),
    "legacy_vectorized": lambda p, n, v, d, k: _vectorized(p, n, v, d, k, lambda x, size: x),
}


def _pure_batch(axis_data, vals, dims, **params):
    method = params["vmap_method"]
    if method not in _VMAP_METHODS:
        raise NotImplementedError(
            "vmap is only supported for the pure_callback primitive when vmap_method is one of 'sequential', "
            "'sequential_unrolled', 'expand_dims', 'broadcast_all', or 'legacy_vectorized'. Got "
            f"vmap_method={method}.")
    outs = _VMAP_METHODS[method](pure_callback_p, axis_data.size, vals, dims, params)
    return outs, [0] * len(outs)


def _io_batch(axis_data, vals, dims, **params):
    if params["ordered"]:
        raise ValueError("Cannot `vmap` ordered IO callback.")
    outs = _sequential(io_callback_p, axis_data.size, vals, dims, params)
    return outs, [0] * len(outs)


batch_rules[pure_callback_p] = _pure_batch
batch_rules[io_callback_p] = _io_batch


# ---- the public functions ------------------------------------------------------------------

def _result_structure(result_shape_dtypes):
    leaves, tree = tree_flatten(result_shape_dtypes)
    return tuple(ShapedArray(np.shape(x) if not hasattr(x, "shape") else x.shape, x.dtype) for x in leaves), tree


def pure_callback(callback, result_shape_dtypes, *args, sharding=None, vmap_method=None, **kwargs):
    """Call the pure Python function `callback(*args, **kwargs)` (it gets jax arrays) from inside
    jit/vmap; its result must match `result_shape_dtypes` (a pytree of ShapeDtypeStruct)."""
    flat, in_tree = tree_flatten((args, kwargs))
    result_avals, out_tree = _result_structure(result_shape_dtypes)
    outs = bind(pure_callback_p, *flat, callback=_FlatCallback(callback, in_tree), result_avals=result_avals,
                sharding=sharding, vmap_method=vmap_method)
    return tree_unflatten(out_tree, outs)


def io_callback(callback, result_shape_dtypes, *args, sharding=None, ordered=False, **kwargs):
    """Like pure_callback, for a callback with side effects: it runs even when its result is unused."""
    flat, in_tree = tree_flatten((args, kwargs))
    result_avals, out_tree = _result_structure(result_shape_dtypes)
    outs = bind(io_callback_p, *flat, callback=_FlatCallback(callback, in_tree), result_avals=result_avals,
                sharding=sharding, ordered=ordered)
    return tree_unflatten(out_tree, outs)
