"""`jax._src.lax.lax`: gradpad's `jax.lax` (docs/jax-primitives.md calls `lax.add`, `lax.mul`,
`lax.full_like` through it)."""
from __future__ import annotations

from ...lax import *  # noqa: F401,F403
from ...lax import add, full_like, mul  # noqa: F401
