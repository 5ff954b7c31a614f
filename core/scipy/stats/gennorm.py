# face: re-exports core._engine.libraries.scipy.stats.gennorm (no logic here)
"""`jax.scipy.stats.gennorm`: the generalised normal: density beta exp(-|x|^beta) / (2 Gamma(1/beta)).

`jax.scipy.stats.gennorm`'s public face: the implementation is core/_engine/libraries/scipy/stats/gennorm.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.gennorm import (cdf as cdf, logpdf as logpdf, pdf as pdf)
