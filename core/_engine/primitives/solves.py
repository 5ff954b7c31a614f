"""Solvers with implicitly defined derivatives: the linear_solve primitive behind
lax.custom_linear_solve (jvp by solving again, transpose by the transposed solve, vmap by batching
its jaxprs). The user-level functions, custom_linear_solve and custom_root (a custom_jvp: the
implicit function theorem at the root), are built with the api: core/_engine/api/custom_solvers.py.

The user's functions (matvec, solve, ...) are traced to jaxprs whose closed-over values become
explicit operands, so derivatives reach the variables they close over, as in JAX."""
from __future__ import annotations

from typing import Any, NamedTuple

from ..base.avals import ShapedArray
from ..tracing.rules import abstract_eval_rules, batch_rules, impl_rules, transpose_rules
from ..tracing.tracing import Primitive, get_aval
from ..transforms import ad
from ..transforms.staging import eval_jaxpr, trace_to_jaxpr


class _LinearSolveTuple(NamedTuple):
    matvec: Any
    vecmat: Any
    solve: Any
    transpose_solve: Any

    def transpose(self):
        return type(self)(self.vecmat, self.matvec, self.transpose_solve, self.solve)


def _split(args, const_lengths):
    out, i = [], 0
    for n in const_lengths:
        out.append(list(args[i:i + n]))
        i += n
    return _LinearSolveTuple(*out), list(args[i:])


def _flat(groups):
    return [x for g in groups for x in g]


def _trace(fun, avals):
    """fun over flat avals -> (jaxpr taking its consts first, consts)."""
    jaxpr, consts = trace_to_jaxpr(fun, avals)
    from ..tracing.jaxpr import Jaxpr
    return Jaxpr([], list(jaxpr.constvars) + list(jaxpr.invars), jaxpr.outvars, jaxpr.eqns), list(consts)


def _run(jaxpr, *args):
    return eval_jaxpr(jaxpr, [], *args)


def _check_tree(func_name, expected_name, actual, expected, has_aux):
    if has_aux:
        kids = actual.children if actual.node_type is tuple else None
        if kids is None or len(kids) != 2:
            raise ValueError(f"{func_name}() produced a pytree with structure {actual}, but a pytree tuple with "
                             f"auxiliary output was expected because has_aux was set to True.")
        actual = kids[0]
    if actual != expected:
        raise TypeError(f"{func_name}() output pytree structure must match {expected_name}, got {actual} and "
                        f"{expected}.")


def _check_shapes(func_name, expected_name, actual, expected):
    got = [tuple(get_aval(a).shape) for a in actual]
    want = [tuple(get_aval(e).shape) for e in expected]
    if got != want:
        raise ValueError(f"{func_name}() output shapes must match {expected_name}, got {got} and {want}")


# ---- the primitive ------------------------------------------------------------------------

linear_solve_p = Primitive("custom_linear_solve", multiple_results=True)


def _ls_abstract(*avals, const_lengths, jaxprs):
    b = list(avals[sum(const_lengths):])
    n_aux = len(jaxprs.solve.outvars) - len(jaxprs.matvec.outvars)
    aux = [v.aval for v in jaxprs.solve.outvars[len(jaxprs.solve.outvars) - n_aux:]] if n_aux > 0 else []
    return [ShapedArray(a.shape, a.dtype, a.weak_type) for a in b + aux]


def _ls_impl(*args, const_lengths, jaxprs):
    from ..tracing.array import Array, to_numpy
    params, b = _split(args, const_lengths)
    outs = _run(jaxprs.solve, *[Array(to_numpy(a)) if not hasattr(a, "aval") else a for a in params.solve + b])
    return [to_numpy(o) for o in outs]


abstract_eval_rules[linear_solve_p] = _ls_abstract
linear_solve_p.weak_type_rule = lambda weak, const_lengths, jaxprs: [  # b's weak types, not the operator's
    a.weak_type for a in _ls_abstract(*[ShapedArray((), "float32", w) for w in weak], const_lengths=const_lengths,
                                      jaxprs=jaxprs)]
impl_rules[linear_solve_p] = _ls_impl


