"""`jax.experimental`: the public names JAX still keeps here (io_callback, layouts)."""
from ..callbacks import io_callback  # noqa: F401
from . import checkify  # noqa: F401,E402
