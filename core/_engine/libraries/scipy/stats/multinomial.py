"""`jax.scipy.stats.multinomial`: counts x (last axis) of n draws over categories with probabilities p:
pmf n! prod p_i^x_i / x_i!; x and n must be integers."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ...numpy import _util
from .. import special
from ._common import args


def logpmf(x, n, p):
    p, = args("multinomial.logpmf", p)
    x, n = _util._promote_args("multinomial.logpmf", x, n)
    if not jnp.issubdtype(x.dtype, np.integer):
        raise ValueError(f"x and n must be of integer type; got x.dtype={x.dtype}, n.dtype={n.dtype}")
    x = x.astype(p.dtype)
    n = n.astype(p.dtype)
    log_prob = special.gammaln(n + 1) + jnp.sum(special.xlogy(x, p) - special.gammaln(x + 1), axis=-1)
    # (as JAX does, the counts are checked against n in total over every axis, not per row)
    return jnp.where(jnp.equal(jnp.sum(x), n), log_prob, -np.inf)


def pmf(x, n, p):
    return lax.exp(logpmf(x, n, p))
