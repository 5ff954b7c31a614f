# face: re-exports core._engine.libraries.scipy.stats.vonmises (no logic here)
"""`jax.scipy.stats.vonmises`: the circular normal: density exp(kappa cos x) / (2 pi I0(kappa)) on [-pi, pi].

`jax.scipy.stats.vonmises`'s public face: the implementation is core/_engine/libraries/scipy/stats/vonmises.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.vonmises import (logpdf as logpdf, pdf as pdf)
