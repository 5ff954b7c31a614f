"""`jax.scipy.special`: special functions on jax arrays (inputs promote to inexact, as in JAX)."""
from __future__ import annotations

from .. import lax
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


from .._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
