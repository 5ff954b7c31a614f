"""`jax.scipy.stats.norm`: the normal distribution, written with lax ops as JAX writes it."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special


def _args(name, *args):
    return jnp._promote_args_inexact(name, *args)


def logpdf(x, loc=0, scale=1):
    x, loc, scale = _args("norm.logpdf", x, loc, scale)
    log_normalizer = lax.log(lax.mul(lax._const(x, 2 * np.pi), lax.square(scale)))
    quadratic = lax.div(lax.square(lax.sub(x, loc)), lax.square(scale))
    return lax.div(lax.add(log_normalizer, quadratic), lax._const(x, -2))


def pdf(x, loc=0, scale=1):
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = _args("norm.cdf", x, loc, scale)
    return special.ndtr(lax.div(lax.sub(x, loc), scale))


def logcdf(x, loc=0, scale=1):
    # log_ndtr, as JAX's: log(cdf) is -inf once the cdf underflows (float32: below x = -14)
    x, loc, scale = _args("norm.logcdf", x, loc, scale)
    return special.log_ndtr(lax.div(lax.sub(x, loc), scale))


def sf(x, loc=0, scale=1):
    x, loc, scale = _args("norm.sf", x, loc, scale)
    return cdf(lax.neg(x), lax.neg(loc), scale)


def logsf(x, loc=0, scale=1):
    x, loc, scale = _args("norm.logsf", x, loc, scale)
    return logcdf(lax.neg(x), lax.neg(loc), scale)


def ppf(q, loc=0, scale=1):
    q, loc, scale = _args("norm.ppf", q, loc, scale)
    # ndtri (sqrt(2) erf_inv(2q - 1) is -inf for q below ~3e-8 in float32), in the default float dtype
    return jnp.asarray(special.ndtri(q) * scale + loc, float)


def isf(q, loc=0, scale=1):
    q, loc, scale = _args("norm.isf", q, loc, scale)
    return ppf(lax.sub(lax._const(q, 1), q), loc, scale)


from ....base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
