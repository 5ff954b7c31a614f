"""Batching (vmap): each BatchTracer carries a value with an extra batch axis at `batch_dim`
(or `None` when the value is the same for every example); `batch_rules` map primitives over it."""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, transform_ops
from ..tracing.tracing import Trace, Tracer, bind, get_aval, new_main
from ..base.tree_util import tree_flatten, tree_unflatten

FLOAT0 = np.dtype([("float0", np.void, 0)])  # (the dtype of jax.dtypes.float0)

not_mapped = None


class AxisData:
    __slots__ = ("size", "name")

    def __init__(self, size, name):
        self.size = size
        self.name = name


class BatchTracer(Tracer):
    __slots__ = ("val", "batch_dim")
    _kind = "VmapTracer"

    def __init__(self, trace, val, batch_dim):
        self._trace = trace
        self.val = val
        self.batch_dim = batch_dim

    @property
    def aval(self):
        a = get_aval(self.val)
        if self.batch_dim is None:
            return a
        shape = list(a.shape)
        del shape[self.batch_dim]
        return ShapedArray(shape, a.dtype, a.weak_type)

    def full_lower(self):
        if self.batch_dim is None:
            v = self.val
            return v.full_lower() if isinstance(v, Tracer) else v
        return self

    def __repr__(self):
        return f"VmapTracer(aval={self.aval.str_long()}, batched={get_aval(self.val).str_long()})"


class BatchTrace(Trace):
    @property
    def axis_data(self) -> AxisData:
        return self.main.global_data

    def pure(self, val):
        return BatchTracer(self, val, not_mapped)

    lift = pure

    def process_primitive(self, prim, tracers, params):
        vals = [t.val for t in tracers]
        dims = [t.batch_dim for t in tracers]
        if all(d is None for d in dims) and not getattr(prim, "batch_always", False):
            out = bind(prim, *vals, **params)
            if prim.multiple_results:
                return [BatchTracer(self, o, None) for o in out]
            return BatchTracer(self, out, None)
        rule = batch_rules.get(prim)
        if rule is None:
            raise NotImplementedError(f"Batching rule for '{prim.name}' not implemented")
        out, out_dim = rule(self.axis_data, vals, dims, **params)
        if prim.multiple_results:
            return [BatchTracer(self, o, d) for o, d in zip(out, out_dim)]
        return BatchTracer(self, out, out_dim)


def batch_flat(fun, axis_size, axis_name, vals, dims, out_dims_fn):
    """Run `fun` over batched inputs; `out_dims_fn(n_outs)` gives the wanted output batch dims."""
    with new_main(BatchTrace, AxisData(axis_size, axis_name)) as main:
        trace = BatchTrace(main)
        ins = [BatchTracer(trace, v, d) if d is not None else v for v, d in zip(vals, dims)]
        outs = fun(*ins)
        outs = [trace.full_raise(o) for o in outs]
        out_dims = out_dims_fn(len(outs))
        return [move_to(o.val, o.batch_dim, d, axis_size) for o, d in zip(outs, out_dims)]


def vmap_leading(fun, size=None):
    """`fun` mapped over the leading axis of every leaf of its arguments, outputs batched at 0:
    the plain vmap that lax functions below `jax.vmap` (layer 8, which checks and names its
    arguments) need, e.g. lax.map's batch_size."""
    def mapped(*args):
        leaves, tree = tree_flatten(args)
        out_tree = []

        def flat_fun(*xs):
            outs, ot = tree_flatten(fun(*tree_unflatten(tree, xs)))
            out_tree.append(ot)
            return outs
        n = size if size is not None else get_aval(leaves[0]).shape[0]
        outs = batch_flat(flat_fun, n, None, leaves, [0] * len(leaves),
                          lambda n: [0] * n)
        return tree_unflatten(out_tree[0], outs)
    return mapped


# ---- helpers for batch rules --------------------------------------------------------------

def moveaxis(x, src: int, dst: int):
    nd = get_aval(x).ndim
    src %= nd
    dst %= nd
    if src == dst:
        return x
    perm = [i for i in range(nd) if i != src]
    perm.insert(dst, src)
    return transform_ops["transpose"](x, tuple(perm))


