"""`jax.scipy.special`: special functions on jax arrays (inputs promote to inexact, as in JAX)."""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from ...base.dtypes import dtype_name  # the emulated bfloat16 named bfloat16 in messages, as JAX's
from ...lax import lax
from .. import numpy as jnp
from ..nn import logsumexp, log_softmax, softmax  # noqa: F401  (JAX exports these here too)
from ...api.api import custom_jvp as _custom_jvp  # INHERENT: up to the api


def _inexact(name, *args):
    return jnp._promote_args_inexact(name, *args)


def erf(x):
    (x,) = _inexact("erf", x)
    return lax.erf(x)


def erfc(x):
    (x,) = _inexact("erfc", x)
    return lax.erfc(x)


def erfinv(x):
    (x,) = _inexact("erfinv", x)
    return lax.erf_inv(x)


def expit(x):
    (x,) = _inexact("expit", x)
    return lax.logistic(x)


def logit(x):
    (x,) = _inexact("logit", x)
    return lax.log(lax.div(x, lax.sub(lax._one(x), x)))


def gammaln(x):
    (x,) = _inexact("gammaln", x)
    return lax.lgamma(x)


def digamma(x):
    (x,) = _inexact("digamma", x)
    return lax.digamma(x)


def xlogy(x, y):
    x, y = _inexact("xlogy", x, y)
    return jnp.where(x == 0, jnp.zeros_like(x), x * lax.log(y))


def xlog1py(x, y):
    x, y = _inexact("xlog1py", x, y)
    return jnp.where(x == 0, jnp.zeros_like(x), x * lax.log1p(y))


def entr(x):
    (x,) = _inexact("entr", x)
    return jnp.where(x > 0, -xlogy(x, x), jnp.where(x == 0, jnp.zeros_like(x), -jnp.inf))


def ndtr(x):
    (x,) = _inexact("ndtr", x)
    half = lax._const(x, 0.5)
    return half * lax.erfc(-x * lax._const(x, 0.7071067811865476))


# ---- gamma-function family (lgamma-based, so grad/jit/vmap compose) -------------------------

def gammasgn(x):
    (x,) = _inexact("gammasgn", x)
    if x.dtype.kind == "c":
        raise ValueError("gammasgn does not support complex-valued inputs.")
    floor_x = lax.floor(x)
    negative = x < 0
    nan_at = (negative & (x == floor_x)) | jnp.isnan(x)          # poles, and NaN in
    minus_at = (negative & (floor_x % 2 != 0)) | ((x == 0) & jnp.signbit(x))
    return jnp.select([nan_at, minus_at], [jnp.array(jnp.nan, x.dtype), jnp.array(-1.0, x.dtype)],
                      jnp.array(1.0, x.dtype))


def gamma(x):
    (x,) = _inexact("gamma", x)
    if x.dtype.kind == "c":
        raise NotImplementedError("jax.scipy.special.gamma of complex input is not supported by gradpad")
    return gammasgn(x) * lax.exp(lax.lgamma(x))


def loggamma(x):
    (x,) = _inexact("loggamma", x)
    if x.dtype.kind == "c":
        raise NotImplementedError("jax.scipy.special.loggamma of complex input is not supported by gradpad")
    return jnp.where(x > 0, lax.lgamma(x), jnp.nan)


def betaln(a, b):
    a, b = _inexact("betaln", a, b)
    return lax.lgamma(a) + lax.lgamma(b) - lax.lgamma(a + b)


def beta(a, b):
    a, b = _inexact("beta", a, b)
    if a.dtype.kind == "c":
        raise ValueError("beta does not support complex-valued inputs.")
    return gammasgn(a) * gammasgn(b) * gammasgn(a + b) * lax.exp(betaln(a, b))


def factorial(n, exact=False):
    if exact:
        raise NotImplementedError("factorial with exact=True")
    (n,) = _inexact("factorial", n)
    return jnp.where(n < 0, 0, lax.exp(lax.lgamma(n + 1)))


