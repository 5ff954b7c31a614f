# face: re-exports core._engine.libraries.scipy.stats.beta (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.beta`: density x^(a-1) (1-x)^(b-1) / B(a, b) on [0, 1] (cdf needs betainc).

`jax.scipy.stats.beta`'s public face: the implementation is core/_engine/libraries/scipy/stats/beta.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.beta import (cdf as cdf, logcdf as logcdf, logpdf as logpdf,
    logsf as logsf, pdf as pdf, sf as sf)
