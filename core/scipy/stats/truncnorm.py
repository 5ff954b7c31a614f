# face: re-exports core._engine.libraries.scipy.stats.truncnorm (written by hand in the move_to_layers style; no logic here)
"""`jax.scipy.stats.truncnorm`: the normal distribution restricted to [a, b] (standard units).

`jax.scipy.stats.truncnorm`'s public face: the implementation is core/_engine/libraries/scipy/stats/truncnorm.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.truncnorm import (cdf as cdf, logcdf as logcdf, logpdf as logpdf,
    logsf as logsf, pdf as pdf, sf as sf)
