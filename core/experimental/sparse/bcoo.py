"""`jax.experimental.sparse.bcoo`: the BCOO class and the bcoo_* functions gradpad has
(bcoo_fromdense, bcoo_todense, bcoo_dot_general); the others of JAX's module are not implemented."""
from . import BCOO, bcoo_dot_general, bcoo_fromdense, bcoo_todense  # noqa: F401

__all__ = ["BCOO", "bcoo_dot_general", "bcoo_fromdense", "bcoo_todense"]
