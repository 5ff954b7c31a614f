"""`jax.lax.linalg`: the decomposition primitives (core/primitives/linalg.py) as JAX exposes them."""
from __future__ import annotations

from .primitives.linalg import cholesky, eigh, lu, qr, svd, triangular_solve

__all__ = ["cholesky", "eigh", "lu", "qr", "svd", "triangular_solve"]
