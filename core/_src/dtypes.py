"""`jax._src.dtypes` (equinox imports TypePromotionError from here)."""
import numpy as np

from ..dtypes import *  # noqa: F401,F403
from ..dtypes import TypePromotionError, extended, float0, issubdtype, prng_key  # noqa: F401


class ExtendedDType:
    """Base of dtypes that are not numpy's (flax.linen's fp8 meta dtype subclasses it at import)."""
    type: type = extended
    name: str = "extended"


DType = np.dtype  # an annotation in flax.linen.fp8_ops


def supports_inf(dtype) -> bool:
    return np.dtype(dtype).kind in "fc"
