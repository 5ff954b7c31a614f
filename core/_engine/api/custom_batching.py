"""`jax.custom_batching`: `custom_vmap` (a function with its own rule under `vmap`) and `sequential_vmap`.

A call to a custom_vmap function is one `custom_vmap_call` equation: its `call` parameter is the
function traced to a jaxpr (what runs when nothing maps it: eagerly, under jit, and inlined by the
CPU compiler), and `rule` is the user's vmap rule, which vmap calls instead of batching the body,
also when the equation sits inside a jit (vmap(jit(f))). The rule gets `(axis_size, in_batched,
*args)`, `in_batched` one pytree of bools per argument, batched arguments with the batch axis first,
and returns `(out, out_batched)`.

Differentiation: jvp stages another custom_vmap_call on (primals, tangents) whose rule is the jvp of
the user's rule, as JAX does, so vmap(jvp(f)) maps with the rule. Reverse mode (grad, vjp) has no
rule to follow: JAX 0.10.2 refuses it ("Linearization failed ..."); here it differentiates the
function's body (the rule is not used below a grad).
"""
from __future__ import annotations

import functools
import inspect

from ..tracing.rules import (abstract_eval_rules, batch_rules, impl_rules, jaxpr_compiler, jvp_rules, linearize_rules,
                             transpose_rules)
from ..tracing.tracing import Primitive, get_aval
from ..transforms import ad
from ..transforms.batching import broadcast_batched, moveaxis
from ..primitives.call import _backward_with_residuals, jvp_jaxpr, linearize_inline, symbolic_int_zeros
from ..base.tree_util import tree_flatten, tree_map, tree_unflatten
from ..primitives.control_flow import map as lax_map
from ..primitives.custom import _trace_primal

__all__ = ["custom_vmap", "sequential_vmap"]

custom_vmap_call_p = Primitive("custom_vmap_call", multiple_results=True)
custom_vmap_call_p.inline_jaxpr_param = "call"  # the cpu compiler inlines the function's body


def _pp(params):
    return [("call", params["call"]), ("in_tree", params["rule"].in_tree_text),
            ("out_tree", params["rule"].out_tree_text), ("rule", params["rule"])]


custom_vmap_call_p.pp_params = _pp
abstract_eval_rules[custom_vmap_call_p] = lambda *avals, call, **_: list(call.out_avals)
custom_vmap_call_p.weak_type_rule = lambda w, call, **_: [a.weak_type for a in call.out_avals]


def _impl(*args, call, **_):
    return jaxpr_compiler[0].compiled(call)(*args)


impl_rules[custom_vmap_call_p] = _impl


class _UserRule:
    """The user's rule over flat lists: (axis_size, batched flags, values) -> (outs, out flags)."""

    def __init__(self, fn, rule, in_tree, out_tree):
        self.fn, self.rule, self.in_tree, self.out_tree = fn, rule, in_tree, out_tree
        self.name = getattr(rule, "__name__", "rule") if rule is not None else None
        self.in_tree_text, self.out_tree_text = str(in_tree), str(out_tree)

    def __repr__(self):
        return repr(self.rule)

    def __call__(self, axis_size, batched, vals):
        if self.rule is None:
            raise AttributeError(f"No batching rule defined for custom_vmap function {_name(self.fn)} using def_vmap.")
        args = tree_unflatten(self.in_tree, vals)
        flags = tree_unflatten(self.in_tree, list(batched))
        out, out_batched = self.rule(axis_size, list(flags), *args)
        outs, out_tree = tree_flatten(out)
        flags_out, flags_tree = tree_flatten(out_batched)
        if flags_tree != out_tree:
            raise ValueError(f"structure of output value and output batching specification returned by custom vmap "
                             f"rule ({self.name}) do not match.\nOutput values: {out_tree}\nBatching spec: {flags_tree}")
        if out_tree != self.out_tree:
            raise ValueError(f"the custom vmap rule ({self.name}) of {_name(self.fn)} returned an output of structure "
                             f"{out_tree}, but the function returns {self.out_tree}")
        return outs, [bool(b) for b in flags_out]


class _JVPRule:
    """Under vmap, a jvp of a custom_vmap call: the jvp of the inner rule (JAX's custom_vmap_jvp)."""

    def __init__(self, inner, num_consts, n, nonzeros, out_nonzeros):
        self.inner, self.num_consts, self.n = inner, num_consts, n
        self.nonzeros, self.out_nonzeros = list(nonzeros), list(out_nonzeros)
        self.name = f"jvp({inner.name})"
        self.in_tree_text, self.out_tree_text = inner.in_tree_text, inner.out_tree_text

    def __repr__(self):
        return f"<function {self.name}>"

    def __call__(self, axis_size, batched, vals):
        n, nc = self.n, self.num_consts
        primals, nz_tangents = list(vals[:n]), list(vals[n:])
        it_b = iter(batched[n:])
        it_t = iter(nz_tangents)
        tangents, t_batched = [], []
        for p, nz in zip(primals, self.nonzeros):
            if nz:
                tangents.append(next(it_t))
                t_batched.append(next(it_b))
            else:
                tangents.append(ad.Zero(get_aval(p)))
                t_batched.append(False)
        p_batched = list(batched[:n])
        if any(p_batched[:nc]) or any(t_batched[:nc]):
            raise _closure_error()
        # an argument whose primal or tangent is batched is batched in both (the rule sees one flag)
        for i in range(nc, n):
            if p_batched[i] != t_batched[i] and type(tangents[i]) is not ad.Zero:
                if p_batched[i]:
                    tangents[i] = broadcast_batched(tangents[i], axis_size, 0)
                else:
                    primals[i] = broadcast_batched(primals[i], axis_size, 0)
                    p_batched[i] = True
        box = []

        def f(*args):
            outs, flags = self.inner(axis_size, p_batched[nc:], list(args))
            box.append(flags)
            return outs
        po, to = ad.jvp_flat(lambda *a: f(*a[nc:]), primals, tangents)
        flags = box[0]
        tans = []
        for p, t, nz, b in zip(po, to, self.out_nonzeros, flags):
            if nz:
                t = ad.instantiate(t) if type(t) is ad.Zero else t
                tans.append(t)
        tan_flags = [b for b, nz in zip(flags, self.out_nonzeros) if nz]
        return list(po) + tans, list(flags) + tan_flags