def comb(N, k, *, exact=False, repetition=False):
    if exact:
        raise NotImplementedError("comb with exact=True")
    N, k = _inexact("comb", N, k)
    if repetition:
        return jnp.where((k == 0) & (N >= 0), 1.0, comb(N + k - 1, k))
    valid = (k <= N) & (N >= 0) & (k >= 0)
    safe_n, safe_k = jnp.where(valid, N, 0.0), jnp.where(valid, k, 0.0)
    out = lax.exp(lax.lgamma(safe_n + 1) - lax.lgamma(safe_k + 1) - lax.lgamma(safe_n + 1 - safe_k))
    return jnp.where(valid, out, 0.0)


def poch(z, m):
    z, m = _inexact("poch", z, m)
    if z.dtype.kind == "c":
        raise ValueError("jnp.poch does not support complex-valued inputs.")
    return jnp.where(m == 0.0, jnp.array(1, dtype=z.dtype), gamma(z + m) / gamma(z))


def multigammaln(a, d):
    import operator
    d = operator.index(jnp._concrete(d, "multigammaln"))
    a, d_ = _inexact("multigammaln", a, d)
    constant = 0.25 * d_ * (d_ - 1) * lax.log(lax._const(a, np.pi))
    halves = jnp.arange(d, dtype=d_.dtype) / 2
    return jnp.sum(lax.lgamma(jnp.expand_dims(a, -1) - halves), axis=-1) + constant


# ---- entropies and transforms --------------------------------------------------------------

def rel_entr(p, q):
    p, q = _inexact("rel_entr", p, q)
    if p.dtype.kind == "c":
        raise ValueError("rel_entr does not support complex-valued inputs.")
    both_positive = (p > 0) & (q > 0)
    p_zero = (p == 0) & (q >= 0)
    safe_p, safe_q = jnp.where(both_positive, p, 1), jnp.where(both_positive, q, 1)
    value = safe_p * lax.log(safe_p) - xlogy(safe_p, safe_q)
    return jnp.where(both_positive, value, jnp.where(p_zero, 0.0, np.inf).astype(p.dtype))


def kl_div(p, q):
    p, q = _inexact("kl_div", p, q)
    if p.dtype.kind == "c":
        raise ValueError("kl_div does not support complex-valued inputs.")
    return rel_entr(p, q) - p + q


def boxcox(x, lmbda):
    x, lmbda = _inexact("boxcox", x, lmbda)
    safe = jnp.where(lmbda == 0, 1, lmbda)
    return jnp.where(lmbda == 0, lax.log(x), lax.expm1(safe * lax.log(x)) / safe)


def boxcox1p(x, lmbda):
    x, lmbda = _inexact("boxcox1p", x, lmbda)
    safe = jnp.where(lmbda == 0, 1, lmbda)
    return jnp.where(lmbda == 0, lax.log1p(x), lax.expm1(safe * lax.log1p(x)) / safe)


# ---- normal-distribution helpers ------------------------------------------------------------

def ndtri(p):
    (p,) = _inexact("ndtri", p)
    if p.dtype not in (np.float32, np.float64):
        raise TypeError(f"x.dtype={p.dtype} is not supported, see docstring for supported types.")
    return _ndtri_cephes(p)


# ndtri by Cephes' rational approximations (S. Moshier's ndtri.c), as JAX evaluates them. The old
# sqrt(2) * erf_inv(2p - 1) lost everything below p ~ 3e-8 in float32 (2p - 1 rounds to -1: ndtri(1e-10)
# was -inf, not -6.36; a TruncatedNormal's sampler in a far tail gave only -inf). Central region
# |p - 1/2| < 1/2 - e^-2: x = sqrt(2 pi) (w + w^3 R0(w^2)), w = p - 1/2; tails: z = sqrt(-2 log p'),
# x = z - log(z)/z - R(1/z)/z, with R1 for z < 8 and R2 beyond; p' = min(p, 1 - p), sign by side.
_NDTRI_R0 = ((-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
              1.39312609387279679503E1, -1.23916583867381258016E0),
             (1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
              -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
              1.59056225126211695515E1, -1.18331621121330003142E0))
