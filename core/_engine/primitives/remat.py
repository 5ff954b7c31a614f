"""`remat2` (jax.checkpoint) and `name` (jax.ad_checkpoint.checkpoint_name).

`remat2` evaluates its jaxpr; what it changes is differentiation. Linearized, its body splits in
two as in JAX: the forward half runs now (inline, at the caller's level) and returns the primal
outputs plus only the residuals the `policy` calls saveable; the tangent half becomes one
`remat2[differentiated=True]` equation that first recomputes every other residual from the saved
ones and the inputs. Transposed, that equation becomes a `remat2` whose body recomputes, then runs
the backward pass.
"""
from __future__ import annotations

from ..tracing.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from ..tracing.rules import abstract_eval_rules, batch_rules, impl_rules, jvp_rules, linearize_rules, transpose_rules
from ..tracing.tracing import Primitive, Tracer, bind, get_aval, trace_stack
from ..transforms import ad
from ..transforms.staging import eval_jaxpr, literal_array, trace_to_jaxpr
from ..base import source_info
from . import define
from .call import (_backward_with_residuals, _batch_cache, _context, _dce, _jvp_cache, _linearize_cache, _transpose_cache, jvp_jaxpr,
                   linearize_inline, splits_statically)

# ---- name: an identity that policies can see --------------------------------------------------

name_p = define("name", abstract_eval=lambda x, name: x, impl=lambda x, name: x)


def _name_jvp(primals, tangents, name):
    (x,), (t,) = primals, tangents
    return name_p.bind(x, name=name), t  # the tangent is not named (JAX's rule)


jvp_rules[name_p] = _name_jvp
batch_rules[name_p] = lambda axis_data, vals, dims, name: (name_p.bind(vals[0], name=name), dims[0])


# ---- remat2 ------------------------------------------------------------------------------------

remat_p = Primitive("remat2", multiple_results=True)
remat_p.weak_type_rule = lambda w, jaxpr, **_: [v.aval.weak_type for v in jaxpr.outvars]
abstract_eval_rules[remat_p] = lambda *avals, jaxpr, **_: [v.aval for v in jaxpr.outvars]
impl_rules[remat_p] = lambda *args, jaxpr, **_: eval_jaxpr(jaxpr, [], *args)


def remat_call(fun, in_avals, args, *, prevent_cse, policy, cache=None, key=None, out_tree=None):
    """Trace `fun` (flat args -> flat outs) and bind one remat2 equation (consts lead, as JAX's).
    With a `cache` (dict) and `key`, a trace of the same function and input types is reused, as
    JAX's: every call then binds the same body object, which jaxpr text prints once
    (`let jaxpr = {...} in`); `out_tree` (the list `fun` appends its output tree to) is refilled.
    A trace that closed over an enclosing trace's tracers is reused only while that trace runs
    (JAX's too: `g(g(a))` with `g` closing over `a` shares one body under grad)."""
    hit = cache.get(key) if cache is not None and key is not None else None
    if hit is not None and not all(_live(c) for c in hit[1]):
        hit = None
    if hit is not None:
        body, consts, tree = hit
        if out_tree is not None:
            out_tree.append(tree)
    else:
        jaxpr, consts = trace_to_jaxpr(fun, in_avals)
        body = Jaxpr([], jaxpr.constvars + jaxpr.invars, jaxpr.outvars, jaxpr.eqns)
        if cache is not None and key is not None and out_tree:
            cache[key] = (body, consts, out_tree[-1])
    return remat_p.bind(*consts, *args, jaxpr=body, prevent_cse=prevent_cse, differentiated=False, policy=policy)


def _live(c) -> bool:
    """Whether a cached trace's const may be used now: a value, or a tracer of a running trace."""
    if not isinstance(c, Tracer):
        return True
    main = getattr(getattr(c, "_trace", None), "main", None)
    return main is not None and main.active and any(m is main for m in trace_stack)


def _open(cj: ClosedJaxpr) -> tuple[Jaxpr, list]:
    return Jaxpr([], cj.jaxpr.constvars + cj.jaxpr.invars, cj.jaxpr.outvars, cj.jaxpr.eqns), list(cj.consts)


