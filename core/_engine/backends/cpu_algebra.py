"""The value-changing algebraic rewrites XLA makes when it compiles a jitted function, so that
`jax.jit(f)(x)` differs from `f(x)` here exactly where it does in JAX (JAX's FAQ shows the first:
`log(exp(100.))` is inf op by op and 100. under jit).

Measured with JAX 0.10.2 on the CPU (float32): log(exp(a)) is a, and sqrt(a * a) is |a| (no
underflow for tiny a), whatever other uses exp(a) or a * a have. Only real floats: for complex
values neither identity holds.
"""
from __future__ import annotations

from ..tracing.jaxpr import JaxprEqn, Var


def _float_var(v) -> bool:
    return type(v) is Var and v.aval.dtype.kind == "f"


def _log_of_exp(eqn, producer):
    src = producer.get(eqn.invars[0])
    if src is not None and src.primitive.name == "exp" and _float_var(src.invars[0]):
        return src.invars[0]
    return None


def _sqrt_of_square(eqn, producer):
    src = producer.get(eqn.invars[0])
    if src is not None and src.primitive.name == "mul" and src.invars[0] is src.invars[1] \
            and _float_var(src.invars[0]):
        from ..primitives.elementwise import abs_p
        return JaxprEqn(abs_p, [src.invars[0]], eqn.outvars, {})
    return None


_RULES = {"log": _log_of_exp, "sqrt": _sqrt_of_square}
RULE_NAMES = frozenset(_RULES)


def rewrite(eqn, producer):
    """None (no rewrite), a Var that `eqn`'s output becomes, or an equation to compute instead.
    `producer` maps each variable compiled so far to its equation."""
    rule = _RULES.get(eqn.primitive.name)
    if rule is None or type(eqn.invars[0]) is not Var or eqn.outvars[0].aval != eqn.invars[0].aval:
        return None
    return rule(eqn, producer)
