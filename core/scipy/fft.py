# face: re-exports core._engine.libraries.scipy.fft (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.fft`: the type-2 discrete cosine transform and its inverse, over jnp.fft.

`jax.scipy.fft`'s public face: the implementation is core/_engine/libraries/scipy/fft.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.fft import (dct as dct, dctn as dctn, idct as idct, idctn as idctn)
from core._engine.libraries.scipy.fft import __all__ as __all__
