"""Shape-only rewrites of the numpy compiler (value-preserving, as XLA's simplifier makes them):
a gradient's unbroadcasting (`reduce_sum` over axes of size 1, reshapes back and forth) becomes
one reshape or nothing, which saves a few microseconds per call in a small jitted training step.

- reduce_sum over axes that all have size 1 adds nothing: a reshape (numpy's add.reduce returns
  such an element as it is too, -0.0 and NaN included);
- a reshape of a reshape is one reshape of the first operand;
- a reshape to the operand's own shape is the operand;
- integer_pow by 1 is the operand;
- a concatenation of scalars each reshaped to one element is one array of the scalars.
Same protocol as cpu_algebra.rewrite: None, the Var the output becomes, or a new equation.
"""
from __future__ import annotations

from ..tracing.jaxpr import JaxprEqn, Var


def _plain_reshape(eqn) -> bool:
    return eqn.primitive.name == "reshape" and eqn.params.get("dimensions") is None


def _reshape_eqn(x, eqn):
    from ..primitives.structural import reshape_p
    out = eqn.outvars[0]
    if type(x) is Var and x.aval.shape == out.aval.shape:
        return x
    return JaxprEqn(reshape_p, [x], eqn.outvars, {"new_sizes": out.aval.shape, "dimensions": None,
                                                  "sharding": None}, eqn.source_info)


def _sum_of_size_one_axes(eqn, producer):
    x = eqn.invars[0]
    if type(x) is not Var or any(x.aval.shape[a] != 1 for a in eqn.params["axes"]):
        return None
    new = _reshape_eqn(x, eqn)
    return new if type(new) is Var else (_reshape(new, producer) or new)


def _reshape(eqn, producer):
    x = eqn.invars[0]
    if not _plain_reshape(eqn) or type(x) is not Var:
        return None
    src = producer.get(x)
    if src is not None and _plain_reshape(src):
        x = src.invars[0]
    new = _reshape_eqn(x, eqn)
    return None if type(new) is not Var and x is eqn.invars[0] else new


def _power_of_one(eqn, producer):
    # x ** 1: the impl returns x itself (optax's moments raise every gradient to `order`, 1 for mu)
    x = eqn.invars[0]
    return x if eqn.params["y"] == 1 and type(x) is Var and x.aval == eqn.outvars[0].aval else None


def _same_dtype_scalar(eqn, producer):
    # a scalar converted to its own dtype (a weak type made strong, bool to bool: an MCMC loop's
    # bookkeeping has a dozen per step): XLA drops it; the value is the operand's
    x = eqn.invars[0]
    out = eqn.outvars[0].aval
    return x if type(x) is Var and not out.shape and x.aval.shape == () and x.aval.dtype == out.dtype else None


def _stack_scalars_primitive():
    import numpy as np
    from ..tracing.rules import impl_rules
    from ..tracing.tracing import Primitive
    p = Primitive("stack_scalars")  # backend-only: never appears in a jaxpr
    impl_rules[p] = lambda *xs, dtype: np.array(xs, dtype)
    return p


stack_scalars_p = _stack_scalars_primitive()


def _concatenated_scalars(eqn, producer):
    # a vector built from scalars (jax.flatten_util.ravel_pytree of a {"loc", "scale"} position:
    # each reshaped to [1], then concatenated) is one np.array of the scalars; the reshapes then
    # go as dead code where nothing else reads them
    if eqn.outvars[0].aval.ndim != 1:
        return None
    scalars = []
    for v in eqn.invars:
        src = producer.get(v) if type(v) is Var else None
        if src is None or not _plain_reshape(src) or type(src.invars[0]) is not Var or src.invars[0].aval.shape != ():
            return None
        scalars.append(src.invars[0])
    return JaxprEqn(stack_scalars_p, scalars, eqn.outvars, {"dtype": eqn.outvars[0].aval.dtype}, eqn.source_info)


_RULES = {"reduce_sum": _sum_of_size_one_axes, "reshape": _reshape, "integer_pow": _power_of_one,
          "convert_element_type": _same_dtype_scalar, "concatenate": _concatenated_scalars}
RULE_NAMES = frozenset(_RULES)


def rewrite(eqn, producer):
    """None (no rewrite), a Var that `eqn`'s output becomes, or an equation to compute instead."""
    return _RULES[eqn.primitive.name](eqn, producer)
