"""jax.checkpoint / jax.remat, jax.checkpoint_policies and jax.ad_checkpoint (checkpoint_name,
print_saved_residuals, Recompute, Saveable, Offloadable), as JAX 0.10.2 has them.

A policy is called as `policy(primitive, *input_avals, **params)` for each equation whose output
the backward pass needs, and answers whether to save that output (True / Saveable /
Offloadable) or recompute it (False / Recompute). There is one memory here, so an Offloadable
value is simply saved."""
from __future__ import annotations

import dataclasses
import functools
import inspect
import types
from typing import NamedTuple

from ..base import source_info
from ..base._public import missing_attribute
from ..tracing.tracing import get_aval
from ..base.tree_util import keystr, tree_flatten, tree_flatten_with_path, tree_map, tree_unflatten


# ---- what a policy may answer -----------------------------------------------------------------

# (Recompute and Saveable sit with the remat primitive, whose partial evaluation reads the answers)
from ..primitives.remat import Recompute, RecomputeType, Saveable, SaveableType  # noqa: E402,F401


class Offloadable(NamedTuple):
    src: str
    dst: str


# ---- the policies -----------------------------------------------------------------------------

def everything_saveable(*_, **__) -> bool:
    """Save everything: as if jax.checkpoint were not used."""
    return True


def nothing_saveable(*_, **__) -> bool:
    """Save nothing but the inputs (jax.checkpoint's default)."""
    return False


def _is_dot(prim) -> bool:
    return prim.name == "dot_general"


def _no_batch_dims(params) -> bool:
    (_, _), (lhs_b, rhs_b) = params["dimension_numbers"]
    return not len(lhs_b) and not len(rhs_b)


@dataclasses.dataclass(frozen=True)
class DotsSaveable:
    only_if_no_batch_dims: bool

    def __call__(self, prim, *args, **params):
        if self.only_if_no_batch_dims:
            return _is_dot(prim) and _no_batch_dims(params)
        return _is_dot(prim) or prim.name == "conv_general_dilated"


dots_saveable = checkpoint_dots = DotsSaveable(False)
dots_with_no_batch_dims_saveable = checkpoint_dots_with_no_batch_dims = DotsSaveable(True)


def offload_dot_with_no_batch_dims(offload_src, offload_dst):
    """dots_with_no_batch_dims_saveable, offloading the saved dots (one memory here: saved)."""
    def policy(prim, *_, **params):
        if _is_dot(prim) and _no_batch_dims(params):
            return Offloadable(src=offload_src, dst=offload_dst)
        return Recompute
    return policy


def save_anything_except_these_names(*names_not_to_save):
    """Save any values (JAX 0.10.2's version saves every value, names included)."""
    return lambda *_, **__: True


@dataclasses.dataclass(frozen=True)
class SaveOnlyTheseNames:
    saveable_names: frozenset

    def __call__(self, prim, *_, **params):
        return prim.name == "name" and params["name"] in self.saveable_names


@dataclasses.dataclass(frozen=True)
class SaveAnyNamesButThese:
    names: frozenset

    def __call__(self, prim, *_, **params):
        return prim.name == "name" and params["name"] not in self.names


def save_only_these_names(*names_which_can_be_saved):
    """Save only values named with checkpoint_name, and only these names."""
    return SaveOnlyTheseNames(frozenset(names_which_can_be_saved))


def save_any_names_but_these(*names_not_to_save):
    """Save only named values, except these names."""
    return SaveAnyNamesButThese(frozenset(names_not_to_save))


def save_and_offload_only_these_names(*, names_which_can_be_saved, names_which_can_be_offloaded, offload_src,
                                      offload_dst):
    saved, offloaded = set(names_which_can_be_saved), set(names_which_can_be_offloaded)
    both = saved & offloaded
    if both:
        raise ValueError("The names should be exclusive and should not intersect in `names_which_can_be_saved` and "
                         f"`names_which_can_be_offloaded`. Got names_which_can_be_saved={saved}, "
                         f"names_which_can_be_offloaded={offloaded} and the intersection={both}")

    def policy(prim, *_, **params):
        if prim.name == "name" and params["name"] in saved:
            return Saveable
        if prim.name == "name" and params["name"] in offloaded:
            return Offloadable(src=offload_src, dst=offload_dst)
        return Recompute
    return policy


