"""numpy kernels of lax's special functions (incomplete gamma and beta, Hurwitz zeta, polygamma,
scaled Bessel I0/I1). Pure numpy (the browser has no scipy).

Every kernel computes in float64 with vectorised series or continued fractions and rounds once
to the caller's dtype, so float32 results are within an ulp or two of the exact value (XLA's
float32 loops are themselves a few ulps off it). The domain rules (which inputs give 0, 1, inf
or nan) follow XLA's / JAX's implementations case for case; they are written out next to each
kernel because they are part of the behaviour users see.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

_EPS = np.finfo(np.float64).eps
_TINY = 1e-300


def _f64(*xs):
    return [np.asarray(x, np.float64) for x in xs]


def _rounded(out, dtype):
    with np.errstate(over="ignore", under="ignore"):   # past float32's range: inf or 0, silently, as XLA
        return np.asarray(out, np.float64).astype(dtype)


# ---- gamma-function helpers in float64 ---------------------------------------------------------

_lgamma_vec = np.vectorize(lambda v: math.lgamma(v) if (v > 0 or v != math.floor(v)) else math.inf,
                           otypes=[np.float64])


def lgamma64(x):
    x = np.asarray(x, np.float64)
    if x.size == 0:
        return x.copy()
    out = np.full(x.shape, np.nan)
    finite = np.isfinite(x)
    out[finite] = _lgamma_vec(x[finite])
    out[np.isposinf(x) | np.isneginf(x)] = np.inf
    return out


def digamma64(x):
    """psi(x) to ~1e-15: recurrence up to x >= 10, then the asymptotic series; reflection below 0."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        neg = x < 0.5
        pole = neg & (x == np.floor(x))
        xr = np.where(neg, 1.0 - x, x)
        acc = np.zeros_like(xr)
        for _ in range(10):
            small = xr < 10
            acc = np.where(small, acc - 1.0 / xr, acc)
            xr = np.where(small, xr + 1.0, xr)
        f = 1.0 / (xr * xr)
        tail = f * (-1 / 12 + f * (1 / 120 + f * (-1 / 252 + f * (1 / 240 + f * (-1 / 132 + f * (691 / 32760 - f / 12))))))
        out = acc + np.log(xr) - 0.5 / xr + tail
        out = np.where(neg, out - np.pi / np.tan(np.pi * x), out)
        out = np.where(pole, np.nan, out)
    return out


# ---- Bernoulli numbers (exact, as fractions; also scipy.special.bernoulli) ----------------------

def bernoulli_numbers(n):
    """B_0..B_n with B_1 = +1/2 (scipy's convention), exact fractions (the Akiyama-Tanigawa table)."""
    a = [Fraction(0)] * (n + 1)
    out = []
    for m in range(n + 1):
        a[m] = Fraction(1, m + 1)
        for j in range(m, 0, -1):
            a[j - 1] = j * (a[j - 1] - a[j])
        out.append(a[0])
    return out


_B2K = [float(b) for b in bernoulli_numbers(40)[2::2]]   # B_2, B_4, ..., B_40


# ---- Hurwitz zeta and polygamma -----------------------------------------------------------------

def _zeta_positive_q(s, q):
    """zeta(s, q) for s > 1, q > 0 by Euler-Maclaurin summation: N direct terms, then the tail's
    integral, half term and Bernoulli corrections (all float64)."""
    n_direct = 12
    acc = np.zeros(np.broadcast(s, q).shape)
    for k in range(n_direct):
        acc = acc + (q + k) ** -s
    w = q + n_direct
    acc = acc + w ** (1.0 - s) / (s - 1.0) + 0.5 * w ** -s
    fact = 1.0   # (2j)!
    rising = s * w ** (-s - 1.0)   # s (s+1) ... (s+2j-2) w^(-s-2j+1), j = 1
    for j, b2j in enumerate(_B2K[:14], start=1):
        fact *= (2 * j - 1) * (2 * j)
        acc = acc + b2j / fact * rising
        rising = rising * (s + 2 * j - 1) * (s + 2 * j) / (w * w)
    return acc


