# face: re-exports core._engine.libraries.scipy.stats.wrapcauchy (no logic here)
"""`jax.scipy.stats.wrapcauchy`: the Cauchy wrapped round the circle, on [0, 2 pi].

`jax.scipy.stats.wrapcauchy`'s public face: the implementation is core/_engine/libraries/scipy/stats/wrapcauchy.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.wrapcauchy import (logpdf as logpdf, pdf as pdf)
