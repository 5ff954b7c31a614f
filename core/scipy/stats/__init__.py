# face: re-exports core._engine.libraries.scipy.stats (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.stats`: probability distributions written with lax/jnp ops (grad, jit and vmap compose).

`jax.scipy.stats`'s public face: the implementation is core/_engine/libraries/scipy/stats/ (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.stats import (gaussian_kde as gaussian_kde, mode as mode,
    rankdata as rankdata, sem as sem)
from core.scipy.stats import bernoulli
from core.scipy.stats import beta
from core.scipy.stats import betabinom
from core.scipy.stats import binom
from core.scipy.stats import cauchy
from core.scipy.stats import chi2
from core.scipy.stats import dirichlet
from core.scipy.stats import expon
from core.scipy.stats import gamma
from core.scipy.stats import gennorm
from core.scipy.stats import geom
from core.scipy.stats import gumbel_l
from core.scipy.stats import gumbel_r
from core.scipy.stats import laplace
from core.scipy.stats import logistic
from core.scipy.stats import multinomial
from core.scipy.stats import multivariate_normal
from core.scipy.stats import nbinom
from core.scipy.stats import norm
from core.scipy.stats import pareto
from core.scipy.stats import poisson
from core.scipy.stats import t
from core.scipy.stats import truncnorm
from core.scipy.stats import uniform
from core.scipy.stats import vonmises
from core.scipy.stats import wrapcauchy
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
