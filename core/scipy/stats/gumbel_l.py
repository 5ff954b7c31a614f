# face: re-exports core._engine.libraries.scipy.stats.gumbel_l (no logic here)
"""`jax.scipy.stats.gumbel_l`: the left-skewed Gumbel: density exp(z - e^z) / scale.

`jax.scipy.stats.gumbel_l`'s public face: the implementation is core/_engine/libraries/scipy/stats/gumbel_l.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.gumbel_l import (cdf as cdf, logcdf as logcdf, logpdf as logpdf,
    logsf as logsf, pdf as pdf, ppf as ppf, sf as sf)
