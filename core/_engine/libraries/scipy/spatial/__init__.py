"""`jax.scipy.spatial`: rotations in 3-d (the `transform` submodule)."""
from . import transform  # noqa: F401
