# face: re-exports core._engine.libraries.scipy.stats.uniform (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.uniform` on [loc, loc + scale].

`jax.scipy.stats.uniform`'s public face: the implementation is core/_engine/libraries/scipy/stats/uniform.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.uniform import (cdf as cdf, logpdf as logpdf, pdf as pdf, ppf as ppf)
