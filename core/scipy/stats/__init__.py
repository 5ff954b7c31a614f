"""`jax.scipy.stats`: the distributions tutorials reach for."""
from . import norm  # noqa: F401


from ..._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
