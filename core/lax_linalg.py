# face: re-exports core._engine.lax.lax_linalg (written by tools/move_to_layers.py; no logic here)
"""`jax.lax.linalg`: the decomposition primitives (core/_engine/primitives/linalg.py) as JAX exposes them.

`jax.lax.linalg`'s public face: the implementation is core/_engine/lax/lax_linalg.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.lax.lax_linalg import (cholesky as cholesky, eig as eig, eigh as eigh, lu as lu,
    ormqr as ormqr, qr as qr, schur as schur, svd as svd, triangular_solve as triangular_solve,
    tridiagonal_solve as tridiagonal_solve)
from core._engine.lax.lax_linalg import __all__ as __all__
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__, 'jax.lax.linalg')
