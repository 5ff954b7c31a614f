"""`jax.scipy.stats.logistic`: the standard logistic distribution, shifted and scaled."""
from __future__ import annotations

from ....lax import lax
from ._common import args, standardize


def logpdf(x, loc=0, scale=1):
    x, loc, scale = args("logistic.logpdf", x, loc, scale)
    z = standardize(x, loc, scale)
    a = lax.abs(z)
    return -a - 2 * lax.log1p(lax.exp(-a)) - lax.log(scale)


def pdf(x, loc=0, scale=1):
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = args("logistic.cdf", x, loc, scale)
    return lax.logistic(standardize(x, loc, scale))


def sf(x, loc=0, scale=1):
    x, loc, scale = args("logistic.sf", x, loc, scale)
    return lax.logistic(-standardize(x, loc, scale))


def ppf(x, loc=0, scale=1):
    x, loc, scale = args("logistic.ppf", x, loc, scale)
    return lax.log(x / (1 - x)) * scale + loc


def isf(x, loc=0, scale=1):
    x, loc, scale = args("logistic.isf", x, loc, scale)
    return -lax.log(x / (1 - x)) * scale + loc
