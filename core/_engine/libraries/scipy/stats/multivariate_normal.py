"""`jax.scipy.stats.multivariate_normal`: log density through a Cholesky factor of cov."""
from __future__ import annotations

import math

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ...numpy import linalg
from ....primitives import linalg as _la



def logpdf(x, mean, cov, allow_singular=None):
    if allow_singular is not None:
        raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
    x, mean, cov = jnp._promote_dtypes_inexact(x, mean, cov)
    if not mean.shape:
        return -0.5 * (x - mean) ** 2 / cov - 0.5 * (math.log(2 * math.pi) + lax.log(cov))   # Python floats stay weak
    n = mean.shape[-1]
    if not np.shape(cov):
        y = x - mean
        return -0.5 * jnp.einsum("...i,...i->...", y, y) / cov - n / 2 * (np.log(2 * np.pi) + lax.log(cov))
    if cov.ndim < 2 or cov.shape[-2:] != (n, n):
        raise ValueError("multivariate_normal.logpdf got incompatible shapes")
    L = linalg.cholesky(cov)
    if cov.ndim > 2:
        raise NotImplementedError("multivariate_normal.logpdf with a batch of covariances is not supported by gradpad")
    r = x - mean
    batch = r.shape[:-1]
    # L y = r for every row of r at once: the rows become the columns of one right-hand side
    y = _la.triangular_solve(L, jnp.reshape(r, (-1, n)).T, left_side=True, lower=True).T.reshape(batch + (n,))
    log_det = jnp.sum(lax.log(jnp.abs(jnp.diagonal(L, axis1=-2, axis2=-1))), axis=-1)
    return -0.5 * jnp.einsum("...i,...i->...", y, y) - n / 2 * np.log(2 * np.pi) - log_det


def pdf(x, mean, cov):
    return lax.exp(logpdf(x, mean, cov))