def save_from_both_policies(policy_1, policy_2):
    """A value is saveable iff either policy saves it (both must answer booleans)."""
    def policy(prim, *args, **params):
        out1, out2 = policy_1(prim, *args, **params), policy_2(prim, *args, **params)
        if not (isinstance(out1, bool) and isinstance(out2, bool)):
            raise ValueError("The return value of the policies should be a boolean. Got: "
                             f"{out1} and {out2}. Please write a custom policy function directly, rather than "
                             "using this helper function.")
        return out1 or out2
    return policy


checkpoint_policies = types.SimpleNamespace(
    everything_saveable=everything_saveable, nothing_saveable=nothing_saveable, dots_saveable=dots_saveable,
    checkpoint_dots=dots_saveable, dots_with_no_batch_dims_saveable=dots_with_no_batch_dims_saveable,
    checkpoint_dots_with_no_batch_dims=dots_with_no_batch_dims_saveable,
    offload_dot_with_no_batch_dims=offload_dot_with_no_batch_dims,
    save_anything_except_these_names=save_anything_except_these_names,
    save_any_names_but_these=save_any_names_but_these, save_only_these_names=save_only_these_names,
    save_from_both_policies=save_from_both_policies,
    save_and_offload_only_these_names=save_and_offload_only_these_names)


# ---- checkpoint / remat -----------------------------------------------------------------------

def _checkpoint(fun, *, prevent_cse=True, policy=None, static_argnums=(), static_argnames=()):
    """jax.checkpoint: `fun`, recomputing (not storing) its internal values when differentiated, except those the
    policy saves. Values are unchanged; jaxprs show one `remat2` equation."""
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    if isinstance(prevent_cse, list):
        prevent_cse = tuple(prevent_cse)
    if not isinstance(prevent_cse, (tuple, bool)):
        raise TypeError(f"prevent_cse must be a bool or tuple of bools, got type(prevent_cse)={type(prevent_cse)}")

    @functools.wraps(fun)
    def fun_remat(*args, **kwargs):
        from .api import _as_array
        from ..primitives.remat import remat_call
        if not (isinstance(static_argnums, tuple) and all(type(d) is int for d in static_argnums)):
            raise TypeError("the `static_argnums` argument to `jax.checkpoint` / `jax.remat` must be an int, tuple "
                            f"of ints or, bool, but got value {static_argnums}")
        statics = {i % len(args) for i in static_argnums} if args else set()
        dyn = tuple(a for i, a in enumerate(args) if i not in statics)
        flat, in_tree = tree_flatten((dyn, kwargs))
        flat = [_as_array(x) for x in flat]
        out_tree = []

        def flat_fun(*xs):
            d, kw = tree_unflatten(in_tree, xs)
            it = iter(d)
            out = fun(*[args[i] if i in statics else next(it) for i in range(len(args))], **kw)
            leaves, tree = tree_flatten(out)
            out_tree.append(tree)
            return leaves
        avals = [get_aval(x) for x in flat]
        key = _trace_key(in_tree, avals, [(i, args[i]) for i in sorted(statics)])
        outs = remat_call(flat_fun, avals, flat, prevent_cse=prevent_cse, policy=policy,
                          cache=_trace_cache(fun), key=key, out_tree=out_tree)
        return tree_unflatten(out_tree[0], outs)
    return fun_remat


def _trace_cache(fun):
    """The traces of `fun` under checkpoint. JAX caches checkpoint's trace of a function by the
    function and its input types only (`g(g(x))` stages one body, shared): not by the policy, so
    `jax.checkpoint(loss, policy=p2)` reuses the trace `jax.checkpoint(loss, policy=p1)` made,
    globals `loss` read then included (autodiff_remat.md shows it)."""
    from ..tracing import jit_cache
    return jit_cache.cache_for(fun, ("checkpoint",)).traces


def _trace_key(in_tree, avals, statics):
    """The key of one trace (None when a static argument cannot be hashed: never cached)."""
    from ..tracing import jit_cache
    key = (jit_cache.context[0], in_tree, tuple(avals), tuple((i, type(v), v) for i, v in statics))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _remat(fun, *, prevent_cse=True, policy=None, static_argnums=()):
    """Alias of jax.checkpoint."""
    return _checkpoint(fun, prevent_cse=prevent_cse, policy=policy, static_argnums=static_argnums)


