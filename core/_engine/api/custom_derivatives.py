"""`jax.custom_derivatives`: the custom_jvp / custom_vjp entry points and their helper types."""
from __future__ import annotations

import numpy as np

from ..libraries import numpy as jnp
from ..base.dtypes import float0
from .api import custom_jvp, custom_vjp, make_jaxpr
from ..primitives.custom import custom_jvp_call_p
# the value types live with the rules that make them (a lower layer); jax.custom_derivatives names them
from ..primitives.custom import CustomVJPPrimal, SymbolicZero  # noqa: F401
from ..transforms.staging import eval_jaxpr
from ..tracing.tracing import Tracer
from ..base.tree_util import tree_flatten, tree_map, tree_unflatten


def zero_from_primal(val, symbolic_zeros: bool = False):
    """Zeros shaped like each leaf of `val` (SymbolicZero objects when symbolic_zeros)."""
    if symbolic_zeros:
        return tree_map(SymbolicZero.from_primal_value, val)
    return tree_map(_zeros_like_primal, val)


def _zeros_like_primal(x):
    dt = jnp.result_type(x)
    if jnp.issubdtype(dt, jnp.inexact):
        return jnp.zeros(jnp.shape(x), dt)
    return np.zeros(jnp.shape(x), float0)  # integer and boolean primals have float0 tangents


def custom_vjp_primal_tree_values(tree):
    """The values inside a tree of CustomVJPPrimal (other leaves unchanged)."""
    return tree_map(lambda x: x.value if isinstance(x, CustomVJPPrimal) else x, tree,
                    is_leaf=lambda x: isinstance(x, CustomVJPPrimal))


def closure_convert(fun, *example_args):
    """(converted, consts): `converted(*args, *consts)` computes `fun(*args)` with the traced
    floating-point values `fun` closes over passed explicitly (as JAX does, concrete constants
    stay inside), so a custom_vjp rule can differentiate them."""
    closed, out_shape = make_jaxpr(fun, return_shape=True)(*example_args)
    hoist = [isinstance(c, Tracer) and jnp.issubdtype(jnp.result_type(c), jnp.inexact) for c in closed.consts]
    consts = [c for c, h in zip(closed.consts, hoist) if h]
    kept = [None if h else c for c, h in zip(closed.consts, hoist)]
    in_tree = tree_flatten(example_args)[1]
    out_tree = tree_flatten(out_shape)[1]

    def converted(*args_and_consts):
        split = len(args_and_consts) - len(consts)
        args, hoisted = args_and_consts[:split], iter(args_and_consts[split:])
        flat, tree = tree_flatten(args)
        if tree != in_tree:
            raise TypeError(f"closure_convert: the arguments' structure {tree} is not the example's {in_tree}")
        all_consts = [next(hoisted) if c is None else c for c in kept]
        return tree_unflatten(out_tree, eval_jaxpr(closed.jaxpr, all_consts, *flat))
    return converted, consts


def custom_gradient(fun):
    """`fun(*args) -> (value, vjp)`, with `vjp(g)` giving the cotangents of args (a tuple; a single
    value for one argument): differentiation uses that vjp. Built on custom_vjp, so forward mode
    is refused as JAX refuses it. The backward pass re-runs `fun` on the saved primal inputs to
    get the vjp (residuals must be arrays, and the vjp is a function)."""
    @custom_vjp
    def wrapped(*args):
        return fun(*args)[0]

    def fwd(*args):
        return fun(*args)[0], args

    def bwd(args, g):
        cts = fun(*args)[1](g)
        return tuple(cts) if isinstance(cts, (tuple, list)) else (cts,)
    wrapped.defvjp(fwd, bwd)
    return wrapped


# ---- transforms area (issue 11) ----
from ..primitives.custom import custom_vjp_call_p  # noqa: E402  (the staged custom_vjp equation)
from ..primitives.linear_call import linear_call  # noqa: E402
from ..tracing.tracing import Primitive as _Primitive  # noqa: E402

remat_opt_p = _Primitive("remat_opt", multiple_results=True)  # (JAX's optimize_remat marker; nothing binds it here)

__all__ = ["linear_call", "custom_vjp_call_p", "remat_opt_p", "custom_gradient", "CustomVJPPrimal", "SymbolicZero", "closure_convert", "custom_jvp", "custom_jvp_call_p",
           "custom_vjp", "custom_vjp_primal_tree_values", "zero_from_primal"]
