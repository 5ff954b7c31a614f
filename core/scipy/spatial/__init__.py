# face: re-exports core._engine.libraries.scipy.spatial (no logic here)
"""`jax.scipy.spatial`: the `transform` submodule (3-d rotations).

`jax.scipy.spatial`'s public face: the implementation is core/_engine/libraries/scipy/spatial/ (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core.scipy.spatial import transform
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
