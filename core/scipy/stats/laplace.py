# face: re-exports core._engine.libraries.scipy.stats.laplace (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.laplace`: density exp(-|x - loc| / scale) / (2 scale).

`jax.scipy.stats.laplace`'s public face: the implementation is core/_engine/libraries/scipy/stats/laplace.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.laplace import (cdf as cdf, logpdf as logpdf, pdf as pdf)