def _remat_jvp(primals, tangents, jaxpr, prevent_cse, differentiated, policy):
    nonzeros = [type(t) is not ad.Zero for t in tangents]
    extra = ("remat", _context(), tuple(nonzeros))
    hit = _jvp_cache.get(jaxpr, extra)  # one body per checkpointed body, as JAX's cache
    if hit is None:
        jj, consts = jvp_jaxpr(ClosedJaxpr(jaxpr, []), nonzeros)
        body, more = _open(jj)
        hit = _jvp_cache.put(jaxpr, extra, (body, more, consts), [*more, *consts])
    body, more, consts = hit
    outs = remat_p.bind(*more, *consts, *primals, *[t for t in tangents if type(t) is not ad.Zero], jaxpr=body,
                        prevent_cse=prevent_cse, differentiated=differentiated, policy=policy)
    k = len(jaxpr.outvars)
    return outs[:k], outs[k:]


jvp_rules[remat_p] = _remat_jvp


# what a checkpoint policy may answer besides True/False (jax.ad_checkpoint re-exports them)
class RecomputeType:
    pass


class SaveableType:
    pass


Recompute = RecomputeType()
Saveable = SaveableType()


def _saveable(policy, eqn) -> bool:
    """JAX's policies answer True/False, Saveable/Recompute or Offloadable (saved: one memory here)."""
    if policy is None:
        return False
    answer = policy(eqn.primitive, *[v.aval for v in eqn.invars], **eqn.params)
    return answer is not Recompute and bool(answer)


def inline_nested_remats(jaxpr: Jaxpr) -> Jaxpr:
    """`jaxpr` with every (undifferentiated) remat2 equation inside replaced by its body. As JAX's
    partial evaluation of a nested checkpoint, the outermost policy then judges every equation
    (the inner policy matters only where the inner checkpoint is differentiated on its own), and
    the body splits statically like the rest."""
    eqns, alias = [], {}
    rd = lambda v: alias.get(v, v) if isinstance(v, Var) else v  # noqa: E731
    for e in jaxpr.eqns:
        if e.primitive is not remat_p or e.params["differentiated"]:
            eqns.append(JaxprEqn(e.primitive, [rd(v) for v in e.invars], e.outvars, e.params, e.source_info))
            continue
        inner = inline_nested_remats(e.params["jaxpr"])
        sub = dict(zip(inner.invars, [rd(v) for v in e.invars]))
        for ie in inner.eqns:
            outs = [Var(v.aval) for v in ie.outvars]  # fresh: the same body may be inlined twice
            sub.update(zip(ie.outvars, outs))
            eqns.append(JaxprEqn(ie.primitive, [sub.get(v, v) if isinstance(v, Var) else v for v in ie.invars],
                                 outs, ie.params, ie.source_info))
        alias.update(zip(e.outvars, [sub.get(v, v) if isinstance(v, Var) else v for v in inner.outvars]))
    return Jaxpr(jaxpr.constvars, jaxpr.invars, [rd(v) for v in jaxpr.outvars], eqns)


