# face: re-exports core._engine.libraries.scipy.stats.norm (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.norm`: the normal distribution, written with lax ops as JAX writes it.

`jax.scipy.stats.norm`'s public face: the implementation is core/_engine/libraries/scipy/stats/norm.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.norm import (cdf as cdf, isf as isf, logcdf as logcdf,
    logpdf as logpdf, logsf as logsf, pdf as pdf, ppf as ppf, sf as sf)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
