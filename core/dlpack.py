# face: re-exports core._engine.api.dlpack (written by tools/move_to_layers.py; no logic here)
"""`jax.dlpack`: arrays from other libraries through the DLPack protocol (numpy does the exchange).

`jax.dlpack`'s public face: the implementation is core/_engine/api/dlpack.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.dlpack import (from_dlpack as from_dlpack, is_supported_dtype as is_supported_dtype)
