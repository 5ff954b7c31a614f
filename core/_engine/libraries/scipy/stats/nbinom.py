"""`jax.scipy.stats.nbinom`: failures before the n-th success, pmf C(k + n - 1, n - 1) p^n (1 - p)^k
for k >= 0 (+ loc); n need not be an integer."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special
from ._common import args, const


def logpmf(k, n, p, loc=0):
    k, n, p, loc = args("nbinom.logpmf", k, n, p, loc)
    y = lax.sub(k, loc)
    log_choose = special.gammaln(y + n) - special.gammaln(n) - special.gammaln(y + const(k, 1))
    log_powers = special.xlogy(n, p) + special.xlogy(y, const(k, 1) - p)
    return jnp.where(lax.lt(k, loc), -np.inf, log_choose + log_powers)


def pmf(k, n, p, loc=0):
    return lax.exp(logpmf(k, n, p, loc))
