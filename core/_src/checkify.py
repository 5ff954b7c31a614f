"""`jax._src.checkify` (flax.nnx imports checkify from here)."""
from ..experimental.checkify import *  # noqa: F401,F403
from ..experimental.checkify import JaxException, Error, checkify, user_checks  # noqa: F401

Out = object  # a type variable in JAX (flax uses it in annotations only)
