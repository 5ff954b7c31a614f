"""`jax.lax.linalg`: the decomposition primitives (core/_engine/primitives/linalg.py) as JAX exposes them."""
from __future__ import annotations

from ..primitives.linalg import cholesky, eigh, lu, qr, svd, triangular_solve

__all__ = ["cholesky", "eigh", "lu", "qr", "svd", "triangular_solve"]

# ---- general eigenproblems (issue 11, special2): eig, and schur (core/_engine/primitives/schur.py)
from ..primitives.linalg import eig  # noqa: E402
from ..primitives.schur import schur  # noqa: E402
__all__ += ["eig", "schur"]

# ---- issue 24: lineax's and diffrax's tridiagonal systems
from ..primitives.tridiagonal import tridiagonal_solve  # noqa: E402
__all__ += ["tridiagonal_solve"]

# ---- lineax's QR solver: Q of geqrf's reflectors applied without forming it
from ..primitives.ormqr import ormqr  # noqa: E402
__all__ += ["ormqr"]


from ..base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__, "jax.lax.linalg")
