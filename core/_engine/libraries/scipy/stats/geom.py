"""`jax.scipy.stats.geom`: trials up to the first success, pmf (1 - p)^(k - 1) p for k >= 1 (+ loc)."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special
from ._common import args, const


def logpmf(k, p, loc=0):
    k, p, loc = args("geom.logpmf", k, p, loc)
    x = lax.sub(k, loc)
    # xlog1py: (k - 1) log(1 - p) is 0, not nan, at k = 1 and p = 1
    log_prob = special.xlog1py(lax.sub(x, const(k, 1)), -p) + lax.log(p)
    return jnp.where(lax.le(x, const(k, 0)), -np.inf, log_prob)


def pmf(k, p, loc=0):
    return jnp.exp(logpmf(k, p, loc))
