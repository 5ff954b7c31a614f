# face: re-exports core._engine.libraries.scipy.stats.bernoulli (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.bernoulli`: k in {0, 1} with P(1) = p.

`jax.scipy.stats.bernoulli`'s public face: the implementation is core/_engine/libraries/scipy/stats/bernoulli.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.bernoulli import (cdf as cdf, logpmf as logpmf, pmf as pmf,
    ppf as ppf)
