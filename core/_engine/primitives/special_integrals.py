"""numpy kernels of jax.scipy.special's integral functions: exponential integrals (expn, exp1,
expi), sine/cosine integrals (sici), Dawson's integral, Spence's dilogarithm, Owen's T.

Each computes in float64 and rounds once to the caller's dtype (float32 results within an ulp
or two of the exact value). Where JAX 0.10.2 returns nan or inf at an edge (expi(0), expn(n, inf),
...), the kernel says so in its docstring and returns the same: a learner comparing with JAX sees
JAX's answer.
"""
from __future__ import annotations

import numpy as np

_EULER = 0.57721566490153286061
_EPS = np.finfo(np.float64).eps


def _f64(*xs):
    return np.broadcast_arrays(*[np.asarray(x, np.float64) for x in xs])


def _round(out, dtype):
    with np.errstate(over="ignore"):   # beyond the dtype's range: inf, as JAX's
        return np.asarray(out, np.float64).astype(dtype)


# ---- exponential integrals --------------------------------------------------------------------

def _expn_series(n, x):
    """E_n(x) for 0 < x <= 1 (n >= 1): the series with the digamma term (Abramowitz & Stegun 5.1.12)."""
    out = np.empty_like(x)
    for nn in np.unique(n):
        sel = n == nn
        xs = x[sel]
        nn = int(nn)
        psi = -_EULER + sum(1.0 / k for k in range(1, nn))
        acc = (-np.log(xs) + psi) * (-xs) ** (nn - 1) / np.prod(np.arange(1, nn, dtype=np.float64))
        if nn != 1:
            acc = acc + 1.0 / (nn - 1)
        fact = np.ones_like(xs)
        for m in range(1, 400):
            fact = fact * (-xs / m)
            if m == nn - 1:
                continue
            term = -fact / (m - nn + 1)
            acc = acc + term
            if np.all(np.abs(term) <= _EPS * np.abs(acc)):
                break
        out[sel] = acc
    return out


def _expn_fraction(n, x):
    """E_n(x) for x > 1: the continued fraction e^-x / (x + n - 1n/(x + n + 2 - ...)), modified Lentz."""
    b = x + n
    c = np.full_like(x, 1e300)
    d = 1.0 / b
    h = d.copy()
    for i in range(1, 2000):
        an = -i * (n - 1.0 + i)
        b = b + 2.0
        d = 1.0 / (an * d + b)
        c = b + an / c
        delta = c * d
        h = h * delta
        if np.all(np.abs(delta - 1.0) <= _EPS):
            break
    return h * np.exp(-x)


def expn_values(n, x):
    """E_n(x) for integer n >= 0 and x >= 0 (float64), inf at x == 0 for n <= 1."""
    n, x = _f64(n, x)
    out = np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        zero = x == 0
        out[zero] = np.where(n[zero] <= 1, np.inf, 1.0 / (n[zero] - 1.0))
        n0 = (n == 0) & (x > 0)
        out[n0] = np.exp(-x[n0]) / x[n0]
        ser = (n >= 1) & (x > 0) & (x <= 1)
        if ser.any():
            out[ser] = _expn_series(n[ser], x[ser])
        frac = (n >= 1) & (x > 1) & np.isfinite(x)
        if frac.any():
            out[frac] = _expn_fraction(n[frac], x[frac])
    return out


def expn(n, x, dtype):
    """JAX's domain: nan unless n is a non-negative integer and 0 <= x < inf (expn(n, inf) is nan
    in JAX 0.10.2, not 0)."""
    n, x = _f64(n, x)
    with np.errstate(all="ignore"):
        ok = (n >= 0) & (n == np.floor(n)) & (x >= 0) & np.isfinite(x)
        out = np.full(x.shape, np.nan)
        if ok.any():
            out[ok] = expn_values(n[ok], x[ok])
    return _round(out, dtype)


def _ei_positive(x):
    """Ei(x), x > 0: the power series gamma + ln x + sum x^k/(k k!) (all terms positive) up to
    x = 40, the asymptotic e^x/x sum k!/x^k beyond."""
    out = np.empty_like(x)
    small = x <= 40
    xs = x[small]
    term = np.ones_like(xs)
    acc = np.zeros_like(xs)
    for k in range(1, 200):
        term = term * xs / k
        acc = acc + term / k
    out[small] = _EULER + np.log(xs) + acc
    xb = x[~small]
    with np.errstate(over="ignore"):
        term = np.ones_like(xb)
        acc = np.ones_like(xb)
        for k in range(1, 40):
            term = term * k / xb
            acc = acc + term
        out[~small] = np.exp(xb) / xb * acc
    return out


