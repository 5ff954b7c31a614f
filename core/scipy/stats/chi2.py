# face: re-exports core._engine.libraries.scipy.stats.chi2 (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.chi2`: a gamma distribution with shape df/2 and scale 2.

`jax.scipy.stats.chi2`'s public face: the implementation is core/_engine/libraries/scipy/stats/chi2.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.chi2 import (cdf as cdf, logcdf as logcdf, logpdf as logpdf,
    logsf as logsf, pdf as pdf, sf as sf)
