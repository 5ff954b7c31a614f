# face: re-exports core._engine.base.version (written by tools/move_to_layers.py; no logic here)
"""`jax.version`: the JAX release whose public behaviour gradpad reproduces.

`jax.version`'s public face: the implementation is core/_engine/base/version.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.version import (__version__ as __version__, __version_info__ as __version_info__)
