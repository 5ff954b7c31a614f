"""reduce_p: lax.reduce with a computation that is not one of the monoids (add, mul, max, ...):
the computation travels as a jaxpr of scalar ops, and reduce folds the operands' reduced axes
with it. Its jvp reduces (primal, tangent) pairs by halving (as JAX's), built from slices,
pads and the computation itself, so reverse mode works through it too."""
from __future__ import annotations

import math

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, impl_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from . import define


def _lax():
    from ..lax import lax  # INHERENT: up to lax; lax wraps this primitive (a layer above)
    return lax


def eval_jaxpr_numpy(jaxpr, consts, *args):
    """Evaluate a jaxpr on numpy arrays through the impl rules (no tracing, no binds: safe to
    call inside an impl while a trace is active). Scalar-op jaxprs act elementwise on arrays."""
    from ..tracing.jaxpr import Literal
    env = {}

    def read(v):
        return np.asarray(v.val, v.aval.dtype) if isinstance(v, Literal) else env[v]
    for v, x in zip(jaxpr.constvars, consts):
        env[v] = np.asarray(x)
    for v, x in zip(jaxpr.invars, args):
        env[v] = x
    for eqn in jaxpr.eqns:
        outs = impl_rules[eqn.primitive](*[read(v) for v in eqn.invars], **eqn.params)
        outs = outs if eqn.primitive.multiple_results else [outs]
        for v, o in zip(eqn.outvars, outs):
            env[v] = np.asarray(o)
    return [read(v) for v in jaxpr.outvars]


def _split(vals):
    n = len(vals) // 2
    return list(vals[:n]), list(vals[n:])


def _reduce_abstract(*avals, computation, jaxpr, dimensions):
    ops, inits = _split(avals)
    if any(i.shape != () for i in inits):
        raise ValueError(f"reduce found non-scalar initial value: {[i.shape for i in inits]}")
    if [o.dtype for o in ops] != [i.dtype for i in inits]:
        raise TypeError("reduce operand dtypes should match corresponding initial value dtypes, got "
                        f"operands=[{', '.join(map(_repr, ops))}] and initial_values=[{', '.join(map(_repr, inits))}]")
    return [ShapedArray(tuple(d for i, d in enumerate(o.shape) if i not in dimensions), o.dtype,
                        o.weak_type and i.weak_type) for o, i in zip(ops, inits)]


def _repr(aval):
    weak = ", weak_type=True" if aval.weak_type else ""
    return f"ShapedArray({aval.dtype.name}[{','.join(map(str, aval.shape))}]{weak})"


def _to_front(x, dimensions):
    """(n, rest...): the reduced axes moved to the front and flattened."""
    keep = [i for i in range(x.ndim) if i not in dimensions]
    n = math.prod(x.shape[d] for d in dimensions)
    return np.transpose(x, list(dimensions) + keep).reshape((n,) + tuple(x.shape[i] for i in keep))


def _reduce_impl(*args, computation, jaxpr, dimensions):
    ops, inits = _split([np.asarray(a) for a in args])
    cj = jaxpr
    moved = [_to_front(o, dimensions) for o in ops]
    rest = moved[0].shape[1:]
    acc = [np.full(rest, i, o.dtype) for i, o in zip(inits, ops)]
    for k in range(moved[0].shape[0]):
        acc = eval_jaxpr_numpy(cj.jaxpr, cj.consts, *acc, *[m[k] for m in moved])
        acc = [np.broadcast_to(a, rest).astype(o.dtype) for a, o in zip(acc, ops)]
    return acc


reduce_p = define("reduce", abstract_eval=_reduce_abstract, impl=_reduce_impl, multiple_results=True,
                  weak_type_rule=lambda w, **p: [a and b for a, b in zip(*_split(w))])


def _elementwise(cj):
    """The scalar computation applied elementwise to equal-shaped arrays (by vmap over a
    flattened axis), as traceable, differentiable operations."""
    from ..transforms.batching import batch_flat
    from ..transforms.staging import eval_jaxpr
    lax = _lax()

    def apply(*xs):
        shape = get_aval(xs[0]).shape
        size = math.prod(shape)
        flat = [lax.reshape(x, (size,)) for x in xs]
        outs = batch_flat(lambda *a: eval_jaxpr(cj.jaxpr, cj.consts, *a), size, None, flat, [0] * len(flat),
                          lambda n: [0] * n)
        return [lax.reshape(o, shape) for o in outs]
    return apply


