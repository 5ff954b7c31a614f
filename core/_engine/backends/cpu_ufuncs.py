"""Equations that the generated code may write as one numpy ufunc call (or as their operand), with
the very bits of their impl, for the avals the compiler knows.

An optimizer step (optax's adam on a params pytree) is mostly tiny elementwise ops per leaf:
the impls of `div` and `integer_pow` check dtypes and shapes, enter numpy's errstate and build
temporaries on every call (~5 us each), where the ufunc they end in costs ~0.7 us and, called
from the generated code, may also write into a dead temporary's buffer (`out=`).

- `div` of floats of one shape: np.divide (the impl's own common case);
- `div` by an operand that broadcasts: the impl computes x * (1 / y), XLA's rewrite of
  A / broadcast(B); `split_division` makes that two equations, so the reciprocal is computed once
  for every division by the same value (adam's bias corrections: one per leaf);
- `integer_pow` by 2: x * x (the impl's exponentiation by squaring; by 1 it is x itself, a
  rewrite of cpu_shapes).
"""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.jaxpr import JaxprEqn, Literal, Var

# dtypes whose division the impl leaves to np.divide (float16 and bfloat16 divide in float32 when
# an operand broadcasts: not split)
_NATIVE_INEXACT = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))
_DIVIDE_SAME_SHAPE = _NATIVE_INEXACT | {np.dtype(np.float16)}


def _div(eqn):
    x, y = eqn.invars
    if x.aval.dtype in _DIVIDE_SAME_SHAPE and x.aval.shape == y.aval.shape:
        return np.divide, [x, y]
    return None


def _integer_pow(eqn):
    if eqn.params["y"] == 2:
        x = eqn.invars[0]
        return np.multiply, [x, x]
    return None


_FORMS = {"div": _div, "integer_pow": _integer_pow}


def as_ufunc(eqn):
    """(ufunc, operands) when `eqn` computes exactly ufunc(*operands), else None."""
    form = _FORMS.get(eqn.primitive.name)
    return None if form is None else form(eqn)


def split_division(eqn):
    """[reciprocal, product] for a division whose divisor broadcasts (the impl's x * (1 / y)),
    else None."""
    if eqn.primitive.name != "div":
        return None
    x, y = eqn.invars
    out = eqn.outvars[0]
    dtype = out.aval.dtype
    if dtype not in _NATIVE_INEXACT or y.aval.shape == out.aval.shape or x.aval.dtype != dtype:
        return None
    from ..primitives.elementwise import div_p, mul_p
    one = Literal(np.ones((), dtype), ShapedArray((), dtype))
    recip = Var(ShapedArray(y.aval.shape, dtype))
    return [JaxprEqn(div_p, [one, y], [recip], {}), JaxprEqn(mul_p, [x, recip], eqn.outvars, {})]
