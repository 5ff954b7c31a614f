"""`jax.scipy.stats.cauchy`: density 1 / (pi scale (1 + z^2))."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ._common import args, standardize


def logpdf(x, loc=0, scale=1):
    x, loc, scale = args("cauchy.logpdf", x, loc, scale)
    z = standardize(x, loc, scale)
    return -np.log(np.pi) - lax.log(scale) - lax.log1p(z * z)


def pdf(x, loc=0, scale=1):
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = args("cauchy.cdf", x, loc, scale)
    return 0.5 + lax.atan(standardize(x, loc, scale)) / np.pi


def logcdf(x, loc=0, scale=1):
    return lax.log(cdf(x, loc, scale))


def sf(x, loc=0, scale=1):
    x, loc, scale = args("cauchy.sf", x, loc, scale)
    return cdf(-x, -loc, scale)


def logsf(x, loc=0, scale=1):
    return lax.log(sf(x, loc, scale))


def ppf(q, loc=0, scale=1):
    q, loc, scale = args("cauchy.ppf", q, loc, scale)
    # like JAX, no special case at q = 0 or 1: tan(+-pi/2) in floating point is large, not infinite
    return loc + scale * lax.tan(np.pi * (q - 0.5))


def isf(q, loc=0, scale=1):
    q, loc, scale = args("cauchy.isf", q, loc, scale)
    return ppf(1 - q, loc, scale)
