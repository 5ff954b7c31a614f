# face: re-exports core._engine.libraries.scipy.optimize (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.optimize`: `minimize` with method 'BFGS' (optimize_bfgs.py) or JAX's experimental
'l-bfgs-experimental-do-not-rely-on-this' (optimize_lbfgs.py), returning JAX's `OptimizeResults`.

`jax.scipy.optimize`'s public face: the implementation is core/_engine/libraries/scipy/optimize.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.optimize import (OptimizeResults as OptimizeResults, minimize as minimize)
