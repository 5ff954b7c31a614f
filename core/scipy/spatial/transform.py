# face: re-exports core._engine.libraries.scipy.spatial.transform (no logic here)
"""`jax.scipy.spatial.transform`: Rotation (unit quaternions) and Slerp.

`jax.scipy.spatial.transform`'s public face: the implementation is core/_engine/libraries/scipy/spatial/transform.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.spatial.transform import Rotation as Rotation, Slerp as Slerp
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
