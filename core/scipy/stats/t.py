# face: re-exports core._engine.libraries.scipy.stats.t (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats.t`: Student's t with df degrees of freedom.

`jax.scipy.stats.t`'s public face: the implementation is core/_engine/libraries/scipy/stats/t.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.t import (logpdf as logpdf, pdf as pdf)
