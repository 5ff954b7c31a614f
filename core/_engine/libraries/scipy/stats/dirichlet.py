"""`jax.scipy.stats.dirichlet`: density on the simplex, prod x_i^(alpha_i - 1) / B(alpha)."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special



def logpdf(x, alpha):
    x, alpha = jnp._promote_dtypes_inexact(jnp.asarray(x), jnp.asarray(alpha))
    if alpha.ndim != 1:
        raise ValueError(f"`alpha` must be one-dimensional; got alpha.shape={alpha.shape}")
    if x.shape[0] not in (alpha.shape[0], alpha.shape[0] - 1):
        raise ValueError("`x` must have either the same number of entries as `alpha` or one entry fewer; "
                         f"got x.shape={x.shape}, alpha.shape={alpha.shape}")
    if x.shape[0] != alpha.shape[0]:
        x = jnp.concatenate([x, lax.sub(lax._const(x, 1), x.sum(0, keepdims=True))], axis=0)
    normalize = jnp.sum(lax.lgamma(alpha)) - lax.lgamma(jnp.sum(alpha))
    if x.ndim > 1:
        alpha = lax.broadcast_in_dim(alpha, alpha.shape + (1,) * (x.ndim - 1), (0,))
    log_probs = jnp.sum(special.xlogy(alpha - 1, x), axis=0) - normalize
    on_simplex = jnp.all(x >= 0, axis=0) & jnp.isclose(jnp.sum(x, axis=0), 1.0)
    return jnp.where(on_simplex, log_probs, -np.inf)


def pdf(x, alpha):
    return lax.exp(logpdf(x, alpha))
