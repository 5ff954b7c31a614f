"""`jax.scipy.special`: special functions on jax arrays (inputs promote to inexact, as in JAX)."""
from __future__ import annotations

import math

import numpy as np

from ...lax import lax
from .. import numpy as jnp
from ..nn import logsumexp, log_softmax, softmax  # noqa: F401  (JAX exports these here too)


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
    return lax._const(p, np.sqrt(2)) * lax.erf_inv(2 * p - 1)


def log_ndtr(x, series_order=3):
    """log Phi(x): log1p(-Phi(-x)) on the right, log Phi(x) in the middle, and far left (where Phi
    underflows) the asymptotic series log(phi(x) / -x * (1 - 1/x^2 + 3/x^4 - ...))."""
    (x,) = _inexact("log_ndtr", x)
    left, right = -8.0, 6.0
    middle = lax.log(ndtr(jnp.clip(x, left, right)))
    upper = -ndtr(-jnp.maximum(x, right))
    xl = jnp.minimum(x, left)
    inv2 = 1.0 / (xl * xl)
    series = 1 + inv2 * (-1 + inv2 * (3 + inv2 * (-15 + inv2 * 105)))
    # Python floats (weak), not numpy float64 scalars: a float32 x stays float32 under x64, as JAX's
    lower = -0.5 * xl * xl - lax.log(-xl) - 0.5 * math.log(2 * math.pi) + lax.log(series)
    out = jnp.where(x > right, upper, jnp.where(x < left, lower, middle))
    return lax._convert_element_type(out, out.dtype, False)   # JAX's log_ndtr is never weakly typed


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
