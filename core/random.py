# face: re-exports core._engine.libraries.random (written by tools/move_to_layers.py; no logic here)
"""`jax.random`: counter-based threefry2x32 PRNG, bit-exact with JAX.

`jax.random`'s public face: the implementation is core/_engine/libraries/random.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.random import (Array as Array, FRY as FRY, KEY_DTYPE as KEY_DTYPE,
    KEY_DTYPE_FACE as KEY_DTYPE_FACE, KEY_NAME as KEY_NAME, KeyDType as KeyDType, PRNGKey as PRNGKey,
    PRNGKeyArray as PRNGKeyArray, Sequence as Sequence, ShapedArray as ShapedArray, Tracer as Tracer,
    UINT_DTYPES as UINT_DTYPES, ball as ball, batch_rules as batch_rules, bernoulli as bernoulli,
    beta as beta, binomial as binomial, bits as bits, categorical as categorical, cauchy as cauchy,
    chisquare as chisquare, choice as choice, clone as clone, config as config, define as define,
    dirichlet as dirichlet, double_sided_maxwell as double_sided_maxwell, exponential as exponential, f as f,
    fold_in as fold_in, gamma as gamma, generalized_normal as generalized_normal, geometric as geometric,
    get_aval as get_aval, gumbel as gumbel, jit as jit, key as key, key_data as key_data,
    key_dtype as key_dtype, key_impl as key_impl, key_repr as key_repr, laplace as laplace,
    loggamma as loggamma, logistic as logistic, lognormal as lognormal, maxwell as maxwell,
    moveaxis as moveaxis, multinomial as multinomial, multivariate_normal as multivariate_normal,
    normal as normal, orthogonal as orthogonal, pareto as pareto, partial as partial,
    permutation as permutation, poisson as poisson, rademacher as rademacher, randint as randint,
    random_bits_p as random_bits_p, random_fold_in_p as random_fold_in_p, random_gamma_p as random_gamma_p,
    random_seed_p as random_seed_p, random_split_p as random_split_p, random_unwrap_p as random_unwrap_p,
    random_wrap_p as random_wrap_p, rayleigh as rayleigh, split as split, t as t,
    threefry2x32_np as threefry2x32_np, threefry2x32_p as threefry2x32_p, threefry_2x32 as threefry_2x32,
    triangular as triangular, truncated_normal as truncated_normal, uniform as uniform,
    unwrap_words as unwrap_words, wald as wald, weibull_min as weibull_min, wrap_key_data as wrap_key_data,
    wrap_words as wrap_words)
from core._engine.libraries.random import __all__ as __all__
from core._engine.transforms import ad as ad
from core import dtypes
from core import numpy as jnp
from core import lax
from core._engine.libraries import normal_table as normal_table
from core._engine.libraries import random_eager as random_eager
from core._engine.libraries.random import __getattr__ as __getattr__
