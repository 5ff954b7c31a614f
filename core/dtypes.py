# face: re-exports core._engine.base.dtypes (written by tools/move_to_layers.py; no logic here)
"""Dtypes as JAX sees them: canonical (x64-dependent) dtypes, weak types and the promotion lattice.

`jax.dtypes`'s public face: the implementation is core/_engine/base/dtypes.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.dtypes import (EMULATED_BF16 as EMULATED_BF16,
    TypePromotionError as TypePromotionError, bfloat16 as bfloat16, canonicalize_dtype as canonicalize_dtype,
    extended as extended, finfo as finfo, float0 as float0, iinfo as iinfo, issubdtype as issubdtype,
    itemsize_bits as itemsize_bits, prng_key as prng_key, result_type as result_type,
    scalar_type_of as scalar_type_of)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
