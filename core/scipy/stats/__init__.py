"""`jax.scipy.stats`: the distributions tutorials reach for."""
from . import norm  # noqa: F401