def expi(x, dtype):
    """Ei(x); Ei(x) = -E_1(-x) for x < 0. JAX 0.10.2 returns nan at 0, -inf and +inf."""
    (x,) = _f64(x)
    out = np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        pos = (x > 0) & np.isfinite(x)
        if pos.any():
            out[pos] = _ei_positive(x[pos])
        neg = (x < 0) & np.isfinite(x)
        if neg.any():
            out[neg] = -expn_values(np.ones(int(neg.sum())), -x[neg])
    return _round(out, dtype)


# ---- sine and cosine integrals ---------------------------------------------------------------

def _sici_positive(x):
    """(Si(x), Ci(x)) for 0 < x < inf: power series below 4, the complex continued fraction of
    E_1(ix) above (Ci + i(Si - pi/2) = -E_1(ix))."""
    si, ci = np.empty_like(x), np.empty_like(x)
    small = x <= 4
    xs = x[small]
    if xs.size:
        x2 = -xs * xs
        term = xs.copy()          # x^(2k+1)/(2k+1)! with sign
        s_acc = xs.copy()
        cterm = np.ones_like(xs)  # x^(2k)/(2k)! with sign
        c_acc = np.zeros_like(xs)
        for k in range(1, 60):
            term = term * x2 / ((2 * k) * (2 * k + 1))
            s_acc = s_acc + term / (2 * k + 1)
            cterm = cterm * x2 / ((2 * k - 1) * (2 * k))
            c_acc = c_acc + cterm / (2 * k)
        si[small] = s_acc
        ci[small] = _EULER + np.log(xs) + c_acc
    xb = x[~small]
    if xb.size:
        z = 1j * xb
        b = z + 1.0
        c = np.full(xb.shape, 1e300 + 0j)
        d = 1.0 / b
        h = d.copy()
        for i in range(1, 500):
            an = -float(i * i)
            b = b + 2.0
            d = 1.0 / (an * d + b)
            c = b + an / c
            delta = c * d
            h = h * delta
            if np.all(np.abs(delta - 1.0) <= _EPS):
                break
        e1 = h * np.exp(-z)       # E_1(ix)
        ci[~small] = -e1.real            # E_1(ix) = -Ci(x) + i (Si(x) - pi/2)
        si[~small] = np.pi / 2 + e1.imag
    return si, ci


def _sici(x):
    si, ci = np.full(x.shape, np.nan), np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        fin = np.isfinite(x) & (x != 0)
        if fin.any():
            s, c = _sici_positive(ax[fin])
            si[fin] = np.sign(x[fin]) * s
            ci[fin] = c
        si[x == 0] = 0.0
        ci[x == 0] = -np.inf
        inf = np.isinf(x)
        si[inf] = np.sign(x[inf]) * np.pi / 2
        ci[np.isposinf(x)] = 0.0           # (Ci(-inf) stays nan, as JAX's)
    return si, ci


def si(x, dtype):
    """Si(x); +-pi/2 at +-inf."""
    return _round(_sici(_f64(x)[0])[0], dtype)


def ci(x, dtype):
    """Ci(x) = gamma + ln|x| + int_0^x (cos t - 1)/t dt (real for negative x, as scipy and JAX);
    -inf at 0, 0 at +inf, nan at -inf."""
    return _round(_sici(_f64(x)[0])[1], dtype)


# ---- Dawson's integral ------------------------------------------------------------------------

def dawsn(x, dtype):
    """F(x) = e^(-x^2) int_0^x e^(t^2) dt: e^(-x^2) sum x^(2k+1)/(k! (2k+1)) (positive terms) up
    to |x| = 10, the asymptotic 1/(2x) sum (2k-1)!!/(2x^2)^k beyond."""
    (x,) = _f64(x)
    out = np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        small = ax <= 10
        xs = ax[small]
        x2 = xs * xs
        term = xs.copy()
        acc = xs.copy()
        for k in range(1, 400):
            term = term * x2 / k
            acc = acc + term / (2 * k + 1)
        out[small] = np.exp(-x2) * acc
        big = (ax > 10) & np.isfinite(ax)
        xb = ax[big]
        inv = 1.0 / (2 * xb * xb)
        term = np.ones_like(xb)
        acc = np.ones_like(xb)
        for k in range(1, 60):
            term = term * (2 * k - 1) * inv
            acc = acc + term
        out[big] = acc / (2 * xb)
        out[np.isinf(x)] = 0.0
        out = np.copysign(out, np.where(np.isnan(x), 1.0, x))
    return _round(out, dtype)


