"""`jax.custom_batching`: custom_vmap (a function's own vmap rule) and sequential_vmap.

`jax.custom_batching`'s public face: the implementation is core/_engine/api/custom_batching.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.custom_batching import custom_vmap as custom_vmap, sequential_vmap as sequential_vmap

__all__ = ["custom_vmap", "sequential_vmap"]
