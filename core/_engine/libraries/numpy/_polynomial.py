"""Polynomials as coefficient arrays, highest power first (NumPy's convention)."""
from __future__ import annotations

import operator

import numpy as _np

from ...lax import lax
from ...tracing.tracing import get_aval
from ._util import _staged


def polyval(p, x, *, unroll=16):
    from ._util import _check_arraylike, _promote_dtypes
    from ._creation import zeros_like
    _check_arraylike("polyval", p, x)
    p, x = _promote_dtypes(p, x)  # dtypes only: p's axis is the powers, not one of x's
    out = zeros_like(x)
    for i in range(get_aval(p).shape[0]):   # Horner's rule
        out = out * x + p[i]
    return out


def polyadd(a1, a2):
    from ._util import _check_arraylike, _promote_dtypes
    _check_arraylike("polyadd", a1, a2)
    a1, a2 = _promote_dtypes(a1, a2)
    # as JAX's: the shorter adds into the tail of the longer along axis 0 (trailing axes broadcast)
    if get_aval(a2).shape[0] <= get_aval(a1).shape[0]:
        return a1.at[-get_aval(a2).shape[0]:].add(a2)
    return a2.at[-get_aval(a1).shape[0]:].add(a1)


def polysub(a1, a2):
    from ._util import _check_arraylike, _promote_dtypes
    _check_arraylike("polysub", a1, a2)
    a1, a2 = _promote_dtypes(a1, a2)
    return polyadd(a1, -a2)


def polymul(a1, a2, *, trim_leading_zeros=False):
    from ._util import _check_arraylike, _promote_dtypes_inexact
    from ._signal import convolve
    from ._index_tricks import trim_zeros
    from ._creation import zeros
    _check_arraylike("polymul", a1, a2)
    a1, a2 = _promote_dtypes_inexact(a1, a2)   # promotes to inexact, as JAX's polymul does
    if trim_leading_zeros and (len(a1) > 1 or len(a2) > 1):
        a1, a2 = trim_zeros(a1, trim="f"), trim_zeros(a2, trim="f")
    if len(a1) == 0:
        a1 = zeros(1, dtype=get_aval(a2).dtype)
    if len(a2) == 0:
        a2 = zeros(1, dtype=get_aval(a1).dtype)
    return convolve(a1, a2, mode="full")


def polyder(p, m=1):
    from ._util import _check_arraylike, _promote_dtypes_inexact
    from ._creation import arange
    from ._creation import _concrete
    _check_arraylike("polyder", p)
    m = operator.index(_concrete(m, "polyder"))
    (p,) = _promote_dtypes_inexact(p)   # a float result for integer coefficients, as JAX's
    if m < 0:
        raise ValueError("Order of derivative must be positive")
    if m == 0:
        return p
    dt = get_aval(p).dtype
    # the m-th derivative's factor of x^k is k (k-1) ... (k-m+1), for k = m .. len(p) - 1
    factor = (arange(m, len(p), dtype=dt)[None] - arange(m, dtype=dt)[:, None]).prod(0)
    return p[:-m] * factor[::-1]


def polyint(p, m=1, k=None):
    from ._util import _promote_args_inexact
    from ._creation import arange
    from ._shapes import concatenate
    m = operator.index(m)
    if m < 0:
        raise ValueError(f"jnp.polyint: order of integral must be positive, got {m}")
    (p,) = _promote_args_inexact("polyint", p)
    from ._shapes import atleast_1d
    from ._creation import asarray
    p = atleast_1d(p)
    ks = [0.0] * m if k is None else list(_np.broadcast_to(_np.asarray(k), (m,)))
    for i in range(m):
        n = get_aval(p).shape[0]
        p = concatenate([p / arange(n, 0, -1, dtype=get_aval(p).dtype), asarray([ks[i]], dtype=get_aval(p).dtype)])
    return p


def poly(seq_of_zeros):
    from ._util import _promote_args_inexact
    from ._creation import array, ones
    from ._shapes import atleast_1d
    from ._signal import convolve
    (a,) = _promote_args_inexact("poly", seq_of_zeros)
    a = atleast_1d(a)
    shape = get_aval(a).shape
    if len(shape) == 2 and shape[0] == shape[1] != 0:
        from .linalg import eigvals   # a square matrix: its characteristic polynomial (complex, as JAX's)
        a = eigvals(a)
    if get_aval(a).ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    dt = get_aval(a).dtype
    if get_aval(a).shape[0] == 0:
        return ones((), dtype=dt)
    out = ones((1,), dtype=dt)
    for k in range(get_aval(a).shape[0]):   # multiply in one root at a time: (x - r_k)
        out = convolve(out, array([1, -a[k]], dtype=dt), mode="full")
    return out


