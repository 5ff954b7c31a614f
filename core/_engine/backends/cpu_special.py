"""Callables the generated code runs for equations whose impls redo, on every call, work that
depends only on the avals (index tuples, padding shapes, dtype checks) or enter numpy's errstate
that the generated body has already entered. Each computes its impl's very bits.

A jitted optimizer step on a two-parameter function (optax's alias tests) is ~40 such ops on
scalars and f32[2]: there an impl's few microseconds of Python are most of the step.
"""
from __future__ import annotations

import numpy as np


def _slice(eqn):
    p = eqn.params
    strides = p.get("strides") or (1,) * len(p["start_indices"])
    index = tuple(slice(lo, hi, st) for lo, hi, st in zip(p["start_indices"], p["limit_indices"], strides))
    return lambda x: x[index]


def _squeeze(eqn):
    shape = eqn.outvars[0].aval.shape   # a view without the size-1 axes: np.squeeze's own
    if shape == ():   # (`p[0]` of a vector) its one element as a numpy scalar, which the scalar
        return lambda x: x.reshape(-1)[0]   # operators after it compute ~7x faster than a 0-d array
    return lambda x: x.reshape(shape)


def _pad(eqn):
    """Edge padding without interior or negative amounts (a gradient of `x[i]`): the operand
    written into a block filled with the padding value."""
    config = eqn.params["padding_config"]
    if any(lo < 0 or hi < 0 or interior for lo, hi, interior in config):
        return None
    out = eqn.outvars[0].aval
    shape, dtype = out.shape, out.dtype
    inside = tuple(slice(lo, lo + d) for (lo, _, _), d in zip(config, eqn.invars[0].aval.shape))

    def pad(x, pv):
        y = np.empty(shape, dtype)
        y.fill(pv)
        y[inside] = x
        return y
    return pad


_F32 = np.dtype(np.float32)


def _pow(eqn):
    x, y = eqn.invars
    if x.aval.dtype == _F32 and y.aval.dtype == _F32:   # the impl's powf: float64 power rounded once
        return lambda a, b: np.power(a, b, dtype=np.float64).astype(_F32)
    if x.aval.dtype == y.aval.dtype:
        return np.power
    if y.aval.dtype.kind in "iu":   # an integer exponent (adam's bias correction b1 ** count), in x's dtype
        dtype = x.aval.dtype
        return lambda a, b: np.power(a, b.astype(dtype))
    return None


def _select_n(eqn):
    """A scalar predicate choosing between two operands of the result's shape: the chosen
    operand (np.where's result has its values)."""
    which, *cases = eqn.invars
    out = eqn.outvars[0].aval
    if which.aval.shape != () or which.aval.dtype != np.bool_ or len(cases) != 2 or any(
            c.aval.shape != out.shape or c.aval.dtype != out.dtype for c in cases):
        return None
    return lambda p, a, b: b if p else a


# up to this many elements a broadcast is materialised into a new array (np.broadcast_to's view
# costs ~5x more Python than a small copy: optax's trust ratios and clipping broadcast per leaf)
_SMALL_BROADCAST = 4096


def _broadcast_in_dim(eqn):
    out = eqn.outvars[0].aval
    if out.size > _SMALL_BROADCAST:
        return None
    shape, dtype = out.shape, out.dtype
    expanded = [1] * len(shape)
    for i, d in enumerate(eqn.params["broadcast_dimensions"]):
        expanded[d] = eqn.invars[0].aval.shape[i]
    expanded = tuple(expanded)
    if expanded == shape:   # only size-1 axes added: a reshape (rules' specialisation), no copy
        return None

    def broadcast(x):
        y = np.empty(shape, dtype)
        y[...] = x.reshape(expanded)
        return y
    return broadcast


_SPECIAL = {"slice": _slice, "squeeze": _squeeze, "pad": _pad, "pow": _pow, "select_n": _select_n,
            "broadcast_in_dim": _broadcast_in_dim}


def special(eqn):
    """A callable computing `eqn` as its impl does, specialised to its avals, or None."""
    make = _SPECIAL.get(eqn.primitive.name)
    return None if make is None else make(eqn)
