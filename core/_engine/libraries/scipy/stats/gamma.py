"""`jax.scipy.stats.gamma`: shape a, density x^(a-1) e^-x / Gamma(a) (cdf needs the incomplete gamma)."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special
from ._common import args, standardize


def logpdf(x, a, loc=0, scale=1):
    x, a, loc, scale = args("gamma.logpdf", x, a, loc, scale)
    z = standardize(x, loc, scale)
    safe_z = jnp.where(z < 0, 1, z)
    log_prob = special.xlogy(a - 1, safe_z) - safe_z - lax.lgamma(a) - lax.log(scale)
    return jnp.where(z < 0, -np.inf, log_prob)


def pdf(x, a, loc=0, scale=1):
    return lax.exp(logpdf(x, a, loc, scale))


# ---- cdf family (issue 11, area "special"): the regularized incomplete gamma ----------------------

def cdf(x, a, loc=0, scale=1):
    x, a, loc, scale = args("gamma.cdf", x, a, loc, scale)
    return special.gammainc(a, lax.clamp(lax._const(x, 0), (x - loc) / scale, lax._const(x, np.inf)))


def logcdf(x, a, loc=0, scale=1):
    return lax.log(cdf(x, a, loc, scale))


def sf(x, a, loc=0, scale=1):
    x, a, loc, scale = args("gamma.sf", x, a, loc, scale)
    y = (x - loc) / scale
    return jnp.where(y < 0, 1, special.gammaincc(a, y))


def logsf(x, a, loc=0, scale=1):
    return lax.log(sf(x, a, loc, scale))
