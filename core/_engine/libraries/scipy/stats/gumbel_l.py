"""`jax.scipy.stats.gumbel_l`: the left-skewed Gumbel (minimum of many), density exp(z - e^z) / scale
for z = (x - loc) / scale; nan for scale <= 0."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special
from ._common import args, standardize, const


def _ok(scale):
    return lax.gt(scale, const(scale, 0))


def logpdf(x, loc=0, scale=1):
    x, loc, scale = args("gumbel_l.logpdf", x, loc, scale)
    ok = _ok(scale)
    z = standardize(x, loc, scale)
    return jnp.where(ok, special.xlogy(-1, scale) + (z - lax.exp(z)), np.nan)


def pdf(x, loc=0, scale=1):
    return lax.exp(logpdf(x, loc, scale))


def logcdf(x, loc=0, scale=1):
    x, loc, scale = args("gumbel_l.logcdf", x, loc, scale)
    ok = _ok(scale)
    z = standardize(x, loc, scale)
    # cdf = 1 - exp(-e^z); -expm1 keeps it accurate where e^z is tiny
    return jnp.where(ok, lax.log(-lax.expm1(-lax.exp(z))), np.nan)


def cdf(x, loc=0, scale=1):
    return lax.exp(logcdf(x, loc, scale))


def logsf(x, loc=0, scale=1):
    x, loc, scale = args("gumbel_l.logsf", x, loc, scale)
    ok = _ok(scale)
    z = standardize(x, loc, scale)
    return jnp.where(ok, -lax.exp(z), np.nan)


def sf(x, loc=0, scale=1):
    return jnp.exp(logsf(x, loc, scale))


def ppf(p, loc=0, scale=1):
    p, loc, scale = args("gumbel_l.ppf", p, loc, scale)
    inside = lax.bitwise_and(lax.gt(p, const(p, 0)), lax.lt(p, const(p, 1)))
    # z = log(-log(1 - p))
    return jnp.where(inside, loc + scale * lax.log(special.xlog1py(-1, -p)), np.nan)