def zeta(s, q, dtype):
    """Hurwitz zeta(s, q) as XLA: nan for s < 1, inf at s == 1 and at q a non-positive integer,
    nan for q <= 0 with s not an integer; for q < 0 otherwise the analytic continuation
    sum_{k < m} (q + k)^-s + zeta(s, q + m)."""
    s, q = _f64(s, q)
    s, q = np.broadcast_arrays(s, q)
    with np.errstate(all="ignore"):
        ok = (s > 1) & np.isfinite(q) & np.isfinite(s)
        ss, qs = np.where(ok, s, 2.0), np.where(ok, q, 1.0)
        # q <= 0 (s an integer there, else nan below): the c = ceil(-q) negative terms
        # (q + k)^-s = (-1)^s (b + j)^-s with b = 1 - (q + c) in (0, 1] sum to
        # (-1)^s (zeta(s, b) - zeta(s, b + c)); then r = q + c in [0, 1) and zeta(s, r + 1).
        # Closed form, not a loop over k: a loop of ceil(-q) steps hung at q = -3e38.
        neg = qs <= 0
        c = np.where(neg, np.ceil(-qs), 0.0)
        r = np.where(neg, qs + c, 1.0)
        b = np.where(neg, 1.0 - r, 1.0)
        sign = np.where(np.mod(ss, 2) == 0, 1.0, -1.0)
        cont = (sign * (_zeta_positive_q(ss, b) - _zeta_positive_q(ss, b + c))
                + np.where(r > 0, np.where(r > 0, r, 1.0) ** -ss, 0.0) + _zeta_positive_q(ss, r + 1.0))
        out = np.where(neg, cont, _zeta_positive_q(ss, qs))
        out = np.where(s == 1, np.inf, out)
        out = np.where(~np.isfinite(s) | ~np.isfinite(q), np.nan, out)
        int_q_pole = (q <= 0) & (q == np.floor(q))
        # at a pole q = 0, -1, ...: inf for an even s, nan for an odd one (the terms' signs alternate), as XLA
        out = np.where(int_q_pole & (s >= 1), np.where((s > 1) & (np.mod(s, 2) == 1), np.nan, np.inf), out)
        out = np.where((q <= 0) & (s != np.floor(s)), np.nan, out)
        out = np.where((s < 1) | np.isnan(s) | np.isnan(q), np.nan, out)
    return _rounded(out, dtype)


def polygamma(m, x, dtype):
    """psi^(m)(x): digamma for m == 0, else (-1)^(m+1) m! zeta(m+1, x); nan unless m is a
    non-negative integer (XLA's rule)."""
    m, x = _f64(m, x)
    m, x = np.broadcast_arrays(m, x)
    with np.errstate(all="ignore"):
        valid = (m >= 0) & (m == np.floor(m))
        mm = np.where(valid, m, 1.0)
        z = zeta(mm + 1.0, x, np.float64)
        sign = np.where(np.mod(mm, 2) == 0, -1.0, 1.0)
        out = sign * np.exp(lgamma64(mm + 1.0)) * z
        out = np.where(m == 0, digamma64(x), out)
        out = np.where(valid, out, np.nan)
    return _rounded(out, dtype)


# ---- regularized incomplete gamma -------------------------------------------------------------

_MAX_ITER = 5000


def _igamma_series(a, x, derivative=True):
    """P(a, x) = exp(a log x - x - lgamma(a+1)) * S, S = sum_n x^n / ((a+1)...(a+n)), with dS/da:
    returns (S, dS/da)."""
    term, dterm = np.ones_like(a), np.zeros_like(a)
    s, ds = np.ones_like(a), np.zeros_like(a)
    r = a.copy()
    for _ in range(_MAX_ITER):
        r = r + 1.0
        term = term * x / r
        dterm = dterm * x / r - term / r
        s, ds = s + term, ds + dterm
        unsettled = np.abs(term) > _EPS * np.abs(s)
        if derivative:
            unsettled |= np.abs(dterm) > _EPS * (np.abs(ds) + np.abs(s))   # (ds may cross zero)
        if not np.any(unsettled):
            break
    return s, ds


def _igammac_fraction(a, x, derivative=True):
    """Q(a, x) = exp(a log x - x - lgamma(a)) * h, h the continued fraction
    1/(x+1-a- 1(1-a)/(x+3-a- 2(2-a)/(x+5-a- ...))) by modified Lentz, with dh/da by forward
    differentiation of every step: returns (h, dh/da)."""
    b = x + 1.0 - a
    db = -np.ones_like(a)
    c = np.full_like(a, 1.0 / _TINY)
    dc = np.zeros_like(a)
    d = 1.0 / b
    dd = -db * d * d
    h, dh = d.copy(), dd.copy()
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        dan = np.full_like(a, float(i))
        b = b + 2.0
        den = an * d + b
        dden = dan * d + an * dd + db
        den = np.where(np.abs(den) < _TINY, _TINY, den)
        d_new = 1.0 / den
        dd = -dden * d_new * d_new
        d = d_new
        c_new = b + an / c
        dc = db + dan / c - an * dc / c / c
        c = np.where(np.abs(c_new) < _TINY, _TINY, c_new)
        delta = d * c
        ddelta = dd * c + d * dc
        step = h * ddelta + dh * (delta - 1.0)
        dh = dh + step
        h = h * delta
        unsettled = np.abs(delta - 1.0) > _EPS
        if derivative:   # the derivative converges more slowly than the value: wait for both
            unsettled |= np.abs(step) > _EPS * (np.abs(dh) + np.abs(h))   # (dh may cross zero)
        if not np.any(unsettled):
            break
    return h, dh


