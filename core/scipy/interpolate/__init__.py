# face: re-exports core._engine.libraries.scipy.interpolate (no logic here)
"""`jax.scipy.interpolate`: RegularGridInterpolator (linear or nearest on a rectilinear grid).

`jax.scipy.interpolate`'s public face: the implementation is core/_engine/libraries/scipy/interpolate/ (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.interpolate import RegularGridInterpolator as RegularGridInterpolator
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
