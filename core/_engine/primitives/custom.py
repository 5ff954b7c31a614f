"""custom_vjp under reverse mode: the tangent is a `custom_lin` equation on the tangents whose
transpose calls the user's bwd with the residuals from fwd."""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..tracing.rules import abstract_eval_rules, batch_rules, impl_rules, jaxpr_compiler, transpose_rules
from ..tracing.tracing import Primitive, get_aval
from ..transforms import ad
from ..base.tree_util import tree_flatten, tree_unflatten

custom_lin_p = Primitive("custom_lin", multiple_results=True)


class SymbolicZero:
    """A zero tangent/cotangent carried only as its abstract value (custom_jvp's symbolic_zeros)."""

    def __init__(self, aval):
        self.aval = aval

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)

    def __bool__(self):
        return False

    def __repr__(self):
        return "SymbolicZero"

    @staticmethod
    def from_primal_value(val) -> "SymbolicZero":
        return SymbolicZero(get_aval(val).strip_weak_type())



@dataclasses.dataclass(slots=True)
class CustomVJPPrimal:
    """A primal input as custom_vjp's fwd sees it with symbolic_zeros=True. A pytree leaf, as in
    JAX (a plain dataclass, not a NamedTuple node): equinox asserts that it is one."""
    value: Any
    perturbed: bool




def _abstract(*avals, num_res, out_avals, bwd, in_tree, out_tree, res_tree, symbolic_zeros=False, static_res=()):
    return list(out_avals)


def _impl(*args, **params):
    # custom_lin is only ever transposed; evaluating it means forward mode reached a custom_vjp
    raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")


def _transpose(cts, *args, num_res, out_avals, bwd, in_tree, out_tree, res_tree, symbolic_zeros=False,
               static_res=()):
    res = tree_unflatten(res_tree, _with_static(args[:num_res], static_res))
    if symbolic_zeros:  # JAX hands such a bwd its zero cotangents as SymbolicZero objects
        cts = [SymbolicZero(a.to_tangent_aval()) if type(c) is ad.Zero else c for c, a in zip(cts, out_avals)]
    else:
        cts = [ad.instantiate(c) for c in cts]
    ct_tree = tree_unflatten(out_tree, cts)
    cts_in = bwd(res, ct_tree)
    in_avals = [a.aval for a in args[num_res:]]
    return [None] * num_res + bwd_cotangents(cts_in, in_tree, in_avals)


_NO_CT = object()  # stands for every leaf under a None that bwd returned


def bwd_cotangents(cts_in, in_tree, in_avals):
    """bwd's output matched to the primal inputs' tree, as JAX does: a tuple with one entry per
    argument, None for a zero cotangent of a whole subtree; flat, None meaning zero."""
    from ..base.tree_util import keystr, tree_flatten_with_path, tree_map
    if isinstance(cts_in, list) and len(cts_in) == len(in_tree.children):
        cts_in = tuple(cts_in)
    dummy = tree_unflatten(in_tree, [object() for _ in range(in_tree.num_leaves)])
    flat = []

    def collect(ct, subtree):
        n = len(tree_flatten(subtree)[0])
        flat.extend([_NO_CT if ct is None else ct] * n)
    try:
        if not isinstance(cts_in, tuple):
            raise ValueError
        tree_map(collect, cts_in, dummy, is_leaf=lambda x: x is None)
    except ValueError:
        raise TypeError("Custom VJP bwd rule must produce an output with the same container (pytree) structure "
                        "as the args tuple of the primal function, and in particular must produce a tuple of "
                        "length equal to the number of arguments to the primal function, but got bwd output "
                        f"structure {tree_flatten(cts_in)[1]} for primal input structure {in_tree}.") from None
    paths = [p for p, _ in tree_flatten_with_path(dummy)[0]]
    return [_checked_ct(ct, a, keystr(p)) for ct, a, p in zip(flat, in_avals, paths)]


