"""`jax.scipy.sparse`: iterative linear solvers (jax.scipy.sparse.linalg)."""
from . import linalg  # noqa: F401
