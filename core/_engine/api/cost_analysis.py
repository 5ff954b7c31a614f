"""`Lowered.cost_analysis()` / `Compiled.cost_analysis()`: XLA's operation counts, estimated from
the jaxpr with the rules of XLA's HLO cost analysis (measured against JAX 0.10.2 on the CPU):
an elementwise arithmetic op costs one flop per output element, a transcendental one counts
under "transcendentals" instead, a reduction costs (input size - output size) flops, a
dot_general 2 * output size * contracted size, a call (jit, custom_jvp, ...) its body's cost, and
a layout op (reshape, transpose, broadcast) nothing. Equations whose inputs are all constants cost
nothing: XLA folds them. Primitives without a rule here (cumulative sums, loops, ...) count
nothing, so the figures are a lower bound for such programs.

Only "flops" and "transcendentals" are given ("bytes accessed" depends on XLA's fusion). A key is
absent when its count is zero, as in JAX.
"""
from __future__ import annotations

import math

from ..tracing.jaxpr import ClosedJaxpr, Jaxpr, Literal

# primitive -> (flops, transcendentals) per output element
_PER_ELEMENT = {
    **{p: (1, 0) for p in ("add", "sub", "mul", "div", "rem", "neg", "abs", "sign", "max", "min", "floor", "ceil",
                           "round", "square", "gt", "lt", "ge", "le", "eq", "ne", "and", "or", "not", "xor",
                           "convert_element_type", "select_n", "nextafter", "is_finite", "clamp", "add_any",
                           "shift_left", "shift_right_logical", "shift_right_arithmetic", "real", "imag", "conj")},
    **{p: (0, 1) for p in ("sin", "cos", "tan", "exp", "exp2", "log", "log1p", "expm1", "sqrt", "rsqrt", "cbrt",
                           "tanh", "pow", "erf", "erfc", "erf_inv", "atan2", "asin", "acos", "atan", "sinh",
                           "cosh", "asinh", "acosh", "atanh", "lgamma", "digamma")},
    "logistic": (3, 1),  # XLA expands logistic(x) to 1 / (1 + exp(-x))
}
_REDUCTIONS = {"reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_and", "reduce_or", "reduce_xor",
               "argmax", "argmin"}


def _size(aval) -> int:
    return math.prod(getattr(aval, "shape", ()))


def _eqn_cost(eqn) -> tuple[float, float]:
    name = eqn.primitive.name
    out = sum(_size(v.aval) for v in eqn.outvars)
    if name in _PER_ELEMENT:
        f, t = _PER_ELEMENT[name]
        return f * out, t * out
    if name == "integer_pow":  # repeated squaring: x**3 is two multiplies
        y = abs(int(eqn.params["y"]))
        return max(y.bit_length() - 1 + bin(y).count("1") - 1, 0) * out, 0
    if name in _REDUCTIONS:
        return _size(eqn.invars[0].aval) - out, 0
    if name == "dot_general":
        (lhs_contract, _), _ = eqn.params["dimension_numbers"]
        shape = eqn.invars[0].aval.shape
        return 2 * out * math.prod(shape[d] for d in lhs_contract), 0
    return 0, 0


# calls whose cost is their body's (with the call's constant arguments still constant inside)
_CALLS = {"pjit", "jit", "closed_call", "core_call", "remat", "checkpoint", "custom_jvp_call", "custom_vjp_call"}


def _sub_jaxprs(eqn):
    for v in eqn.params.values():
        for j in (v if isinstance(v, (tuple, list)) else (v,)):
            if isinstance(j, ClosedJaxpr):
                yield j.jaxpr
            elif isinstance(j, Jaxpr):
                yield j


def _jaxpr_cost(jaxpr: Jaxpr, const_in) -> tuple[float, float]:
    const = set(const_in)  # vars known at compile time
    flops = trans = 0.0
    for eqn in jaxpr.eqns:
        if all(isinstance(v, Literal) or v in const for v in eqn.invars):
            const.update(eqn.outvars)
            continue
        subs = list(_sub_jaxprs(eqn))
        if subs and eqn.primitive.name in _CALLS and len(subs[0].invars) == len(eqn.invars):
            inner_const = [w for w, v in zip(subs[0].invars, eqn.invars) if isinstance(v, Literal) or v in const]
            f, t = _jaxpr_cost(subs[0], [*subs[0].constvars, *inner_const])
        else:
            f, t = _eqn_cost(eqn)
        flops += f
        trans += t
    return flops, trans


def cost_analysis(closed_jaxpr) -> dict:
    flops, trans = _jaxpr_cost(closed_jaxpr.jaxpr, closed_jaxpr.jaxpr.constvars)
    out = {}
    if flops:
        out["flops"] = float(flops)
    if trans:
        out["transcendentals"] = float(trans)
    return out
