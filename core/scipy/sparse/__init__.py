# face: re-exports core._engine.libraries.scipy.sparse (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.sparse`: iterative linear solvers (jax.scipy.sparse.linalg).

`jax.scipy.sparse`'s public face: the implementation is core/_engine/libraries/scipy/sparse/ (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core.scipy.sparse import linalg
