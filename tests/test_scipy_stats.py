"""jax.scipy.stats.norm against real JAX 0.10.2 (values printed by the quoted calls; float32,
compared to a few ulp because XLA's exp/log/erf differ from numpy's in the last bit)."""
import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core.scipy.stats import norm

X = jnp.array([-2.0, -0.5, 0.0, 1.0, 3.0])

CASES = [
    # jax.scipy.stats.norm.pdf(x)
    ("pdf", (), [0.05399096, 0.35206532, 0.3989423, 0.24197073, 0.00443185]),
    # jax.scipy.stats.norm.logpdf(x, 1., 2.)
    ("logpdf", (1.0, 2.0), [-2.7370858, -1.8933357, -1.7370857, -1.6120857, -2.1120858]),
    # jax.scipy.stats.norm.cdf(x)
    ("cdf", (), [0.02275013, 0.30853754, 0.5, 0.8413447, 0.9986501]),
    # jax.scipy.stats.norm.sf(x, 1., 2.)
    ("sf", (1.0, 2.0), [0.9331928, 0.77337265, 0.69146246, 0.5, 0.15865527]),
]


@pytest.mark.parametrize("name,args,expected", CASES, ids=[c[0] for c in CASES])
def test_norm(name, args, expected):
    got = getattr(norm, name)(X, *args)
    assert got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-6, atol=1e-7)


def test_ppf_and_grad():
    # jax.scipy.stats.norm.ppf(jnp.array([0.1, 0.5, 0.975])) -> [-1.2815516, 0., 1.9599643]
    np.testing.assert_allclose(np.asarray(norm.ppf(jnp.array([0.1, 0.5, 0.975]))),
                               [-1.2815516, 0.0, 1.9599643], rtol=1e-6, atol=1e-7)
    # jax.grad(lambda v: norm.logpdf(v).sum())(x) == -x
    np.testing.assert_allclose(np.asarray(jax.grad(lambda v: norm.logpdf(v).sum())(X)), -np.asarray(X))