def split_by_policy(jaxpr: Jaxpr, unknowns, policy):
    """Split `jaxpr` (known primal inputs, unknown tangent inputs) into
    known: known ins -> known outs + saved residuals (what runs forward), and
    staged: residuals + unknown ins -> unknown outs, recomputing what the policy did not save;
    also the out_unknowns, the number of saved equation outputs, and the known inputs passed on.
    Residuals: saved equation outputs in equation order, then the known inputs the staged half uses."""
    unknown_vars = {v for v, u in zip(jaxpr.invars, unknowns) if u}
    known_eqns, staged_eqns = [], []
    for eqn in jaxpr.eqns:
        if any(isinstance(v, Var) and v in unknown_vars for v in eqn.invars):
            staged_eqns.append(eqn)
            unknown_vars.update(eqn.outvars)
        else:
            known_eqns.append(eqn)
    # walk back from the staged equations: known values they need are saved (policy) or recomputed
    producer = {v: e for e in known_eqns for v in e.outvars}
    known_invars = {v for v, u in zip(jaxpr.invars, unknowns) if not u}
    saved, recomputed, needed = set(), set(), []
    for e in staged_eqns:
        needed.extend(v for v in e.invars if isinstance(v, Var) and v not in unknown_vars)
    while needed:
        v = needed.pop()
        e = producer.get(v)
        if e is None or id(e) in recomputed or v in saved:
            continue
        if _saveable(policy, e):
            saved.add(v)
        else:
            recomputed.add(id(e))
            needed.extend(x for x in e.invars if isinstance(x, Var))
    staged_all = [e for e in jaxpr.eqns if id(e) in recomputed or e in staged_eqns]
    out_unknowns = [isinstance(v, Var) and v in unknown_vars for v in jaxpr.outvars]
    used = {v for e in staged_all for v in e.invars if isinstance(v, Var)}
    used |= {v for v, u in zip(jaxpr.outvars, out_unknowns) if u and isinstance(v, Var)}
    res_eqn_outs = [v for e in known_eqns for v in e.outvars if v in saved and v in used]
    res_inputs = [v for v in jaxpr.invars if v in known_invars and v in used]
    residuals = res_eqn_outs + res_inputs
    known_outs = [v for v, u in zip(jaxpr.outvars, out_unknowns) if not u]
    known = Jaxpr([], [v for v, u in zip(jaxpr.invars, unknowns) if not u], known_outs + res_eqn_outs,
                  _dce(known_eqns, known_outs + res_eqn_outs))
    new_res = [Var(v.aval) for v in residuals]
    sub = dict(zip(residuals, new_res))
    renamed = [JaxprEqn(e.primitive, [sub.get(v, v) if isinstance(v, Var) else v for v in e.invars],
                        [sub.get(v, v) for v in e.outvars], e.params, e.source_info) for e in staged_all]
    staged = Jaxpr([], new_res + [v for v, u in zip(jaxpr.invars, unknowns) if u],
                   [sub.get(v, v) for v, u in zip(jaxpr.outvars, out_unknowns) if u],
                   _dce(renamed, [sub.get(v, v) for v, u in zip(jaxpr.outvars, out_unknowns) if u]))
    return known, staged, out_unknowns, len(res_eqn_outs), res_inputs


def _eval_keeping_sources(jaxpr: Jaxpr, args):
    """eval_jaxpr that re-binds each equation under its recorded source (print_saved_residuals)."""
    env = dict(zip(jaxpr.invars, args))
    read = lambda v: env[v] if isinstance(v, Var) else literal_array(v)  # noqa: E731
    for eqn in jaxpr.eqns:
        with source_info.reemitting(eqn.source_info):
            outs = bind(eqn.primitive, *[read(v) for v in eqn.invars], **eqn.params)
        env.update(zip(eqn.outvars, outs if eqn.primitive.multiple_results else [outs]))
    return [read(v) for v in jaxpr.outvars]


def _remat_linearize(trace, tracers, jaxpr, prevent_cse, differentiated, policy):
    primals = [t.primal for t in tracers]
    tangents = [t.tangent for t in tracers]
    nonzeros = [type(t) is not ad.Zero for t in tangents]
    plan = _remat_plan(jaxpr, nonzeros, policy)
    if plan is None:
        # control flow inside mixes primal and tangent work: linearize it equation by equation.
        # The values are right; what is saved is then what grad without checkpoint saves.
        return linearize_inline(trace, tracers, ClosedJaxpr(jaxpr, []))
    more, consts, known, staged, out_unknowns, n_res_eqn, res_inputs = plan
    known_vals = [*more, *consts, *primals]
    known_out = _eval_keeping_sources(known, known_vals)
    k_outs = len(known.outvars) - n_res_eqn
    in_val = dict(zip(known.invars, known_vals))
    residuals = known_out[k_outs:] + [in_val[v] for v in res_inputs]
    nz = [t for t in tangents if type(t) is not ad.Zero]
    staged_out = remat_p.bind(*residuals, *nz, jaxpr=staged, prevent_cse=prevent_cse, differentiated=True,
                              policy=policy) if staged.outvars else []
    known_it, staged_it = iter(known_out[:k_outs]), iter(staged_out)
    full = [next(staged_it) if u else next(known_it) for u in out_unknowns]
    k = len(jaxpr.outvars)
    primal_outs, tangent_outs = full[:k], full[k:]
    tangent_outs = [t if u else ad.Zero(get_aval(p)) for p, t, u in zip(primal_outs, tangent_outs, out_unknowns[k:])]
    return [trace.tracer_type(trace, p, t) for p, t in zip(primal_outs, tangent_outs)]


