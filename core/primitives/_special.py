"""Special functions in plain numpy (no scipy in the browser), float32-accurate."""
from __future__ import annotations

import numpy as np


def erf_inv(x):
    """Single-precision inverse error function: Giles' polynomial, as XLA evaluates it."""
    x = np.asarray(x)
    dt = x.dtype
    xf = x.astype(np.float32)
    with np.errstate(all="ignore"):
        w = -np.log1p(-xf * xf).astype(np.float32)
        w = w.astype(np.float32)
        lt = w < np.float32(5.0)
        w1 = (w - np.float32(2.5)).astype(np.float32)
        w2 = (np.sqrt(w) - np.float32(3.0)).astype(np.float32)
        c1 = [2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
              -0.00125372503, -0.00417768164, 0.246640727, 1.50140941]
        c2 = [-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
              -0.0076224613, 0.00943887047, 1.00167406, 2.83297682]
        p1 = np.full_like(w1, np.float32(c1[0]))
        for c in c1[1:]:
            p1 = (np.float32(c) + p1 * w1).astype(np.float32)
        p2 = np.full_like(w2, np.float32(c2[0]))
        for c in c2[1:]:
            p2 = (np.float32(c) + p2 * w2).astype(np.float32)
        p = np.where(lt, p1, p2).astype(np.float32)
        out = (p * xf).astype(np.float32)
        out = np.where(np.abs(xf) == 1, np.copysign(np.float32(np.inf), xf), out)
    return out.astype(dt)


def digamma(x):
    x = np.asarray(x, np.float64)
    result = np.zeros_like(x)
    xx = x.copy()
    with np.errstate(all="ignore"):
        for _ in range(6):
            small = xx < 6
            result = np.where(small, result - 1 / xx, result)
            xx = np.where(small, xx + 1, xx)
        f = 1 / (xx * xx)
        t = f * (-1 / 12 + f * (1 / 120 + f * (-1 / 252 + f * (1 / 240 + f * (-1 / 132)))))
        result = result + np.log(xx) - 0.5 / xx + t
    return result.astype(np.float32)
