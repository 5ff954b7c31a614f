# face: re-exports core._engine.libraries.random (written by tools/move_to_layers.py; no logic here)
"""`jax.random`: counter-based threefry2x32 PRNG, bit-exact with JAX.

`jax.random`'s public face: the implementation is core/_engine/libraries/random.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.random import (PRNGKey as PRNGKey, ball as ball, bernoulli as bernoulli,
    beta as beta, binomial as binomial, bits as bits, categorical as categorical, cauchy as cauchy,
    chisquare as chisquare, choice as choice, clone as clone, dirichlet as dirichlet,
    double_sided_maxwell as double_sided_maxwell, exponential as exponential, f as f, fold_in as fold_in,
    gamma as gamma, generalized_normal as generalized_normal, geometric as geometric, gumbel as gumbel,
    key as key, key_data as key_data, key_dtype as key_dtype, key_impl as key_impl, laplace as laplace,
    loggamma as loggamma, logistic as logistic, lognormal as lognormal, maxwell as maxwell,
    multinomial as multinomial, multivariate_normal as multivariate_normal, normal as normal,
    orthogonal as orthogonal, pareto as pareto, permutation as permutation, poisson as poisson,
    rademacher as rademacher, randint as randint, random_gamma_p as random_gamma_p, rayleigh as rayleigh,
    split as split, t as t, threefry_2x32 as threefry_2x32, triangular as triangular,
    truncated_normal as truncated_normal, uniform as uniform, wald as wald, weibull_min as weibull_min,
    wrap_key_data as wrap_key_data)
from core._engine.libraries.random import __all__ as __all__
from core._engine.libraries.random import __getattr__ as __getattr__
