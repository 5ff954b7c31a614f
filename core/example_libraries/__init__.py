# face: re-exports core._engine.api.example_libraries (written by tools/move_to_layers.py; no logic here)
"""`jax.example_libraries`: the small optimizer library JAX's tutorials (and numpyro) use.

`jax.example_libraries`'s public face: the implementation is core/_engine/api/example_libraries/ (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core.example_libraries import optimizers
from core.example_libraries import stax
