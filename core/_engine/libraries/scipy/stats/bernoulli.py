"""`jax.scipy.stats.bernoulli`: k in {0, 1} with P(1) = p."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special
from ._common import args


def logpmf(k, p, loc=0):
    k, p, loc = args("bernoulli.logpmf", k, p, loc)
    x = k - loc
    log_prob = special.xlogy(x, p) + special.xlog1py(1 - x, -p)
    out = jnp.where((x != 0) & (x != 1), -np.inf, log_prob)
    # JAX's xlogy / xlog1py are custom_jvp functions, whose outputs are never weakly typed
    return lax._convert_element_type(out, out.dtype, False)


def pmf(k, p, loc=0):
    return lax.exp(logpmf(k, p, loc))


def cdf(k, p):
    k, p = args("bernoulli.cdf", k, p)
    out = jnp.where(k < 0, 0.0, jnp.where(k < 1, 1 - p, 1.0))
    return jnp.where(jnp.isnan(k) | (p < 0) | (p > 1), np.nan, out)


def ppf(q, p):
    q, p = args("bernoulli.ppf", q, p)
    zero, one = lax._const(q, 0), lax._const(q, 1)   # typed constants: the result is not weak
    return jnp.where(jnp.isnan(q) | jnp.isnan(p) | (p < zero) | (p > one) | (q < zero) | (q > one), np.nan,
                     jnp.where(q <= one - p, zero, one))
