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


def live_uses(items, outvars) -> dict:
    """Var -> how many live equations (and program outputs) read it, after the inlining's aliases
    and with repeated equations counted once (XLA's dead-code and common-subexpression passes run
    before its algebraic simplifier, which looks at these counts)."""
    alias = {}
    for it in items:
        if type(it) is tuple and it[0] == "alias":
            alias[it[1]] = it[2]

    def res(v):
        while type(v) is Var and v in alias:
            v = alias[v]
        return v
    eqns = [it for it in items if type(it) is JaxprEqn]
    live = {res(v) for v in outvars if type(v) is Var}
    kept = []
    from ..tracing.effects import eqn_effectful
    for e in reversed(eqns):
        if any(v in live for v in e.outvars) or eqn_effectful(e):
            kept.append(e)
            live.update(res(v) for v in e.invars if type(v) is Var)
    uses: dict = {}
    seen: dict = {}
    for v in outvars:
        v = res(v)
        if type(v) is Var:
            uses[v] = uses.get(v, 0) + 1
    for e in reversed(kept):
        ins = tuple(res(v) for v in e.invars)
        try:
            key = (e.primitive, tuple(v if type(v) is Var else ("lit", repr(v.val)) for v in ins),
                   tuple(sorted(e.params.items())) if e.params else ())
            prev = seen.get(key)
        except TypeError:  # unhashable params (a nested jaxpr's): never merged
            key = prev = None
        if prev is not None:
            alias.update(zip(e.outvars, prev.outvars))
            continue
        if key is not None:
            seen[key] = e
        for v in ins:
            if type(v) is Var:
                uses[v] = uses.get(v, 0) + 1
    return uses


def split_division(eqn, uses=None):
    """[reciprocal, product] for a division whose divisor broadcasts (the impl's x * (1 / y)),
    else None. With `uses` (live_uses): XLA rewrites A / broadcast(B) that way only when B has no
    other use (measured, JAX 0.10.2 CPU: jit(lambda a, b: (a / b, b * b)) divides truly, 62% of
    float32 quotients then differ from a * (1 / b)); a divisor used elsewhere gets
    [broadcast, division] (the true quotient of same-shape operands)."""
    if eqn.primitive.name != "div":
        return None
    x, y = eqn.invars
    out = eqn.outvars[0]
    dtype = out.aval.dtype
    if dtype not in _NATIVE_INEXACT or x.aval.dtype != dtype:
        return None
    if y.aval.shape == out.aval.shape and not (type(y) is Literal and dtype.kind == "f"):
        return None   # (a constant divisor: XLA multiplies by its reciprocal whatever the shapes)
    if uses is not None and type(y) is Var and uses.get(y, 0) > 1:
        from ..primitives.elementwise import div_p
        from ..primitives.structural import broadcast_in_dim_p
        wide = Var(ShapedArray(out.aval.shape, dtype))
        bdims = tuple(range(len(out.aval.shape))) if y.aval.shape else ()
        return [JaxprEqn(broadcast_in_dim_p, [y], [wide], {"shape": out.aval.shape, "broadcast_dimensions": bdims,
                                                            "sharding": None}),
                JaxprEqn(div_p, [x, wide], eqn.outvars, {})]
    from ..primitives.elementwise import div_p, mul_p
    one = Literal(np.ones((), dtype), ShapedArray((), dtype))
    recip = Var(ShapedArray(y.aval.shape, dtype))
    return [JaxprEqn(div_p, [one, y], [recip], {}), JaxprEqn(mul_p, [x, recip], eqn.outvars, {})]
