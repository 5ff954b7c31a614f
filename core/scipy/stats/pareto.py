# face: re-exports core._engine.libraries.scipy.stats.pareto (no logic here)
"""`jax.scipy.stats.pareto`: density b / z^(b + 1) for z >= 1.

`jax.scipy.stats.pareto`'s public face: the implementation is core/_engine/libraries/scipy/stats/pareto.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.pareto import (cdf as cdf, logcdf as logcdf, logpdf as logpdf,
    logsf as logsf, pdf as pdf, ppf as ppf, sf as sf)