def checkpoint_name(x, name):
    """`x` unchanged, named for checkpoint policies (save_only_these_names, ...)."""
    from ..primitives.remat import name_p
    return tree_map(lambda v: name_p.bind(v, name=name), x)


# ---- which residuals a backward pass keeps ------------------------------------------------------

def _arg_names(f, args, kwargs, n_leaves):
    """JAX's names of the flat arguments: `W1`, `params[0][0]`, `args[1]`, `kw['a']`."""
    try:
        sig = inspect.signature(f)
        params = list(sig.parameters.values())
    except (TypeError, ValueError):
        return [""] * n_leaves
    names = []
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    varargs = next((p.name for p in params if p.kind is p.VAR_POSITIONAL), None)
    varkw = next((p.name for p in params if p.kind is p.VAR_KEYWORD), None)
    for i, a in enumerate(args):
        base = positional[i].name if i < len(positional) else f"{varargs}[{i - len(positional)}]"
        names.extend(base + keystr(path) for path, _ in tree_flatten_with_path(a)[0])
    named = {p.name for p in params}
    for k in sorted(kwargs):
        base = k if k in named else f"{varkw}['{k}']"
        names.extend(base + keystr(path) for path, _ in tree_flatten_with_path(kwargs[k])[0])
    return names if len(names) == n_leaves else [""] * n_leaves


def saved_residuals(f, *args, **kwargs):
    """[(aval, where it comes from)] for each value that reverse-mode differentiation of `f` at
    these arguments saves from the forward pass for the backward pass."""
    from .api import _as_array
    from ..tracing.jaxpr import Literal
    from ..transforms import ad
    from ..transforms.staging import trace_to_jaxpr
    in_leaves, in_tree = tree_flatten((args, kwargs))
    in_leaves = [_as_array(x) for x in in_leaves]

    def residuals_of(*xs):
        def flat_f(*ys):
            a, kw = tree_unflatten(in_tree, ys)
            return tree_flatten(f(*a, **kw))[0]
        _, lin = ad.linearize_flat(flat_f, list(xs))
        return list(lin.residuals)
    jaxpr, _ = trace_to_jaxpr(residuals_of, [get_aval(x) for x in in_leaves])
    names = _arg_names(f, args, kwargs, len(in_leaves))
    res_vars = {v for v in jaxpr.outvars if not isinstance(v, Literal)}
    results = [(v.aval, "from a literal") for v in jaxpr.outvars if isinstance(v, Literal)]
    results += [(v.aval, "from a constant") for v in jaxpr.constvars if v in res_vars]
    for i, v in enumerate(jaxpr.invars):
        if v in res_vars:
            results.append((v.aval, f"from the argument {names[i]}" if names[i]
                            else f"from the argument at flattened index {i}"))
    for eqn in jaxpr.eqns:
        src = source_info.summarize(eqn.source_info) or "unknown"
        for v in eqn.outvars:
            if v in res_vars:
                if eqn.primitive.name == "name":
                    results.append((v.aval, f"named '{eqn.params['name']}' from {src}"))
                elif eqn.primitive.name == "jit":
                    results.append((v.aval, f"output of jitted function '{eqn.params['name']}' from {src}"))
                else:
                    results.append((v.aval, f"output of {eqn.primitive.name} from {src}"))
    return results


def print_saved_residuals(f, *args, **kwargs):
    """Print, one line each, the values the backward pass of `f` keeps (see saved_residuals)."""
    for aval, src in saved_residuals(f, *args, **kwargs):
        print(f"{aval.str_short(short_dtypes=True)} {src}")


_missing = missing_attribute(__name__)
_REMOVED = {"checkpoint": _checkpoint, "remat": _remat}  # jax.ad_checkpoint.checkpoint/remat: gone in JAX 0.10


def __getattr__(name):
    if name in _REMOVED:  # older tutorials' spelling: accepted with gradpad's legacy-name warning
        from ..base.compat import warn_legacy
        warn_legacy(f"jax.ad_checkpoint.{name}", f"jax.{name}")
        return _REMOVED[name]
    return _missing(name)
