# face: re-exports core._engine.libraries.debug (written by tools/move_to_layers.py; no logic here)
"""`jax.debug`: print and call back at run time, also inside jit/vmap/grad.

`jax.debug`'s public face: the implementation is core/_engine/libraries/debug.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.debug import (DebugEffect as DebugEffect,
    OrderedDebugEffect as OrderedDebugEffect, breakpoint as breakpoint, callback as callback,
    inspect_array_sharding as inspect_array_sharding, log as log, print as print,
    visualize_array_sharding as visualize_array_sharding, visualize_sharding as visualize_sharding)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
