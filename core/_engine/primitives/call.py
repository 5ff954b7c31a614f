"""`jit`: the call primitive. Its params hold a closed jaxpr and the function's name; every
transformation maps over the body. As in JAX, arrays a function closes over stay in its closed
jaxpr as consts (printed `{ lambda c:f32[3]; a:f32[3]. ...`), unless one of them is a tracer of
an enclosing trace: then all become leading arguments of the call."""
from __future__ import annotations

from ..tracing.effects import eqn_effectful
from ..tracing.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var, ZeroLiteral
from ..tracing.rules import (abstract_eval_rules, batch_rules, impl_rules, jaxpr_compiler, jvp_rules, linearize_rules,
                     partial_eval_jaxpr_rules, transpose_rules)
from ..tracing.tracing import Primitive, get_aval
from ..transforms import ad
from ..transforms.staging import eval_jaxpr, trace_to_jaxpr


def _jit_pp(params):
    return [("name", params["name"]), ("jaxpr", params["jaxpr"])]


jit_p = Primitive("jit", multiple_results=True)
jit_p.pp_params = _jit_pp
jit_p.call_jaxpr_param = "jaxpr"  # the printer names inner vars after the outer ones
jit_p.weak_type_rule = lambda w, jaxpr, name: [a.weak_type for a in jaxpr.out_avals]

abstract_eval_rules[jit_p] = lambda *avals, jaxpr, name: list(jaxpr.out_avals)


def _jit_impl(*args, jaxpr, name):
    cpu = jaxpr_compiler[0]
    return cpu.compiled(jaxpr, name in cpu.FMA_CALLS)(*args)


impl_rules[jit_p] = _jit_impl


def close(jaxpr: Jaxpr, consts):
    """(ClosedJaxpr, leading args): consts stay inside when all are concrete values (JAX's rule
    for jit), else every constvar becomes a leading invar and the consts are returned as args."""
    from ..tracing.tracing import Tracer
    if not any(isinstance(c, Tracer) for c in consts):
        return ClosedJaxpr(jaxpr, list(consts)), []
    return ClosedJaxpr(Jaxpr([], jaxpr.constvars + jaxpr.invars, jaxpr.outvars, jaxpr.eqns), []), list(consts)


def closed_call(fun, in_avals, name, debug=None):
    """Trace `fun`: (ClosedJaxpr, leading args for its call), see `close`; `debug`: what errors
    while tracing say about the function (core._engine.base.trace_debug)."""
    return close(*trace_to_jaxpr(fun, in_avals, debug=debug))


def lifted(jaxpr: Jaxpr, consts):
    """(ClosedJaxpr with every const as a leading invar, those consts)."""
    return ClosedJaxpr(Jaxpr([], jaxpr.constvars + jaxpr.invars, jaxpr.outvars, jaxpr.eqns), []), list(consts)


# ---- results derived from one jaxpr object, kept as JAX's caches keep them ----------------

class DerivedCache:
    """Jaxprs derived from a jaxpr object (its jvp, its linearized halves, its transpose) keyed
    by that object's identity and the derivation's other inputs. JAX caches these derivations,
    so two calls of one jitted or checkpointed function under grad bind the same derived bodies,
    which jaxpr text prints once (`let h = {...} in ... jit[name=h jaxpr=h]`). The newest
    `size` entries are kept; each holds its source object, so an id is never reused while cached.
    A derivation whose result holds another trace's tracers is not kept."""

    def __init__(self, size: int = 512):
        from collections import OrderedDict
        self.size = size
        self.entries: "OrderedDict" = OrderedDict()

    def get(self, obj, extra):
        key = (id(obj), extra)
        entry = self.entries.get(key)
        if entry is None or entry[0] is not obj:
            return None
        self.entries.move_to_end(key)
        return entry[1]

    def put(self, obj, extra, value, consts=()):
        from ..tracing.tracing import Tracer
        if any(isinstance(c, Tracer) for c in consts):
            return value
        try:
            key = (id(obj), extra)
            hash(key)
        except TypeError:
            return value
        self.entries[key] = (obj, value)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)
        return value


