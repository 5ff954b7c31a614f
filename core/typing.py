# face: re-exports core._engine.tracing.typing (written by tools/move_to_layers.py; no logic here)
"""`jax.typing`: the annotations JAX's own signatures use (ArrayLike, DTypeLike).

`jax.typing`'s public face: the implementation is core/_engine/tracing/typing.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.tracing.typing import (ArrayLike as ArrayLike, DTypeLike as DTypeLike)
from core._engine.tracing.typing import __all__ as __all__
