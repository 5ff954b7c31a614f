"""`jax.scipy.stats.laplace`: density exp(-|x - loc| / scale) / (2 scale)."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ._common import args, standardize


def logpdf(x, loc=0, scale=1):
    x, loc, scale = args("laplace.logpdf", x, loc, scale)
    return -np.log(2.0) - lax.log(scale) - lax.abs(standardize(x, loc, scale))


def pdf(x, loc=0, scale=1):
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = args("laplace.cdf", x, loc, scale)
    z = standardize(x, loc, scale)
    return jnp.where(z < 0, 0.5 * lax.exp(z), 1 - 0.5 * lax.exp(-z))
