# face: re-exports core._engine.api.stages (written by tools/move_to_layers.py; no logic here)
"""`jax.stages`: what `jit(f).trace(...)`, `.lower(...)` and `.compile()` return.

`jax.stages`'s public face: the implementation is core/_engine/api/stages.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.stages import (ArgInfo as ArgInfo, Compiled as Compiled,
    CompilerOptions as CompilerOptions, Lowered as Lowered, Traced as Traced, Wrapped as Wrapped)
