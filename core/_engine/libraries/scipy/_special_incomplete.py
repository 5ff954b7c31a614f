"""jax.scipy.special's names over lax's special-function primitives: incomplete gamma and beta,
polygamma, Hurwitz zeta, modified Bessel I0/I1 (issue 11, area "special")."""
from __future__ import annotations

import numpy as np

from ...base import dtypes
from ...lax import lax
from .. import numpy as jnp
from ...api.custom_derivatives import custom_jvp  # INHERENT: up to the api


def _inexact(name, *args):
    return jnp._promote_args_inexact(name, *args)


def _real_only(name, x):
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        raise ValueError(f"{name} does not support complex-valued inputs.")


def gammainc(a, x):
    a, x = _inexact("gammainc", a, x)
    return lax.igamma(a, x)


def gammaincc(a, x):
    a, x = _inexact("gammaincc", a, x)
    return lax.igammac(a, x)


def betainc(a, b, x):
    a, b, x = _inexact("betainc", a, b, x)
    _real_only("betainc", x)
    return lax.betainc(a, b, x)


def polygamma(n, x):
    if not dtypes.issubdtype(jnp.result_type(n), np.integer):
        raise ValueError(f"Argument `n` to polygamma must be of integer type. Got dtype {jnp.result_type(n)}.")
    n, x = _inexact("polygamma", n, x)
    _real_only("polygamma", x)
    return lax.polygamma(n, x)


_NO_RIEMANN = ("Riemann zeta function not implemented; pass q != None to compute the Hurwitz Zeta function.")


@custom_jvp
def _zeta(x, q):
    return lax.zeta(x, q)


def _zeta_euler_maclaurin(s, q, n_direct=10, n_corrections=8):
    """zeta(s, q) as a differentiable jnp expression (Euler-Maclaurin: n_direct terms, the tail's
    integral and half term, Bernoulli corrections): the tangent of zeta in s and q, where no
    closed form exists for d/ds (JAX differentiates its series too)."""
    from ...primitives.special_kernels import bernoulli_numbers
    def power(base, exponent):   # (exp-log: the engine's pow transposes to a strong-typed cotangent)
        return lax.exp(exponent * lax.log(base))
    acc = sum(power(q + k, -s) for k in range(n_direct))
    w = q + n_direct
    acc = acc + power(w, 1 - s) / (s - 1) + 0.5 * power(w, -s)
    rising, fact = s * power(w, -s - 1), 1.0
    b2k = bernoulli_numbers(2 * n_corrections)[2::2]
    for j in range(1, n_corrections + 1):
        fact *= (2 * j - 1) * (2 * j)
        acc = acc + float(b2k[j - 1]) / fact * rising
        rising = rising * (s + 2 * j - 1) * (s + 2 * j) / (w * w)
    return acc


@_zeta.defjvp
def _zeta_jvp(primals, tangents):
    from ...api.api import _jvp_engine  # INHERENT: up to the api
    return _zeta(*primals), _jvp_engine(_zeta_euler_maclaurin, primals, tangents)[1]


def zeta(x, q=None):
    if q is None:
        raise NotImplementedError(_NO_RIEMANN)
    x, q = _inexact("zeta", x, q)
    return _zeta(x, q)


def i0e(x):
    (x,) = _inexact("i0e", x)
    return lax.bessel_i0e(x)


def i0(x):
    (x,) = _inexact("i0", x)
    return lax.mul(lax.exp(lax.abs(x)), lax.bessel_i0e(x))


def i1e(x):
    (x,) = _inexact("i1e", x)
    return lax.bessel_i1e(x)


def i1(x):
    (x,) = _inexact("i1", x)
    return lax.mul(lax.exp(lax.abs(x)), lax.bessel_i1e(x))


# ---- the integral functions (primitives in core/_engine/primitives/scipy_special.py) ---------------------

def _sp():
    from ...primitives import scipy_special
    return scipy_special


def _real_unary(name, prim_name):
    def fn(x):
        (x,) = _inexact(name, x)
        _real_only(name, x)
        return getattr(_sp(), prim_name).bind(x)
    fn.__name__ = fn.__qualname__ = name
    return fn


dawsn = _real_unary("dawsn", "dawsn_p")
expi = _real_unary("expi", "expi_p")
spence = _real_unary("spence", "spence_p")


def sici(x):
    (x,) = _inexact("sici", x)
    _real_only("sici", x)
    return _sp().si_p.bind(x), _sp().ci_p.bind(x)


def expn(n, x):
    n, x = _inexact("expn", n, x)
    _real_only("expn", x)
    return _sp().expn_p.bind(n, x)


def exp1(x):
    (x,) = _inexact("exp1", x)
    _real_only("exp1", x)
    return expn(1, x)


def owens_t(h, a):
    h, a = _inexact("owens_t", h, a)
    _real_only("owens_t", h)
    return _sp().owens_t_p.bind(h, a)


# ---- Bernoulli numbers and Bessel J_n ------------------------------------------------------------