def broadcast_batched(x, size: int, dim: int):
    """Add a batch axis of `size` at `dim` to an unbatched value."""
    aval = get_aval(x)
    shape = list(aval.shape)
    shape.insert(dim, size)
    if aval.dtype == FLOAT0 and not isinstance(x, Tracer):
        return np.zeros(shape, FLOAT0)  # float0 holds nothing: JAX's vmap gives numpy float0 zeros
    bdims = tuple(np.delete(np.arange(len(shape)), dim))  # numpy ints, so jaxprs print as JAX's
    return transform_ops["broadcast_in_dim_p"].bind(x, shape=tuple(shape), broadcast_dimensions=bdims, sharding=None)


def move_to(x, src, dst, size):
    """Put the batch axis of x (at `src`, or None) at `dst` (None: require unbatched)."""
    if dst is None:
        if src is None:
            return x
        raise ValueError("vmap has mapped output but out_axes is None")
    if src is None:
        return broadcast_batched(x, size, dst if dst >= 0 else get_aval(x).ndim + 1 + dst)
    return moveaxis(x, src, dst)


def bdim_at_front(x, d, size):
    if d is None:
        return broadcast_batched(x, size, 0)
    return moveaxis(x, d, 0)


def batched_aval(a: ShapedArray, d, size) -> ShapedArray:
    """`a` with a batch axis of `size` inserted at `d` (unchanged when d is None)."""
    if d is None:
        return a
    shape = list(a.shape)
    shape.insert(d, size)
    return a.update(shape=tuple(shape))


def batched_body(cj, axis_data, dims, force=False):
    """What call-like primitives (jit, cond, while, scan, shard_map) trace to batch their body:
    (fun, in_avals, out_batched). `fun` evaluates `cj` on inputs batched at `dims` and returns
    its outputs with the batch axis first where they depend on the batch (or `force`, a bool or
    one per output, says so); `out_batched` says which, once `fun` has been traced."""
    from .staging import eval_jaxpr
    size = axis_data.size
    out_batched: list = []

    def fun(*xs):
        with new_main(BatchTrace, axis_data) as main:
            trace = BatchTrace(main)
            ins = [BatchTracer(trace, x, d) if d is not None else x for x, d in zip(xs, dims)]
            outs = [trace.full_raise(o) for o in eval_jaxpr(cj.jaxpr, cj.consts, *ins)]
            forced = force if isinstance(force, (list, tuple)) else [force] * len(outs)
            out_batched[:] = [o.batch_dim is not None or f for o, f in zip(outs, forced)]
            return [bdim_at_front(o.val, o.batch_dim, size) if b else o.val for o, b in zip(outs, out_batched)]
    return fun, [batched_aval(a, d, size) for a, d in zip(cj.in_avals, dims)], out_batched


def vectorized_batcher(axis_data, vals, dims, prim=None, **params):
    raise NotImplementedError


def defvectorized(prim):
    """Unary elementwise: the batch axis rides along untouched."""
    def rule(axis_data, vals, dims, **params):
        return bind(prim, *vals, **params), dims[0]
    batch_rules[prim] = rule


def defbroadcasting(prim):
    """N-ary elementwise with lax's broadcasting (JAX's broadcast_batcher)."""
    def rule(axis_data, vals, dims, **params):
        shape, dim = next((get_aval(x).shape, d) for x, d in zip(vals, dims) if d is not None)
        if all(get_aval(x).shape == shape and d == dim for x, d in zip(vals, dims) if get_aval(x).ndim):
            out = bind(prim, *vals, **params)
            return (out, [dim] * len(out)) if prim.multiple_results else (out, dim)
        args = [bdim_at_front(x, d, 1) if get_aval(x).ndim else x for x, d in zip(vals, dims)]
        ndim = max(get_aval(x).ndim for x in args)
        args = [_handle_scalar_broadcasting(ndim, x, d) for x, d in zip(args, dims)]
        out = bind(prim, *args, **params)
        return (out, [0] * len(out)) if prim.multiple_results else (out, 0)
    batch_rules[prim] = rule


def _handle_scalar_broadcasting(nd, x, d):
    aval = get_aval(x)
    if d is None or nd == aval.ndim:
        return x
    return transform_ops["expand_dims"](x, tuple(range(aval.ndim, nd)))
