"""custom_vjp under reverse mode: the tangent is a `custom_lin` equation on the tangents whose
transpose calls the user's bwd with the residuals from fwd."""
from __future__ import annotations

from ..rules import abstract_eval_rules, impl_rules, transpose_rules
from ..tracing import Primitive, get_aval
from ..transforms import ad
from ..tree_util import tree_flatten, tree_unflatten

custom_lin_p = Primitive("custom_lin", multiple_results=True)


def _abstract(*avals, num_res, out_avals, bwd, in_tree, out_tree, res_tree):
    return list(out_avals)


def _impl(*args, **params):
    raise NotImplementedError("custom_lin is only ever transposed, never evaluated")


def _transpose(cts, *args, num_res, out_avals, bwd, in_tree, out_tree, res_tree):
    res = tree_unflatten(res_tree, args[:num_res])
    cts = [ad.instantiate(c) for c in cts]
    ct_tree = tree_unflatten(out_tree, cts)
    cts_in = bwd(res, ct_tree)
    flat, _ = tree_flatten(tuple(cts_in))
    return [None] * num_res + list(flat)


abstract_eval_rules[custom_lin_p] = _abstract
impl_rules[custom_lin_p] = _impl
transpose_rules[custom_lin_p] = _transpose


def custom_lin(fn, trace, args):
    """Apply custom_vjp function `fn` to LinearizeTracers of `trace`."""
    flat, in_tree = tree_flatten(tuple(args))
    tracers = [trace.full_raise(x) for x in flat]
    primals = tree_unflatten(in_tree, [t.primal for t in tracers])
    out, res = fn.fwd(*primals)
    out_flat, out_tree = tree_flatten(out)
    res_flat, res_tree = tree_flatten(res)
    tangents = [ad.instantiate(t.tangent) for t in tracers]
    out_avals = [get_aval(o) for o in out_flat]
    tans = custom_lin_p.bind(*res_flat, *tangents, num_res=len(res_flat), out_avals=tuple(out_avals), bwd=fn.bwd,
                             in_tree=in_tree, out_tree=out_tree, res_tree=res_tree)
    outs = [trace.tracer_type(trace, p, t) for p, t in zip(out_flat, tans)]
    return tree_unflatten(out_tree, [o.full_lower() for o in outs])
