# face: re-exports core._engine.libraries.scipy.stats.poisson (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.poisson`: pmf mu^k e^-mu / k! for integer k >= loc.

`jax.scipy.stats.poisson`'s public face: the implementation is core/_engine/libraries/scipy/stats/poisson.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.poisson import (cdf as cdf, entropy as entropy, logpmf as logpmf,
    pmf as pmf)
