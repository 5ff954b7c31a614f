# face: re-exports core._engine.api.ad_checkpoint (written by tools/move_to_layers.py; no logic here)
"""jax.checkpoint / jax.remat, jax.checkpoint_policies and jax.ad_checkpoint (checkpoint_name,
print_saved_residuals, Recompute, Saveable, Offloadable), as JAX 0.10.2 has them.

`jax.ad_checkpoint`'s public face: the implementation is core/_engine/api/ad_checkpoint.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.ad_checkpoint import (Offloadable as Offloadable, Recompute as Recompute,
    Saveable as Saveable, checkpoint_name as checkpoint_name, checkpoint_policies as checkpoint_policies,
    print_saved_residuals as print_saved_residuals)
from core._engine.api.ad_checkpoint import __getattr__ as __getattr__
