# face: re-exports core._engine.libraries.scipy.stats.expon (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.expon`: rate 1/scale, support x >= loc.

`jax.scipy.stats.expon`'s public face: the implementation is core/_engine/libraries/scipy/stats/expon.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.expon import (cdf as cdf, logcdf as logcdf, logpdf as logpdf,
    logsf as logsf, pdf as pdf, ppf as ppf, sf as sf)
