"""`jax.scipy.stats.pareto`: density b / z^(b + 1) for z = (x - loc) / scale >= 1 (divided by scale),
0 below."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ._common import args, standardize, const


def _below(x, loc, scale):
    """x < loc + scale: outside the support (z < 1)."""
    return lax.lt(x, lax.add(loc, scale))


def logpdf(x, b, loc=0, scale=1):
    x, b, loc, scale = args("pareto.logpdf", x, b, loc, scale)
    z = standardize(x, loc, scale)
    log_density = -(lax.log(scale / b) + (b + const(x, 1)) * lax.log(z))
    return jnp.where(_below(x, loc, scale), -np.inf, log_density)


def pdf(x, b, loc=0, scale=1):
    return lax.exp(logpdf(x, b, loc, scale))


def cdf(x, b, loc=0, scale=1):
    x, b, loc, scale = args("pareto.cdf", x, b, loc, scale)
    z = standardize(x, loc, scale)
    value = const(x, 1) - lax.pow(z, -b)
    return jnp.where(_below(x, loc, scale), const(x, 0), value)


def logcdf(x, b, loc=0, scale=1):
    x, b, loc, scale = args("pareto.logcdf", x, b, loc, scale)
    z = standardize(x, loc, scale)
    value = lax.log1p(-lax.pow(z, -b))
    return jnp.where(_below(x, loc, scale), -np.inf, value)


def logsf(x, b, loc=0, scale=1):
    x, b, loc, scale = args("pareto.logsf", x, b, loc, scale)
    z = standardize(x, loc, scale)
    value = -(b * lax.log(z))
    return jnp.where(_below(x, loc, scale), const(x, 0), value)


def sf(x, b, loc=0, scale=1):
    return lax.exp(logsf(x, b, loc, scale))


def ppf(q, b, loc=0, scale=1):
    q, b, loc, scale = args("pareto.ppf", q, b, loc, scale)
    one = const(q, 1)
    value = loc + scale * lax.pow(one - q, -(one / b))
    return jnp.where(jnp.isnan(q) | (q < 0) | (q > 1), np.nan, value)
