"""`jax.scipy.stats.uniform` on [loc, loc + scale]."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ._common import args


def logpdf(x, loc=0, scale=1):
    x, loc, scale = args("uniform.logpdf", x, loc, scale)
    inside = (x >= loc) & (x <= loc + scale)
    return jnp.where(inside, -lax.log(scale), -np.inf)


def pdf(x, loc=0, scale=1):
    return lax.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    x, loc, scale = args("uniform.cdf", x, loc, scale)
    return jnp.clip((x - loc) / scale, 0, 1)


def ppf(q, loc=0, scale=1):
    q, loc, scale = args("uniform.ppf", q, loc, scale)
    return jnp.where((q < 0) | (q > 1), np.nan, loc + q * scale)
