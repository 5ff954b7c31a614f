# face: re-exports core._engine.libraries.scipy.sparse.linalg (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.sparse.linalg`: conjugate gradients, BiCGSTAB and restarted GMRES.

`jax.scipy.sparse.linalg`'s public face: the implementation is core/_engine/libraries/scipy/sparse/linalg.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.sparse.linalg import (bicgstab as bicgstab, cg as cg, gmres as gmres,
    partial as partial, ravel_pytree as ravel_pytree, tree_leaves as tree_leaves, tree_map as tree_map,
    tree_structure as tree_structure)
from core._engine.libraries.scipy.sparse.linalg import __all__ as __all__
from core import numpy as jnp
from core import lax