def _igamma_parts(a, x, dtype, derivative=True):
    """(a, x, P, Q, dP/da, sample derivative, enabled), with XLA's case split: the continued
    fraction where x >= 1 and x > a, else the series. Where the prefactor x^a e^-x / Gamma(a)
    underflows the dtype XLA's loops are disabled (P, Q, dP/da become 0 or 1), but the sample
    derivative -(dP/da) / density has no prefactor and stays exact there."""
    a, x = _f64(a, x)
    a, x = np.broadcast_arrays(a, x)
    shape = a.shape
    p, q, dp, sample = np.zeros(shape), np.zeros(shape), np.zeros(shape), np.zeros(shape)
    with np.errstate(all="ignore"):
        log_ax = a * np.log(x) - x - lgamma64(a)
        underflow = log_ax < -np.log(np.finfo(dtype).max)
        valid = (x > 0) & (a > 0) & np.isfinite(x) & np.isfinite(a)
        use_fraction = (x >= 1) & (x > a)
        ser = valid & ~use_fraction
        if ser.any():
            aa, xx = a[ser], x[ser]
            s, ds = _igamma_series(aa, xx, derivative)
            dlog = np.log(xx) - digamma64(aa + 1.0)
            pre = np.exp(aa * np.log(xx) - xx - lgamma64(aa + 1.0))
            p[ser], dp[ser] = pre * s, pre * (ds + s * dlog)
            q[ser] = 1.0 - p[ser]
            sample[ser] = -(ds + s * dlog) * xx / aa
        frac = valid & use_fraction
        if frac.any():
            aa, xx = a[frac], x[frac]
            h, dh = _igammac_fraction(aa, xx, derivative)
            dlog = np.log(xx) - digamma64(aa)
            pre = np.exp(log_ax[frac])
            q[frac], dp[frac] = pre * h, -pre * (dh + h * dlog)
            p[frac] = 1.0 - q[frac]
            sample[frac] = (dh + h * dlog) * xx
        enabled = valid & ~underflow
        off = ~enabled
        p[off] = np.where(use_fraction[off], 1.0, 0.0)
        q[off] = np.where(use_fraction[off], 0.0, 1.0)
        dp[off] = -0.0
    return a, x, p, q, dp, sample, enabled


def _igamma_domain(a, x):
    return (x < 0) | (a < 0) | ((a == 0) & (x == 0)) | np.isnan(a) | np.isnan(x)


def igamma(a, x, dtype):
    """P(a, x); XLA: 0 at x == 0, 1 at x == inf, nan for a == inf, for a == 0 on the series side
    (x < 1 or x <= a) and outside the domain."""
    a, x, p, _, _, _, _ = _igamma_parts(a, x, dtype, derivative=False)
    with np.errstate(all="ignore"):
        series_side = ~((x >= 1) & (x > a))
        out = np.where(np.isposinf(a) | ((a == 0) & series_side), np.nan, p)
        out = np.where(x == 0, 0.0, out)
        out = np.where(np.isposinf(x), 1.0, out)
        out = np.where(_igamma_domain(a, x), np.nan, out)
    return _rounded(out, dtype)


def igammac(a, x, dtype):
    """Q(a, x); XLA: 1 at x == 0, 0 at x == inf or a == 0, nan for a == inf and outside the domain."""
    a, x, _, q, _, _, _ = _igamma_parts(a, x, dtype, derivative=False)
    with np.errstate(all="ignore"):
        out = np.where(np.isposinf(a), np.nan, q)
        out = np.where(x == 0, 1.0, out)
        out = np.where(np.isposinf(x) | (a == 0), 0.0, out)
        out = np.where(_igamma_domain(a, x), np.nan, out)
    return _rounded(out, dtype)


def _derivative_edges(out, a, x):
    """XLA's rules for igamma_grad_a and random_gamma_grad: 0 at x == 0; nan for x < 0, a <= 0,
    nan input, and where a or x is infinite."""
    out = np.where(np.isposinf(x) | np.isposinf(a), np.nan, out)
    out = np.where(x == 0, 0.0, out)
    return np.where((x < 0) | (a <= 0) | np.isnan(a) | np.isnan(x), np.nan, out)


