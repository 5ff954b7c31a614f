# face: re-exports core._engine.libraries.scipy.stats.geom (no logic here)
"""`jax.scipy.stats.geom`: trials up to the first success: pmf (1 - p)^(k - 1) p for k >= 1.

`jax.scipy.stats.geom`'s public face: the implementation is core/_engine/libraries/scipy/stats/geom.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.geom import (logpmf as logpmf, pmf as pmf)
