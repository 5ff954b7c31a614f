"""`jax.scipy.cluster.vq`: vq, assigning each observation to its nearest code (as k-means does)."""
from __future__ import annotations

import operator

from ... import numpy as jnp
from ...numpy import _util
from ...numpy import linalg as jnp_linalg
from ....api.api import vmap  # INHERENT: up to the api


def vq(obs, code_book, check_finite=True):
    """(code, dist): for each row of `obs` (n, d) the index of the nearest row of `code_book` (k, d)
    in Euclidean distance, and that distance. 1-d inputs are n and k scalars. check_finite is
    accepted for scipy's signature and ignored (under jit a value cannot be checked)."""
    del check_finite
    _util._check_arraylike("scipy.cluster.vq.vq", obs, code_book)
    obs, code_book = _util._promote_dtypes_inexact(obs, code_book)
    if obs.ndim != code_book.ndim:
        raise ValueError("Observation and code_book should have the same rank")
    if obs.ndim == 1:
        obs, code_book = obs[..., None], code_book[..., None]
    if obs.ndim != 2:
        raise ValueError("ndim different than 1 or 2 are not supported")
    dist = vmap(lambda row: jnp_linalg.norm(row[None] - code_book, axis=-1))(obs)
    code = jnp.argmin(dist, axis=-1)
    return code, vmap(operator.getitem)(dist, code)