linearize_rules[remat_p] = _remat_linearize


def _remat_plan(jaxpr: Jaxpr, nonzeros, policy):
    """The split `_remat_linearize` makes of this body for these nonzero tangents, cached per body
    object as JAX caches it (each call of one checkpointed function then binds the same staged
    body): (jvp consts, known half, staged half, out_unknowns, saved count, inputs passed on), or
    None when the body does not split statically."""
    extra = (_context(), tuple(nonzeros), policy)
    hit = _linearize_cache.get(jaxpr, extra)
    if hit is not None:
        return hit[0]
    jj, consts = jvp_jaxpr(ClosedJaxpr(jaxpr, []), nonzeros)
    body, more = _open(jj)
    body = inline_nested_remats(body)
    unknowns = [False] * (len(more) + len(consts) + len(jaxpr.invars)) + [True] * sum(nonzeros)
    if not splits_statically(body, unknowns):
        return _linearize_cache.put(jaxpr, extra, (None,), [*more, *consts])[0]
    plan = (more, consts, *split_by_policy(body, unknowns, policy))
    return _linearize_cache.put(jaxpr, extra, (plan,), [*more, *consts])[0]


def _remat_transpose(cts, *args, jaxpr, prevent_cse, differentiated, policy):
    """A remat2 whose body recomputes from the residuals, then runs the backward pass."""
    lin = [ad.is_undefined(a) for a in args]
    res = [a for a in args if not ad.is_undefined(a)]
    nz_ct = [type(c) is not ad.Zero for c in cts]
    out_avals = [v.aval for v in jaxpr.outvars]

    def fun(*xs):
        r, it_ct = iter(xs[:len(res)]), iter(xs[len(res):])
        cts_in = [next(it_ct) if nz else ad.Zero(a) for a, nz in zip(out_avals, nz_ct)]
        env_args = [None if is_lin else next(r) for is_lin in lin]
        outs = _backward_with_residuals(ClosedJaxpr(jaxpr, []), env_args, lin, cts_in)
        return [ad.instantiate(o) for o in outs]
    in_avals = [get_aval(r) for r in res] + [get_aval(c) for c in cts if type(c) is not ad.Zero]
    extra = (_context(), tuple(lin), tuple(nz_ct), tuple(in_avals))
    hit = _transpose_cache.get(jaxpr, extra)
    if hit is None:
        tj, consts = trace_to_jaxpr(fun, in_avals)
        body = Jaxpr([], tj.constvars + tj.invars, tj.outvars, tj.eqns)
        hit = _transpose_cache.put(jaxpr, extra, (body, consts), consts)
    body, consts = hit
    outs = remat_p.bind(*consts, *res, *[c for c in cts if type(c) is not ad.Zero], jaxpr=body,
                        prevent_cse=prevent_cse, differentiated=True, policy=policy)
    it = iter(outs)
    return [next(it) if l else None for l in lin]


transpose_rules[remat_p] = _remat_transpose


def _remat_batch(axis_data, vals, dims, jaxpr, prevent_cse, differentiated, policy):
    from ..transforms.batching import batched_body
    extra = ("remat", _context(), axis_data.size, axis_data.name, tuple(dims))
    hit = _batch_cache.get(jaxpr, extra)  # one batched body per body and batch pattern, as JAX's
    if hit is None:
        fun, in_avals, out_batched = batched_body(ClosedJaxpr(jaxpr, []), axis_data, dims)
        new, consts = trace_to_jaxpr(fun, in_avals)
        body = Jaxpr([], new.constvars + new.invars, new.outvars, new.eqns)
        hit = _batch_cache.put(jaxpr, extra, (body, consts, out_batched), consts)
    body, consts, out_batched = hit
    outs = remat_p.bind(*consts, *vals, jaxpr=body, prevent_cse=prevent_cse, differentiated=differentiated,
                        policy=policy)
    return outs, [0 if b else None for b in out_batched]


batch_rules[remat_p] = _remat_batch
