"""A private eigendecomposition primitive for jax.scipy.linalg's matrix functions (sqrtm, funm):
numpy's LAPACK geev on the CPU. No jvp (JAX's matrix functions go through schur, which has
none either: grad raises "Differentiation rule ... not implemented")."""
from __future__ import annotations

import numpy as np

from ..avals import ShapedArray
from . import define

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128),
               np.dtype(np.complex64): np.dtype(np.complex64), np.dtype(np.complex128): np.dtype(np.complex128)}


def _abstract(a):
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"expected a square matrix, got shape {a.shape}")
    c = _COMPLEX_OF[np.dtype(a.dtype)]
    return [ShapedArray(a.shape[:1], c, False), ShapedArray(a.shape, c, False)]


def _impl(a):
    c = _COMPLEX_OF[a.dtype]
    w, v = np.linalg.eig(a.astype(np.complex128))   # complex geev: one code path for real and complex input
    return [w.astype(c), v.astype(c)]


matrix_eig_p = define("matrix_eig", abstract_eval=_abstract, impl=_impl, multiple_results=True)
