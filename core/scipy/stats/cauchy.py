# face: re-exports core._engine.libraries.scipy.stats.cauchy (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.cauchy`: density 1 / (pi scale (1 + z^2)).

`jax.scipy.stats.cauchy`'s public face: the implementation is core/_engine/libraries/scipy/stats/cauchy.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.cauchy import (cdf as cdf, isf as isf, logcdf as logcdf,
    logpdf as logpdf, logsf as logsf, pdf as pdf, ppf as ppf, sf as sf)