def _context():
    from ..tracing import jit_cache
    return jit_cache.context[0]


_jvp_cache = DerivedCache()
_linearize_cache = DerivedCache()
_transpose_cache = DerivedCache()
_batch_cache = DerivedCache()
_split_cache = DerivedCache()


# ---- jvp ----------------------------------------------------------------------------------

def jvp_jaxpr(cj: ClosedJaxpr, nonzeros, lift=True, out_nonzeros=None):
    """A jaxpr computing (primal outs, tangent outs) from (primals, nonzero tangents), with its
    consts as leading invars (lift) or closed over as `close` decides. `out_nonzeros`: a list that
    receives, per output, whether its tangent can be nonzero; the jaxpr then returns those tangents
    only (as JAX's jvp_jaxpr with instantiate=False), so a symbolic zero stays one past the call."""
    extra = (_context(), tuple(nonzeros), lift, out_nonzeros is not None)
    hit = _jvp_cache.get(cj, extra)
    if hit is not None:
        result, out_nz = hit
        if out_nonzeros is not None:
            out_nonzeros[:] = out_nz
        return result
    result = _jvp_jaxpr(cj, nonzeros, lift, out_nonzeros)
    return _jvp_cache.put(cj, extra, (result, list(out_nonzeros or ())), result[1])[0]


def _jvp_jaxpr(cj: ClosedJaxpr, nonzeros, lift, out_nonzeros):
    in_avals = cj.in_avals
    n = len(in_avals)
    tan_avals = [a for a, nz in zip(in_avals, nonzeros) if nz]

    def fun(*args):
        primals, tans = args[:n], list(args[n:])
        it = iter(tans)
        tangents = [next(it) if nz else ad.Zero(a) for a, nz in zip(in_avals, nonzeros)]
        po, to = ad.jvp_flat(lambda *xs: eval_jaxpr(cj.jaxpr, cj.consts, *xs), primals, tangents)
        if out_nonzeros is None:
            return list(po) + [ad.instantiate(t) for t in to]
        out_nonzeros[:] = [type(t) is not ad.Zero for t in to]
        return list(po) + [t for t in to if type(t) is not ad.Zero]
    jaxpr, consts = trace_to_jaxpr(fun, list(in_avals) + tan_avals)
    return lifted(jaxpr, consts) if lift else close(jaxpr, consts)


def symbolic_int_zeros(primals, tangents):
    """Tangents with those of integer and boolean primals as symbolic zeros: whatever such a tangent
    holds (float0 or instantiated integer zeros), it is zero, and JAX keeps it symbolic across calls."""
    return [ad.Zero(get_aval(p)) if type(t) is not ad.Zero and not _inexact(p) else t
            for p, t in zip(primals, tangents)]


def _inexact(x) -> bool:
    from ..base.dtypes import kind
    return kind(get_aval(x).dtype) in "fc"


def _jit_jvp(primals, tangents, jaxpr, name):
    tangents = symbolic_int_zeros(primals, tangents)
    nonzeros = [type(t) is not ad.Zero for t in tangents]
    out_nz = []
    new, consts = jvp_jaxpr(jaxpr, nonzeros, lift=False, out_nonzeros=out_nz)
    outs = jit_p.bind(*consts, *primals, *[t for t in tangents if type(t) is not ad.Zero],
                      jaxpr=new, name=name)
    k = len(jaxpr.out_avals)
    it = iter(outs[k:])
    return outs[:k], [next(it) if nz else ad.Zero(a) for a, nz in zip(jaxpr.out_avals, out_nz)]


jvp_rules[jit_p] = _jit_jvp


# ---- linearize: split the jvp jaxpr into a known (primal) call and an unknown (tangent) call --

