# face: re-exports core._engine.libraries.scipy.sparse.linalg (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.sparse.linalg`: conjugate gradients, BiCGSTAB and restarted GMRES.

`jax.scipy.sparse.linalg`'s public face: the implementation is core/_engine/libraries/scipy/sparse/linalg.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.sparse.linalg import (bicgstab as bicgstab, cg as cg, gmres as gmres)
from core._engine.libraries.scipy.sparse.linalg import __all__ as __all__
