"""Window functions (NumPy's formulas), computed in the default float dtype."""
from __future__ import annotations

import operator

import numpy as _np

from ...base import dtypes as _dt


def _n(M, name):
    from ._creation import _concrete
    return operator.index(_concrete(M, name))


def _cosine_window(M, coeffs, name):
    from ._creation import arange, zeros, ones
    from ._ufuncs import cos
    M = _n(M, name)
    dt = _dt.canonicalize_dtype(_dt.default_float_dtype())
    if M <= 1:
        return ones(max(M, 0), dt)
    n = arange(M, dtype=dt)
    out = zeros(M, dt) + coeffs[0]
    for k, c in enumerate(coeffs[1:], start=1):
        out = out + c * cos(2 * _np.pi * k * n / (M - 1))
    return out


def hamming(M):
    return _cosine_window(M, (0.54, -0.46), "hamming")


def hanning(M):
    return _cosine_window(M, (0.5, -0.5), "hanning")


def blackman(M):
    return _cosine_window(M, (0.42, -0.5, 0.08), "blackman")


def bartlett(M):
    from ._ufuncs import abs as _abs
    from ._creation import arange, ones
    M = _n(M, "bartlett")
    dt = _dt.canonicalize_dtype(_dt.default_float_dtype())
    if M <= 1:
        return ones(max(M, 0), dt)
    n = arange(M, dtype=dt)
    return 1 - _abs(2 * n - M + 1) / (M - 1)


def kaiser(M, beta):
    from ._creation import arange, asarray, ones
    from ._ufuncs import sqrt
    from ._more_math import i0
    M = _n(M, "kaiser")
    dt = _dt.canonicalize_dtype(_dt.default_float_dtype())
    if M <= 1:
        return ones(max(M, 0), dt)
    n = arange(M, dtype=dt)
    alpha = 0.5 * (M - 1)
    beta = asarray(beta, dtype=dt)
    return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2)) / i0(beta)
