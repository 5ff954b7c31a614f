"""jax.scipy.special's names over lax's special-function primitives: incomplete gamma and beta,
polygamma, Hurwitz zeta, modified Bessel I0/I1 (issue 11, area "special")."""
from __future__ import annotations

import numpy as np

from .. import dtypes, lax
from .. import numpy as jnp
from ..custom_derivatives import custom_jvp


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
    from ..primitives.special_kernels import bernoulli_numbers
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
    from ..api import jvp
    return _zeta(*primals), jvp(_zeta_euler_maclaurin, primals, tangents)[1]


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


# ---- the integral functions (primitives in core/primitives/scipy_special.py) ---------------------

def _sp():
    from ..primitives import scipy_special
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
