"""`jax.scipy.stats.binom`: C(n, k) p^k (1-p)^(n-k) for k in 0..n (shifted by loc)."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special
from ._common import args


def logpmf(k, n, p, loc=0):
    k, n, p, loc = args("binom.logpmf", k, n, p, loc)
    y = k - loc
    comb = lax.lgamma(n + 1) - lax.lgamma(y + 1) - lax.lgamma(n - y + 1)
    log_probs = comb + special.xlogy(y, p) + special.xlog1py(n - y, -p)
    return jnp.where((y >= 0) & (y <= n), log_probs, -np.inf)


def pmf(k, n, p, loc=0):
    return lax.exp(logpmf(k, n, p, loc))
