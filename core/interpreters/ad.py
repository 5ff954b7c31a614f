"""`jax.interpreters.ad`: differentiation rules of primitives.

`primitive_jvps` and `primitive_transposes` ARE the engine's jvp/transpose tables (the calling
conventions are JAX's: `jvp(primals, tangents, **params) -> (out, tangent_out)` with `Zero` for
symbolic zeros; `transpose(ct, *args, **params)` with `UndefinedPrimal` marking linear inputs).
"""
from __future__ import annotations

from .._engine.tracing.rules import jvp_rules as primitive_jvps, transpose_rules as primitive_transposes
from .._engine.transforms.ad import (JVPTrace, JVPTracer, UndefinedPrimal, Zero, add_tangents, defjvp, defjvp2,
                             instantiate as instantiate_zeros, zeros_like_aval)
from .._engine.transforms import ad as _ad


def is_undefined_primal(x) -> bool:
    return type(x) is UndefinedPrimal


def get_primitive_transpose(p):
    try:
        return primitive_transposes[p]
    except KeyError as e:
        raise NotImplementedError(f"Transpose rule (for reverse-mode differentiation) for '{p}' not implemented") from e


def deflinear(prim, transpose_rule):
    """`prim` is linear in all inputs; `transpose_rule(ct, **params)` gives the input cotangents."""
    _ad.deflinear(prim, lambda ct, *args, **params: transpose_rule(instantiate_zeros(ct), **params))


def deflinear2(prim, transpose_rule):
    """Like deflinear, with the rule also seeing the (undefined) inputs: `rule(ct, *args, **params)`."""
    _ad.deflinear(prim, lambda ct, *args, **params: transpose_rule(instantiate_zeros(ct), *args, **params))


def defbilinear(prim, lhs_rule, rhs_rule):
    """`prim(x, y)` linear in each argument: jvp is the sum of both sides; each rule transposes one side."""
    defjvp(prim, lambda g, x, y, **params: prim.bind(g, y, **params),
           lambda g, x, y, **params: prim.bind(x, g, **params))

    def transpose(ct, x, y, **params):
        if is_undefined_primal(x):
            return [lhs_rule(ct, x, y, **params), None]
        return [None, rhs_rule(ct, x, y, **params)]
    primitive_transposes[prim] = transpose


def jvp(fun, has_aux=False, instantiate=True, transform_stack=True):
    raise NotImplementedError("jax.interpreters.ad.jvp works on linear_util functions, which gradpad does not "
                              "trace; use jax.jvp(f, primals, tangents)")


add_jaxvals = add_tangents

__all__ = ["JVPTrace", "JVPTracer", "UndefinedPrimal", "Zero", "add_jaxvals", "add_tangents", "defbilinear",
           "defjvp", "defjvp2", "deflinear", "deflinear2", "get_primitive_transpose", "instantiate_zeros",
           "is_undefined_primal", "primitive_jvps", "primitive_transposes", "zeros_like_aval"]
