# face: re-exports core._engine.libraries.scipy.linalg (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.linalg`: SciPy's conventions (cholesky upper by default, lu returns P, L, U) over
the decomposition primitives of core/_engine/primitives/linalg.py, and the special-matrix constructors
written with jnp gathers, so grad, jit and vmap compose.

`jax.scipy.linalg`'s public face: the implementation is core/_engine/libraries/scipy/linalg.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.linalg import (block_diag as block_diag, cho_factor as cho_factor,
    cho_solve as cho_solve, cholesky as cholesky, circulant as circulant, companion as companion,
    convolution_matrix as convolution_matrix, det as det, dft as dft, eigh as eigh,
    eigh_tridiagonal as eigh_tridiagonal, expm as expm, expm_frechet as expm_frechet, fiedler as fiedler,
    fiedler_companion as fiedler_companion, funm as funm, hadamard as hadamard, hankel as hankel,
    helmert as helmert, hessenberg as hessenberg, hilbert as hilbert, inv as inv, invhilbert as invhilbert,
    invpascal as invpascal, leslie as leslie, lu as lu, lu_factor as lu_factor, lu_solve as lu_solve,
    pascal as pascal, polar as polar, qr as qr, qr_multiply as qr_multiply, rsf2csf as rsf2csf,
    schur as schur, solve as solve, solve_sylvester as solve_sylvester, solve_triangular as solve_triangular,
    sqrtm as sqrtm, svd as svd, toeplitz as toeplitz)
