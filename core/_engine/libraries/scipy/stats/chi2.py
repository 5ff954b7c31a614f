"""`jax.scipy.stats.chi2`: a gamma distribution with shape df/2 and scale 2."""
from __future__ import annotations

import numpy as np

from ....lax import lax
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


# ---- cdf family (issue 11, area "special"): gamma(df/2, scale 2) through the incomplete gamma ------

def _half_df_and_z(name, x, df, loc, scale):
    x, df, loc, scale = args(name, x, df, loc, scale)
    two = lax._const(scale, 2)
    return df / two, lax.clamp(lax._const(x, 0), (x - loc) / (scale * two), lax._const(x, np.inf))


def cdf(x, df, loc=0, scale=1):
    return special.gammainc(*_half_df_and_z("chi2.cdf", x, df, loc, scale))


def logcdf(x, df, loc=0, scale=1):
    return lax.log(cdf(x, df, loc, scale))


def sf(x, df, loc=0, scale=1):
    return special.gammaincc(*_half_df_and_z("chi2.sf", x, df, loc, scale))


def logsf(x, df, loc=0, scale=1):
    return lax.log(sf(x, df, loc, scale))
