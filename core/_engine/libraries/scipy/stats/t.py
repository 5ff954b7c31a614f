"""`jax.scipy.stats.t`: Student's t with df degrees of freedom."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ._common import args, standardize


def logpdf(x, df, loc=0, scale=1):
    x, df, loc, scale = args("t.logpdf", x, df, loc, scale)
    z = standardize(x, loc, scale)
    half = (df + 1) / 2
    normalize = lax.lgamma(half) - lax.lgamma(df / 2) - 0.5 * lax.log(df * np.pi) - lax.log(scale)
    return normalize - half * lax.log1p(z * z / df)


def pdf(x, df, loc=0, scale=1):
    return lax.exp(logpdf(x, df, loc, scale))
