"""`jax.scipy.stats.chi2`: a gamma distribution with shape df/2 and scale 2."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from .. import special
from ._common import args, standardize


def logpdf(x, df, loc=0, scale=1):
    x, df, loc, scale = args("chi2.logpdf", x, df, loc, scale)
    z = standardize(x, loc, scale)
    safe_z = jnp.where(z < 0, 1, z)
    half = df / 2
    log_prob = special.xlogy(half - 1, safe_z) - safe_z / 2 - lax.lgamma(half) - half * np.log(2.0) - lax.log(scale)
    return jnp.where(z < 0, -np.inf, log_prob)


def pdf(x, df, loc=0, scale=1):
    return lax.exp(logpdf(x, df, loc, scale))
