"""`jax.scipy.stats.truncnorm`: the normal distribution restricted to [a, b], a and b in standard units
(scipy's convention: the support is [loc + a * scale, loc + b * scale]).

Everything goes through the log of a standard normal's mass on an interval, computed the way JAX
0.10.2 computes it so values, gradients and the far tails agree with it: an interval wholly right of
0 is mirrored to the left (log_ndtr is accurate there), a tail interval's mass is
log(Phi(hi) - Phi(lo)) taken in log space, and an interval straddling 0 uses log1p(-Phi(lo) - Phi(-hi)),
which keeps its precision as the mass nears 1. Both branches are always computed and a `where` picks
one, as in JAX (so a gradient through the unpicked branch is the same as JAX's)."""
from __future__ import annotations

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from .. import special
from . import norm


def _args(name, *args):
    return jnp._promote_args_inexact(name, *args)


def _log_minus(p, q):
    """log(exp(p) - exp(q)) as a signed logsumexp over a stacked axis (nan where q > p)."""
    weights = jnp.stack([jnp.ones_like(p), -jnp.ones_like(q)])
    return special.logsumexp(jnp.stack([p, q]), b=weights, axis=0)


def _log_mass(lo, hi):
    """log of the standard normal's probability of [lo, hi] (lo <= hi)."""
    lo, hi = jnp.broadcast_arrays(jnp.array(lo), jnp.array(hi))
    wholly_left = hi <= 0
    wholly_right = lo > 0
    straddles = ~(wholly_left | wholly_right)
    # mass of [lo, hi] equals mass of [-hi, -lo]: one left-tail formula serves both tails
    t_lo = jnp.where(wholly_right, -hi, lo)
    t_hi = jnp.where(wholly_right, -lo, hi)
    tail = _log_minus(special.log_ndtr(t_hi), special.log_ndtr(t_lo))
    middle = jnp.log1p(-special.ndtr(lo) - special.ndtr(-hi))
    return jnp.where(straddles, middle, tail)


def logpdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = _args("truncnorm.logpdf", x, a, b, loc, scale)
    out = lax.sub(norm.logpdf(x, loc, scale), _log_mass(a, b))
    z = lax.div(lax.sub(x, loc), scale)
    out = jnp.where((z < a) | (z > b), -np.inf, out)
    return jnp.where(a >= b, np.nan, out)


def pdf(x, a, b, loc=0, scale=1):
    return lax.exp(logpdf(x, a, b, loc, scale))


def logcdf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = _args("truncnorm.logcdf", x, a, b, loc, scale)
    x, a, b = jnp.broadcast_arrays(x, a, b)
    z = lax.div(lax.sub(x, loc), scale)
    total = _log_mass(a, b)
    below = _log_mass(a, z) - total     # log P(Z <= z | a <= Z <= b)
    above = _log_mass(z, b) - total     # log P(Z > z | a <= Z <= b)
    # near 1 the cdf is better as 1 - sf (scipy's rule, which JAX follows)
    out = jnp.select([z >= b, z <= a, below > -0.1, z > a],
                     [0, -np.inf, jnp.log1p(-jnp.exp(above)), below])
    return jnp.where(a >= b, np.nan, out)


def cdf(x, a, b, loc=0, scale=1):
    return lax.exp(logcdf(x, a, b, loc, scale))


def logsf(x, a, b, loc=0, scale=1):
    x, a, b, loc, scale = _args("truncnorm.logsf", x, a, b, loc, scale)
    # the survival function is the cdf of the mirrored distribution
    return logcdf(lax.neg(x), lax.neg(b), lax.neg(a), lax.neg(loc), scale)


def sf(x, a, b, loc=0, scale=1):
    return lax.exp(logsf(x, a, b, loc, scale))


from ....base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