def _ls_jvp(primals, tangents, *, const_lengths, jaxprs):
    """x = A^-1 b, so dx = A^-1 (db - dA x): one more solve."""
    kw = dict(const_lengths=const_lengths, jaxprs=jaxprs)
    x = linear_solve_p.bind(*primals, **kw)
    params, _ = _split(primals, const_lengths)
    params_dot, b_dot = _split(tangents, const_lengths)
    x_leaves = x[:len(b_dot)]
    rhs = [ad.instantiate(t) if type(t) is ad.Zero else t for t in b_dot]
    if any(type(p) is not ad.Zero for p in params_dot.matvec):
        zeros = [ad.Zero(get_aval(v)) for v in x_leaves]
        _, dA_x = ad.jvp_flat(lambda *a: _run(jaxprs.matvec, *a), params.matvec + x_leaves,
                              list(params_dot.matvec) + zeros)
        lax = _lax()
        rhs = [lax.sub(r, ad.instantiate(t)) for r, t in zip(rhs, dA_x)]
    x_dot = linear_solve_p.bind(*(_flat(params) + rhs), **kw)
    n = len(b_dot)
    return x, list(x_dot[:n]) + [ad.Zero(get_aval(a)) for a in x_dot[n:]]


def _lax():
    from ..lax import lax  # INHERENT: up to lax
    return lax


def _ls_transpose(cts, *primals, const_lengths, jaxprs):
    if jaxprs.transpose_solve is None:
        raise TypeError("transpose_solve required for backwards mode automatic differentiation of "
                        "custom_linear_solve")
    params, b = _split(primals, const_lengths)
    if any(ad.is_undefined(p) for p in _flat(params)):
        raise NotImplementedError("custom_linear_solve: transposing with respect to the operator's own "
                                  "parameters is not supported (as in JAX)")
    x_ct, aux_ct = list(cts[:len(b)]), list(cts[len(b):])
    if any(type(c) is not ad.Zero for c in aux_ct):
        raise NotImplementedError("custom_linear_solve: cotangents for auxiliary outputs are not supported "
                                  "(as in JAX)")
    x_ct = [ad.instantiate(c) for c in x_ct]
    b_ct = linear_solve_p.bind(*_flat(params.transpose()), *x_ct,
                               const_lengths=const_lengths.transpose(), jaxprs=jaxprs.transpose())
    return [None] * sum(const_lengths) + list(b_ct[:len(b)])


def _ls_batch(axis_data, vals, dims, *, const_lengths, jaxprs):
    """vmap: every operand gets the batch axis in front (unbatched ones broadcast) and each
    jaxpr is batched over all its inputs, so the four stay consistent with one another."""
    from ..transforms.batching import BatchTrace, BatchTracer, bdim_at_front, broadcast_batched
    from ..tracing.tracing import new_main
    size = axis_data.size
    vals = [bdim_at_front(v, d, size) if d is not None else broadcast_batched(v, size, 0) for v, d in zip(vals, dims)]

    def batched(jaxpr):
        if jaxpr is None:
            return None

        def fun(*xs):
            with new_main(BatchTrace, axis_data) as main:
                trace = BatchTrace(main)
                outs = _run(jaxpr, *[BatchTracer(trace, x, 0) for x in xs])
                outs = [trace.full_raise(o) for o in outs]
                return [bdim_at_front(o.val, o.batch_dim, size) if o.batch_dim is not None
                        else broadcast_batched(o.val, size, 0) for o in outs]
        avals = [ShapedArray((size,) + v.aval.shape, v.aval.dtype, v.aval.weak_type) for v in jaxpr.invars]
        return _trace(fun, avals)[0]
    new = _LinearSolveTuple(*[batched(j) for j in jaxprs])
    outs = linear_solve_p.bind(*vals, const_lengths=const_lengths, jaxprs=new)
    return outs, [0] * len(outs)


ad.jvp_rules[linear_solve_p] = _ls_jvp
transpose_rules[linear_solve_p] = _ls_transpose
batch_rules[linear_solve_p] = _ls_batch


# (core/_engine/api/custom_solvers.py adds custom_linear_solve and custom_root: they are built with the api)
LAX_EXPORTS = {
    "linear_solve_p": linear_solve_p,
}