def bernoulli(n):
    """B_0..B_n (B_1 = -1/2, as scipy), from exact fractions."""
    import operator
    from ...primitives.special_kernels import bernoulli_numbers
    n = operator.index(jnp._concrete(n, "bernoulli"))
    if n < 0:
        raise ValueError("n must be a non-negative integer.")
    values = [float(b) for b in bernoulli_numbers(n)]
    if n >= 1:
        values[1] = -0.5
    return jnp.asarray(np.array(values), dtype=dtypes.canonicalize_dtype(np.float64))


def bessel_jn(z, *, v, n_iter=50):
    """J_0..J_v at z, shape (v+1, *z.shape), by Miller's backward recurrence from order n_iter
    (JAX's algorithm, so its accuracy and its nan where float32 overflows, for |z| small next to
    n_iter, are the same): J_k = 2(k+1)/z J_{k+1} - J_{k+2} from a tiny seed, normalised by
    J_0 + 2 (J_2 + J_4 + ...) = 1."""
    import operator
    z = jnp.asarray(z)
    (z,) = jnp._promote_dtypes_inexact(z)
    if dtypes.issubdtype(z.dtype, np.complexfloating):
        raise ValueError("complex input not supported.")
    v = operator.index(jnp._concrete(v, "bessel_jn"))
    n_iter = int(jnp._concrete(n_iter, "bessel_jn"))
    f_next2, f_next = jnp.zeros_like(z), jnp.full_like(z, 1e-16)
    norm = jnp.zeros_like(z)
    by_order = {}
    for k in range(n_iter, -1, -1):
        f_k = 2.0 * lax._const(z, k + 1.0) * f_next / z - f_next2
        if k % 2 == 0:
            norm = norm + 2.0 * f_k
        by_order[k] = f_k
        f_next2, f_next = f_next, f_k
    rows = [by_order[k] for k in range(min(v, n_iter) + 1)]
    out = jnp.stack(rows) / (norm - by_order[0])
    return lax._convert_element_type(out, out.dtype, False)   # (never weak, as JAX's scan output)


def fresnel(x):
    """(S(x), C(x)), the Fresnel integrals."""
    (x,) = _inexact("fresnel", x)
    _real_only("fresnel", x)
    return _sp().fresnel_s_p.bind(x), _sp().fresnel_c_p.bind(x)


def wofz(z):
    """Faddeeva's w(z) = exp(-z^2) erfc(-iz) (real input becomes complex, as JAX's)."""
    (z,) = _inexact("wofz", z)
    if not dtypes.issubdtype(z.dtype, np.complexfloating):
        z = z.astype(np.complex128 if z.dtype == np.float64 else np.complex64)
    return _sp().wofz_p.bind(z)


def sph_harm_y(n, m, theta, phi, diff_n=0, n_max=None):
    """Y_n^m(theta, phi), theta the polar angle: sqrt((2n+1)/4pi (n-m)!/(n+m)!) P_n^m(cos theta)
    e^(i m phi), P with the Condon-Shortley phase, by the upward recurrence in degree up to n_max
    (n is clipped to n_max, as JAX's); Y_n^-m = (-1)^m conj(Y_n^m)."""
    if diff_n:
        raise NotImplementedError("The 'diff_n' argument to jax.scipy.special.sph_harm_y is not supported.")
    n, m = jnp.asarray(n), jnp.asarray(m)
    theta, phi = jnp.asarray(theta), jnp.asarray(phi)
    if theta.ndim == 0:
        theta = theta[None]
    if n_max is None:
        n_max = int(np.max(np.asarray(jnp._concrete(jnp.max(n), "sph_harm_y"))))
    n_max = int(n_max)
    (theta, phi) = jnp._promote_dtypes_inexact(theta, phi)
    x = jnp.cos(theta)
    am = jnp.abs(m)
    n_eff = jnp.minimum(n, n_max)
    dt = x.dtype
    sine = jnp.sqrt(jnp.maximum(1 - x * x, 0))
    p_mm = jnp.ones_like(x)
    for k in range(n_max):
        p_mm = jnp.where(k < am, -(2 * k + 1) * sine * p_mm, p_mm)
    p_prev, p_cur = jnp.zeros_like(x), jnp.zeros_like(x)
    legendre = jnp.zeros_like(x)
    for l in range(n_max + 1):
        steps = jnp.maximum(l - am, 1).astype(dt)
        upward = ((2 * l - 1) * x * p_cur - (l + am - 1) * p_prev) / steps
        nxt = jnp.where(l < am, 0.0, jnp.where(l == am, p_mm, upward)).astype(dt)
        legendre = jnp.where(l == n_eff, nxt, legendre)
        p_prev, p_cur = p_cur, nxt
    norm = jnp.sqrt((2 * n_eff + 1) / (4 * np.pi) *
                    jnp.exp(lax.lgamma((n_eff - am + 1).astype(dt)) - lax.lgamma((n_eff + am + 1).astype(dt))))
    value = (norm * legendre).astype(dt)
    angle = am * phi
    harmonic = lax.complex(value * jnp.cos(angle), value * jnp.sin(angle)) if hasattr(lax, "complex") else \
        (value * jnp.cos(angle)) + 1j * (value * jnp.sin(angle))
    return jnp.where(m < 0, (-1.0) ** am * jnp.conj(harmonic), harmonic)
