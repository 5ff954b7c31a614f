"""`jax.experimental.sparse.bcsr`: the BCSR class (2-d, through the BCOO form); JAX's bcsr_* functions
are not implemented."""
from . import BCSR  # noqa: F401

__all__ = ["BCSR"]
