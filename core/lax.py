# face: re-exports core._engine.lax.lax (written by tools/move_to_layers.py; no logic here)
"""`jax.lax`: thin, typed wrappers that bind primitives. No implicit promotion here.

`jax.lax`'s public face: the implementation is core/_engine/lax/lax.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.lax.lax import (DotDimensionNumbers as DotDimensionNumbers, Precision as Precision,
    abs as abs, acos as acos, acosh as acosh, add as add, argmax as argmax, argmin as argmin, asin as asin,
    asinh as asinh, atan as atan, atan2 as atan2, atanh as atanh, bessel_i0e as bessel_i0e,
    bessel_i0e_p as bessel_i0e_p, bessel_i1e as bessel_i1e, bessel_i1e_p as bessel_i1e_p, betainc as betainc,
    bitcast_convert_type as bitcast_convert_type, bitwise_and as bitwise_and, bitwise_not as bitwise_not,
    bitwise_or as bitwise_or, bitwise_xor as bitwise_xor, broadcast as broadcast,
    broadcast_in_dim as broadcast_in_dim, broadcast_to_rank as broadcast_to_rank,
    broadcasted_iota as broadcasted_iota, cbrt as cbrt, ceil as ceil, clamp as clamp, complex as complex,
    concatenate as concatenate, conj as conj, convert_element_type as convert_element_type, cos as cos,
    cosh as cosh, cumlogsumexp as cumlogsumexp, cummax as cummax, cummin as cummin, cumprod as cumprod,
    cumsum as cumsum, digamma as digamma, div as div, dot as dot, dot_general as dot_general,
    dot_general_p as dot_general_p, dynamic_index_in_dim as dynamic_index_in_dim,
    dynamic_slice as dynamic_slice, dynamic_slice_in_dim as dynamic_slice_in_dim,
    dynamic_update_index_in_dim as dynamic_update_index_in_dim, dynamic_update_slice as dynamic_update_slice,
    dynamic_update_slice_in_dim as dynamic_update_slice_in_dim, eq as eq, erf as erf, erf_inv as erf_inv,
    erfc as erfc, exp as exp, exp2 as exp2, expand_dims as expand_dims, expm1 as expm1, floor as floor,
    full as full, full_like as full_like, ge as ge, gt as gt, igamma as igamma,
    igamma_grad_a as igamma_grad_a, igamma_grad_a_p as igamma_grad_a_p, igamma_p as igamma_p,
    igammac as igammac, igammac_p as igammac_p, imag as imag, index_in_dim as index_in_dim,
    integer_pow as integer_pow, iota as iota, is_finite as is_finite, le as le, lgamma as lgamma, log as log,
    log1p as log1p, logistic as logistic, lt as lt, max as max, min as min, mul as mul, ne as ne, neg as neg,
    nextafter as nextafter, pad as pad, pbroadcast as pbroadcast, pcast as pcast, polygamma as polygamma,
    polygamma_p as polygamma_p, population_count as population_count, pow as pow, precv as precv,
    psend as psend, ragged_all_to_all as ragged_all_to_all, ragged_all_to_all_p as ragged_all_to_all_p,
    random_gamma_grad as random_gamma_grad, real as real, reciprocal as reciprocal, reduce_and as reduce_and,
    reduce_max as reduce_max, reduce_min as reduce_min, reduce_or as reduce_or, reduce_prod as reduce_prod,
    reduce_sum as reduce_sum, regularized_incomplete_beta_p as regularized_incomplete_beta_p, rem as rem,
    reshape as reshape, rev as rev, rng_bit_generator as rng_bit_generator,
    rng_bit_generator_p as rng_bit_generator_p, rng_uniform as rng_uniform, rng_uniform_p as rng_uniform_p,
    round as round, rsqrt as rsqrt, select as select, select_n as select_n, shift_left as shift_left,
    shift_right_arithmetic as shift_right_arithmetic, shift_right_logical as shift_right_logical,
    sign as sign, sin as sin, sinh as sinh, slice as slice, slice_in_dim as slice_in_dim, sort as sort,
    sort_key_val as sort_key_val, split as split, sqrt as sqrt, square as square, squeeze as squeeze,
    stop_gradient as stop_gradient, sub as sub, tan as tan, tanh as tanh, transpose as transpose,
    unstack as unstack, zeta as zeta, zeta_p as zeta_p)
from core import lax_linalg as linalg
from core._engine.lax.lax import __getattr__ as __getattr__
__path__: list = []  # `import jax.X.Y` of a submodule: core/jax_names.py SUBMODULE_FILES
