# face: re-exports core._engine.libraries.scipy.stats.multivariate_normal (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.multivariate_normal`: log density through a Cholesky factor of cov.

`jax.scipy.stats.multivariate_normal`'s public face: the implementation is core/_engine/libraries/scipy/stats/multivariate_normal.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.multivariate_normal import (logpdf as logpdf, pdf as pdf)
