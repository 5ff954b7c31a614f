# face: re-exports core._engine.libraries.scipy.stats.multinomial (no logic here)
"""`jax.scipy.stats.multinomial`: counts of n draws over categories: pmf n! prod p_i^x_i / x_i!.

`jax.scipy.stats.multinomial`'s public face: the implementation is core/_engine/libraries/scipy/stats/multinomial.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats.multinomial import (logpmf as logpmf, pmf as pmf)