def _halving_reduce(cj, inits, n_ops, dimensions):
    """Reduce axis 0 by combining the first half with the second (padded with the init value
    when odd) until one row is left."""
    lax = _lax()
    combine = _elementwise(cj)

    def tree(*xs):
        xs = list(xs)
        while get_aval(xs[0]).shape[0] > 1:
            n = get_aval(xs[0]).shape[0]
            n1 = (n + 1) // 2
            lo = [lax.slice_in_dim(x, 0, n1) for x in xs]
            hi = [lax.slice_in_dim(x, n1, n) for x in xs]
            if n - n1 != n1:
                hi = [lax.pad(h, i, [(0, 1, 0)] + [(0, 0, 0)] * (get_aval(h).ndim - 1)) for h, i in zip(hi, inits)]
            xs = combine(*lo, *hi)
        if get_aval(xs[0]).shape[0] == 0:
            return [lax.full(get_aval(x).shape[1:], i) for x, i in zip(xs, inits)]
        return [lax.squeeze(x, (0,)) for x in xs]
    return tree


def _reduce_jvp(primals, tangents, *, computation, jaxpr, dimensions):
    ops, inits = _split(primals)
    op_ts, init_ts = _split(tangents)
    if any(type(t) is not ad.Zero for t in init_ts):
        raise NotImplementedError("Gradient of general lax.reduce with non-zero tangents for initial values to "
                                  "reduction not implemented")
    lax = _lax()
    nd = get_aval(ops[0]).ndim
    keep = [i for i in range(nd) if i not in dimensions]
    shape = get_aval(ops[0]).shape
    new_shape = (math.prod(shape[d] for d in dimensions),) + tuple(shape[i] for i in keep)
    perm = tuple(dimensions) + tuple(keep)
    front = lambda x: lax.reshape(lax.transpose(x, perm), new_shape)
    ops = [front(x) for x in ops]
    op_ts = [front(ad.instantiate(t)) for t in op_ts]
    return ad.jvp_flat(_halving_reduce(jaxpr, inits, len(ops), dimensions), ops, op_ts)


def _reduce_batch(axis_data, vals, dims, *, computation, jaxpr, dimensions):
    from ..transforms.batching import bdim_at_front
    ops, inits = _split(vals)
    op_dims, init_dims = _split(dims)
    if any(d is not None for d in init_dims):
        raise NotImplementedError("vmap of lax.reduce over batched initial values is not supported")
    ops = [bdim_at_front(x, d, axis_data.size) for x, d in zip(ops, op_dims)]
    outs = reduce_p.bind(*ops, *inits, computation=computation, jaxpr=jaxpr,
                         dimensions=tuple(d + 1 for d in dimensions))
    return outs, [0] * len(outs)


ad.jvp_rules[reduce_p] = _reduce_jvp
batch_rules[reduce_p] = _reduce_batch


def general_reduce(flat_ops, flat_inits, op_tree, init_tree, computation, dimensions):
    """Bind reduce_p for `computation(acc_tree, x_tree) -> tree` over scalars."""
    from ..tracing.jaxpr import ClosedJaxpr
    from ..transforms.staging import trace_to_jaxpr
    from ..base.tree_util import tree_flatten, tree_unflatten
    avals = [ShapedArray((), get_aval(i).dtype, get_aval(i).weak_type) for i in flat_inits]
    n = len(flat_inits)

    def fun(*args):
        out = computation(tree_unflatten(init_tree, list(args[:n])), tree_unflatten(init_tree, list(args[n:])))
        return tree_flatten(out)[0]
    jaxpr, consts = trace_to_jaxpr(fun, avals * 2)
    outs = reduce_p.bind(*flat_ops, *flat_inits, computation=computation, jaxpr=ClosedJaxpr(jaxpr, consts),
                         dimensions=tuple(dimensions))
    return tree_unflatten(op_tree, outs)


LAX_EXPORTS = {"reduce_p": reduce_p}
