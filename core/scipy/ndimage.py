# face: re-exports core._engine.libraries.scipy.ndimage (no logic here)
"""`jax.scipy.ndimage`: map_coordinates (interpolation of order 0 or 1 at fractional coordinates).

`jax.scipy.ndimage`'s public face: the implementation is core/_engine/libraries/scipy/ndimage.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.ndimage import map_coordinates as map_coordinates
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