# ---- Spence's function (the dilogarithm of 1 - x) ---------------------------------------------

def _dilog_series(u):
    """Li2(u) for |u| <= 1/2: sum u^k / k^2."""
    term = u.copy()
    acc = u.copy()
    for k in range(2, 80):
        term = term * u
        acc = acc + term / (k * k)
    return acc


def spence(x, dtype):
    """scipy's spence(x) = int_1^x log(t)/(1-t) dt = Li2(1 - x); nan for x < 0 and at +inf
    (JAX 0.10.2), pi^2/6 at 0. Li2 through the reflection and inversion identities so that
    the series argument stays within |u| <= 1/2."""
    (x,) = _f64(x)
    out = np.full(x.shape, np.nan)
    pi2_6 = np.pi ** 2 / 6
    with np.errstate(all="ignore"):
        u = 1.0 - x                      # spence(x) = Li2(u)
        ok = (x >= 0) & np.isfinite(x)
        # regions of u: [-1/2... ]: u in [-1, 1/2] series or transforms
        r1 = ok & (np.abs(u) <= 0.5)
        out[r1] = _dilog_series(u[r1])
        r2 = ok & (u > 0.5) & (u <= 1)   # Li2(u) = pi^2/6 - ln u ln(1-u) - Li2(1-u)
        uu = u[r2]
        out[r2] = np.where(uu == 1, pi2_6, pi2_6 - np.log(uu) * np.log1p(-uu) - _dilog_series(1 - uu))
        r3 = ok & (u < -0.5) & (u >= -1)  # Li2(u) = -Li2(u/(u-1)) - ln(1-u)^2 / 2, u/(u-1) in [1/3, 1/2]
        uu = u[r3]
        out[r3] = -_dilog_series(uu / (uu - 1)) - 0.5 * np.log1p(-uu) ** 2
        r4 = ok & (u < -1)                # Li2(u) = -pi^2/6 - ln(-u)^2/2 - Li2(1/u), 1/u in (-1, 0)
        uu = u[r4]
        w = 1.0 / uu
        inner = np.where(np.abs(w) <= 0.5, _dilog_series(w), -_dilog_series(w / (w - 1)) - 0.5 * np.log1p(-w) ** 2)
        out[r4] = -pi2_6 - 0.5 * np.log(-uu) ** 2 - inner
    return _round(out, dtype)


# ---- Owen's T function --------------------------------------------------------------------------

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(48)


def _owens_quadrature(h, a):
    """T(h, a) for 0 <= a <= 1: Gauss-Legendre on (1/2pi) int_0^a exp(-h^2 (1+t^2)/2)/(1+t^2) dt."""
    t = (_GL_NODES[:, None] + 1.0) * 0.5 * a[None, :]
    f = np.exp(-0.5 * h[None, :] ** 2 * (1 + t * t)) / (1 + t * t)
    return 0.5 * a * (_GL_WEIGHTS[:, None] * f).sum(0) / (2 * np.pi)


def _ndtr(x):
    from math import erfc
    return 0.5 * np.vectorize(erfc, otypes=[np.float64])(-x / np.sqrt(2)) if x.size else x.copy()


def owens_t(h, a, dtype):
    """T(h, a), even in h and odd in a; for |a| > 1 Owen's identity
    T(h, a) = (Phi(h) Q(ah) + Phi(ah) Q(h)) / 2 - T(ah, 1/a) with Q = 1 - Phi."""
    h, a = _f64(h, a)
    out = np.full(h.shape, np.nan)
    with np.errstate(all="ignore"):
        ah_, aa = np.abs(h), np.abs(a)
        ok = ~(np.isnan(h) | np.isnan(a))
        inner = ok & (aa <= 1) & np.isfinite(ah_)
        out[inner] = _owens_quadrature(ah_[inner], aa[inner])
        outer = ok & (aa > 1) & np.isfinite(ah_)
        if outer.any():
            hh, av = ah_[outer], aa[outer]
            ahh = np.where(np.isinf(av), np.inf, av * hh)
            phi_h, phi_ah = _ndtr(hh), _ndtr(ahh)
            q_h, q_ah = _ndtr(-hh), _ndtr(-ahh)
            inv = np.where(np.isinf(av), 0.0, 1.0 / av)
            tail = np.where(np.isinf(ahh), 0.0, _owens_quadrature(np.where(np.isinf(ahh), 0.0, ahh), inv))
            out[outer] = 0.5 * (phi_h * q_ah + phi_ah * q_h) - tail
        out[ok & np.isinf(h)] = 0.0
        out = np.where(ok, np.sign(a) * out, np.nan)
    return _round(out, dtype)


