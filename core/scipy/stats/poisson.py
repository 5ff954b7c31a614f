"""`jax.scipy.stats.poisson`: pmf mu^k e^-mu / k! for integer k >= loc."""
from __future__ import annotations

import numpy as np

from ... import lax
from ... import numpy as jnp
from .. import special
from ._common import args


def logpmf(k, mu, loc=0):
    k, mu, loc = args("poisson.logpmf", k, mu, loc)
    x = k - loc
    log_prob = special.xlogy(x, mu) - lax.lgamma(x + 1) - mu
    return jnp.where((x < 0) | (x != jnp.round(x)), -np.inf, log_prob)


def pmf(k, mu, loc=0):
    return lax.exp(logpmf(k, mu, loc))
