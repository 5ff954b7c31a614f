"""`jax.scipy.stats.beta`: density x^(a-1) (1-x)^(b-1) / B(a, b) on [0, 1] (cdf needs betainc)."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special
from ._common import args, standardize


def logpdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = args("beta.logpdf", x, a, b, loc, scale)
    z = standardize(x, loc, scale)
    log_prob = special.xlogy(a - 1, z) + special.xlog1py(b - 1, -z) - special.betaln(a, b) - lax.log(scale)
    return jnp.where((z < 0) | (z > 1), -np.inf, log_prob)


def pdf(x, a, b, loc=0, scale=1):
    return lax.exp(logpdf(x, a, b, loc, scale))


# ---- cdf family (issue 11, area "special"): the regularized incomplete beta ----------------------

def _unit(x, loc, scale):
    return lax.clamp(lax._const(x, 0), (x - loc) / scale, lax._const(x, 1))


def cdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = args("beta.cdf", x, a, b, loc, scale)
    return special.betainc(a, b, _unit(x, loc, scale))


def logcdf(x, a, b, loc=0, scale=1):
    return lax.log(cdf(x, a, b, loc, scale))


def sf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = args("beta.sf", x, a, b, loc, scale)
    return special.betainc(b, a, 1 - _unit(x, loc, scale))


def logsf(x, a, b, loc=0, scale=1):
    return lax.log(sf(x, a, b, loc, scale))