def partial_eval_jaxpr(jaxpr: Jaxpr, unknowns):
    """Split `jaxpr` by which inputs are unknown. Returns (known, unknown, out_unknowns, n_res):
    known: known ins -> known outs + residuals; unknown: residuals + unknown ins -> unknown outs."""
    unknown_vars = {v for v, u in zip(jaxpr.invars, unknowns) if u}
    known_eqns, unknown_eqns = [], []
    for eqn in jaxpr.eqns:
        unk_in = [isinstance(v, Var) and v in unknown_vars for v in eqn.invars]
        if not any(unk_in):
            known_eqns.append(eqn)
            continue
        rule = partial_eval_jaxpr_rules.get(eqn.primitive)
        if rule is not None and not all(unk_in):
            # a call with some known inputs splits too, so its primal work stays on the known side
            known_eqn, unknown_eqn, out_unk = rule(eqn, unk_in)
            known_eqns.append(known_eqn)
            if unknown_eqn is not None:
                unknown_eqns.append(unknown_eqn)
            unknown_vars.update(v for v, u in zip(eqn.outvars, out_unk) if u)
            continue
        unknown_eqns.append(eqn)
        unknown_vars.update(eqn.outvars)
    out_unknowns = [isinstance(v, Var) and v in unknown_vars for v in jaxpr.outvars]
    # tangent work no output needs (a tangent that stop_gradient drops) is not staged, nor are the
    # residuals only it would read (JAX's partial evaluation of a call does the same)
    unknown_eqns = _dce(unknown_eqns, [v for v, u in zip(jaxpr.outvars, out_unknowns) if u])
    residuals, seen = [], set()
    for eqn in unknown_eqns:
        for i, v in enumerate(eqn.invars):
            if (isinstance(v, Var) and v not in unknown_vars or _made_zero(eqn, i, v)) and v not in seen:
                seen.add(v)
                residuals.append(v)
    known_ins = [v for v, u in zip(jaxpr.invars, unknowns) if not u]
    known_outs = [v for v, u in zip(jaxpr.outvars, out_unknowns) if not u]
    known = Jaxpr(list(jaxpr.constvars), known_ins, known_outs + residuals,
                  _dce(known_eqns, known_outs + residuals))
    res_vars = [Var(v.aval) for v in residuals]
    sub = dict(zip(residuals, res_vars))
    unknown_ins = [v for v, u in zip(jaxpr.invars, unknowns) if u]
    renamed = [JaxprEqn(e.primitive, [sub.get(v, v) if isinstance(v, Var) or v in seen else v for v in e.invars],
                        e.outvars, e.params, e.source_info) for e in unknown_eqns]
    unknown_outs = [v for v, u in zip(jaxpr.outvars, out_unknowns) if u]
    unknown = Jaxpr([], res_vars + unknown_ins, unknown_outs, renamed)
    return known, unknown, out_unknowns, len(residuals)


def _made_zero(eqn, i, v) -> bool:
    """A 0-d zero a jvp rule made for a zero tangent (a ZeroLiteral: select_n's stand-in case, an
    instantiated tangent). JAX's partial evaluation makes it a residual, not a literal: the known
    call returns it (`in (_, 0.0:f32[])`) and the tangent call takes it as an argument. (A primal
    constant the tangent work reads, `mul t 0.0`, stays a literal.)"""
    return isinstance(v, ZeroLiteral)


def _jit_partial_eval_eqn(eqn, unk_in):
    """Split one jit equation: a known call returning its known outputs plus residuals, and an
    unknown call taking those residuals plus the unknown inputs."""
    inner = eqn.params["jaxpr"]
    known_cj, unknown_cj, out_unk, res_spec = _split_call(inner, unk_in)
    # a residual that is one of the call's known inputs is passed on from outside, not returned
    # (as JAX's partial evaluation of a call forwards its known inputs)
    outer_known_ins = [v for v, u in zip(eqn.invars, unk_in) if not u]
    res_vars = [outer_known_ins[spec] if isinstance(spec, int) else Var(spec) for spec in res_spec]
    returned = [v for v, spec in zip(res_vars, res_spec) if not isinstance(spec, int)]
    known_eqn = JaxprEqn(jit_p, outer_known_ins, [v for v, u in zip(eqn.outvars, out_unk) if not u] + returned,
                         dict(eqn.params, jaxpr=known_cj), eqn.source_info)
    unknown_outs = [v for v, u in zip(eqn.outvars, out_unk) if u]
    unknown_eqn = None
    if unknown_outs:
        unknown_eqn = JaxprEqn(jit_p, res_vars + [v for v, u in zip(eqn.invars, unk_in) if u], unknown_outs,
                               dict(eqn.params, jaxpr=unknown_cj), eqn.source_info)
    return known_eqn, unknown_eqn, out_unk


