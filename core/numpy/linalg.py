# face: re-exports core._engine.libraries.numpy.linalg (written by tools/move_to_layers.py; no logic here)
"""`jax.numpy.linalg`: norm, and solve / inv / det / slogdet / cholesky / eigh / eigvalsh built on
the decomposition primitives of core/_engine/primitives/linalg.py, so they work under jit, grad and
vmap, as do norm, svd and qr.

`jax.numpy.linalg`'s public face: the implementation is core/_engine/libraries/numpy/linalg.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.numpy.linalg import (cholesky as cholesky, cond as cond, cross as cross,
    det as det, diagonal as diagonal, eig as eig, eigh as eigh, eigvals as eigvals, eigvalsh as eigvalsh,
    inv as inv, lstsq as lstsq, matmul as matmul, matrix_norm as matrix_norm, matrix_power as matrix_power,
    matrix_rank as matrix_rank, matrix_transpose as matrix_transpose, multi_dot as multi_dot, norm as norm,
    outer as outer, pinv as pinv, qr as qr, slogdet as slogdet, solve as solve, svd as svd,
    svdvals as svdvals, tensordot as tensordot, tensorinv as tensorinv, tensorsolve as tensorsolve,
    trace as trace, vecdot as vecdot, vector_norm as vector_norm)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