# ---- Fresnel integrals ------------------------------------------------------------------------------

def _fresnel_positive(x):
    """(S(x), C(x)) for 0 <= x < inf: the power series of int_0^x exp(i pi t^2 / 2) dt below 1.5;
    above, C + iS = (1+i)/2 (1 - erfc(z)), z = sqrt(pi)/2 (1-i) x, with erfc(z) = exp(-z^2) w(iz)
    and Faddeeva's w from its continued fraction (evaluated backward, 400 terms)."""
    s, c = np.empty_like(x), np.empty_like(x)
    small = x < 1.5
    xs = x[small]
    t = np.pi / 2 * xs * xs
    term = xs.copy()                    # t^k x / k!
    s_acc, c_acc = np.zeros_like(xs), np.zeros_like(xs)
    for k in range(60):
        if k:
            term = term * t / k
        part = (-1) ** (k // 2) * term / (2 * k + 1)
        if k % 2:
            s_acc = s_acc + part
        else:
            c_acc = c_acc + part
    s[small], c[small] = s_acc, c_acc
    xb = x[~small]
    z = np.sqrt(np.pi) / 2 * (1 - 1j) * xb
    u = 1j * z
    frac = u.copy()
    for k in range(400, 0, -1):
        frac = u - (k / 2) / frac
    erfc = np.exp(-z * z) * (1j / (np.sqrt(np.pi) * frac))
    value = (1 + 1j) / 2 * (1 - erfc)
    s[~small], c[~small] = value.imag, value.real
    return s, c


def _fresnel(x):
    s, c = np.full(x.shape, np.nan), np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        fin = np.isfinite(x)
        sp, cp = _fresnel_positive(np.abs(x[fin]))
        sign = np.sign(x[fin])
        s[fin], c[fin] = sign * sp, sign * cp
        inf = np.isinf(x)
        s[inf] = c[inf] = np.sign(x[inf]) * 0.5
    return s, c


def fresnel_s(x, dtype):
    """S(x) = int_0^x sin(pi t^2 / 2) dt (odd; +-1/2 at +-inf)."""
    return _round(_fresnel(_f64(x)[0])[0], dtype)


def fresnel_c(x, dtype):
    """C(x) = int_0^x cos(pi t^2 / 2) dt (odd; +-1/2 at +-inf)."""
    return _round(_fresnel(_f64(x)[0])[1], dtype)


# ---- Faddeeva function ----------------------------------------------------------------------------

def _faddeeva_upper(z):
    """w(z) for Im z >= 0: its Taylor series sum (iz)^n / Gamma(n/2 + 1) for |z| < 4.2, the
    Laplace continued fraction (400 terms, backward) beyond. Near the real axis at |z| ~ 4.2
    both are good to ~1e-6 relative, elsewhere to ~1e-12."""
    from math import lgamma
    out = np.empty_like(z)
    small = np.abs(z) < 4.2
    zs = z[small]
    acc = np.zeros_like(zs)
    power = np.ones_like(zs)
    for n in range(160):
        acc = acc + power * np.exp(-lgamma(n / 2 + 1))
        power = power * (1j * zs)
    out[small] = acc
    zb = z[~small]
    frac = zb.copy()
    for k in range(400, 0, -1):
        frac = zb - (k / 2) / frac
    out[~small] = 1j / (np.sqrt(np.pi) * frac)
    return out


def wofz(z, dtype):
    """w(z) = exp(-z^2) erfc(-iz); below the real axis w(z) = 2 exp(-z^2) - w(-z)."""
    z = np.asarray(z, np.complex128)
    out = np.full(z.shape, np.nan + 0j)
    with np.errstate(all="ignore"):
        fin = np.isfinite(z)
        upper = fin & (z.imag >= 0)
        out[upper] = _faddeeva_upper(z[upper])
        lower = fin & (z.imag < 0)
        zl = z[lower]
        out[lower] = 2 * np.exp(-zl * zl) - _faddeeva_upper(-zl)
        return out.astype(dtype)
