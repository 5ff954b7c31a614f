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


# ---- the scalar and one-window ops of an MCMC kernel's loop (blackjax's NUTS: a dozen dtype
# conversions, shifts, a population count, a remainder and a one-row scatter per leapfrog step),
# each specialised to its avals, without the impl's dtype dispatch and its own errstate

def _convert_element_type(eqn):
    from ..primitives.elementwise import plain_astype
    src, nd = eqn.invars[0].aval.dtype, np.dtype(eqn.params["new_dtype"])
    if not plain_astype(src, nd):
        return None
    return lambda x: x.astype(nd)


def _concatenate(eqn):
    axis = eqn.params["dimension"]   # (the shapes were checked when the jaxpr was made)
    return lambda *xs: np.concatenate(xs, axis=axis)


def _dynamic_slice(eqn):
    sizes = tuple(eqn.params["slice_sizes"])
    highest = [d - z for d, z in zip(eqn.invars[0].aval.shape, sizes)]   # starts clamp into [0, highest]

    def dynamic_slice(x, *starts):
        return x[tuple(slice(b, b + z) for b, z in zip(
            [min(max(int(s), 0), h) for s, h in zip(starts, highest)], sizes))]
    return dynamic_slice


def _rem(eqn):
    out = eqn.outvars[0].aval
    if out.ndim or out.dtype.kind not in "iu":
        return None
    return lambda a, b: np.fmod(a, b) if b != 0 else a   # (the impl's: x where y == 0)


def _integer_pow(eqn):
    y = eqn.params["y"]
    dt = eqn.outvars[0].aval.dtype
    if y == 0 or (y < 0 and dt.kind != "f"):
        return None
    one, power = dt.type(1), abs(y)

    def integer_pow(x):   # exponentiation by squaring, as the impl (and XLA); 1 / that for y < 0
        acc, base, n = None, x, power
        while n:
            if n & 1:
                acc = base if acc is None else acc * base
            n >>= 1
            if n:
                base = base * base
        return acc if y > 0 else one / acc
    return integer_pow


def _literal_shift(eqn):
    """The shift amount when it is a scalar literal, with the operand's width; else None."""
    x, y = eqn.invars
    from ..tracing.jaxpr import Literal
    if type(y) is not Literal or np.ndim(y.val) or x.aval.dtype.kind not in "iu":
        return None
    return int(y.val), x.aval.dtype.itemsize * 8


def _shift_right_logical(eqn):
    known = _literal_shift(eqn)
    if known is None:
        return None
    s, bits = known
    dt = eqn.invars[0].aval.dtype
    if not 0 <= s < bits:
        return lambda x, y: np.zeros_like(x)
    unsigned = np.dtype(f"u{dt.itemsize}")
    amount = unsigned.type(s)
    return lambda x, y: np.right_shift(x.view(unsigned), amount).view(dt)


def _shift_right_arithmetic(eqn):
    known = _literal_shift(eqn)
    if known is None:
        return None
    s, bits = known
    amount = eqn.invars[0].aval.dtype.type(s if 0 <= s < bits else bits - 1)
    return lambda x, y: np.right_shift(x, amount)


def _population_count(eqn):
    dt = eqn.invars[0].aval.dtype
    if not hasattr(np, "bitwise_count") or dt.kind not in "iu":
        return None
    unsigned = np.dtype(f"u{dt.itemsize}")   # two's complement bits, as XLA counts them
    return lambda x: np.bitwise_count(x.view(unsigned)).astype(dt)


def _logistic(eqn):
    dt = eqn.invars[0].aval.dtype
    if dt not in (_F32, np.dtype(np.float64)):   # (the emulated bfloat16 rounds every step)
        return None
    return lambda x: (1 / (1 + np.exp(-x))).astype(dt)


def _scatter(eqn):
    """One window written over a copy (x.at[i].set(v) in a loop): its start from the index
    vector, clamped (mode clip) or the write skipped where it does not fit, as the impl."""
    from ..primitives.indexing import GatherScatterMode, _window_shape
    operand, indices, updates = (v.aval for v in eqn.invars)
    dn = eqn.params["dimension_numbers"]
    sdims = tuple(dn.scatter_dims_to_operand_dims)
    if (not operand.ndim or indices.shape != (len(sdims),) or dn.operand_batching_dims
            or list(dn.update_window_dims) != sorted(dn.update_window_dims) or updates.ndim != len(dn.update_window_dims)):
        return None
    window = _window_shape(operand.shape, updates.shape, dn)
    shape = operand.shape
    clip = GatherScatterMode.from_any(eqn.params["mode"]) == GatherScatterMode.CLIP
    highest = [max(d - w, 0) if clip else d - w for d, w in zip(shape, window)]

    def scatter(x, idx, upd):
        out = x.copy()
        starts = [0] * len(shape)
        for d, i in zip(sdims, idx.tolist()):
            starts[d] = i
        for d, h in enumerate(highest):
            b = starts[d]
            if clip:
                starts[d] = min(max(b, 0), h)
            elif b < 0 or b > h:
                return out   # XLA skips a window that does not fit
        out[tuple(slice(b, b + w) for b, w in zip(starts, window))] = upd.reshape(window)
        return out
    return scatter


_SPECIAL = {"slice": _slice, "squeeze": _squeeze, "pad": _pad, "pow": _pow, "select_n": _select_n,
            "broadcast_in_dim": _broadcast_in_dim, "convert_element_type": _convert_element_type,
            "concatenate": _concatenate, "dynamic_slice": _dynamic_slice, "rem": _rem,
            "integer_pow": _integer_pow, "shift_right_logical": _shift_right_logical,
            "shift_right_arithmetic": _shift_right_arithmetic, "population_count": _population_count,
            "logistic": _logistic, "scatter": _scatter}


def special(eqn):
    """A callable computing `eqn` as its impl does, specialised to its avals, or None."""
    make = _SPECIAL.get(eqn.primitive.name)
    return None if make is None else make(eqn)
