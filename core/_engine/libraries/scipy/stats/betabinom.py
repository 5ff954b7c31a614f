"""`jax.scipy.stats.betabinom`: a binomial whose p is Beta(a, b): pmf C(n, k) B(k + a, n - k + b) / B(a, b)
for integer 0 <= k <= n (k is floored, + loc); nan for n < 0, a <= 0 or b <= 0."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ....api.api import jit  # INHERENT: up to the api
from .. import special
from ._common import args, const


@jit
def logpmf(k, n, a, b, loc=0):
    k, n, a, b, loc = args("betabinom.logpmf", k, n, a, b, loc)
    y = lax.floor(k) - loc
    one, zero = const(y, 1), const(y, 0)
    # log C(n, y) = -log(n + 1) - log B(n - y + 1, y + 1)
    log_choose = -(lax.log1p(n) + special.betaln(n - y + one, y + one))
    log_prob = log_choose + (special.betaln(y + a, n - y + b) - special.betaln(a, b))
    log_prob = jnp.where((y == zero) & (n == zero), 0.0, log_prob)
    outside = (y < -loc) | (y > n) | (y + a <= zero)
    log_prob = jnp.where(outside, -np.inf, log_prob)
    return jnp.where((n < zero) | (a <= zero) | (b <= zero), np.nan, log_prob)


def pmf(k, n, a, b, loc=0):
    return lax.exp(logpmf(k, n, a, b, loc))
