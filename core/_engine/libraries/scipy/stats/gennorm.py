"""`jax.scipy.stats.gennorm`: the generalised normal, density beta exp(-|x|^beta) / (2 Gamma(1/beta))
(beta = 2 is a normal with variance 1/2, beta = 1 the Laplace)."""
from __future__ import annotations

from ....lax import lax
from ._common import args


def logpdf(x, beta):
    x, beta = args("gennorm.logpdf", x, beta)
    return lax.log(0.5 * beta) - lax.lgamma(1 / beta) - lax.abs(x) ** beta


def pdf(x, beta):
    return lax.exp(logpdf(x, beta))


def cdf(x, beta):
    x, beta = args("gennorm.cdf", x, beta)
    # the mass between 0 and |x| is half the regularised lower incomplete gamma P(1/beta, |x|^beta)
    return 0.5 * (1 + lax.sign(x) * lax.igamma(1 / beta, lax.abs(x) ** beta))
