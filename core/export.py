# face: re-exports core._engine.api.export (written by tools/move_to_layers.py; no logic here)
"""jax.export serializes a jitted function as StableHLO for XLA to run elsewhere. gradpad compiles
jaxprs to Python/numpy and WGSL, never to StableHLO, so there is nothing to export: each name
exists and raises NotImplementedError saying why and what to do instead (docs/compatibility.md).
The constants and the symbolic-dimension test answer as JAX's do.

`jax.export`'s public face: the implementation is core/_engine/api/export.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.export import (DisabledSafetyCheck as DisabledSafetyCheck, Exported as Exported,
    SymbolicScope as SymbolicScope, default_export_platform as default_export_platform,
    deserialize as deserialize, export as export, is_symbolic_dim as is_symbolic_dim,
    maximum_supported_calling_convention_version as maximum_supported_calling_convention_version,
    minimum_supported_calling_convention_version as minimum_supported_calling_convention_version,
    register_namedtuple_serialization as register_namedtuple_serialization,
    register_pytree_node_serialization as register_pytree_node_serialization,
    symbolic_args_specs as symbolic_args_specs, symbolic_shape as symbolic_shape)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
