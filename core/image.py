# face: re-exports core._engine.libraries.image (written by tools/move_to_layers.py; no logic here)
"""`jax.image`: resize and scale_and_translate. Every spatial dimension whose size changes is
contracted with a (input, output) weight matrix built from the method's kernel (widened by
1/scale when downsampling with antialias, as JAX does); 'nearest' gathers instead.

`jax.image`'s public face: the implementation is core/_engine/libraries/image.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.image import (ResizeMethod as ResizeMethod, resize as resize,
    scale_and_translate as scale_and_translate)