def _checked_ct(ct, aval, where):
    if ct is _NO_CT or isinstance(ct, SymbolicZero) or not np.issubdtype(aval.dtype, np.inexact):
        return None  # integer inputs have float0 cotangents in JAX: always zero
    got = get_aval(ct)
    if got.shape != aval.shape:
        extra = ", so the dtypes do not match, and the shapes do not match" if got.dtype != aval.dtype \
            else ", so the shapes do not match"
        raise ValueError("Custom VJP bwd rule must produce an output with the same type as the args tuple of the "
                         f"primal function, but at output{where} the bwd rule produced an output of type "
                         f"{got.str_short(False)} corresponding to an input of type {aval.str_short(False)}{extra}")
    return ct


abstract_eval_rules[custom_lin_p] = _abstract
impl_rules[custom_lin_p] = _impl
transpose_rules[custom_lin_p] = _transpose
# batching it also means forward mode reached a custom_vjp (jacfwd: a vmap over jvp), as in JAX
batch_rules[custom_lin_p] = lambda axis_data, vals, dims, **params: _impl()


def _is_array_residual(r) -> bool:
    """Arrays and tracers are residual operands; Python scalars stay as they are (JAX keeps a bool
    a bool: equinox's perturbed flags); anything else is refused, as JAX refuses it."""
    from ..tracing.tracing import Tracer
    if isinstance(r, (Tracer, np.ndarray, np.generic)) or hasattr(r, "aval"):
        return True
    if isinstance(r, (bool, int, float, complex)):
        return False
    raise TypeError(f"Argument '{r}' of type {type(r)} is not a valid JAX type")


def _with_static(dyn_res, static_res):
    """The flat residuals with the static ones back in their places."""
    if not static_res:
        return list(dyn_res)
    out, it, static = [], iter(dyn_res), dict(static_res)
    for i in range(len(dyn_res) + len(static)):
        out.append(static[i] if i in static else next(it))
    return out


def custom_lin_flat(fn, in_tree, primals, tangents):
    """(primal outs, tangent outs, out tree) of custom_vjp `fn` at flat primals: fwd runs now, the
    tangents go through one `custom_lin` equation that transposes to the user's bwd."""
    symbolic_zeros = getattr(fn, "symbolic_zeros", False)
    fwd_args = list(primals)
    if symbolic_zeros:  # each primal leaf as JAX wraps it: perturbed when its tangent is not a zero
        fwd_args = [CustomVJPPrimal(p, type(t) is not ad.Zero) for p, t in zip(primals, tangents)]
    out, res = fn.fwd(*tree_unflatten(in_tree, fwd_args))
    out_flat, out_tree = tree_flatten(out)
    res_flat, res_tree = tree_flatten(res)
    # residuals that are no arrays (equinox keeps Python bools there) reach bwd as they are, as in JAX
    static_res = tuple((i, r) for i, r in enumerate(res_flat) if not _is_array_residual(r))
    res_flat = [r for r in res_flat if _is_array_residual(r)]
    tangents = [ad.instantiate(t) for t in tangents]
    out_avals = [get_aval(o) for o in out_flat]
    tans = custom_lin_p.bind(*res_flat, *tangents, num_res=len(res_flat), out_avals=tuple(out_avals), bwd=fn.bwd,
                             in_tree=in_tree, out_tree=out_tree, res_tree=res_tree, symbolic_zeros=symbolic_zeros,
                             static_res=static_res)
    return out_flat, tans, out_tree


def custom_lin(fn, trace, args):
    """Apply custom_vjp function `fn` to LinearizeTracers of `trace`."""
    flat, in_tree = tree_flatten(tuple(args))
    tracers = [trace.full_raise(x) for x in flat]
    out_flat, tans, out_tree = custom_lin_flat(fn, in_tree, [t.primal for t in tracers], [t.tangent for t in tracers])
    outs = [trace.tracer_type(trace, p, t) for p, t in zip(out_flat, tans)]
    return tree_unflatten(out_tree, [o.full_lower() for o in outs])


# ---- custom_vjp under jit/make_jaxpr: a `custom_vjp_call` equation ----------------------------
# As JAX stages it: the primal function as `call_jaxpr` and the user's fwd/bwd, used when the
# equation is differentiated later (grad(jit(f))), so the custom rule is not traced away.

custom_vjp_call_p = Primitive("custom_vjp_call", multiple_results=True)
custom_vjp_call_p.inline_jaxpr_param = "call_jaxpr"  # the cpu compiler inlines the primal body


