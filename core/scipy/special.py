# face: re-exports core._engine.libraries.scipy.special (written by tools/move_to_layers.py; no logic here)
"""`jax.scipy.special`: special functions on jax arrays (inputs promote to inexact, as in JAX).

`jax.scipy.special`'s public face: the implementation is core/_engine/libraries/scipy/special.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.scipy.special import (bernoulli as bernoulli, bessel_jn as bessel_jn,
    beta as beta, betainc as betainc, betaln as betaln, boxcox as boxcox, boxcox1p as boxcox1p, comb as comb,
    dawsn as dawsn, digamma as digamma, entr as entr, erf as erf, erfc as erfc, erfcx as erfcx,
    erfinv as erfinv, exp1 as exp1, expi as expi, expit as expit, expn as expn, factorial as factorial,
    fresnel as fresnel, gamma as gamma, gammainc as gammainc, gammaincc as gammaincc, gammaln as gammaln,
    gammasgn as gammasgn, hyp1f1 as hyp1f1, hyp2f1 as hyp2f1, i0 as i0, i0e as i0e, i1 as i1, i1e as i1e,
    kl_div as kl_div, log_ndtr as log_ndtr, log_softmax as log_softmax, loggamma as loggamma, logit as logit,
    logsumexp as logsumexp, multigammaln as multigammaln, ndtr as ndtr, ndtri as ndtri, owens_t as owens_t,
    poch as poch, polygamma as polygamma, rel_entr as rel_entr, sici as sici, softmax as softmax,
    spence as spence, sph_harm_y as sph_harm_y, wofz as wofz, xlog1py as xlog1py, xlogy as xlogy,
    zeta as zeta)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
