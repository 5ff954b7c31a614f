"""Polynomials as coefficient arrays, highest power first (NumPy's convention)."""
from __future__ import annotations

import operator

import numpy as _np

from ..tracing import get_aval


def _coeffs(name, *ps):
    from . import _promote_args, atleast_1d
    ps = _promote_args(name, *ps)
    return [atleast_1d(p) for p in ps]


def polyval(p, x, *, unroll=16):
    from . import _promote_args, zeros_like
    p, x = _promote_args("polyval", p, x)
    out = zeros_like(x)
    for i in range(get_aval(p).shape[0]):   # Horner's rule
        out = out * x + p[i]
    return out


def _pad_front(a, n):
    from . import pad
    return pad(a, [(n - get_aval(a).shape[0], 0)])


def polyadd(a1, a2):
    a1, a2 = _coeffs("polyadd", a1, a2)
    n = max(get_aval(a1).shape[0], get_aval(a2).shape[0])
    return _pad_front(a1, n) + _pad_front(a2, n)


def polysub(a1, a2):
    a1, a2 = _coeffs("polysub", a1, a2)
    n = max(get_aval(a1).shape[0], get_aval(a2).shape[0])
    return _pad_front(a1, n) - _pad_front(a2, n)


def polymul(a1, a2, *, trim_leading_zeros=False):
    from . import convolve
    a1, a2 = _coeffs("polymul", a1, a2)
    return convolve(a1, a2)   # promotes to inexact, as JAX's polymul does


def polyder(p, m=1):
    from . import _promote_args_inexact, arange, asarray
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive")
    (p,) = _coeffs("polyder", p)
    for _ in range(m):
        n = get_aval(p).shape[0]
        if n <= 1:
            return p[:0]
        p = p[:-1] * arange(n - 1, 0, -1, dtype=get_aval(p).dtype)
    return p


def polyint(p, m=1, k=None):
    from . import _promote_args_inexact, arange, concatenate, zeros
    m = operator.index(m)
    if m < 0:
        raise ValueError(f"jnp.polyint: order of integral must be positive, got {m}")
    (p,) = _promote_args_inexact("polyint", p)
    from . import atleast_1d, asarray
    p = atleast_1d(p)
    ks = [0.0] * m if k is None else list(_np.broadcast_to(_np.asarray(k), (m,)))
    for i in range(m):
        n = get_aval(p).shape[0]
        p = concatenate([p / arange(n, 0, -1, dtype=get_aval(p).dtype), asarray([ks[i]], dtype=get_aval(p).dtype)])
    return p


def poly(seq_of_zeros):
    from . import _promote_args_inexact, array, asarray, atleast_1d
    (a,) = _promote_args_inexact("poly", seq_of_zeros)
    a = atleast_1d(a)
    if get_aval(a).ndim == 2 and get_aval(a).shape[0] == get_aval(a).shape[1]:
        from .linalg import eigvalsh
        raise NotImplementedError("jnp.poly of a square matrix needs eigvals, which gradpad does not have")
    out = array([1.0], dtype=get_aval(a).dtype)
    for i in range(get_aval(a).shape[0]):
        out = polymul(out, asarray([1.0], dtype=get_aval(a).dtype).at[0].get() * array([1.0, 0.0], dtype=get_aval(a).dtype)
                      - a[i] * array([0.0, 1.0], dtype=get_aval(a).dtype))
    return out
