"""ormqr: multiply a matrix by Q of a QR factorization held as Householder reflectors (geqrf's output),
without forming Q. lineax's QR solver uses it (`jax.lax.linalg.ormqr`).

a (..., m, k) holds reflector i in column i below the diagonal (an implicit 1 on it), taus (..., k).
Q = H_0 H_1 ... H_{k-1} with H_i = I - tau_i v_i v_i^H. JAX defines no derivative for it; it batches.
"""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules
from . import define
from .linalg import _batch_front


def _abstract(a, taus, c, *, left, transpose):
    if a.ndim < 2 or c.ndim < 2:
        raise ValueError(f"ormqr requires matrices, got a shape {a.shape} and c shape {c.shape}")
    m = a.shape[-2]
    if left and c.shape[-2] != m:
        raise ValueError("ormqr with left=True expects c to have the same number of rows as the Householder "
                         f"matrix a. Got a shape {a.shape[-2:]} and c shape {c.shape[-2:]}.")
    if not left and c.shape[-1] != m:
        raise ValueError("ormqr with left=False expects c to have the same number of columns as the Householder "
                         f"matrix a has rows. Got a shape {a.shape[-2:]} and c shape {c.shape[-2:]}.")
    return ShapedArray(c.shape, c.dtype)


def _impl(a, taus, c, *, left, transpose):
    a, taus = np.asarray(a), np.asarray(taus)
    out = np.array(c, copy=True)
    m, k = a.shape[-2], taus.shape[-1]
    # Q C applies H_{k-1} first; Q^H C applies H_0 first (and conjugate taus); C Q applies H_0 first
    order = range(k) if left == transpose else range(k - 1, -1, -1)
    for i in order:
        v = np.zeros(a.shape[:-1], a.dtype)
        v[..., i] = 1
        v[..., i + 1:] = a[..., i + 1:m, i]
        tau = np.conj(taus[..., i]) if transpose else taus[..., i]
        tau = tau[..., None, None]
        if left:  # C - tau v (v^H C)
            out = out - tau * v[..., :, None] * np.einsum("...m,...mn->...n", np.conj(v), out)[..., None, :]
        else:  # C - (C v) tau v^H
            out = out - tau * np.einsum("...nm,...m->...n", out, v)[..., :, None] * np.conj(v)[..., None, :]
    return out.astype(np.asarray(c).dtype, copy=False)


ormqr_p = define("ormqr", abstract_eval=_abstract, impl=_impl, weak_type_rule=lambda *w, **p: False)


def ormqr(a, taus, c, *, left: bool = True, transpose: bool = False):
    """Q @ c, Q^T @ c (left), c @ Q, c @ Q^T (not left) for the Q held in (a, taus) (JAX's signature)."""
    from ..tracing.tracing import get_aval
    _abstract(get_aval(a), get_aval(taus), get_aval(c), left=left, transpose=transpose)  # eager calls too
    return ormqr_p.bind(a, taus, c, left=left, transpose=transpose)


def _batch(axis_data, vals, dims, *, left, transpose):
    return ormqr_p.bind(*_batch_front(vals, dims, axis_data.size), left=left, transpose=transpose), 0


batch_rules[ormqr_p] = _batch
