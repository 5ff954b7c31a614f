# face: re-exports core._engine.libraries.scipy.integrate (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.integrate`: the trapezoidal rule (jnp.trapezoid).

`jax.scipy.integrate`'s public face: the implementation is core/_engine/libraries/scipy/integrate.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.integrate import (trapezoid as trapezoid)
