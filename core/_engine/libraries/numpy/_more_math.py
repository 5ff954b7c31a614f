"""Elementwise jnp functions composed from existing ones: fabs, angle, gcd/lcm, ldexp/frexp,
modf, logaddexp2, the complex predicates, and i0 (series), plus the nan-skipping cumulative
reductions and statistics."""
from __future__ import annotations

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.tracing import get_aval
from ._util import _staged


def fabs(x, /):
    from ._util import _promote_args_inexact
    from ._ufuncs import abs as _abs
    (x,) = _promote_args_inexact("fabs", x)
    if get_aval(x).dtype.kind == "c":
        raise TypeError("ufunc 'fabs' does not support complex dtypes")
    return _abs(x)


def _staged_angle(fn):
    from ._util import _staged
    return _staged(fn, static_argnames=("deg",))


@_staged_angle
def angle(z, deg=False):
    # JAX's steps: real and imaginary parts, made inexact (and strong, for a 0-d float) first
    from ._util import _check_arraylike
    from ._ufuncs import degrees, imag, real
    _check_arraylike("angle", z)
    re, im = real(z), imag(z)
    dtype = get_aval(re).dtype
    if dtype.kind not in "fc" or (get_aval(z).dtype.kind == "f" and get_aval(z).ndim == 0):
        dtype = _dt.default_float_dtype()
        re = lax.convert_element_type(re, dtype)
        im = lax.convert_element_type(im, dtype)
    result = lax.atan2(im, re)
    return degrees(result) if deg else result


def gcd(x1, x2, /):
    """Euclid's algorithm, unrolled to the bit width (each step halves the smaller value at worst)."""
    from ._util import _promote_args
    from ._ufuncs import abs as _abs
    from ._searching import where
    x1, x2 = _promote_args("gcd", x1, x2)
    if get_aval(x1).dtype.kind not in "iub":
        raise ValueError("Arguments to jax.numpy.gcd must be integers.")
    a, b = _abs(x1), _abs(x2)
    for _ in range(2 * get_aval(a).dtype.itemsize * 8):
        nonzero = b != 0
        safe_b = where(nonzero, b, 1)
        a, b = where(nonzero, b, a), where(nonzero, a % safe_b, 0)
    return a


