# face: re-exports core._engine.libraries.scipy.stats.binom (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.binom`: C(n, k) p^k (1-p)^(n-k) for k in 0..n (shifted by loc).

`jax.scipy.stats.binom`'s public face: the implementation is core/_engine/libraries/scipy/stats/binom.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.binom import (logpmf as logpmf, pmf as pmf)
