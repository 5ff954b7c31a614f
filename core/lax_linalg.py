"""`jax.lax.linalg`: the decomposition primitives (core/primitives/linalg.py) as JAX exposes them."""
from __future__ import annotations

from .primitives.linalg import _conj, _lower_part, _swap, cholesky_p, eigh, lu, qr, svd, triangular_solve

__all__ = ["cholesky", "eigh", "lu", "qr", "svd", "triangular_solve"]


def cholesky(x, *, symmetrize_input: bool = True):
    """The lower Cholesky factor of x (of (x + x^H) / 2 when symmetrize_input)."""
    from . import lax
    if symmetrize_input:
        x = lax.div(lax.add(x, _conj(_swap(x))), lax._const(x, 2.0))
    return _lower_part(cholesky_p.bind(x))
