"""`jax.scipy.stats.wrapcauchy`: the Cauchy wrapped round the circle, density
(1 - c^2) / (2 pi (1 + c^2 - 2 c cos x)) on [0, 2 pi]; nan unless 0 < c < 1."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ._common import args, const


def logpdf(x, c):
    x, c = args("wrapcauchy.logpdf", x, c)
    valid_c = lax.gt(c, const(c, 0)) & lax.lt(c, const(c, 1))
    on_circle = lax.ge(x, const(x, 0)) & lax.le(x, const(x, 2 * np.pi))
    log_density = jnp.log(1 - c * c) - jnp.log(2 * np.pi) - jnp.log(1 + c * c - 2 * c * jnp.cos(x))
    return jnp.where(valid_c, jnp.where(on_circle, log_density, -np.inf), np.nan)


def pdf(x, c):
    return lax.exp(logpdf(x, c))