def _closure_error():
    return NotImplementedError(
        "custom_vmap: the function closes over a value that an enclosing vmap maps; pass that value as "
        "an argument, so the vmap rule receives it with its in_batched flag")


def _batch(axis_data, vals, dims, call, rule, num_consts):
    if any(d is not None for d in dims[:num_consts]):
        raise _closure_error()
    size = axis_data.size
    args = [v if d is None else moveaxis(v, d, 0) for v, d in zip(vals[num_consts:], dims[num_consts:])]
    outs, flags = rule(size, [d is not None for d in dims[num_consts:]], args)
    for o, b, a in zip(outs, flags, call.out_avals):
        shape = tuple(get_aval(o).shape)
        want = (size, *a.shape) if b else tuple(a.shape)
        if shape != want:
            raise ValueError(f"the custom vmap rule ({rule.name}) returned an output of shape {shape} marked "
                             f"{'batched' if b else 'unbatched'}, but it should have shape {want} (the function's "
                             f"output shape {tuple(a.shape)}{', with the batch axis of size %d first' % size if b else ''})")
    return outs, [0 if b else None for b in flags]


batch_rules[custom_vmap_call_p] = _batch


def _jvp(primals, tangents, call, rule, num_consts):
    tangents = symbolic_int_zeros(primals, tangents)
    nonzeros = [type(t) is not ad.Zero for t in tangents]
    out_nz = []
    new, consts = jvp_jaxpr(call, nonzeros, lift=True, out_nonzeros=out_nz)
    jrule = _JVPRule(rule, num_consts, len(primals), nonzeros, out_nz)
    # jvp_jaxpr lifts its own consts as leading invars (num_consts: the batch rule never shows them to the rule)
    outs = custom_vmap_call_p.bind(*consts, *primals, *[t for t in tangents if type(t) is not ad.Zero],
                                   call=new, rule=jrule,
                                   num_consts=len(consts))
    k = len(call.out_avals)
    it = iter(outs[k:])
    return outs[:k], [next(it) if nz else ad.Zero(a) for a, nz in zip(call.out_avals, out_nz)]


jvp_rules[custom_vmap_call_p] = _jvp
linearize_rules[custom_vmap_call_p] = lambda trace, tracers, call, **_: linearize_inline(trace, tracers, call)


def _transpose(cts, *args, call, **_):
    lin = [ad.is_undefined(a) for a in args]
    cts = list(cts) if isinstance(cts, (list, tuple)) else [cts]
    outs = iter(_backward_with_residuals(call, [None if l else a for a, l in zip(args, lin)], lin, cts))
    return [next(outs) if l else None for l in lin]


transpose_rules[custom_vmap_call_p] = _transpose


def _name(fn):
    return getattr(fn, "__name__", None) or repr(fn)


class custom_vmap:
    """`f = custom_vmap(fun)`; `@f.def_vmap def rule(axis_size, in_batched, *args): return out, out_batched`."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.vmap_rule = None

    def def_vmap(self, vmap_rule):
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args, **kwargs):
        if kwargs:
            args = inspect.signature(self.fun).bind(*args, **kwargs).args
        flat, in_tree, out_tree, call, consts = _trace_primal(self, args)
        rule = _UserRule(self.fun, self.vmap_rule, in_tree, out_tree)
        outs = custom_vmap_call_p.bind(*consts, *flat, call=call, rule=rule, num_consts=len(consts))
        return tree_unflatten(out_tree, outs)


def sequential_vmap(f):
    """`f` as a custom_vmap whose rule loops over the batch (`lax.map`), for a function that does not
    batch (a callback, a solver written for one problem); unbatched arguments are shared."""
    f = custom_vmap(f)

    @f.def_vmap
    def rule(axis_size, in_batched, *args):
        del axis_size
        flags, tree = tree_flatten(list(in_batched))
        leaves = tree_flatten(list(args))[0]
        mapped = [x for x, b in zip(leaves, flags) if b]
        shared = [x for x, b in zip(leaves, flags) if not b]

        def one(xs):
            it_m, it_s = iter(xs), iter(shared)
            return f(*tree_unflatten(tree, [next(it_m) if b else next(it_s) for b in flags]))
        out = lax_map(one, mapped)
        return out, tree_map(lambda _: True, out)
    return f