_NDTRI_R1 = ((4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
              4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
              -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4),
             (1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
              1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
              -3.80806407691578277194E-2, -9.33259480895457427372E-4))
_NDTRI_R2 = ((3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
              1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
              3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9),
             (1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
              2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
              2.89247864745380683936E-6, 6.79019408009981274425E-9))


def _rational(coeffs, v):
    """P(v) / Q(v), each by Horner's rule from 0 (jnp.polyval's order), coefficients in v's dtype."""
    dt = v.dtype.type
    num, den = jnp.zeros_like(v), jnp.zeros_like(v)
    for c in coeffs[0]:
        num = num * v + dt(c)
    for c in coeffs[1]:
        den = den * v + dt(c)
    return num / den


def _ndtri_cephes(p):
    dt = p.dtype.type
    upper = p > dt(-np.expm1(-2.0))                    # p > 1 - e^-2: work with 1 - p
    q = jnp.where(upper, dt(1.0) - p, p)
    q = jnp.where(q == dt(0.0), jnp.full_like(q, 0.5), q)   # p = 0 or 1: any finite stand-in
    w = q - dt(0.5)
    ww = lax.square(w)
    central = (w + w * ww * _rational(_NDTRI_R0, ww)) * -dt(np.sqrt(2.0 * np.pi))
    z = lax.sqrt(dt(-2.0) * lax.log(q))
    lead = z - lax.log(z) / z
    inv_z = 1 / z
    far = lead - _rational(_NDTRI_R2, inv_z) / z
    near = lead - _rational(_NDTRI_R1, inv_z) / z
    x = jnp.where(q > dt(np.exp(-2.0)), central, jnp.where(z >= dt(8.0), far, near))
    x = jnp.where(p > dt(1.0 - np.exp(-2.0)), x, -x)
    inf = jnp.full_like(x, np.inf)
    return jnp.where(p == dt(0.0), -inf, jnp.where(p == dt(1.0), inf, x))


# log_ndtr's segments by dtype, as JAX 0.10.2's: the asymptotic series below `low`, log(ndtr(x)) up to
# `high`, and -ndtr(-x) (log(1 - e) ~ -e) above, where log(ndtr) has rounded to 0 (float32 at x = 6:
# log(ndtr) is 0, the answer -9.87e-10)
_LOG_NDTR_SEGMENTS = {np.dtype(np.float32): (-10.0, 5.0), np.dtype(np.float64): (-20.0, 8.0)}
_LOG_SQRT_2PI = float(np.log(np.sqrt(2 * np.pi)))


def _ndtr_by_parts(x):
    """ndtr as log_ndtr evaluates it: 0.5 (1 + erf(w)) near 0, erfc's tails (2 - erfc on the right)."""
    dt = x.dtype.type
    half_sqrt2 = dt(0.5) * np.sqrt(dt(2.0))
    w = x * half_sqrt2
    z = lax.abs(w)
    tails = lax.select(w > dt(0.0), dt(2.0) - lax.erfc(z), lax.erfc(z))
    return dt(0.5) * lax.select(z < half_sqrt2, dt(1.0) + lax.erf(w), tails)


def _log_ndtr_series(x, series_order):
    """log Phi(x) for x << -1: log(phi(x) / -x) + log(1 - 1/x^2 + 3/x^4 - ...) (series_order terms)."""
    dt = x.dtype.type
    x2 = lax.square(x)
    log_scale = -dt(0.5) * x2 - lax.log(-x) - dt(0.5 * np.log(2.0 * np.pi))
    if series_order <= 0:
        return log_scale + lax.log(np.array(1, dt))
    odd, even = jnp.zeros_like(x), jnp.zeros_like(x)
    power = x2
    double_factorial = 1
    for n in range(1, series_order + 1):
        double_factorial *= 2 * n - 1            # (2n - 1)!!
        term = np.array(double_factorial, dt) / power
        if n % 2:
            odd = odd + term
        else:
            even = even + term
        power = power * x2
    return log_scale + lax.log(dt(1.0) + even - odd)


