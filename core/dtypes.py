# face: re-exports core._engine.base.dtypes (written by tools/move_to_layers.py; no logic here)
"""Dtypes as JAX sees them: canonical (x64-dependent) dtypes, weak types and the promotion lattice.

`jax.dtypes`'s public face: the implementation is core/_engine/base/dtypes.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.dtypes import (EMULATED_BF16 as EMULATED_BF16,
    TypePromotionError as TypePromotionError, as_dtype as as_dtype, as_engine_dtype as as_engine_dtype,
    bf16 as bf16, bf16_nextafter as bf16_nextafter, bfloat16 as bfloat16, bitcast as bitcast, bool_ as bool_,
    canonicalize_dtype as canonicalize_dtype, complex128 as complex128, complex64 as complex64,
    config as config, default_complex_dtype as default_complex_dtype,
    default_float_dtype as default_float_dtype, default_int_dtype as default_int_dtype,
    default_uint_dtype as default_uint_dtype, dtype_and_weak as dtype_and_weak, dtype_name as dtype_name,
    emulated_reduce as emulated_reduce, emulated_scatter as emulated_scatter, extended as extended,
    finfo as finfo, float0 as float0, float16 as float16, float32 as float32, float64 as float64,
    float_bits as float_bits, float_dtype_for as float_dtype_for, host_array as host_array, iinfo as iinfo,
    int16 as int16, int32 as int32, int64 as int64, int8 as int8, is_bfloat16_dtype as is_bfloat16_dtype,
    is_extended as is_extended, is_python_scalar as is_python_scalar, issubdtype as issubdtype,
    itemsize_bits as itemsize_bits, kind as kind, prng_key as prng_key, promote_types as promote_types,
    public_dtype as public_dtype, python_scalar_dtype as python_scalar_dtype,
    python_scalar_value_dtype as python_scalar_value_dtype,
    reduction_computation_dtype as reduction_computation_dtype, result_type as result_type,
    result_type_weak as result_type_weak, scalar_type_of as scalar_type_of, short_name as short_name,
    step_rounding as step_rounding, uint16 as uint16, uint32 as uint32, uint64 as uint64, uint8 as uint8,
    x64_enabled as x64_enabled)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
