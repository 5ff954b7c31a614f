"""`jax.scipy.stats.gumbel_r`: the right-skewed Gumbel (maximum of many), density exp(-z - e^-z) / scale
for z = (x - loc) / scale; nan for scale <= 0."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ...nn._more import log1mexp
from .. import special
from ._common import args, standardize, const


def _ok(scale):
    return lax.gt(scale, const(scale, 0))


def logpdf(x, loc=0, scale=1):
    x, loc, scale = args("gumbel_r.logpdf", x, loc, scale)
    ok = _ok(scale)
    z = standardize(x, loc, scale)
    return jnp.where(ok, special.xlogy(-1, scale) + -(z + lax.exp(-z)), np.nan)


def pdf(x, loc=0, scale=1):
    return lax.exp(logpdf(x, loc, scale))


def logcdf(x, loc=0, scale=1):
    x, loc, scale = args("gumbel_r.logcdf", x, loc, scale)
    ok = _ok(scale)
    z = standardize(x, loc, scale)
    return jnp.where(ok, -lax.exp(-z), np.nan)


def cdf(x, loc=0, scale=1):
    return lax.exp(logcdf(x, loc, scale))


def sf(x, loc=0, scale=1):
    x, loc, scale = args("gumbel_r.sf", x, loc, scale)
    ok = _ok(scale)
    minus_z = (loc - x) / scale
    return jnp.where(ok, const(x, 1) - lax.exp(-lax.exp(minus_z)), np.nan)


def logsf(x, loc=0, scale=1):
    x, loc, scale = args("gumbel_r.logsf", x, loc, scale)
    ok = _ok(scale)
    minus_z = (loc - x) / scale
    # log(1 - exp(-e^-z)), accurate both where e^-z is tiny and where it is large
    return jnp.where(ok, log1mexp(lax.exp(minus_z)), np.nan)


def ppf(p, loc=0, scale=1):
    p, loc, scale = args("gumbel_r.ppf", p, loc, scale)
    inside = lax.bitwise_and(lax.gt(p, const(p, 0)), lax.lt(p, const(p, 1)))
    # z = -log(-log p)
    return jnp.where(inside, loc - scale * lax.log(special.xlogy(-1, p)), np.nan)
