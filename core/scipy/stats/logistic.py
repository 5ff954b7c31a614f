# face: re-exports core._engine.libraries.scipy.stats.logistic (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.logistic`: the standard logistic distribution, shifted and scaled.

`jax.scipy.stats.logistic`'s public face: the implementation is core/_engine/libraries/scipy/stats/logistic.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.logistic import (cdf as cdf, isf as isf, logpdf as logpdf, pdf as pdf,
    ppf as ppf, sf as sf)
