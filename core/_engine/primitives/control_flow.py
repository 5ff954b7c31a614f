"""Structured control flow: `cond` (and `switch`), `while`, `scan`, with the lax functions built
on them (`fori_loop`, `map`, `associative_scan`, `reduce`).

Each primitive carries its bodies as closed jaxprs whose captured constants were turned into
leading operands, exactly as JAX prints them. The numpy backend compiles each body once and loops
in Python. Transformations map over the bodies: jvp (with a fixed point on which loop carries
have nonzero tangents), linearize (bodies split into a primal and a tangent part; scan residuals
become stacked outputs), transpose (cond and scan) and batching (a batched predicate turns a cond
into a select, and a while loop into "run while any example runs").
"""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from ..tracing.array import Array, to_numpy
from ..base.avals import ShapedArray
from ..tracing.jaxpr import ClosedJaxpr, Jaxpr, Var
from ..tracing.rules import abstract_eval_rules, batch_rules, impl_rules, jaxpr_compiler, jvp_rules, linearize_rules, transpose_rules
from ..tracing.tracing import Primitive, Tracer, get_aval
from ..transforms import ad
from ..transforms.staging import convert_constvars_to_invars, eval_jaxpr, trace_to_jaxpr
from ..base.tree_util import tree_flatten, tree_map, tree_unflatten
from .call import _backward_with_residuals


# ---- tracing bodies -----------------------------------------------------------------------

def _trace(fun, in_avals):
    """Trace flat `fun`; captured constants become leading invars (returned as operands)."""
    jaxpr, consts = trace_to_jaxpr(fun, list(in_avals))
    return ClosedJaxpr(convert_constvars_to_invars(jaxpr), []), list(consts)


def _trace_tree(call, in_tree, in_avals):
    """Trace `call(pytree)`; returns (closed jaxpr, consts, output treedef)."""
    box = []

    def flat(*xs):
        out = call(tree_unflatten(in_tree, list(xs)))
        leaves, tree = tree_flatten(out)
        box.append(tree)
        return leaves
    cj, consts = _trace(flat, in_avals)
    return cj, consts, box[0]


def _join_consts(traced):
    """Give every jaxpr in [(closed jaxpr, consts)] the constants of all of them, each distinct
    constant once (JAX's common-consts convention for cond branches)."""
    unique, index = [], {}
    for _, cs in traced:
        for c in cs:
            if id(c) not in index:
                index[id(c)] = len(unique)
                unique.append(c)
    avals = [get_aval(c) for c in unique]
    joined = []
    for cj, cs in traced:
        j = cj.jaxpr
        slots = [Var(a) for a in avals]
        for c, v in zip(cs, j.invars[:len(cs)]):
            slots[index[id(c)]] = v
        joined.append(ClosedJaxpr(Jaxpr([], slots + j.invars[len(cs):], j.outvars, j.eqns), []))
    return joined, unique


def _reorder(cj: ClosedJaxpr, in_perm=None, out_perm=None) -> ClosedJaxpr:
    j = cj.jaxpr
    invars = j.invars if in_perm is None else [j.invars[i] for i in in_perm]
    outvars = j.outvars if out_perm is None else [j.outvars[i] for i in out_perm]
    return ClosedJaxpr(Jaxpr([], invars, outvars, j.eqns), [])


