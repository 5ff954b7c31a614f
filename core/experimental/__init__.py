"""`jax.experimental`: the public names JAX still keeps here (io_callback, layouts)."""
from ..callbacks import io_callback  # noqa: F401
