"""`jax.scipy.stats`: probability distributions written with lax/jnp ops (grad, jit and vmap compose)."""
from . import bernoulli, beta, cauchy, chi2, dirichlet, expon, gamma, laplace, logistic  # noqa: F401
from . import binom, multivariate_normal, norm, poisson, t, uniform  # noqa: F401


from ..._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
