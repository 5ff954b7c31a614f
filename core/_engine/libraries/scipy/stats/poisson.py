"""`jax.scipy.stats.poisson`: pmf mu^k e^-mu / k! for integer k >= loc."""
from __future__ import annotations

import numpy as np

from ....lax import lax
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


# ---- cdf and entropy (issue 11, area "special") ------------------------------------------------

def cdf(k, mu, loc=0):
    k, mu, loc = args("poisson.logpmf", k, mu, loc)   # (JAX names logpmf here too)
    x = k - loc
    p = special.gammaincc(jnp.floor(1 + x), mu)
    return jnp.where(x < 0, lax._const(k, 0), p)


def _entropy_by_sum(mu, max_k, upper):
    """-sum p log p over k < min(max_k, upper(mu)): a static bound, so jit and vmap work."""
    k = jnp.arange(max_k, dtype=mu.dtype)[:, None]
    probs = jnp.where(k < jnp.ceil(upper)[None, :], pmf(k, mu, 0), 0.0)
    return jnp.sum(special.entr(probs), axis=0)


def entropy(mu, loc=0):
    """Sums the pmf's entropy below mu = 100 (k up to mu + 20, then mu + 10 sqrt(mu) + 20); above,
    the asymptotic 0.5 log(2 pi e mu) - 1/(12 mu). loc shifts nothing."""
    mu, loc = jnp._promote_dtypes_inexact(jnp.asarray(mu), jnp.asarray(loc))
    shape = jnp.broadcast_shapes(mu.shape, loc.shape)
    flat = jnp.ravel(mu)
    small = _entropy_by_sum(flat, 35, flat + 20)
    medium = _entropy_by_sum(flat, 250, flat + 10 * jnp.sqrt(flat) + 20)
    large = 0.5 * jnp.log(2 * np.pi * np.e * flat) - 1.0 / (12 * flat)
    out = jnp.where(flat == 0, jnp.zeros_like(flat), jnp.where(flat < 10, small, jnp.where(flat < 100, medium, large)))
    return jnp.broadcast_to(jnp.reshape(out, mu.shape), shape)