class CustomVJPRule:
    """fwd/bwd of a staged custom_vjp over flat argument lists (the closure consts come first)."""

    def __init__(self, fn, in_tree, num_consts):
        self.fn, self.in_tree, self.num_consts = fn, in_tree, num_consts
        self.name = getattr(fn, "fwd_name", None) or getattr(fn.fwd, "__name__", "fwd")
        self.bwd_name = getattr(fn, "bwd_name", None) or getattr(fn.bwd, "__name__", "bwd")

    def __call__(self, primals, tangents):
        out, tans, _ = custom_lin_flat(self.fn, self.in_tree, primals[self.num_consts:], tangents[self.num_consts:])
        return out, tans


class _Name:
    """A param shown by its name in jaxpr text (JAX prints bwd=<its name>)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


def _cvjp_pp(params):
    shown = [("name", params["name"]), ("bwd", params["bwd"].name), ("call_jaxpr", params["call_jaxpr"]),
             ("fwd", params["fwd"].name)]
    if params["num_consts"]:
        shown.append(("num_consts", params["num_consts"]))
    return shown + [("symbolic_zeros", params["symbolic_zeros"])]


custom_vjp_call_p.pp_params = _cvjp_pp
abstract_eval_rules[custom_vjp_call_p] = lambda *avals, call_jaxpr, **_: list(call_jaxpr.out_avals)
custom_vjp_call_p.weak_type_rule = lambda w, call_jaxpr, **_: [a.weak_type for a in call_jaxpr.out_avals]


def _cvjp_impl(*args, call_jaxpr, **_):
    cpu = jaxpr_compiler[0]
    return cpu.compiled(call_jaxpr)(*args)


def _cvjp_jvp(primals, tangents, call_jaxpr, fwd, **_):
    return fwd(list(primals), list(tangents))


class BatchedVJP:
    """A custom_vjp's fwd and bwd mapped over a batch axis, every argument, residual and cotangent
    batched at axis 0 (so a derivative taken outside a vmap still uses the user's rule)."""

    def __init__(self, fn, size):
        self.fn, self.size = fn, size
        self.symbolic_zeros = getattr(fn, "symbolic_zeros", False)
        self.fwd_name = getattr(fn, "fwd_name", getattr(fn.fwd, "__name__", "fwd"))
        self.bwd_name = getattr(fn, "bwd_name", getattr(fn.bwd, "__name__", "bwd"))

    def fwd(self, *args):
        from ..transforms.batching import vmap_leading
        if not self.symbolic_zeros:
            return vmap_leading(self.fn.fwd, self.size)(*args)
        # map the values only; every row keeps its leaf's perturbed flag
        is_primal = lambda x: isinstance(x, CustomVJPPrimal)  # noqa: E731
        flat, tree = tree_flatten(args, is_leaf=is_primal)
        flags = [x.perturbed if is_primal(x) else None for x in flat]

        def fwd(*values):
            wrapped = [v if f is None else CustomVJPPrimal(v, f) for v, f in zip(values, flags)]
            return self.fn.fwd(*tree_unflatten(tree, wrapped))
        return vmap_leading(fwd, self.size)(*[x.value if is_primal(x) else x for x in flat])

    def bwd(self, res, ct):
        from ..transforms.batching import vmap_leading
        return vmap_leading(self.fn.bwd, self.size)(res, ct)


def _cvjp_batch(axis_data, vals, dims, call_jaxpr, fwd, bwd, num_consts, symbolic_zeros, name):
    """The primal body batched (as for any call) and fwd/bwd mapped: still one custom_vjp_call.
    Every input and output is batched at axis 0, which is what the mapped fwd/bwd see."""
    from .call import closed_call
    from ..transforms.batching import batched_body, bdim_at_front
    size = axis_data.size
    vals = [bdim_at_front(v, d, size) for v, d in zip(vals, dims)]
    fun, in_avals, _ = batched_body(call_jaxpr, axis_data, [0] * len(vals), force=True)
    new, consts = closed_call(fun, in_avals, "batched")
    rule = CustomVJPRule(BatchedVJP(fwd.fn, size), fwd.in_tree, num_consts + len(consts))
    outs = custom_vjp_call_p.bind(*consts, *vals, call_jaxpr=new, fwd=rule, bwd=_Name(rule.bwd_name),
                                  num_consts=num_consts + len(consts), symbolic_zeros=symbolic_zeros, name=name)
    return outs, [0] * len(outs)


impl_rules[custom_vjp_call_p] = _cvjp_impl


def stage_custom_vjp(fn, args, name):
    """Bind `custom_vjp_call` for custom_vjp `fn` applied to `args` (inside a jaxpr trace)."""
    flat, in_tree, out_tree, cj, consts = _trace_primal(fn, args)
    rule = CustomVJPRule(fn, in_tree, len(consts))
    outs = custom_vjp_call_p.bind(*consts, *flat, call_jaxpr=cj, fwd=rule, bwd=_Name(rule.bwd_name),
                                  num_consts=len(consts), symbolic_zeros=getattr(fn, "symbolic_zeros", False),
                                  name=name)
    return tree_unflatten(out_tree, outs)


def _trace_primal(fn, args):
    """The primal function of custom_jvp/custom_vjp `fn` on `args`, traced to a jaxpr:
    (flat args, their tree, the output tree, closed jaxpr, consts). JAX passes what the function
    closes over as leading args (num_consts), unlike jit; weak types are kept, as in JAX."""
    from .call import lifted
    from ..transforms.staging import trace_to_jaxpr
    flat, in_tree = tree_flatten(tuple(args))
    box = []

    def flat_fun(*xs):
        out = fn.fun(*tree_unflatten(in_tree, xs))
        of, ot = tree_flatten(out)
        box.append(ot)
        return of
    cj, consts = lifted(*trace_to_jaxpr(flat_fun, [get_aval(x) for x in flat]))
    return flat, in_tree, box[0], cj, consts


# ---- custom_jvp under jit/make_jaxpr: a `custom_jvp_call` equation ----------------------------
# Staged like JAX: the primal function as `call_jaxpr` (consts first, `num_consts` of them) and
# the user's rule, applied when the equation is differentiated later (e.g. grad(jit(relu))).

custom_jvp_call_p = Primitive("custom_jvp_call", multiple_results=True)
custom_jvp_call_p.inline_jaxpr_param = "call_jaxpr"  # the cpu compiler inlines the primal body


def _cjvp_pp(params):
    shown = {k: v for k, v in params.items() if k not in ("name", "jvp") and not (k == "num_consts" and not v)}
    shown["jvp"] = params["jvp"].name
    return [("name", params["name"])] + [(k, shown[k]) for k in sorted(shown)]


custom_jvp_call_p.pp_params = _cjvp_pp
abstract_eval_rules[custom_jvp_call_p] = lambda *avals, call_jaxpr, **_: list(call_jaxpr.out_avals)
custom_jvp_call_p.weak_type_rule = lambda w, call_jaxpr, **_: [a.weak_type for a in call_jaxpr.out_avals]


def _cjvp_impl(*args, call_jaxpr, **_):
    cpu = jaxpr_compiler[0]
    return cpu.compiled(call_jaxpr)(*args)


impl_rules[custom_jvp_call_p] = _cjvp_impl


class CustomJVPRule:
    """The user's jvp rule of a staged custom_jvp, over flat argument lists."""

    def __init__(self, fn, in_tree, out_tree, num_consts):
        self.fn, self.in_tree, self.out_tree, self.num_consts = fn, in_tree, out_tree, num_consts
        self.name = getattr(fn, "jvp_name", None) or getattr(fn.jvp, "__name__", "jvp")

    def __call__(self, primals, tangents):
        primals = tree_unflatten(self.in_tree, primals[self.num_consts:])  # consts: no tangent
        sz = getattr(self.fn, "symbolic_zeros", False)
        tangents = tree_unflatten(self.in_tree, [custom_rule_tangent(t, sz) for t in tangents[self.num_consts:]])
        out, tan = self.fn.jvp(primals, tangents)
        return tree_flatten(out)[0], tree_flatten(tan)[0]


def custom_rule_tangent(t, symbolic_zeros):
    """A tangent as a custom_jvp rule receives it: a zero is a SymbolicZero (of the tangent aval)
    when the rule was defined with symbolic_zeros=True, else an array of zeros."""
    if symbolic_zeros and type(t) is ad.Zero:
        return SymbolicZero(t.aval.to_tangent_aval())
    return ad.instantiate(t)


def from_rule_tangent(primal, t):
    """A rule's output tangent back in the engine: a SymbolicZero it returned is a symbolic zero."""
    return ad.Zero(get_aval(primal)) if isinstance(t, SymbolicZero) else t


def _cjvp_jvp(primals, tangents, call_jaxpr, jvp, symbolic_zeros=False, **_):
    if not symbolic_zeros:
        tangents = [ad.instantiate(t) for t in tangents]
    outs, tans = jvp(list(primals), tangents)
    return outs, [from_rule_tangent(o, t) for o, t in zip(outs, tans)]


class BatchedJVPRule:
    """A staged rule under vmap: the user's rule mapped over the batch axis."""

    def __init__(self, rule, size, in_dims, out_dims):
        self.rule, self.size, self.in_dims, self.out_dims = rule, size, list(in_dims), list(out_dims)
        self.name = rule.name

    def __call__(self, primals, tangents):
        from ..transforms.batching import batch_flat
        n, m = len(primals), len(self.out_dims)
        tangents = [ad.instantiate(t) for t in tangents]  # mapped: each row's zero is an array

        def flat_rule(*xs):
            outs, tans = self.rule(list(xs[:n]), list(xs[n:]))
            tans = [ad.zeros_like_aval(get_aval(o)) if isinstance(t, SymbolicZero) else t for o, t in zip(outs, tans)]
            return list(outs) + list(tans)
        res = batch_flat(flat_rule, self.size, None, list(primals) + list(tangents), self.in_dims * 2,
                         lambda _: self.out_dims * 2)
        return res[:m], res[m:]


def _cjvp_batch(axis_data, vals, dims, call_jaxpr, jvp, num_consts, symbolic_zeros, name):
    """The primal body batched (as for any call), the rule mapped: still one custom_jvp_call."""
    from .call import batch_jaxpr
    new, consts, out_batched = batch_jaxpr(call_jaxpr, axis_data, dims)
    out_dims = [0 if b else None for b in out_batched]
    in_dims = [None] * len(consts) + list(dims)
    outs = custom_jvp_call_p.bind(*consts, *vals, call_jaxpr=new,
                                  jvp=BatchedJVPRule(jvp, axis_data.size, in_dims, out_dims),
                                  num_consts=num_consts + len(consts), symbolic_zeros=symbolic_zeros, name=name)
    return outs, out_dims


from ..tracing.rules import batch_rules, jvp_rules  # noqa: E402

jvp_rules[custom_jvp_call_p] = _cjvp_jvp
batch_rules[custom_jvp_call_p] = _cjvp_batch
jvp_rules[custom_vjp_call_p] = _cvjp_jvp
batch_rules[custom_vjp_call_p] = _cvjp_batch


def stage_custom_jvp(fn, args, name):
    """Bind `custom_jvp_call` for custom_jvp `fn` applied to `args` (inside a jaxpr trace)."""
    flat, in_tree, out_tree, cj, consts = _trace_primal(fn, args)
    rule = CustomJVPRule(fn, in_tree, out_tree, len(consts))
    outs = custom_jvp_call_p.bind(*consts, *flat, call_jaxpr=cj, jvp=rule, num_consts=len(consts),
                                  symbolic_zeros=getattr(fn, "symbolic_zeros", False), name=name)
    return tree_unflatten(out_tree, outs)


def _cjvp_transpose(cts, *args, call_jaxpr, **_):
    """A custom_jvp_call on tangent values (a rule that calls a custom_jvp function on its
    tangents) is linear in them: transpose its primal body, as JAX inlines it when it builds the
    linear function, where the rule is no longer needed."""
    from .call import _backward_with_residuals
    lin = [ad.is_undefined(a) for a in args]
    cts = list(cts) if isinstance(cts, (list, tuple)) else [cts]
    outs = iter(_backward_with_residuals(call_jaxpr, [None if l else a for a, l in zip(args, lin)], lin, cts))
    return [next(outs) if l else None for l in lin]


transpose_rules[custom_jvp_call_p] = _cjvp_transpose
