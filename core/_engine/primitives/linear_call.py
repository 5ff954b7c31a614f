"""`linear_call` (jax.custom_derivatives.linear_call): fun(residuals, linear_args), linear in
linear_args, whose transpose is the user's fun_transpose(residuals, cotangents). Differentiated,
its tangent is the same call on the tangents; transposed, it becomes a linear_call of the
transpose (whose own transpose is the original fun). Residuals have no derivative, and it has no
batching rule (as in JAX)."""
from __future__ import annotations

from ..tracing.jaxpr import Jaxpr
from ..tracing.rules import abstract_eval_rules, impl_rules, jvp_rules, transpose_rules
from ..tracing.tracing import Primitive, get_aval
from ..transforms import ad
from ..transforms.staging import eval_jaxpr, trace_to_jaxpr
from ..base.tree_util import tree_flatten, tree_unflatten

linear_call_p = Primitive("linear_call", multiple_results=True)
abstract_eval_rules[linear_call_p] = lambda *avals, callee, **_: [v.aval for v in callee.outvars]
impl_rules[linear_call_p] = lambda *args, callee, **_: eval_jaxpr(callee, [], *args)
linear_call_p.weak_type_rule = lambda w, callee, **_: [v.aval.weak_type for v in callee.outvars]


class TransposeThunk:
    """The other direction of a linear_call: `fun(res, lin)` for trees res_tree/lin_tree, and the
    function that transposes it (called with residuals and cotangents of the outputs)."""

    def __init__(self, fun, other, res_tree, lin_tree, lin_avals):
        self.fun, self.other, self.res_tree, self.lin_tree, self.lin_avals = fun, other, res_tree, lin_tree, lin_avals

    def __repr__(self):
        return f"<function {getattr(self.fun, '__name__', 'transpose')}>"


def _trace_call(fun, res_flat, res_tree, lin_avals, lin_tree):
    """(open jaxpr over consts + res + lin, consts, out tree, out avals) of fun(res, lin)."""
    n_res, box = len(res_flat), []

    def flat_fun(*xs):
        out = fun(tree_unflatten(res_tree, list(xs[:n_res])), tree_unflatten(lin_tree, list(xs[n_res:])))
        leaves, tree = tree_flatten(out)
        box.append(tree)
        return leaves
    jaxpr, consts = trace_to_jaxpr(flat_fun, [get_aval(r) for r in res_flat] + list(lin_avals))
    body = Jaxpr([], jaxpr.constvars + jaxpr.invars, jaxpr.outvars, jaxpr.eqns)
    return body, consts, box[0]


def linear_call(fun, fun_transpose, residual_args, linear_args):
    from .collectives import _as_array  # Arrays and tracers pass; Python/numpy values become Arrays
    res_flat, res_tree = tree_flatten(residual_args)
    lin_flat, lin_tree = tree_flatten(linear_args)
    res_flat, lin_flat = [_as_array(x) for x in res_flat], [_as_array(x) for x in lin_flat]
    lin_avals = [get_aval(x) for x in lin_flat]
    body, consts, out_tree = _trace_call(fun, res_flat, res_tree, lin_avals, lin_tree)
    out_avals = [v.aval for v in body.outvars]
    thunk = TransposeThunk(fun_transpose, fun, res_tree, out_tree, out_avals)
    thunk.forward_tree = lin_tree
    outs = linear_call_p.bind(*consts, *res_flat, *lin_flat, callee=body, transpose_thunk=thunk,
                              num_callee_consts=len(consts), num_res=len(res_flat))
    return tree_unflatten(out_tree, outs)


def _jvp(primals, tangents, callee, transpose_thunk, num_callee_consts, num_res):
    n_known = num_callee_consts + num_res
    outs = linear_call_p.bind(*primals, callee=callee, transpose_thunk=transpose_thunk,
                              num_callee_consts=num_callee_consts, num_res=num_res)
    lin_tangents = [ad.instantiate(t) for t in tangents[n_known:]]
    touts = linear_call_p.bind(*primals[:n_known], *lin_tangents, callee=callee, transpose_thunk=transpose_thunk,
                               num_callee_consts=num_callee_consts, num_res=num_res)
    return outs, touts


def _transpose(cts, *args, callee, transpose_thunk, num_callee_consts, num_res):
    t = transpose_thunk
    res = list(args[num_callee_consts:num_callee_consts + num_res])
    cts = [ad.instantiate(c) for c in cts]
    body, consts, out_tree = _trace_call(t.fun, res, t.res_tree, t.lin_avals, t.lin_tree)
    back = TransposeThunk(t.other, t.fun, t.res_tree, t.forward_tree, [a.aval for a in args[num_callee_consts + num_res:]])
    back.forward_tree = t.lin_tree
    outs = linear_call_p.bind(*consts, *res, *cts, callee=body, transpose_thunk=back,
                              num_callee_consts=len(consts), num_res=num_res)
    return [None] * (num_callee_consts + num_res) + list(outs)


jvp_rules[linear_call_p] = _jvp
transpose_rules[linear_call_p] = _transpose
