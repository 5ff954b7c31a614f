# face: re-exports core._engine.libraries.scipy.stats.betabinom (no logic here)
"""`jax.scipy.stats.betabinom`: a binomial whose p is Beta(a, b) distributed.

`jax.scipy.stats.betabinom`'s public face: the implementation is core/_engine/libraries/scipy/stats/betabinom.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.betabinom import (logpmf as logpmf, pmf as pmf)
