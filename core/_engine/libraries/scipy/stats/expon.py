"""`jax.scipy.stats.expon`: rate 1/scale, support x >= loc."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ._common import args, standardize


def logpdf(x, loc=0, scale=1):
    x, loc, scale = args("expon.logpdf", x, loc, scale)
    z = standardize(x, loc, scale)
    return jnp.where(z < 0, -np.inf, -z - lax.log(scale))


def pdf(x, loc=0, scale=1):
    return lax.exp(logpdf(x, loc, scale))


def logsf(x, loc=0, scale=1):
    x, loc, scale = args("expon.logsf", x, loc, scale)
    z = standardize(x, loc, scale)
    return jnp.where(z < 0, 0.0, -z)


def sf(x, loc=0, scale=1):
    return lax.exp(logsf(x, loc, scale))


def logcdf(x, loc=0, scale=1):
    x, loc, scale = args("expon.logcdf", x, loc, scale)
    z = standardize(x, loc, scale)
    return jnp.where(z < 0, -np.inf, lax.log(-lax.expm1(-jnp.maximum(z, 0))))


def cdf(x, loc=0, scale=1):
    x, loc, scale = args("expon.cdf", x, loc, scale)
    z = standardize(x, loc, scale)
    return jnp.where(z < 0, 0.0, -lax.expm1(-jnp.maximum(z, 0)))


def ppf(q, loc=0, scale=1):
    q, loc, scale = args("expon.ppf", q, loc, scale)
    return jnp.where((q < 0) | (q > 1), np.nan, -lax.log1p(-q) * scale + loc)
