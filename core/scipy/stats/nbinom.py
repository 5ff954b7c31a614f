# face: re-exports core._engine.libraries.scipy.stats.nbinom (no logic here)
"""`jax.scipy.stats.nbinom`: failures before the n-th success: pmf C(k + n - 1, n - 1) p^n (1 - p)^k.

`jax.scipy.stats.nbinom`'s public face: the implementation is core/_engine/libraries/scipy/stats/nbinom.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.nbinom import (logpmf as logpmf, pmf as pmf)
