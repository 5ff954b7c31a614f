# face: re-exports core._engine.libraries.scipy.stats.gamma (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.gamma`: shape a, density x^(a-1) e^-x / Gamma(a) (cdf needs the incomplete gamma).

`jax.scipy.stats.gamma`'s public face: the implementation is core/_engine/libraries/scipy/stats/gamma.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.gamma import (cdf as cdf, logcdf as logcdf, logpdf as logpdf,
    logsf as logsf, pdf as pdf, sf as sf)
