"""Where gradpad's new jax.scipy modules (issue 24, mods14) answer and JAX 0.10.2 does not, so no golden
case can record it (tests/golden/cases_mods14.py holds the rest): the Gumbel distributions' logpdf
derivative in scale and ppf's derivative. JAX writes log(scale) as xlogy(-1, scale) and ppf with
xlogy(-1, p) / xlog1py(-1, -p); its xlogy jvp multiplies the integer -1's float0 tangent and raises
TypeError. Here the derivative is the exact one (docs/compatibility.md)."""
from __future__ import annotations

import math

import numpy as np

import core as jax
import core.scipy.stats  # noqa: F401


def test_gumbel_r_logpdf_derivative_in_scale_is_exact():
    x, loc, s = 0.3, 0.1, 1.2
    z = (x - loc) / s
    # logpdf = -log s - z - exp(-z); dz/ds = -z/s
    want = -1 / s + z / s - z * math.exp(-z) / s
    got = jax.grad(jax.scipy.stats.gumbel_r.logpdf, argnums=2)(x, loc, s)
    np.testing.assert_allclose(float(got), want, rtol=1e-6)


def test_gumbel_l_logpdf_derivative_in_scale_is_exact():
    x, loc, s = 0.3, 0.1, 1.2
    z = (x - loc) / s
    # logpdf = -log s + z - exp(z)
    want = -1 / s - z / s + z * math.exp(z) / s
    got = jax.grad(jax.scipy.stats.gumbel_l.logpdf, argnums=2)(x, loc, s)
    np.testing.assert_allclose(float(got), want, rtol=1e-6)


def test_gumbel_ppf_derivatives_are_exact():
    p, s = 0.3, 2.0
    # gumbel_l: loc + s log(-log(1 - p)); gumbel_r: loc - s log(-log p)
    want_l = s / (-math.log1p(-p) * (1 - p))
    want_r = -s / (math.log(p) * p)
    np.testing.assert_allclose(float(jax.grad(jax.scipy.stats.gumbel_l.ppf)(p, 0.0, s)), want_l, rtol=1e-6)
    np.testing.assert_allclose(float(jax.grad(jax.scipy.stats.gumbel_r.ppf)(p, 0.0, s)), want_r, rtol=1e-6)
