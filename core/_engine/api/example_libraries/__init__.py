"""`jax.example_libraries`: the small optimizer library JAX's tutorials (and numpyro) use."""
from . import optimizers, stax  # noqa: F401
