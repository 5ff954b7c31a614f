"""`jax.experimental.sparse.api`: the sparse array classes and todense (what gradpad has of JAX's
module: BCOO, BCSR, JAXSparse, todense; no COO/CSR/CSC, empty or eye)."""
from . import BCOO, BCSR, JAXSparse, todense  # noqa: F401

__all__ = ["BCOO", "BCSR", "JAXSparse", "todense"]