def igamma_grad_a(a, x, dtype):
    """dP(a, x)/da."""
    a, x, _, _, dp, _, _ = _igamma_parts(a, x, dtype)
    with np.errstate(all="ignore"):
        out = _derivative_edges(dp, a, x)
    return _rounded(out, dtype)


def random_gamma_grad(a, x, dtype):
    """d(sample)/d(alpha) of a Gamma(alpha, 1) sample x, by implicit differentiation of
    P(alpha, x) = u: -(dP/da) / (dP/dx)."""
    a, x, _, _, _, sample, _ = _igamma_parts(a, x, dtype)
    with np.errstate(all="ignore"):
        out = _derivative_edges(sample, a, x)
    return _rounded(out, dtype)


# ---- regularized incomplete beta ---------------------------------------------------------------

def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (DLMF 8.17.22) by modified Lentz."""
    c = np.ones_like(x)
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    h = d.copy()
    for m in range(1, _MAX_ITER):
        for num in (m * (b - m) * x / ((a + 2 * m - 1.0) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1.0))):
            d = 1.0 + num * d
            d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
            c = 1.0 + num / c
            c = np.where(np.abs(c) < _TINY, _TINY, c)
            delta = d * c
            h = h * delta
        if not np.any(np.abs(delta - 1.0) > _EPS):
            break
    return h


def betainc(a, b, x, dtype):
    """I_x(a, b), with XLA's edge rules: 0/1 when a or b is 0 or inf, nan outside 0 <= x <= 1,
    for negative a or b, for a == b == 0 and for nan input."""
    a, b, x = _f64(a, b, x)
    a, b, x = np.broadcast_arrays(a, b, x)
    out = np.zeros(a.shape)
    with np.errstate(all="ignore"):
        a_zero = (a == 0) | np.isposinf(b)
        b_zero = (b == 0) | np.isposinf(a)
        is_nan = np.isnan(a) | np.isnan(b) | np.isnan(x)
        bad = (a < 0) | (b < 0) | (x < 0) | (x > 1) | (a_zero & b_zero) | is_nan
        live = ~(a_zero | b_zero | bad) & (x > 0) & (x < 1)
        if live.any():
            aa, bb, xx = a[live], b[live], x[live]
            direct = xx < (aa + 1.0) / (aa + bb + 2.0)
            a1, b1 = np.where(direct, aa, bb), np.where(direct, bb, aa)
            x1 = np.where(direct, xx, 1.0 - xx)
            log_front = a1 * np.log(x1) + b1 * np.log1p(-x1) - (lgamma64(a1) + lgamma64(b1) - lgamma64(a1 + b1))
            val = np.exp(log_front) / a1 * _beta_fraction(a1, b1, x1)
            out[live] = np.where(direct, val, 1.0 - val)
        out = np.where(~live & (x >= 1), 1.0, out)   # x == 1 (a, b > 0)
        out = np.where((b_zero & (x != 1)) | (a_zero & (x == 0)), 0.0, out)
        out = np.where((a_zero & (x != 0)) | (b_zero & (x == 1)), 1.0, out)
        out = np.where(bad, np.nan, out)
    return _rounded(out, dtype)


# ---- exponentially scaled modified Bessel functions I0, I1 -------------------------------------

def _bessel_ie(order, x):
    """exp(-|x|) I_order(|x|) in float64: the power series (all terms positive, so no cancellation)
    up to |x| = 40, the large-argument expansion beyond."""
    ax = np.abs(x)
    out = np.zeros_like(ax)
    with np.errstate(all="ignore"):
        small = ax <= 40
        if small.any():
            xs = ax[small]
            q = xs * xs / 4
            term = np.ones_like(xs) if order == 0 else xs / 2
            acc = term.copy()
            for k in range(1, 200):
                term = term * q / (k * (k + order))
                acc = acc + term
            out[small] = acc * np.exp(-xs)
        big = ~small
        if big.any():
            xb = ax[big]
            mu = 4.0 * order * order
            term = np.ones_like(xb)
            acc = term.copy()
            for k in range(1, 30):
                term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * xb)
                acc = acc + term
            out[big] = np.where(np.isposinf(xb), 0.0, acc / np.sqrt(2 * np.pi * xb))
    return out


def bessel_i0e(x, dtype):
    (x,) = _f64(x)
    return _rounded(_bessel_ie(0, x), dtype)


def bessel_i1e(x, dtype):
    (x,) = _f64(x)
    return _rounded(np.sign(x) * _bessel_ie(1, x), dtype)
