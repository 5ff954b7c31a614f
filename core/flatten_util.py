# face: re-exports core._engine.libraries.flatten_util (written by tools/move_to_layers.py; no logic here)
"""`jax.flatten_util.ravel_pytree`: a pytree of arrays as one flat vector, and the way back.

`jax.flatten_util`'s public face: the implementation is core/_engine/libraries/flatten_util.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.flatten_util import ravel_pytree as ravel_pytree
