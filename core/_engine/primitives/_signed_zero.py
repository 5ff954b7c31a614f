"""max/min as XLA computes them on floats: -0.0 orders below +0.0. numpy's maximum/minimum take the
second operand on a tie, so np.maximum(0.0, -0.0) is -0.0 where JAX's max gives 0.0 (and its min
of (-0.0, 0.0) gives -0.0, numpy's 0.0); numpy's reductions and scans inherit that. Each function
here runs numpy's ufunc and sets a zero result's sign as XLA does where numpy's could differ: a
max is -0.0 only when every operand carries the sign bit (the operands are all <= 0 there), a min
is -0.0 when any does (they are all >= 0 there). Ints and bools pass through untouched."""
from __future__ import annotations

import numpy as np


_UINTS = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_SIGN_BITS = {2: np.uint16(1 << 15), 4: np.uint32(1 << 31), 8: np.uint64(1 << 63)}


_NEG_ZERO_BYTES = {np.dtype(t): np.array(-0.0, t).tobytes() for t in (np.float16, np.float32, np.float64)}


def _has_negative_zero(v) -> bool:
    """Whether v holds a -0.0 (it may say so wrongly for a small array, never the other way: a
    false alarm only takes the exact path). Small arrays search their bytes (~0.25 us, where a
    comparison and .any() cost ~1.5 us); large ones compare the bits."""
    dt = getattr(v, "dtype", None)
    if dt is None:
        v = np.asarray(v)
        dt = v.dtype
    if dt.kind != "f":
        return False
    if dt not in _NEG_ZERO_BYTES:  # another byte order (the emulated bfloat16 computes in '>f4'), other widths
        return bool(np.any((v == 0) & np.signbit(v)))
    if v.size <= 256:
        return _NEG_ZERO_BYTES[dt] in v.tobytes()
    n = dt.itemsize
    return bool((v.view(_UINTS[n]) == _SIGN_BITS[n]).any())


def _signed(r, z, neg):
    """r with its zeros (mask z) replaced by -0.0 where neg, +0.0 elsewhere."""
    zero = np.zeros((), r.dtype)
    fixed = np.where(z, np.where(neg, -zero, zero), r)
    return fixed if np.ndim(r) else fixed[()]


def _pick(ufunc, bits, tie_taken_from):
    """numpy's ufunc(x, y) takes y on a tie: wrong only where y is the -0.0 of a zero tie (max) or x
    is (min: y is then +0.0). Only when that operand holds a -0.0 at all, the result is redone as the
    bits of ufunc(x, y) and ufunc(y, x) combined (`bits`: and for max, or for min): the two agree
    everywhere but at a zero tie, where they hold both zeros (a NaN's quiet bit survives either)."""
    def raw(x, y, out=None):
        if not _has_negative_zero(y if tie_taken_from == 1 else x):
            return ufunc(x, y, out=out)
        r = np.asarray(ufunc(x, y))   # (not into `out`: it may be x's or y's buffer, read again below)
        other = np.asarray(ufunc(y, x))
        u = _UINTS[r.dtype.itemsize]
        fixed = bits(r.view(u), other.view(u)).view(r.dtype)
        if out is not None:
            out[...] = fixed
            return out
        return fixed if fixed.ndim else fixed[()]
    raw.__name__ = ufunc.__name__
    return raw


xla_max = _pick(np.maximum, np.bitwise_and, 1)
xla_min = _pick(np.minimum, np.bitwise_or, 0)


def _reduce(ufunc, combine):
    def reduce(x, axes):
        r = ufunc.reduce(x, axes)
        if x.dtype.kind != "f":
            return r
        z = r == 0
        if not (z if type(z) is np.bool_ else z.any()):
            return r
        return _signed(np.asarray(r), z, combine.reduce(np.signbit(x), axes))
    reduce.__name__ = f"{ufunc.__name__}_reduce"
    return reduce


xla_max_reduce = _reduce(np.maximum, np.logical_and)
xla_min_reduce = _reduce(np.minimum, np.logical_or)


def _accumulate(ufunc, combine):
    def accumulate(x, axis):
        r = ufunc.accumulate(x, axis=axis)
        if x.dtype.kind != "f":
            return r
        z = r == 0
        if not z.any():
            return r
        return _signed(r, z, combine.accumulate(np.signbit(x), axis=axis))
    accumulate.__name__ = f"{ufunc.__name__}_accumulate"
    return accumulate


xla_max_accumulate = _accumulate(np.maximum, np.logical_and)
xla_min_accumulate = _accumulate(np.minimum, np.logical_or)
