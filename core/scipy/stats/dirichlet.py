# face: re-exports core._engine.libraries.scipy.stats.dirichlet (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.dirichlet`: density on the simplex, prod x_i^(alpha_i - 1) / B(alpha).

`jax.scipy.stats.dirichlet`'s public face: the implementation is core/_engine/libraries/scipy/stats/dirichlet.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.dirichlet import (logpdf as logpdf, pdf as pdf)