def polydiv(u, v, *, trim_leading_zeros=False):
    """(quotient, remainder) of u / v by long division; the remainder keeps u's length unless
    trim_leading_zeros (then leading entries below sqrt(eps) are dropped, which needs concrete
    values)."""
    from ._util import _check_arraylike, _promote_dtypes_inexact
    from ._dtypes import finfo
    from ._ufuncs import sqrt
    from ._creation import zeros
    _check_arraylike("polydiv", u, v)
    u, v = _promote_dtypes_inexact(u, v)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = zeros(max(m - n + 1, 1), dtype=u.dtype)
    for k in range(m - n + 1):
        d = scale * u[k]
        q = q.at[k].set(d)
        u = u.at[k:k + n + 1].add(-d * v)
    if trim_leading_zeros:
        tol = sqrt(finfo(u.dtype).eps)
        keep = _np.flatnonzero(_np.abs(_np.asarray(u)) >= float(tol))
        u = u[keep[0]:] if keep.size else u[:0]
    return q, u


@_staged(static_argnames=("deg", "rcond", "full", "cov"))
def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least squares on the Vandermonde matrix with its columns scaled to unit norm (numpy's
    conditioning), coefficients highest power first."""
    from ._util import _check_arraylike, _promote_dtypes_inexact
    from ._creation import asarray
    from ._products import dot, outer
    from ._dtypes import finfo
    from . import linalg
    from ._ufuncs import sqrt
    from ._index_tricks import vander
    _check_arraylike("polyfit", x, y, *(() if w is None else (w,)))
    x, y = asarray(x), asarray(y)
    deg = operator.index(deg)
    order = deg + 1
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * float(finfo(x.dtype).eps)
    lhs, rhs = vander(x, order), y
    if w is not None:
        w, = _promote_dtypes_inexact(w)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale[None, :]
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale[None, :]).T if c.ndim > 1 else c / scale
    if full:
        return c, resids, rank, s, asarray(rcond)
    if not cov:
        return c
    base = linalg.inv(dot(lhs.T, lhs)) / outer(scale, scale)
    if cov == "unscaled":
        fac = asarray(1.0)
    else:
        if x.shape[0] <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        fac = resids / (x.shape[0] - order)
    if y.ndim == 1:
        return c, base * fac.reshape(-1)[None]
    return c, base[:, :, None] * fac.reshape(-1)[None, None, :]


def _roots_of(p):
    """The eigenvalues of p's companion matrix (p without leading zeros)."""
    from ._creation import array, diag, ones
    from . import linalg
    if p.shape[0] < 2:
        return array([], dtype=_complex_of(p.dtype))
    companion = diag(ones((p.shape[0] - 2,), p.dtype), -1)
    companion = companion.at[0, :].set(-p[1:] / p[0])
    return linalg.eigvals(companion)


def _complex_of(dtype):
    return _np.result_type(dtype, _np.complex64)


def roots(p, *, strip_zeros=True):
    from ._util import _check_arraylike, _promote_dtypes_inexact
    from ._reductions import all as _all, argmin
    from ._creation import arange, array
    from ._shapes import atleast_1d
    from ._take import take
    from ._searching import where
    _check_arraylike("roots", p)
    p = atleast_1d(_promote_dtypes_inexact(p)[0])
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    if p.shape[0] < 2:
        return array([], dtype=_complex_of(p.dtype))
    n_lead = where(_all(p == 0), p.shape[0], argmin(p == 0))
    if strip_zeros:
        from ...base.errors import ConcretizationTypeError
        from ...tracing.tracing import Tracer
        if isinstance(n_lead, Tracer):
            raise ConcretizationTypeError(n_lead, "The error occurred in the jnp.roots() function. To use this "
                                          "within a JIT-compiled context, pass strip_zeros=False, but be aware "
                                          "that leading zeros will result in some returned roots being set to NaN.")
        return _roots_of(p[int(n_lead):])
    # leading zeros rolled to the end give zero roots: sorted last, then reported as NaN
    p = where(p.shape[0] == n_lead, 1.0, p)
    n = p.shape[0]
    found = _roots_of(take(p, (arange(n) + n_lead) % n))  # rolled left by n_lead, which may be traced
    found = lax.sort_key_val(found == 0, found)[1]
    return where(arange(found.shape[0]) < found.shape[0] - n_lead, found, complex(_np.nan, _np.nan))