def _log_ndtr_impl(series_order, dtype, x):
    x = jnp.asarray(x, dtype)       # (a JVP's primal may arrive as a Python float)
    low, high = _LOG_NDTR_SEGMENTS[dtype]
    low, high = np.array(low, x.dtype), np.array(high, x.dtype)
    right = x > high
    # one ndtr for both outer segments; the series gets min(x, low) so that its unpicked branch
    # stays finite at x = 0 (a select's gradient multiplies the unpicked branch's by 0)
    p = _ndtr_by_parts(jnp.where(right, -x, lax.max(x, low)))
    return jnp.where(right, -p, jnp.where(x > low, lax.log(p), _log_ndtr_series(lax.min(x, low), series_order)))


@partial(_custom_jvp, nondiff_argnums=(0, 1))
def _log_ndtr(series_order, dtype, x):
    return _log_ndtr_impl(series_order, dtype, x)


@_log_ndtr.defjvp
def _log_ndtr_jvp(series_order, dtype, primals, tangents):
    # d/dx log Phi(x) = phi(x) / Phi(x), one formula over every segment (no seams at the cut points)
    (x,), (t,) = primals, tangents
    x = jnp.asarray(x, dtype)
    ans = _log_ndtr(series_order, dtype, x)
    log_phi = lax.sub(lax.mul(lax._const(x, -0.5), lax.square(x)), lax._const(x, _LOG_SQRT_2PI))
    return ans, lax.mul(t, lax.exp(lax.sub(log_phi, ans)))


def log_ndtr(x, series_order=3):
    """log Phi(x), as JAX computes it: float32 and float64 only, segments by dtype (see above), the
    derivative phi(x) / Phi(x) (a custom JVP)."""
    if not isinstance(series_order, int):
        raise TypeError("series_order must be a Python integer.")
    if series_order < 0:
        raise ValueError("series_order must be non-negative.")
    if series_order > 30:
        raise ValueError("series_order must be <= 30.")
    x = jnp.asarray(x)
    if x.dtype not in _LOG_NDTR_SEGMENTS:
        raise TypeError(f"x.dtype={dtype_name(np.dtype(x.dtype))} is not supported.")
    return _log_ndtr(series_order, x.dtype, x)


def erfcx(x):
    """exp(x^2) erfc(x); beyond x = 5 the asymptotic series, where erfc alone underflows."""
    (x,) = _inexact("erfcx", x)
    cut = 5.0
    xs = jnp.minimum(x, cut)
    direct = lax.exp(xs * xs) * lax.erfc(xs)
    xl = jnp.maximum(x, cut)
    inv = 1.0 / (2 * xl * xl)
    series, term = 1.0, 1.0
    for n in range(1, 8):
        term = term * -(2 * n - 1) * inv
        series = series + term
    asymptotic = series / (xl * math.sqrt(math.pi))
    return jnp.where(x > cut, asymptotic, direct)


# ---- issue 11, area "special": incomplete gamma/beta, polygamma, zeta, Bessel I0/I1 ---------------
from ._special_incomplete import (betainc, gammainc, gammaincc, i0, i0e, i1, i1e, polygamma,  # noqa: E402,F401
                                  zeta, dawsn, expi, expn, exp1, owens_t, sici, spence, bernoulli, bessel_jn,
                                  fresnel, wofz, sph_harm_y)
# ---- end of area "special" ------------------------------------------------------------------------


from ...base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)

# ---- hypergeometric functions (issue 11, special2)
from ._special_hyp import hyp1f1, hyp2f1  # noqa: E402,F401
