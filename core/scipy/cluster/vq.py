# face: re-exports core._engine.libraries.scipy.cluster.vq (no logic here)
"""`jax.scipy.cluster.vq`: vq (each observation's nearest code and its distance).

`jax.scipy.cluster.vq`'s public face: the implementation is core/_engine/libraries/scipy/cluster/vq.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.cluster.vq import vq as vq
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