def _same_type(a: ShapedArray, b: ShapedArray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def _carry_type_error(what, fun, init, in_avals, out_avals) -> str:
    """JAX's message: which carry component (by argument name and key path) changed type, and how."""
    import inspect
    from ..base.tree_util import keystr, tree_flatten_with_path
    try:
        arg = next(iter(inspect.signature(fun).parameters))
    except (TypeError, ValueError, StopIteration):
        arg = "carry"
    paths = [keystr(p) for p, _ in tree_flatten_with_path(init)[0]]
    lines = []
    for path, a, b in zip(paths, in_avals, out_avals):
        if _same_type(a, b):
            continue
        why = [w for w, bad in (("the dtypes do not match", a.dtype != b.dtype),
                                ("the shapes do not match", a.shape != b.shape)) if bad]
        who = f"carry {arg}" if not path else f"carry component {arg}{path}"
        lines.append(f"The input {who} has type {a.str_short(short_dtypes=False)} but the corresponding output "
                     f"carry component has type {b.str_short(short_dtypes=False)}, so {', and '.join(why)}.")
    return (f"{what} body function carry input and carry output must have equal types, but they differ:\n\n"
            + "\n".join(lines) + "\n\nRevise the function so that all output types match the corresponding "
            "input types.")


def _promote_weak_inputs(vals, in_avals, out_avals):
    """A weakly typed initial carry takes the type the body gives it (JAX retraces then)."""
    changed = False
    vals = list(vals)
    for i, (v, a, b) in enumerate(zip(vals, in_avals, out_avals)):
        if a.weak_type and not _same_type(a, b):
            dt, _ = dtypes.result_type_weak((a.dtype, True), (b.dtype, b.weak_type))
            from ..lax import lax  # INHERENT: up to lax
            vals[i] = lax.convert_element_type(v, dt)
            changed = True
    return vals, changed


def _show(x):
    v = x.to_concrete_value() if isinstance(x, Tracer) else x
    return x if v is None else np.asarray(to_numpy(v))


def _shaped_repr(a: ShapedArray) -> str:
    """JAX's repr of an aval in messages: ShapedArray(int32[], weak_type=True)."""
    return f"ShapedArray({a.dtype.name}[{','.join(str(d) for d in a.shape)}]{', weak_type=True' if a.weak_type else ''})"


def _as_operand(x):
    if isinstance(x, (Tracer, Array)):
        return x
    dt, weak = dtypes.dtype_and_weak(x)
    return Array(np.asarray(to_numpy(x), dt), weak)


# ---- jvp / partial eval / batching of bodies ------------------------------------------------

def _jvp_jaxpr(cj: ClosedJaxpr, nonzeros, instantiate):
    """Body computing (primal outs, nonzero tangent outs) from (consts, primals, nonzero tangents).
    Returns (closed jaxpr, consts, which outputs have nonzero tangents)."""
    in_avals = cj.in_avals
    n = len(in_avals)
    out_nz: list = []

    def fun(*args):
        primals, it = args[:n], iter(args[n:])
        tangents = [next(it) if nz else ad.Zero(a) for a, nz in zip(in_avals, nonzeros)]
        po, to = ad.jvp_flat(lambda *xs: eval_jaxpr(cj.jaxpr, cj.consts, *xs), primals, tangents)
        inst = instantiate if isinstance(instantiate, (list, tuple)) else [instantiate] * len(to)
        to = [ad.instantiate(t) if i else t for t, i in zip(to, inst)]
        out_nz[:] = [type(t) is not ad.Zero for t in to]
        return list(po) + [t for t in to if type(t) is not ad.Zero]
    tan_avals = [ad.tangent_aval(a) for a, nz in zip(in_avals, nonzeros) if nz]
    new, consts = _trace(fun, list(in_avals) + tan_avals)
    return new, consts, list(out_nz)


def _linearize_jaxpr(cj: ClosedJaxpr, nonzeros):
    """Split a body for linearize: `known` (traced at the primal level: the body's outputs plus
    residuals; its captured consts come back as leading operands) and `linear` (a jaxpr whose
    constvars are the residuals and invars the nonzero tangents; it returns every output's
    tangent). Nested control flow is split by its own linearize rule."""
    box = []

    def known_fun(*primals):
        def f(*nz_args):
            it = iter(nz_args)
            return eval_jaxpr(cj.jaxpr, cj.consts, *[next(it) if z else p for p, z in zip(primals, nonzeros)])
        po, lin = ad.linearize_flat(f, [p for p, z in zip(primals, nonzeros) if z])
        box[:] = [lin, len(po)]
        return list(po) + list(lin.residuals)
    known, kconsts = _trace(known_fun, cj.in_avals)
    lin, n_out = box
    return known, kconsts, lin.jaxpr, n_out


def _batch_jaxpr(cj: ClosedJaxpr, axis_data, dims, force=False):
    """Body over batched inputs (batch axis at `dims`); outputs batched at 0 where they depend
    on the batch or `force` says so. Returns (closed jaxpr, consts, out_batched)."""
    from ..transforms.batching import batched_body
    fun, in_avals, out_bat = batched_body(cj, axis_data, dims, force)
    new, consts = _trace(fun, in_avals)
    return new, consts, list(out_bat)


def _bcast(pred, like):
    from ..lax import lax  # INHERENT: up to lax
    p, x = get_aval(pred), get_aval(like)
    if p.ndim == x.ndim:
        return pred
    return lax.broadcast_in_dim(pred, x.shape, tuple(range(p.ndim)))


def _zeros(aval: ShapedArray):
    return ad.zeros_like_aval(aval)


class _MemorySpace:
    def __repr__(self):
        return "MemorySpace.Device"

    __str__ = __repr__


_DEVICE_MEMORY = _MemorySpace()
empty2_p = Primitive("empty2")
empty2_p.pp_params = lambda p: [("dtype", p["dtype"]), ("memory_space", p["memory_space"])]
# weak_type (not printed) keeps the slot's type identical in every branch
abstract_eval_rules[empty2_p] = lambda *, dtype, memory_space, weak_type: ShapedArray((), dtype, weak_type)
impl_rules[empty2_p] = lambda *, dtype, memory_space, weak_type: np.zeros((), dtype)
empty2_p.weak_type_rule = lambda weak, weak_type, **_: weak_type


def _empty(aval: ShapedArray):
    """Zeros for an unused residual slot, made as JAX 0.10.2 makes them (`empty2`)."""
    from ..lax import lax  # INHERENT: up to lax
    z = empty2_p.bind(dtype=aval.dtype, memory_space=_DEVICE_MEMORY, weak_type=aval.weak_type)
    return lax.broadcast_in_dim(z, aval.shape, ()) if aval.shape else z


# =============================================================================================
# cond / switch
# =============================================================================================

def _cond_pp(params):
    return [("branches", params["branches"])]


cond_p = Primitive("cond", multiple_results=True)
cond_p.pp_params = _cond_pp


def _joined_out_avals(branches):
    """The cond's output types: those of branches[0] (for cond: the false branch), as in JAX,
    weak types included."""
    return list(branches[0].out_avals)


abstract_eval_rules[cond_p] = lambda index, *ops, branches: _joined_out_avals(branches)
cond_p.weak_type_rule = lambda weak, branches: [a.weak_type for a in _joined_out_avals(branches)]


def _cond_impl(index, *ops, branches):
    cpu = jaxpr_compiler[0]
    i = int(np.clip(np.asarray(index), 0, len(branches) - 1))
    return cpu.compiled(branches[i])(*ops)


impl_rules[cond_p] = _cond_impl


# `operand=` given by keyword, None included (a sentinel, as JAX's, tells "not passed" apart)
_NO_OPERAND = object()


def _keyword_operand(operands, operand):
    if operand is _NO_OPERAND:
        return operands
    if operands:
        raise TypeError("if 'operand' keyword is passed then no positional operands can be passed, got "
                        f"operand={operand!r} and positional operands {operands}")
    return (operand,)


def cond(pred, true_fun, false_fun, *operands, operand=_NO_OPERAND, linear=None):
    """lax.cond: `true_fun(*operands)` if pred else `false_fun(*operands)`, both traced."""
    if not callable(true_fun) or not callable(false_fun):
        # JAX still accepts the old form cond(pred, true_operand, true_fun, false_operand, false_fun)
        # (blackjax's NUTS uses it): both operands go to both branches, each takes its own
        if callable(false_fun) and len(operands) == 2 and callable(operands[1]):
            x_true, f_true, x_false, f_false = true_fun, false_fun, *operands
            return cond(pred, lambda x, _: f_true(x), lambda _, x: f_false(x), x_true, x_false)
        raise TypeError("lax.cond: true_fun and false_fun arguments should be callable.")
    operands = _keyword_operand(operands, operand)
    pred_aval = get_aval(pred)
    if pred_aval.shape != ():
        raise TypeError(f"Pred must be a scalar, got {_show(pred)} of shape {pred_aval.shape}.")
    if pred_aval.dtype.kind != "b":
        if pred_aval.dtype.kind not in "iufc":
            raise TypeError(f"Pred type must be either boolean or number, got {pred_aval.dtype.name}.")
        from ..lax import lax  # INHERENT: up to lax
        pred = lax.ne(_as_operand(pred), Array(np.zeros((), pred_aval.dtype)))
    from ..lax import lax  # INHERENT: up to lax
    index = lax.convert_element_type(_as_operand(pred), np.int32)
    return _switch_with_index(index, [false_fun, true_fun], operands, "cond")


def switch(index, branches, *operands, operand=_NO_OPERAND):
    """lax.switch: apply `branches[clamp(0, index, len-1)]` to operands."""
    from ..lax import lax  # INHERENT: up to lax
    branches = list(branches)
    if not branches:
        raise ValueError("Empty branch sequence")
    if not all(callable(b) for b in branches):
        raise TypeError("lax.switch: branches argument should be a sequence of callables.")
    operands = _keyword_operand(operands, operand)
    a = get_aval(index)
    if a.shape != ():
        raise TypeError(f"Branch index must be scalar, got {_show(index)} of shape {a.shape}.")
    if a.dtype.kind not in "iu":
        raise TypeError(f"Index type must be an integer, got {_show(index)} as {a.dtype.name}")
    index = lax.convert_element_type(_as_operand(index), np.int32)
    if len(branches) == 1:
        return branches[0](*operands)
    index = lax.clamp(Array(np.int32(0)), index, Array(np.int32(len(branches) - 1)))
    return _switch_with_index(index, branches, operands, "switch")


def _switch_with_index(index, funs, operands, what):
    ops, in_tree = tree_flatten(tuple(operands))
    ops = [_as_operand(x) for x in ops]
    avals = [get_aval(x) for x in ops]
    # a function given for several branches is traced once, as JAX's (haiku's tests count the traces)
    once = {}
    for f in funs:
        if id(f) not in once:
            once[id(f)] = _trace_tree(lambda ops, f=f: f(*ops), in_tree, avals)
    traced = [once[id(f)] for f in funs]
    trees = [t for _, _, t in traced]
    if any(t != trees[0] for t in trees[1:]):
        raise TypeError(f"{what} branch outputs must have the same pytree structure, but they differ: "
                        + ", ".join(str(t) for t in trees) + ". Make every branch return the same kind of "
                        "container (tuple, dict, ...) with the same number of leaves.")
    outs0 = traced[0][0].out_avals
    for i, (cj, _, _) in enumerate(traced[1:], 1):
        for a, b in zip(outs0, cj.out_avals):
            if not _same_type(a, b):
                raise TypeError(_branch_type_error(what, funs, i, a, b))
    branches, consts = _join_consts([(cj, cs) for cj, cs, _ in traced])
    outs = cond_p.bind(index, *consts, *ops, branches=tuple(branches))
    return tree_unflatten(trees[0], outs)


def _fun_desc(f) -> str:
    code = getattr(f, "__code__", None)
    if code is None:
        return getattr(f, "__name__", repr(f))
    return f"{code.co_name} at {code.co_filename}:{code.co_firstlineno}"


def _branch_type_error(what, funs, i, a, b) -> str:
    """JAX's message for branches whose outputs differ (cond: funs are [false_fun, true_fun])."""
    if what == "cond":
        (n1, f1), (n2, f2) = ("true_fun", funs[1]), ("false_fun", funs[0])
        t1, t2 = (b, a)
    else:
        (n1, f1), (n2, f2) = ("branch 0", funs[0]), (f"branch{i}", funs[i])
        t1, t2 = (a, b)
    why = [w for w, bad in (("the dtypes do not match", t1.dtype != t2.dtype),
                            ("the shapes do not match", t1.shape != t2.shape)) if bad]
    return (f"{what} branches must have equal output types but they differ.\n\n{n1} is {_fun_desc(f1)}\n"
            f"{n2} is {_fun_desc(f2)}\n\nThe output of {n1} has type {t1.str_short(short_dtypes=False)} but the "
            f"corresponding output of {n2} has type {t2.str_short(short_dtypes=False)}, so "
            f"{', and '.join(why)}.\n\nRevise {n1} and/or {n2} so that all output types match.")


def _cond_jvp(primals, tangents, branches):
    index, ops = primals[0], primals[1:]
    op_tans = tangents[1:]
    nz = [type(t) is not ad.Zero for t in op_tans]
    jvps = [_jvp_jaxpr(b, nz, True) for b in branches]
    new, consts = _join_consts([(cj, cs) for cj, cs, _ in jvps])
    outs = cond_p.bind(index, *consts, *ops, *[t for t in op_tans if type(t) is not ad.Zero],
                       branches=tuple(new))
    k = len(branches[0].out_avals)
    return outs[:k], outs[k:]


jvp_rules[cond_p] = _cond_jvp


def _merge_residuals(res_avals_per_branch):
    """Share residual slots of equal type across branches (as JAX does). Returns (slot avals,
    per branch: slot index of each of its residuals)."""
    slots: list = []
    assign = []
    for avals in res_avals_per_branch:
        used, mine = set(), []
        for a in avals:
            s = next((i for i, b in enumerate(slots) if i not in used and _same_type(a, b)), None)
            if s is None:
                s = len(slots)
                slots.append(a)
            used.add(s)
            mine.append(s)
        assign.append(mine)
    return slots, assign


def _cond_linearize(trace, tracers, branches):
    """Primal cond returning each branch's residuals (in shared slots) + a linear cond."""
    primals = [t.primal for t in tracers]
    tangents = [t.tangent for t in tracers]
    index, ops, op_tans = primals[0], primals[1:], tangents[1:]
    nz = [type(t) is not ad.Zero for t in op_tans]
    splits = [_linearize_jaxpr(b, nz) for b in branches]
    n_out = splits[0][3]
    slots, assign = _merge_residuals([[v.aval for v in known.jaxpr.outvars[n_out:]] for known, _, _, _ in splits])
    known_traced, linear_branches = [], []
    for (known, kconsts, lin, _), mine in zip(splits, assign):
        def fill(*xs, known=known, mine=mine):
            outs = eval_jaxpr(known.jaxpr, [], *xs)
            res = [_empty(a) for a in slots]  # every slot starts as zeros (unused ones stay dead)
            for s, r in zip(mine, outs[n_out:]):
                res[s] = r
            return outs[:n_out] + res
        cj, consts = _trace(fill, known.in_avals)
        known_traced.append((cj, consts))
        res_vars = [Var(a) for a in slots]
        for s, v in zip(mine, lin.constvars):
            res_vars[s] = v
        linear_branches.append(ClosedJaxpr(Jaxpr([], res_vars + lin.invars, lin.outvars, lin.eqns), []))
    known_branches, consts = _join_consts(known_traced)
    known_out = cond_p.bind(index, *consts, *ops, branches=tuple(known_branches))
    nz_tans = [t for t in op_tans if type(t) is not ad.Zero]
    tan_out = cond_p.bind(index, *known_out[n_out:], *nz_tans, branches=tuple(linear_branches))
    return [trace.tracer_type(trace, p, t) for p, t in zip(known_out[:n_out], tan_out)]

linearize_rules[cond_p] = _cond_linearize


def _cond_transpose(cts, index, *args, branches):
    if ad.is_undefined(index):
        raise ValueError("cond: cannot transpose with respect to the branch index")
    lin = [ad.is_undefined(a) for a in args]
    res = [a for a in args if not ad.is_undefined(a)]
    out_avals = _joined_out_avals(branches)
    cts = [_zeros(a) if type(c) is ad.Zero else c for c, a in zip(cts, out_avals)]
    res_avals = [get_aval(r) for r in res]
    ct_avals = [get_aval(c) for c in cts]

    def transposed(b):
        def fun(*xs):
            r_it = iter(xs[:len(res)])
            env_args = [None if l else next(r_it) for l in lin]
            outs = _backward_with_residuals(b, env_args, lin, list(xs[len(res):]))
            return [ad.instantiate(o) for o in outs]
        return _trace(fun, res_avals + ct_avals)
    new, consts = _join_consts([transposed(b) for b in branches])
    outs = cond_p.bind(index, *consts, *res, *cts, branches=tuple(new))
    it = iter(outs)
    return [None] + [next(it) if l else None for l in lin]


transpose_rules[cond_p] = _cond_transpose


def _cond_batch(axis_data, vals, dims, branches):
    from ..lax import lax  # INHERENT: up to lax
    from ..transforms.batching import bdim_at_front
    size = axis_data.size
    index, ops = vals[0], vals[1:]
    idim, odims = dims[0], dims[1:]
    if idim is not None:
        # A batched predicate: run every branch and select (inputs of unselected branches are
        # stop_gradient'ed so that reverse mode never sees their NaNs).
        index = bdim_at_front(index, idim, size)
        ops = [bdim_at_front(x, d, size) for x, d in zip(ops, odims)]
        branch_outs = []
        for i, b in enumerate(branches):
            bj, bconsts, _ = _batch_jaxpr(b, axis_data, [0] * len(ops), force=True)
            pred = lax.eq(index, Array(np.int32(i)))
            ops_i = [lax.select(_bcast(pred, x), x, lax.stop_gradient(x)) for x in ops]
            branch_outs.append(eval_jaxpr(bj.jaxpr, [], *bconsts, *ops_i))
        outs = [lax.select_n(_bcast(index, cases[0]), *cases) for cases in zip(*branch_outs)]
        return outs, [0] * len(outs)
    out_bat = [False] * len(branches[0].out_avals)
    for b in branches:
        out_bat = [x or y for x, y in zip(out_bat, _batch_jaxpr(b, axis_data, odims)[2])]
    batched = [_batch_jaxpr(b, axis_data, odims, force=out_bat) for b in branches]
    new, consts = _join_consts([(cj, cs) for cj, cs, _ in batched])
    outs = cond_p.bind(index, *consts, *ops, branches=tuple(new))
    return outs, [0 if b else None for b in out_bat]


batch_rules[cond_p] = _cond_batch


# =============================================================================================
# while
# =============================================================================================

while_p = Primitive("while", multiple_results=True)
while_p.pp_params = lambda p: [(k, p[k]) for k in ("body_jaxpr", "body_nconsts", "cond_jaxpr", "cond_nconsts")]


def _while_abstract(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    return list(body_jaxpr.out_avals)


abstract_eval_rules[while_p] = _while_abstract
while_p.weak_type_rule = lambda weak, body_jaxpr, **_: [a.weak_type for a in body_jaxpr.out_avals]


# A host may set this to a function called once per iteration of an eagerly run (or batched)
# while loop: the playground stops a loop that never ends on inputs it chose itself (its plots),
# where Pyodide has no thread to interrupt it. None (the default): nothing is called.
while_loop_tick = None


def _while_impl(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cpu = jaxpr_compiler[0]
    cc, bc = args[:cond_nconsts], args[cond_nconsts:cond_nconsts + body_nconsts]
    carry = list(args[cond_nconsts + body_nconsts:])
    cond_f, body_f = cpu.compiled(cond_jaxpr), cpu.compiled(body_jaxpr)
    tick = while_loop_tick
    while True:
        if tick is not None:
            tick()
        pred = np.asarray(cond_f(*cc, *carry)[0])
        if pred.ndim == 0:
            if not pred:
                return carry
            carry = body_f(*bc, *carry)
        else:  # batched predicate: examples that are done keep their carry
            if not pred.any():
                return carry
            new = body_f(*bc, *carry)
            carry = [np.where(pred.reshape(pred.shape + (1,) * (np.ndim(c) - pred.ndim)), n, c)
                     for n, c in zip(new, carry)]


impl_rules[while_p] = _while_impl


def while_loop(cond_fun, body_fun, init_val):
    """lax.while_loop: `while cond_fun(val): val = body_fun(val)`, traced once."""
    init, in_tree = tree_flatten(init_val)
    init = [_as_operand(x) for x in init]
    avals = [get_aval(x) for x in init]
    body, bconsts, out_tree = _trace_tree(body_fun, in_tree, avals)
    if out_tree != in_tree:
        raise TypeError(f"while_loop body function carry input and carry output must have the same pytree "
                        f"structure, but they differ: the input carry is {in_tree}, the output carry is {out_tree}. "
                        "Return the carry in the same container it came in.")
    init, changed = _promote_weak_inputs(init, avals, body.out_avals)
    if changed:
        avals = [get_aval(x) for x in init]
        body, bconsts, out_tree = _trace_tree(body_fun, in_tree, avals)
    if not all(_same_type(a, b) for a, b in zip(avals, body.out_avals)):
        raise TypeError(_carry_type_error("while_loop", body_fun, init_val, avals, body.out_avals))
    cond, cconsts, cond_tree = _trace_tree(cond_fun, in_tree, avals)
    pa = cond.out_avals
    if len(pa) != 1 or pa[0].shape != () or pa[0].dtype.kind != "b":
        raise TypeError(f"cond_fun must return a boolean scalar, but got output type(s) "
                        f"[{', '.join(_shaped_repr(a) for a in pa)}].")
    outs = while_p.bind(*cconsts, *bconsts, *init, cond_jaxpr=cond, body_jaxpr=body,
                        cond_nconsts=len(cconsts), body_nconsts=len(bconsts))
    return tree_unflatten(in_tree, outs)


def _while_jvp(primals, tangents, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    nc, nb = cond_nconsts, body_nconsts
    cc, bc, init = primals[:nc], primals[nc:nc + nb], primals[nc + nb:]
    bc_t, init_t = tangents[nc:nc + nb], tangents[nc + nb:]
    bc_nz = [type(t) is not ad.Zero for t in bc_t]
    carry_nz = [type(t) is not ad.Zero for t in init_t]
    while True:
        jb, jconsts, out_nz = _jvp_jaxpr(body_jaxpr, bc_nz + carry_nz, carry_nz)
        new = [a or b for a, b in zip(carry_nz, out_nz)]
        if new == carry_nz:
            break
        carry_nz = new
    J, k, nbt, nkt = len(jconsts), len(init), sum(bc_nz), sum(carry_nz)
    # jvp body invars: [jconsts, bc, carry, bc_t, carry_t] -> [jconsts, bc, bc_t, carry, carry_t]
    perm = (list(range(J + nb)) + list(range(J + nb + k, J + nb + k + nbt))
            + list(range(J + nb, J + nb + k)) + list(range(J + nb + k + nbt, J + nb + k + nbt + nkt)))
    body = _reorder(jb, perm)
    cj = cond_jaxpr.jaxpr
    cond = ClosedJaxpr(Jaxpr([], cj.invars + [Var(ad.tangent_aval(a)) for a, nz in zip((get_aval(x) for x in init), carry_nz) if nz],
                             cj.outvars, cj.eqns), [])
    t_init = [ad.instantiate(t) if nz and type(t) is ad.Zero else t
              for t, nz in zip(init_t, carry_nz)]
    outs = while_p.bind(*cc, *jconsts, *bc, *[t for t in bc_t if type(t) is not ad.Zero], *init,
                        *[t for t, nz in zip(t_init, carry_nz) if nz],
                        cond_jaxpr=cond, body_jaxpr=body, cond_nconsts=nc, body_nconsts=J + nb + nbt)
    t_it = iter(outs[k:])
    return outs[:k], [next(t_it) if nz else ad.Zero(get_aval(p)) for p, nz in zip(outs[:k], carry_nz)]


jvp_rules[while_p] = _while_jvp


def _while_linearize(trace, tracers, **params):
    """Primal loop at the primal level; the jvp loop (recomputing primals) in the linear jaxpr,
    as JAX's partial eval of while does. Transposing it is what raises for reverse mode."""
    primals = [t.primal for t in tracers]
    tangents = [t.tangent for t in tracers]
    primal_out = while_p.bind(*primals, **params)
    _, tangent_out = _while_jvp(primals, tangents, **params)
    return [trace.tracer_type(trace, p, t) for p, t in zip(primal_out, tangent_out)]


linearize_rules[while_p] = _while_linearize


def _while_transpose(cts, *args, **params):
    raise ValueError("Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with "
                     "dynamic start/stop values. Try using lax.scan, or using fori_loop with static start/stop.")


transpose_rules[while_p] = _while_transpose


def _while_batch(axis_data, vals, dims, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    from ..transforms.batching import bdim_at_front
    nc, nb = cond_nconsts, body_nconsts
    cc, bc, init = vals[:nc], vals[nc:nc + nb], vals[nc + nb:]
    ccd, bcd, initd = dims[:nc], dims[nc:nc + nb], dims[nc + nb:]
    carry_bat = [d is not None for d in initd]
    while True:
        carry_dims = [0 if b else None for b in carry_bat]
        _, _, out_bat = _batch_jaxpr(body_jaxpr, axis_data, list(bcd) + carry_dims, force=carry_bat)
        pred_bat = _batch_jaxpr(cond_jaxpr, axis_data, list(ccd) + carry_dims)[2][0]
        new = [True] * len(carry_bat) if pred_bat else [a or b for a, b in zip(carry_bat, out_bat)]
        if new == carry_bat:
            break
        carry_bat = new
    carry_dims = [0 if b else None for b in carry_bat]
    body, bconsts, _ = _batch_jaxpr(body_jaxpr, axis_data, list(bcd) + carry_dims, force=carry_bat)
    cond, cconsts, _ = _batch_jaxpr(cond_jaxpr, axis_data, list(ccd) + carry_dims)
    init = [bdim_at_front(x, d, axis_data.size) if b else x for x, d, b in zip(init, initd, carry_bat)]
    outs = while_p.bind(*cconsts, *cc, *bconsts, *bc, *init, cond_jaxpr=cond, body_jaxpr=body,
                        cond_nconsts=len(cconsts) + nc, body_nconsts=len(bconsts) + nb)
    return outs, carry_dims


batch_rules[while_p] = _while_batch


# =============================================================================================
# scan
# =============================================================================================

_SCAN_PP = ("jaxpr", "length", "num_carry", "num_consts", "reverse", "unroll")

scan_p = Primitive("scan", multiple_results=True)
scan_p.pp_params = lambda p: [(k, p[k]) for k in _SCAN_PP]


def _scan_out_avals(jaxpr, length, num_carry):
    outs = jaxpr.out_avals
    return list(outs[:num_carry]) + [a.update(shape=(length,) + a.shape) for a in outs[num_carry:]]


abstract_eval_rules[scan_p] = lambda *args, jaxpr, length, num_carry, **_: _scan_out_avals(jaxpr, length, num_carry)
scan_p.weak_type_rule = lambda weak, jaxpr, **_: [a.weak_type for a in jaxpr.out_avals]


def _scan_impl(*args, jaxpr, length, reverse, unroll, num_consts, num_carry):
    cpu = jaxpr_compiler[0]
    consts = args[:num_consts]
    carry = list(args[num_consts:num_consts + num_carry])
    xs = args[num_consts + num_carry:]
    body = cpu.compiled(jaxpr)
    ys = [np.empty((length,) + a.shape, a.dtype) for a in jaxpr.out_avals[num_carry:]]
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        outs = body(*consts, *carry, *[x[i] for x in xs])
        carry = outs[:num_carry]
        for y, o in zip(ys, outs[num_carry:]):
            y[i] = o
    return list(carry) + ys


impl_rules[scan_p] = _scan_impl


def scan(f, init, xs=None, length=None, reverse=False, unroll=1, _split_transpose=False):
    """lax.scan: `carry, y = f(carry, x)` over the leading axis of xs; ys are stacked."""
    if not callable(f):
        raise TypeError("lax.scan: f argument should be a callable.")
    xs_flat, xs_tree = tree_flatten(xs)
    xs_flat = [_as_operand(x) for x in xs_flat]
    lengths = sorted({get_aval(x).shape[0] for x in xs_flat if get_aval(x).ndim} )
    if any(get_aval(x).ndim == 0 for x in xs_flat):
        raise ValueError("scan got value with no leading axis to scan over: "
                         + ", ".join(get_aval(x).str_short() for x in xs_flat if get_aval(x).ndim == 0))
    if length is not None:
        length = int(length)
        if lengths and lengths != [length]:
            raise ValueError(f"scan got `length` argument of {length} which disagrees with leading axis "
                             f"sizes {lengths}.")
    elif not lengths:
        raise ValueError("scan got no values to scan over and `length` not provided.")
    elif len(lengths) > 1:
        raise ValueError("scan got values with different leading axis sizes: "
                         + ", ".join(str(get_aval(x).shape[0]) for x in xs_flat) + ".")
    else:
        length = lengths[0]
    init_flat, init_tree = tree_flatten(init)
    init_flat = [_as_operand(x) for x in init_flat]
    x_avals = [get_aval(x).update(shape=get_aval(x).shape[1:]) for x in xs_flat]
    k = len(init_flat)
    box = []

    def body(*args):
        carry = tree_unflatten(init_tree, list(args[:k]))
        x = tree_unflatten(xs_tree, list(args[k:]))
        out = f(carry, x)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            what = get_aval(out).str_long() if isinstance(out, (Tracer, Array)) else type(out).__name__
            raise TypeError(f"scan body output must be a pair, got {what}.")
        c_leaves, c_tree = tree_flatten(out[0])
        y_leaves, y_tree = tree_flatten(out[1])
        box[:] = [c_tree, y_tree]
        return c_leaves + y_leaves

    def trace(carry_avals):
        cj, consts = _trace(body, carry_avals + x_avals)
        return cj, consts, box[0], box[1]
    avals = [get_aval(x) for x in init_flat]
    jaxpr, consts, c_tree, y_tree = trace(avals)
    if c_tree != init_tree:
        raise TypeError(f"scan body function carry input and carry output must have the same pytree structure, "
                        f"but they differ:\n  the input carry is {init_tree}\n  the output carry is {c_tree}")
    init_flat, changed = _promote_weak_inputs(init_flat, avals, jaxpr.out_avals[:k])
    if changed:
        avals = [get_aval(x) for x in init_flat]
        jaxpr, consts, c_tree, y_tree = trace(avals)
    if not all(_same_type(a, b) for a, b in zip(avals, jaxpr.out_avals[:k])):
        raise TypeError(_carry_type_error("scan", f, init, avals, jaxpr.out_avals[:k]))
    unroll = length if unroll is True else 1 if unroll is False else int(unroll)
    outs = scan_p.bind(*consts, *init_flat, *xs_flat, jaxpr=jaxpr, length=length, reverse=bool(reverse),
                       unroll=unroll, num_consts=len(consts), num_carry=k)
    return tree_unflatten(c_tree, outs[:k]), tree_unflatten(y_tree, outs[k:])


def _split3(xs, a, b):
    return list(xs[:a]), list(xs[a:a + b]), list(xs[a + b:])


def _scan_jvp_fixed_point(jaxpr, num_consts, num_carry, nz):
    const_nz, carry_nz, xs_nz = _split3(nz, num_consts, num_carry)
    n_ys = len(jaxpr.out_avals) - num_carry
    while True:
        jj, jconsts, out_nz = _jvp_jaxpr(jaxpr, const_nz + carry_nz + xs_nz, carry_nz + [False] * n_ys)
        new = [a or b for a, b in zip(carry_nz, out_nz[:num_carry])]
        if new == carry_nz:
            return jj, jconsts, const_nz, carry_nz, xs_nz, out_nz[num_carry:]
        carry_nz = new


def _scan_jvp(primals, tangents, jaxpr, length, reverse, unroll, num_consts, num_carry):
    nc, nk = num_consts, num_carry
    nz = [type(t) is not ad.Zero for t in tangents]
    jj, jconsts, const_nz, carry_nz, xs_nz, ys_nz = _scan_jvp_fixed_point(jaxpr, nc, nk, nz)
    J, nx, ny = len(jconsts), len(primals) - nc - nk, len(jaxpr.out_avals) - nk
    ntc, ntk, ntx, nty = sum(const_nz), sum(carry_nz), sum(xs_nz), sum(ys_nz)
    P = J + nc + nk + nx
    # invars [jc, consts, carry, xs, t_consts, t_carry, t_xs] -> [jc, consts, t_consts, carry, t_carry, xs, t_xs]
    perm = (list(range(J + nc)) + list(range(P, P + ntc)) + list(range(J + nc, J + nc + nk))
            + list(range(P + ntc, P + ntc + ntk)) + list(range(J + nc + nk, P)) + list(range(P + ntc + ntk, P + ntc + ntk + ntx)))
    # outvars [carry, ys, t_carry, t_ys] -> [carry, t_carry, ys, t_ys]
    operm = (list(range(nk)) + list(range(nk + ny, nk + ny + ntk)) + list(range(nk, nk + ny))
             + list(range(nk + ny + ntk, nk + ny + ntk + nty)))
    body = _reorder(jj, perm, operm)
    consts, carry, xs = _split3(primals, nc, nk)
    t_consts, t_carry, t_xs = _split3(tangents, nc, nk)
    t_carry = [ad.instantiate(t) for t, z in zip(t_carry, carry_nz) if z]
    outs = scan_p.bind(*jconsts, *consts, *[t for t in t_consts if type(t) is not ad.Zero], *carry, *t_carry,
                       *xs, *[t for t in t_xs if type(t) is not ad.Zero], jaxpr=body, length=length,
                       reverse=reverse, unroll=unroll, num_consts=J + nc + ntc, num_carry=nk + ntk)
    c_out, tc_out = outs[:nk], iter(outs[nk:nk + ntk])
    ys, ty_out = outs[nk + ntk:nk + ntk + ny], iter(outs[nk + ntk + ny:])
    t_c = [next(tc_out) if z else ad.Zero(get_aval(p)) for p, z in zip(c_out, carry_nz)]
    t_y = [next(ty_out) if z else ad.Zero(get_aval(p)) for p, z in zip(ys, ys_nz)]
    return c_out + ys, t_c + t_y


jvp_rules[scan_p] = _scan_jvp


def _scan_linearize(trace, tracers, jaxpr, length, reverse, unroll, num_consts, num_carry):
    """Primal scan (saving per-iteration residuals as stacked outputs) + a linear tangent scan."""
    primals = [t.primal for t in tracers]
    tangents = [t.tangent for t in tracers]
    nc, nk = num_consts, num_carry
    nz = [type(t) is not ad.Zero for t in tangents]
    _, _, const_nz, carry_nz, xs_nz, ys_nz = _scan_jvp_fixed_point(jaxpr, nc, nk, nz)
    known, kconsts, lin, n_out = _linearize_jaxpr(jaxpr, const_nz + carry_nz + xs_nz)
    K = len(kconsts)
    consts, carry, xs = _split3(primals, nc, nk)
    const_vals = list(kconsts) + consts
    kj = known.jaxpr
    # the tangent body returns only the nonzero tangents: a residual that only a zero tangent
    # read (fori_loop's int index: `0:i32[]`) is no residual, as in JAX
    lin_out = [v for v, z in zip(lin.outvars, carry_nz + ys_nz) if z]
    read = {v for e in lin.eqns for v in e.invars if isinstance(v, Var)} | {v for v in lin_out if isinstance(v, Var)}
    keep = [v in read for v in lin.constvars]
    res_vars = [v for v, k in zip(kj.outvars[n_out:], keep) if k]
    lin_res = [v for v, k in zip(lin.constvars, keep) if k]
    # residuals that are loop-invariant constants are passed as consts, the rest are stacked
    pos = {v: i for i, v in enumerate(kj.invars)}
    is_const_res = [isinstance(v, Var) and pos.get(v, K + nc) < K + nc for v in res_vars]
    known_body = ClosedJaxpr(Jaxpr([], kj.invars, kj.outvars[:n_out] + [v for v, c in zip(res_vars, is_const_res)
                                                                        if not c], kj.eqns), [])
    known_out = scan_p.bind(*const_vals, *carry, *xs, jaxpr=known_body, length=length, reverse=reverse,
                            unroll=unroll, num_consts=K + nc, num_carry=nk)
    stacked = known_out[n_out:]
    const_res = [const_vals[pos[v]] for v, c in zip(res_vars, is_const_res) if c]
    ntc, ntk = sum(const_nz), sum(carry_nz)
    tins = lin.invars
    invars = ([v for v, c in zip(lin_res, is_const_res) if c] + tins[:ntc + ntk]
              + [v for v, c in zip(lin_res, is_const_res) if not c] + tins[ntc + ntk:])
    linear_body = ClosedJaxpr(Jaxpr([], invars, lin_out, lin.eqns), [])
    t_consts, t_carry, t_xs = _split3(tangents, nc, nk)
    t_carry = [ad.instantiate(t) for t, z in zip(t_carry, carry_nz) if z]
    tan_out = scan_p.bind(*const_res, *[t for t in t_consts if type(t) is not ad.Zero], *t_carry, *stacked,
                          *[t for t in t_xs if type(t) is not ad.Zero], jaxpr=linear_body, length=length,
                          reverse=reverse, unroll=unroll, num_consts=len(const_res) + ntc, num_carry=ntk)
    t_it = iter(tan_out)
    primal_outs = known_out[:n_out]
    tangent_outs = [next(t_it) if z else ad.Zero(get_aval(p)) for p, z in zip(primal_outs, carry_nz + ys_nz)]
    return [trace.tracer_type(trace, p, t) for p, t in zip(primal_outs, tangent_outs)]

linearize_rules[scan_p] = _scan_linearize


def _scan_transpose(cts, *args, jaxpr, length, reverse, unroll, num_consts, num_carry):
    """Run the body's transpose backwards over the sequence; cotangents of linear consts are
    accumulated in the carry."""
    nc, nk = num_consts, num_carry
    consts, carry, xs = _split3(args, nc, nk)
    lin_c = [ad.is_undefined(c) for c in consts]
    lin_x = [ad.is_undefined(x) for x in xs]
    res_c = [c for c, l in zip(consts, lin_c) if not l]
    res_x = [x for x, l in zip(xs, lin_x) if not l]
    in_avals = jaxpr.in_avals
    lc_avals = [a for a, l in zip(in_avals[:nc], lin_c) if l]
    out_avals = jaxpr.out_avals
    ct_carry = [_zeros(a) if type(c) is ad.Zero else c for c, a in zip(cts[:nk], out_avals[:nk])]
    ct_ys = [_zeros(a.update(shape=(length,) + a.shape)) if type(c) is ad.Zero else c
             for c, a in zip(cts[nk:], out_avals[nk:])]
    nrc, nlc = len(res_c), len(lc_avals)
    lin = lin_c + [True] * nk + lin_x
    # the linear consts are also "outputs" whose cotangent is the running sum: seeding the backward
    # pass with it accumulates each iteration's contribution where it arises (as JAX does)
    # the carry cotangents have the type of the values passed in (JAX: ValAccum(typeof(ct))), so
    # a weak carry with a strong cotangent transposes without a cast back to weak
    j = _retype_invars(jaxpr.jaxpr, {nc + i: get_aval(c) for i, c in enumerate(ct_carry)})
    seeded = ClosedJaxpr(Jaxpr([], j.invars, j.outvars + [v for v, l in zip(j.invars[:nc], lin_c) if l], j.eqns), [])

    n_ys = len(out_avals) - nk

    def body(*a):  # consts: residuals; carry: const cts, carry cts; xs: ys cts, residuals (JAX's order)
        rc, acc, ctc = a[:nrc], a[nrc:nrc + nlc], a[nrc + nlc:nrc + nlc + nk]
        cty, rx = a[nrc + nlc + nk:nrc + nlc + nk + n_ys], a[nrc + nlc + nk + n_ys:]
        rc_it, rx_it = iter(rc), iter(rx)
        env = ([None if l else next(rc_it) for l in lin_c] + [None] * nk + [None if l else next(rx_it) for l in lin_x])
        outs = _backward_with_residuals(seeded, env, lin, list(ctc) + list(cty) + list(acc))
        return [ad.instantiate(d) for d in outs]
    x_avals = [a for a, l in zip(in_avals[nc + nk:], lin_x) if not l]
    ct_y_avals = [get_aval(c).update(shape=get_aval(c).shape[1:]) for c in ct_ys]
    tj, tconsts = _trace(body, [get_aval(r) for r in res_c] + lc_avals + [get_aval(c) for c in ct_carry]
                         + ct_y_avals + x_avals)
    outs = scan_p.bind(*tconsts, *res_c, *[_zeros(a) for a in lc_avals], *ct_carry, *ct_ys, *res_x, jaxpr=tj,
                       length=length, reverse=not reverse, unroll=unroll, num_consts=len(tconsts) + nrc,
                       num_carry=nlc + nk)
    ct_consts, ct_init, ct_xs = iter(outs[:nlc]), outs[nlc:nlc + nk], iter(outs[nlc + nk:])
    return ([next(ct_consts) if l else None for l in lin_c]
            + [c if ad.is_undefined(a) else None for c, a in zip(ct_init, carry)]
            + [next(ct_xs) if l else None for l in lin_x])


transpose_rules[scan_p] = _scan_transpose


def _retype_invars(jaxpr: Jaxpr, new_avals: dict) -> Jaxpr:
    """A copy of `jaxpr` whose invars at the given positions have new avals."""
    sub = {jaxpr.invars[i]: Var(a) for i, a in new_avals.items() if a != jaxpr.invars[i].aval}
    if not sub:
        return jaxpr
    from ..tracing.jaxpr import JaxprEqn
    eqns = [JaxprEqn(e.primitive, [sub.get(v, v) if isinstance(v, Var) else v for v in e.invars], e.outvars, e.params,
                     e.source_info) for e in jaxpr.eqns]
    return Jaxpr(jaxpr.constvars, [sub.get(v, v) for v in jaxpr.invars],
                 [sub.get(v, v) if isinstance(v, Var) else v for v in jaxpr.outvars], eqns)


def _scan_batch(axis_data, vals, dims, jaxpr, length, reverse, unroll, num_consts, num_carry):
    from ..transforms.batching import bdim_at_front, moveaxis
    nc, nk = num_consts, num_carry
    consts, carry, xs = _split3(vals, nc, nk)
    cd, kd, xd = _split3(dims, nc, nk)
    n_ys = len(jaxpr.out_avals) - nk
    x_body_dims = [None if d is None else 0 for d in xd]
    carry_bat = [d is not None for d in kd]
    while True:
        carry_dims = [0 if b else None for b in carry_bat]
        bj, bconsts, out_bat = _batch_jaxpr(jaxpr, axis_data, cd + carry_dims + x_body_dims,
                                            force=carry_bat + [False] * n_ys)
        new = [a or b for a, b in zip(carry_bat, out_bat[:nk])]
        if new == carry_bat:
            break
        carry_bat = new
    carry = [bdim_at_front(x, d, axis_data.size) if b else x for x, d, b in zip(carry, kd, carry_bat)]
    xs = [x if d is None else moveaxis(x, d, 1) for x, d in zip(xs, xd)]
    outs = scan_p.bind(*bconsts, *consts, *carry, *xs, jaxpr=bj, length=length, reverse=reverse, unroll=unroll,
                       num_consts=len(bconsts) + nc, num_carry=nk)
    return outs, [0 if b else None for b in carry_bat] + [1 if b else None for b in out_bat[nk:]]


batch_rules[scan_p] = _scan_batch


# =============================================================================================
# loops and maps built on the primitives
# =============================================================================================

def _promote_weak_int_bound(lower, la, upper, ua):
    """As JAX: of two signed-integer bounds of different dtypes, a weakly typed one (a Python
    int) takes the other's dtype; any other mismatch stays an error."""
    from ..lax import lax  # INHERENT: up to lax; lax is built on these primitives
    if not (np.issubdtype(la.dtype, np.signedinteger) and np.issubdtype(ua.dtype, np.signedinteger)):
        return lower, upper
    if la.weak_type and not ua.weak_type:
        return lax.convert_element_type(lower, ua.dtype), upper
    if ua.weak_type and not la.weak_type:
        return lower, lax.convert_element_type(upper, la.dtype)
    return lower, upper


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    """lax.fori_loop: concrete bounds lower to `scan` (reverse-differentiable), traced bounds to
    `while`."""
    lower, upper = _as_operand(lower), _as_operand(upper)
    la, ua = get_aval(lower), get_aval(upper)
    if la.dtype != ua.dtype:
        lower, upper = _promote_weak_int_bound(lower, la, upper, ua)
        la, ua = get_aval(lower), get_aval(upper)
    if la.dtype != ua.dtype:
        raise TypeError(f"lower and upper arguments to fori_loop must have equal types, got "
                        f"{la.dtype.name} and {ua.dtype.name}")
    try:
        lo, hi = int(lower), int(upper)
    except TypeError:
        use_scan = False
    else:
        use_scan = True
    if use_scan:
        def step(loop_carry, _):  # JAX's name for the carry in its messages
            i, x = loop_carry
            return (i + 1, body_fun(i, x)), None
        n = max(hi - lo, 0)
        (_, out), _ = scan(step, (lower, init_val), None, length=n,
                           unroll=1 if unroll is None else unroll)
        return out

    def cond_fun(carry):
        from ..lax import lax  # INHERENT: up to lax
        i, hi_, _ = carry
        return lax.lt(i, hi_)

    def body(loop_carry):
        i, hi_, x = loop_carry
        return i + 1, hi_, body_fun(i, x)
    return while_loop(cond_fun, body, (lower, upper, init_val))[2]


def map(f, xs, *, batch_size=None):
    """lax.map: f over the leading axis of xs, sequentially (a scan with no carry)."""
    if batch_size is not None:
        return _batched_map(f, xs, int(batch_size))
    _, ys = scan(lambda _, x: ((), f(x)), (), xs)
    return ys


def _batched_map(f, xs, batch_size):
    from ..lax import lax  # INHERENT: up to lax
    from ..transforms.batching import vmap_leading
    leaves, tree = tree_flatten(xs)
    leaves = [_as_operand(x) for x in leaves]
    n = get_aval(leaves[0]).shape[0]
    n_batches, rem = divmod(n, batch_size)
    main = [lax.reshape(x[:n_batches * batch_size], (n_batches, batch_size) + get_aval(x).shape[1:]) for x in leaves]
    ys = map(vmap_leading(f), tree_unflatten(tree, main))
    ys = tree_map(lambda y: lax.reshape(y, (n_batches * batch_size,) + get_aval(y).shape[2:]), ys)
    if rem:
        rest = vmap_leading(f)(tree_unflatten(tree, [x[n_batches * batch_size:] for x in leaves]))
        ys = tree_map(lambda a, b: lax.concatenate([a, b], 0), ys, rest)
    return ys


def associative_scan(fn, elems, reverse=False, axis=0):
    """lax.associative_scan by recursive doubling (log2(n) applications of fn)."""
    from ..lax import lax  # INHERENT: up to lax
    leaves, tree = tree_flatten(elems)
    leaves = [_as_operand(x) for x in leaves]
    if reverse:
        leaves = [lax.rev(x, (axis,)) for x in leaves]
    n = get_aval(leaves[0]).shape[axis]
    offset = 1
    while offset < n:
        head = [lax.slice_in_dim(x, 0, offset, axis=axis) for x in leaves]
        a = tree_unflatten(tree, [lax.slice_in_dim(x, 0, n - offset, axis=axis) for x in leaves])
        b = tree_unflatten(tree, [lax.slice_in_dim(x, offset, n, axis=axis) for x in leaves])
        combined = tree_flatten(fn(a, b))[0]
        leaves = [lax.concatenate([h, c], axis) for h, c in zip(head, combined)]
        offset *= 2
    if reverse:
        leaves = [lax.rev(x, (axis,)) for x in leaves]
    return tree_unflatten(tree, leaves)


def reduce(operands, init_values, computation, dimensions):
    """lax.reduce: monoid reductions (add, mul, max, min, and, or) map to reduce_* primitives;
    other computations bind reduce_p (generic_reduce.py)."""
    from ..lax import lax  # INHERENT: up to lax
    flat_ops, tree = tree_flatten(operands)
    flat_init = tree_flatten(init_values)[0]
    dims = tuple(int(d) for d in dimensions)
    monoids = {lax.add: lax.reduce_sum, lax.mul: lax.reduce_prod, lax.max: lax.reduce_max,
               lax.min: lax.reduce_min, lax.bitwise_and: lax.reduce_and, lax.bitwise_or: lax.reduce_or}
    red = monoids.get(computation)
    if red is not None and len(flat_ops) == 1:
        x = _as_operand(flat_ops[0])
        init = lax.convert_element_type(_as_operand(flat_init[0]), get_aval(x).dtype)
        out = red(x, dims)
        init_v = init.to_concrete_value() if isinstance(init, Tracer) else to_numpy(init)
        if init_v is not None and red is lax.reduce_sum and np.all(np.asarray(init_v) == 0):
            return tree_unflatten(tree, [out])
        return tree_unflatten(tree, [computation(out, init)])
    # any other computation: the reduce primitive, with the computation as a jaxpr
    from .generic_reduce import general_reduce
    if tree != tree_flatten(init_values)[1]:
        raise ValueError("Operands must have the same tree structure as init_values: "
                         f"{tree} vs. {tree_flatten(init_values)[1]}")
    return general_reduce([_as_operand(x) for x in flat_ops], [_as_operand(v) for v in flat_init], tree,
                          tree_flatten(init_values)[1], computation, dims)


LAX_EXPORTS = {
    "cond": cond, "switch": switch, "while_loop": while_loop, "fori_loop": fori_loop, "scan": scan,
    "map": map, "associative_scan": associative_scan, "reduce": reduce,
}