def _split_call(inner: ClosedJaxpr, unk_in):
    """A call's body split by which inputs are unknown, cached per body object (JAX's cache: each
    call of one jitted function then binds the same two bodies): (known body, unknown body,
    out_unknowns, per residual: the index of the known input it is, or the aval of a returned one)."""
    extra = (_context(), tuple(unk_in))
    hit = _split_cache.get(inner, extra)
    if hit is not None:
        return hit
    known, unknown, out_unk, n_res = partial_eval_jaxpr(inner.jaxpr, unk_in)
    n_outs = len(known.outvars) - n_res
    in_pos = {v: i for i, v in enumerate(known.invars)}
    res_spec, returned = [], []
    for r in known.outvars[n_outs:]:
        if isinstance(r, Var) and r in in_pos:
            res_spec.append(in_pos[r])
        else:
            res_spec.append(r.aval)
            returned.append(r)
    known = Jaxpr(known.constvars, known.invars, known.outvars[:n_outs] + returned,
                  _dce(known.eqns, known.outvars[:n_outs] + returned))
    result = (ClosedJaxpr(known, inner.consts), ClosedJaxpr(unknown, []), out_unk, res_spec)
    return _split_cache.put(inner, extra, result, inner.consts)


partial_eval_jaxpr_rules[jit_p] = _jit_partial_eval_eqn


def _dce(eqns, outvars):
    """Drop equations whose outputs nothing needs (JAX's known side computes only those)."""
    live = {v for v in outvars if isinstance(v, Var)}
    kept = []
    for e in reversed(eqns):
        if eqn_effectful(e) or any(v in live for v in e.outvars):
            kept.append(e)
            live.update(v for v in e.invars if isinstance(v, Var))
    return kept[::-1]


def splits_statically(jaxpr: Jaxpr, unknowns) -> bool:
    """Whether splitting this jvp jaxpr by known/unknown inputs leaves only linear work on the
    unknown side. An equation with both known and unknown inputs whose primitive linearizes by
    its own rule (scan, while, cond: their primal work is inside) would put primal work on the
    tangent side, which cannot be transposed; such bodies are linearized equation by equation."""
    unknown = {v for v, u in zip(jaxpr.invars, unknowns) if u}
    for eqn in jaxpr.eqns:
        unk = [isinstance(v, Var) and v in unknown for v in eqn.invars]
        if any(unk):
            if (not all(unk) and eqn.primitive in linearize_rules and eqn.primitive not in partial_eval_jaxpr_rules
                    and _has_body(eqn)):   # (div's own linearize rule is elementwise: `div t y` splits)
                return False
            # a nested jit splits by the same rules: its body must split too (diffrax's solve: a cond
            # inside the jit inside the jit kept a primal output on the tangent side, a leaked tracer)
            if not all(unk) and eqn.primitive is jit_p and not splits_statically(eqn.params["jaxpr"].jaxpr, unk):
                return False
            unknown.update(eqn.outvars)
    return True


def _has_body(eqn) -> bool:
    """Whether an equation carries a jaxpr (a call or control flow), not an elementwise primitive."""
    return any(isinstance(p, (Jaxpr, ClosedJaxpr)) or isinstance(p, tuple) and any(
        isinstance(q, (Jaxpr, ClosedJaxpr)) for q in p) for p in eqn.params.values())


def linearize_inline(trace, tracers, cj: ClosedJaxpr):
    """Linearize a call's body equation by equation at this level (each primitive's own rule)."""
    outs = eval_jaxpr(cj.jaxpr, cj.consts, *tracers)
    return [trace.full_raise(o) for o in outs]


