"""`jax.scipy.stats`: probability distributions written with lax/jnp ops (grad, jit and vmap compose)."""
from . import bernoulli, beta, cauchy, chi2, dirichlet, expon, gamma, laplace, logistic  # noqa: F401
from . import binom, multivariate_normal, norm, poisson, t, truncnorm, uniform  # noqa: F401
# issue 24 (mods14): the rest of JAX 0.10.2's distributions
from . import betabinom, gennorm, geom, gumbel_l, gumbel_r, multinomial, nbinom, pareto  # noqa: F401
from . import vonmises, wrapcauchy  # noqa: F401

# ---- issue 11, area "special": descriptive statistics and the kernel density estimate ------------
from ._descriptive import ModeResult, mode, rankdata, sem  # noqa: E402,F401
from ._kde import gaussian_kde  # noqa: E402,F401
# ---- end of area "special" ---------------------------------------------------------------------


from ....base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
