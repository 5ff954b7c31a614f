"""`jax.interpreters.mlir`: how primitives are compiled under jit.

gradpad compiles jaxprs to Python over numpy, not to MLIR. A lowering built with
`lower_fun(fun)` (JAX's way to lower a primitive to other jax operations) is honoured: `fun`
becomes the primitive's implementation in compiled code (and in eager code when the primitive
has no `def_impl`). A hand-written MLIR rule cannot run here: registering one is accepted, and
running the primitive without any other implementation raises an error that says so.
"""
from __future__ import annotations

from .._engine.tracing.rules import impl_rules


class LoweredFun:
    """What `lower_fun(fun)` returns: a lowering rule that runs `fun` on jax arrays."""

    def __init__(self, fun, multiple_results: bool):
        self.fun = fun
        self.multiple_results = multiple_results

    def __call__(self, ctx, *args, **params):
        raise NotImplementedError("gradpad has no MLIR: this lowering runs as its function, not on MLIR values")


def lower_fun(fun, multiple_results: bool = True):
    return LoweredFun(fun, multiple_results)


_lowerings: dict = {}


def register_lowering(prim, rule, platform: str | None = None, inline: bool = True, cacheable: bool = True):
    _lowerings.setdefault(prim, {})[platform] = rule
    has_impl = getattr(prim, "_impl", None) is not None
    if isinstance(rule, LoweredFun):
        if not has_impl:
            impl_rules[prim] = _run_function(prim, rule)
    elif prim not in impl_rules:
        impl_rules[prim] = _no_lowering(prim)
    return rule


def _run_function(prim, lowered: LoweredFun):
    from ..extend.core import _numpy_impl  # extend.core builds on this module's layer; imported on use
    return _numpy_impl(prim, lowered.fun)


def _no_lowering(prim):
    def impl(*args, **params):
        raise NotImplementedError(
            f"Primitive '{prim.name}' has only an MLIR lowering, which gradpad cannot run (it compiles to "
            "Python over numpy). Give it an implementation with `prim.def_impl(f)` or register "
            "`mlir.lower_fun(f)` as its lowering.")
    return impl


__all__ = ["LoweredFun", "lower_fun", "register_lowering"]
