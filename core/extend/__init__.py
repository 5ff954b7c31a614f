"""`jax.extend`: JAX's API for libraries that add primitives or read jaxprs."""
from . import core, linear_util, source_info_util  # noqa: F401