def lcm(x1, x2, /):
    from ._util import _promote_args
    from ._ufuncs import abs as _abs
    from ._searching import where
    x1, x2 = _promote_args("lcm", x1, x2)
    if get_aval(x1).dtype.kind not in "iub":
        raise ValueError("Arguments to jax.numpy.lcm must be integers.")
    d = gcd(x1, x2)
    return where(d == 0, 0, _abs(x1 * (x2 // where(d == 0, 1, d))))


def ldexp(x1, x2, /):
    from ._util import _promote_args_inexact
    from ._creation import asarray
    x2 = asarray(x2)
    if get_aval(x2).dtype.kind not in "iub":
        raise ValueError(f"ldexp: exponent must be an integer; got dtype {get_aval(x2).dtype}")
    (x1,) = _promote_args_inexact("ldexp", x1)
    return x1 * lax.pow(lax._const(x1, 2.0), lax.convert_element_type(x2, get_aval(x1).dtype))


def frexp(x, /):
    """Concrete values through numpy (mantissa in x's dtype, exponent int32)."""
    from ._util import _promote_args_inexact
    from ...tracing.array import Array
    (x,) = _promote_args_inexact("frexp", x)
    m, e = _np.frexp(_np.asarray(x))
    return Array(m.astype(get_aval(x).dtype)), Array(e.astype(_np.int32))


def modf(x, /, out=None):
    from ._util import _promote_args_inexact
    from ._ufuncs import trunc
    (x,) = _promote_args_inexact("modf", x)
    whole = trunc(x)
    return x - whole, whole


def logaddexp2(x1, x2, /):
    from ._util import _promote_args_inexact
    from ._ufuncs import logaddexp  # (what the jnp.logaddexp ufunc object calls)
    x1, x2 = _promote_args_inexact("logaddexp2", x1, x2)
    ln2 = lax._const(x1, _np.log(2))
    return logaddexp(x1 * ln2, x2 * ln2) / ln2


def iscomplex(x):
    from ._creation import asarray
    from ._ufuncs import imag
    x = asarray(x)
    return imag(x) != 0 if get_aval(x).dtype.kind == "c" else lax.full_like(x, False, _np.bool_)


def isreal(x):
    from ._creation import asarray
    from ._ufuncs import imag
    x = asarray(x)
    return imag(x) == 0 if get_aval(x).dtype.kind == "c" else lax.full_like(x, True, _np.bool_)


def isrealobj(x):
    from ._dtypes import iscomplexobj
    return not iscomplexobj(x)


def i0(x):
    """Modified Bessel function of order 0: its power series sum ((x/2)^k / k!)^2, 40 terms (float32-exact
    for |x| < 30), then the large-|x| asymptotic form."""
    from ._util import _promote_args_inexact
    from ._ufuncs import abs as _abs, exp, sqrt
    from ._searching import where
    (x,) = _promote_args_inexact("i0", x)
    ax = _abs(x)
    small = lax.min(ax, lax._const(ax, 30.0))
    q = (small / 2) * (small / 2)
    term, total = lax.full_like(ax, 1.0), lax.full_like(ax, 1.0)
    for k in range(1, 60):
        term = term * q / (k * k)
        total = total + term
    big = lax.max(ax, lax._const(ax, 30.0))
    asym = exp(big) / sqrt(2 * _np.pi * big) * (1 + 1 / (8 * big) + 9 / (128 * big * big) + 225 / (3072 * big ** 3))
    return where(ax > 30, asym, total)


# ---- nan-skipping cumulative reductions and statistics ---------------------------------------

def nancumsum(a, axis=None, dtype=None, out=None):
    from ._creation import asarray
    from ._reductions import cumsum
    from ._ufuncs import isnan
    from ._searching import where
    a = asarray(a)
    return cumsum(where(isnan(a), lax._const(a, 0), a), axis=axis, dtype=dtype)


def nancumprod(a, axis=None, dtype=None, out=None):
    from ._creation import asarray
    from ._reductions import cumprod
    from ._ufuncs import isnan
    from ._searching import where
    a = asarray(a)
    return cumprod(where(isnan(a), lax._const(a, 1), a), axis=axis, dtype=dtype)


def _nanarg(name, a, axis, keepdims, fill, reducer):
    from ._reductions import all as _all
    from ._creation import asarray
    from ._ufuncs import isnan
    from ._searching import where
    a = asarray(a)
    if get_aval(a).dtype.kind not in "fc":
        return reducer(a, axis=axis, keepdims=keepdims)
    nan_mask = isnan(a)
    out = reducer(where(nan_mask, fill, a), axis=axis, keepdims=keepdims)
    return where(_all(nan_mask, axis=axis, keepdims=keepdims), -1, out)


def nanargmax(a, axis=None, out=None, keepdims=None):
    from ._reductions import argmax
    return _nanarg("nanargmax", a, axis, keepdims, -_np.inf, argmax)


def nanargmin(a, axis=None, out=None, keepdims=None):
    from ._reductions import argmin
    return _nanarg("nanargmin", a, axis, keepdims, _np.inf, argmin)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None, correction=None):
    from ._util import _promote_args_inexact
    from ._creation import asarray
    from ._ufuncs import isnan, real
    from ._statistics import nanmean
    from ._reductions import sum as _sum
    from ._searching import where as _where
    (a,) = _promote_args_inexact("nanvar", a)
    if correction is not None:
        ddof = correction
    # as JAX's: `where` picks the entries of the mean, the squares and the count alike
    a_mean = nanmean(a, axis=axis, keepdims=True, where=where) if mean is None else asarray(mean).astype(a.dtype)
    centered = _where(isnan(a), lax._const(a, 0), a - a_mean)
    sq = real(centered * centered.conj()) if get_aval(a).dtype.kind == "c" else centered * centered
    count = _sum(~isnan(a), axis=axis, keepdims=keepdims, where=where)
    total = _sum(sq, axis=axis, keepdims=keepdims, where=where)
    out = total / lax.convert_element_type(count - ddof, get_aval(total).dtype)
    out = _where(count - ddof <= 0, _np.nan, out)
    return out if dtype is None else out.astype(dtype)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None, mean=None, correction=None):
    from ._ufuncs import sqrt
    return sqrt(nanvar(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where, mean=mean,
                       correction=correction))


def spacing(x, /):
    """The distance from x to the next float away from zero (toward +inf for float16, as
    JAX's), the smallest subnormal where that is 0."""
    from ._util import _promote_args_inexact
    from ._ufuncs import copysign
    from ._dtypes import finfo
    from ._searching import where
    x, = _promote_args_inexact("spacing", x)
    if x.dtype.kind == "c":
        raise ValueError("jnp.spacing is not defined for complex inputs.")
    inf = lax._const(x, _np.inf)
    if x.dtype == _np.float16:
        return lax.nextafter(x, inf) - x
    step = lax.nextafter(x, copysign(inf, x)) - x
    return where(step == 0, copysign(finfo(x.dtype).smallest_subnormal, x), step)


@_staged(static_argnames=("axis",))
def unwrap(p, discont=None, axis=-1, period=2 * _np.pi):
    from ._util import _check_arraylike, _promote_dtypes
    from ._ufuncs import abs as _abs, mod
    from ._shapes import concatenate
    from ._reductions import cumsum, diff
    from ._searching import where
    _check_arraylike("unwrap", p)
    p, period = _promote_dtypes(p, period)
    if p.dtype.kind == "c":
        raise ValueError("jnp.unwrap does not support complex inputs.")
    if p.shape[axis] == 0:
        return p
    if discont is None:
        discont = period / 2
    half = period // 2 if p.dtype.kind in "iu" else period / 2
    step = diff(p, axis=axis)
    wrapped = mod(step + half, period) - half
    wrapped = where((wrapped == -half) & (step > 0), half, wrapped)  # +period/2 stays, as numpy's
    correction = where(_abs(step) < discont, 0, wrapped - step)
    n = p.shape[axis]
    first = lax.slice_in_dim(p, 0, 1, axis=axis)
    rest = lax.slice_in_dim(p, 1, n, axis=axis) + cumsum(correction, axis=axis)
    return concatenate((first, rest), axis=axis)


def _gradient_along(a, h, axis):
    """Central differences inside, one-sided at the two ends (numpy's second-order-free rule);
    `h` a scalar spacing or the coordinates along the axis."""
    from ._shapes import concatenate, ndim
    n = a.shape[axis]

    def part(x, lo, hi):
        return lax.slice_in_dim(x, lo, hi, axis=axis)
    first = part(a, 1, 2) - part(a, 0, 1)
    last = part(a, n - 1, n) - part(a, n - 2, n - 1)
    if ndim(h) == 0:
        inner = (part(a, 2, n) - part(a, 0, n - 2)) * 0.5 / h
        return concatenate((first / h, inner, last / h), axis=axis)
    if ndim(h) != 1:
        raise ValueError("Spacing arrays must be 1D arrays or scalars.")
    if h.shape[0] != n:
        raise ValueError("Spacing arrays must have the same length as the dimension along which the "
                         "gradient is calculated.")
    shape = [1] * a.ndim
    shape[axis] = n
    h = h.reshape(shape)
    first = first / (part(h, 1, 2) - part(h, 0, 1))
    last = last / (part(h, n - 1, n) - part(h, n - 2, n - 1))
    dx1 = part(h, 1, n - 1) - part(h, 0, n - 2)
    dx2 = part(h, 2, n) - part(h, 1, n - 1)
    inner = (-dx2 / (dx1 * (dx1 + dx2)) * part(a, 0, n - 2) + (dx2 - dx1) / (dx1 * dx2) * part(a, 1, n - 1)
             + dx1 / (dx2 * (dx1 + dx2)) * part(a, 2, n))
    return concatenate((first, inner, last), axis=axis)


@_staged(static_argnames=("axis", "edge_order"))
def gradient(f, *varargs, axis=None, edge_order=None):
    from ._reductions import _canon_one
    from ._util import _promote_dtypes_inexact
    if edge_order is not None:
        raise NotImplementedError("The 'edge_order' argument to jnp.gradient is not supported.")
    a, *spacing = _promote_dtypes_inexact(f, *varargs)
    if axis is None:
        axes = tuple(range(a.ndim))
    else:
        axes = tuple(_canon_one(i, a.ndim) for i in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    if not axes:
        return []
    if min(a.shape[i] for i in axes) < 2:
        raise ValueError("Shape of array too small to calculate a numerical gradient, at least 2 elements are "
                         "required.")
    if not spacing:
        spacing = [1.0] * len(axes)
    elif len(spacing) == 1:
        spacing = spacing * len(axes)
    elif len(spacing) != len(axes):
        raise TypeError(f"Invalid number of spacing arguments {len(spacing)} for axis={axis}")
    grads = [_gradient_along(a, h, ax) for ax, h in zip(axes, spacing)]
    return grads[0] if len(axes) == 1 else grads
