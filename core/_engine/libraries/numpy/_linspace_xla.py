"""jnp.linspace's float32 interior with the bits XLA's CPU kernel gives for scalar bounds.

JAX computes `start * (1 - t) + stop * t` with `t = iota / div`. XLA rewrites that before it
runs it: the division by the constant becomes a multiply by `r = 1/div`, `stop * (iota * r)`
becomes `iota * (stop * r)`, and LLVM contracts multiply-adds into FMAs:

    out[i] = fma(i, stop * r, start * (1 - i * r))

Which multiply-adds get contracted depends on how the loop is emitted (measured against jax
0.10.2 on x86-64 CPU, 1132 (start, stop, num, endpoint) cases, every element bit-equal):
- small loops (div < 34) are unrolled; there `1 * (stop * r)` folds away, so element 1 is
  `fma(start, 1 - r, stop * r)`;
- long loops (div >= 352) run 32 elements a step, and in those steps `1 - i * r` is itself
  an FMA, `fma(-i, r, 1)`; the last `div % 32` elements take the plain form.
"""
from __future__ import annotations

import numpy as np

_UNROLLED_BELOW = 34
_BLOCKED_FROM = 352
_BLOCK = 32


def fma_f32(a, b, c) -> np.ndarray:
    """Correctly rounded float32 a * b + c. The float32 product is exact in float64; the float64
    sum is rounded to odd (an inexact sum with an even last bit steps one ulp toward the error),
    so its one rounding to float32 is the FMA's."""
    prod = np.multiply(a, b, dtype=np.float64)
    c = np.asarray(c, np.float64)
    with np.errstate(all="ignore"):
        total = prod + c
        # TwoSum: the exact rounding error of total, built in place in prod
        err = total - c            # the part of prod that made it into total
        prod -= err                # what prod lost
        err -= total
        err += c                   # what c lost
        prod += err                # total + prod == a * b + c exactly
        bits = total.view(np.int64)
        step = (prod != 0) & ((bits & 1) == 0) & np.isfinite(total)
        if step.any():
            toward_err = np.where((prod > 0) == (total > 0), 1, -1)
            bits += step * toward_err
        return total.astype(np.float32)


def interior_f32(start: np.float32, stop: np.float32, div: int) -> np.ndarray:
    """The first `div` values of linspace(start, stop) (float32, div >= 1), as XLA computes them."""
    r = np.float32(1) / np.float32(div)
    i = np.arange(div, dtype=np.float32)
    with np.errstate(all="ignore"):
        stop_r = stop * r
        one_minus_t = np.float32(1) - i * r
        if div >= _BLOCKED_FROM:
            blocked = div - div % _BLOCK
            one_minus_t[:blocked] = fma_f32(-i[:blocked], r, np.float32(1))
        out = fma_f32(i, stop_r, start * one_minus_t)
        if 1 < div < _UNROLLED_BELOW:
            out[1] = fma_f32(start, one_minus_t[1], stop_r)
    return out


# float16 (measured the same way, div <= 2048 where float16 counts exactly): XLA's CPU kernel
# rounds every op to float16 (each is done in float32 and rounded back) and fuses nothing.
F16_EXACT_UP_TO = 2048


def interior_f16(start: np.float16, stop: np.float16, div: int) -> np.ndarray:
    """The first `div` values of a float16 linspace(start, stop), as XLA computes them."""
    r = np.float16(np.float32(1) / np.float32(div))
    i = np.arange(div).astype(np.float16)
    with np.errstate(all="ignore"):
        return start * (np.float16(1) - i * r) + i * (stop * r)


INTERIORS = {np.dtype(np.float32): (interior_f32, None), np.dtype(np.float16): (interior_f16, F16_EXACT_UP_TO)}
