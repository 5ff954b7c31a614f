# face: re-exports core._engine.libraries.scipy (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy`: the few SciPy functions tutorials reach for (special functions).

`jax.scipy`'s public face: the implementation is core/_engine/libraries/scipy/ (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core.scipy import cluster
from core.scipy import fft
from core.scipy import integrate
from core.scipy import interpolate
from core.scipy import linalg
from core.scipy import ndimage
from core.scipy import optimize
from core.scipy import signal
from core.scipy import sparse
from core.scipy import special
from core.scipy import stats
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
