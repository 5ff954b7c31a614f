# face: re-exports core._engine.libraries.scipy.cluster (no logic here)
"""`jax.scipy.cluster`: the `vq` submodule (vector quantisation).

`jax.scipy.cluster`'s public face: the implementation is core/_engine/libraries/scipy/cluster/ (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core.scipy.cluster import vq
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
