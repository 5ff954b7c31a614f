# face: re-exports core._engine.libraries.ops (written by tools/move_to_layers.py; no logic here)
"""`jax.ops`: segment reductions, as a scatter of `data` into `num_segments` rows that start at
the reduction's identity (ids out of range are dropped, JAX's FILL_OR_DROP).

`jax.ops`'s public face: the implementation is core/_engine/libraries/ops.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.ops import (segment_max as segment_max, segment_min as segment_min,
    segment_prod as segment_prod, segment_sum as segment_sum)