def _jit_linearize(trace, tracers, jaxpr, name):
    """Primal work in one call at the parent level; tangent work in another, recorded linearly.
    Like JAX, the known call does not return values the caller already has: residuals or primal
    outputs that are just its inputs are forwarded, and residuals that are primal outputs are
    not returned twice."""
    primals = [t.primal for t in tracers]
    tangents = symbolic_int_zeros(primals, [t.tangent for t in tracers])
    nonzeros = [type(t) is not ad.Zero for t in tangents]
    plan = _linearize_plan(jaxpr, nonzeros)
    if plan is None:  # (grad(jit(f)) with a scan/while/cond in f)
        return linearize_inline(trace, tracers, jaxpr)
    known_call, lead, consts, sources, unknown_call, out_unknowns, n_primal_outs, out_nz = plan
    k = len(jaxpr.out_avals)
    known_in_vals = [*consts, *primals]
    computed = iter(jit_p.bind(*lead, *primals, jaxpr=known_call, name=name))
    known_out = []
    for src in sources:
        known_out.append(next(computed) if src is None else known_in_vals[src[1]] if src[0] == "in" else None)
    known_out = [known_out[src[1]] if src is not None and src[0] == "out" else o for o, src in zip(known_out, sources)]
    res = known_out[n_primal_outs:]
    nz_tangents = [t for t in tangents if type(t) is not ad.Zero]
    tangent_out = jit_p.bind(*res, *nz_tangents, jaxpr=unknown_call, name=name) if unknown_call is not None else []
    # reassemble primal and tangent outputs in order
    known_iter, unknown_iter = iter(known_out[:n_primal_outs]), iter(tangent_out)
    full = [next(unknown_iter) if u else next(known_iter) for u in out_unknowns]
    primal_outs = full[:k]
    # tangents the jvp knows are zero are not outputs (JAX's jvp_jaxpr with instantiate=False); a
    # tangent the known side computed is a constant zero: both stay symbolic
    it = iter(zip(full[k:], out_unknowns[k:]))
    tangent_outs = []
    for p, nz in zip(primal_outs, out_nz):
        t, u = next(it) if nz else (None, False)
        tangent_outs.append(t if u else ad.Zero(get_aval(p)))
    tangent_outs = symbolic_int_zeros(primal_outs, tangent_outs)
    return [trace.tracer_type(trace, p, t) for p, t in zip(primal_outs, tangent_outs)]


linearize_rules[jit_p] = _jit_linearize


def _linearize_plan(jaxpr: ClosedJaxpr, nonzeros):
    """How `_jit_linearize` splits this call for these nonzero tangents (cached per jaxpr object):
    (known call, its leading args, the jvp's consts, where each known output comes from, the
    unknown call or None, out_unknowns, number of primal outputs); None: no static split."""
    extra = (_context(), tuple(nonzeros))
    hit = _linearize_cache.get(jaxpr, extra)
    if hit is not None:
        return hit[0]
    out_nz = []
    jj, consts = jvp_jaxpr(jaxpr, nonzeros, out_nonzeros=out_nz)
    n_consts, n = len(consts), len(jaxpr.in_avals)
    unknowns = [False] * (n_consts + n) + [True] * sum(nonzeros)
    if not splits_statically(jj.jaxpr, unknowns):
        return _linearize_cache.put(jaxpr, extra, (None,), consts)[0]
    known, unknown, out_unknowns, n_res = partial_eval_jaxpr(jj.jaxpr, unknowns)
    in_pos = {v: i for i, v in enumerate(known.invars)}
    n_primal_outs = len(known.outvars) - n_res
    primal_vars = known.outvars[:n_primal_outs]
    out_pos = {}
    for i, v in enumerate(primal_vars):
        if v not in in_pos:
            out_pos.setdefault(v, i)
    # how to get each known output: ("in", i) forwarded input, ("out", i) another output, None: computed
    sources = [("in", in_pos[v]) if v in in_pos else
               ("out", out_pos[v]) if j >= n_primal_outs and v in out_pos else None
               for j, v in enumerate(known.outvars)]
    kept = [v for v, src in zip(known.outvars, sources) if src is None]
    # the consts (arrays the function closes over) stay inside the known call, as in JAX
    known_call, lead = close(Jaxpr(known.invars[:n_consts], known.invars[n_consts:], kept, known.eqns), consts)
    unknown_call = ClosedJaxpr(unknown, []) if unknown.outvars else None
    plan = (known_call, lead, consts, sources, unknown_call, out_unknowns, n_primal_outs, out_nz)
    return _linearize_cache.put(jaxpr, extra, (plan,), list(consts) + list(lead))[0]


