# face: re-exports core._engine.api.custom_derivatives (written by tools/move_to_layers.py; no logic here)
"""`jax.custom_derivatives`: the custom_jvp / custom_vjp entry points and their helper types.

`jax.custom_derivatives`'s public face: the implementation is core/_engine/api/custom_derivatives.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.custom_derivatives import (CustomVJPPrimal as CustomVJPPrimal,
    SymbolicZero as SymbolicZero, closure_convert as closure_convert, custom_gradient as custom_gradient,
    custom_jvp as custom_jvp, custom_jvp_call_p as custom_jvp_call_p, custom_vjp as custom_vjp,
    custom_vjp_call_p as custom_vjp_call_p, custom_vjp_primal_tree_values as custom_vjp_primal_tree_values,
    linear_call as linear_call, remat_opt_p as remat_opt_p, zero_from_primal as zero_from_primal)
from core._engine.api.custom_derivatives import __all__ as __all__
