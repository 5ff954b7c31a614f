# face: re-exports core._engine.api.test_util (written by tools/move_to_layers.py; no logic here)
"""`jax.test_util`: check automatic derivatives against central finite differences, along one
random direction per check (seeded, so a check is repeatable).

`jax.test_util`'s public face: the implementation is core/_engine/api/test_util.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.test_util import (check_grads as check_grads, check_jvp as check_jvp,
    check_vjp as check_vjp)