# ---- transpose ----------------------------------------------------------------------------

def _jit_transpose(cts, *args, jaxpr, name):
    lin = [ad.is_undefined(a) for a in args]
    res = [a for a in args if not ad.is_undefined(a)]
    ct_avals = [get_aval(c) if type(c) is not ad.Zero else c.aval for c in cts]
    nz_ct = [type(c) is not ad.Zero for c in cts]

    def fun(*xs):
        r = xs[:len(res)]
        cs = list(xs[len(res):])
        it = iter(cs)
        cts_in = [next(it) if nz else ad.Zero(a) for a, nz in zip(jaxpr.out_avals, nz_ct)]
        env_args = []
        rit = iter(r)
        for is_lin, a in zip(lin, args):
            env_args.append(None if is_lin else next(rit))
        outs = _backward_with_residuals(jaxpr, env_args, lin, cts_in)
        return [ad.instantiate(o) for o in outs]
    res_avals = [get_aval(r) for r in res]
    in_avals = res_avals + [a for a, nz in zip(ct_avals, nz_ct) if nz]
    extra = (_context(), tuple(lin), tuple(nz_ct), tuple(in_avals))
    hit = _transpose_cache.get(jaxpr, extra)
    if hit is None:
        tj, consts = trace_to_jaxpr(fun, in_avals)
        tcj = ClosedJaxpr(Jaxpr([], tj.constvars + tj.invars, tj.outvars, tj.eqns), [])
        hit = _transpose_cache.put(jaxpr, extra, (tcj, consts), consts)
    tcj, consts = hit
    outs = jit_p.bind(*consts, *res, *[c for c in cts if type(c) is not ad.Zero], jaxpr=tcj, name=name)
    it = iter(outs)
    return [next(it) if l else None for l in lin]


def _backward_with_residuals(cj: ClosedJaxpr, args, lin, cts_in):
    """Transpose a jaxpr whose non-linear inputs have values `args` and linear ones are None."""
    jaxpr = cj.jaxpr
    # bind the residual inputs as constants; the linear inputs stay invars
    const_vars = [v for v, l in zip(jaxpr.invars, lin) if not l]
    lin_vars = [v for v, l in zip(jaxpr.invars, lin) if l]
    j = Jaxpr(list(jaxpr.constvars) + const_vars, lin_vars, jaxpr.outvars, jaxpr.eqns)
    consts = list(cj.consts) + [a for a, l in zip(args, lin) if not l]
    return ad.backward_pass(j, consts, cts_in, transform_stack=False)


transpose_rules[jit_p] = _jit_transpose


# ---- batching -----------------------------------------------------------------------------

def batch_jaxpr(cj: ClosedJaxpr, axis_data, dims):
    """A jaxpr over batched inputs (batch axis at `dims`); outputs batched at 0 or unbatched."""
    from ..transforms.batching import batched_body
    extra = (_context(), axis_data.size, axis_data.name, tuple(dims))
    hit = _batch_cache.get(cj, extra)  # one batched body per body and batch pattern, as JAX's cache
    if hit is not None:
        return hit
    fun, in_avals, out_batched = batched_body(cj, axis_data, dims)
    new, consts = closed_call(fun, in_avals, "batched")
    return _batch_cache.put(cj, extra, (new, consts, out_batched), consts)


def _jit_batch(axis_data, vals, dims, jaxpr, name):
    new, consts, out_batched = batch_jaxpr(jaxpr, axis_data, dims)
    outs = jit_p.bind(*consts, *vals, jaxpr=new, name=name)
    return outs, [0 if b else None for b in out_batched]


batch_rules[jit_p] = _jit_batch
