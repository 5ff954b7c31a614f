"""`jax.scipy.stats.vonmises`: the circular normal, density exp(kappa cos x) / (2 pi I0(kappa)) on
[-pi, pi]; nan for kappa <= 0."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ._common import args, const


def logpdf(x, kappa):
    x, kappa = args("vonmises.logpdf", x, kappa)
    # I0(kappa) = exp(kappa) i0e(kappa): the exp(kappa) cancels against exp(kappa cos x), so a large
    # kappa does not overflow
    positive = lax.gt(kappa, const(kappa, 0))
    return jnp.where(positive, kappa * (jnp.cos(x) - 1) - jnp.log(2 * np.pi * lax.bessel_i0e(kappa)), np.nan)


def pdf(x, kappa):
    return lax.exp(logpdf(x, kappa))
