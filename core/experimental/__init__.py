"""`jax.experimental`: the public names JAX still keeps here (io_callback, layouts)."""
from .._engine.libraries.callbacks import io_callback  # noqa: F401
from . import checkify  # noqa: F401,E402

# ---- conf2 area: multihost_utils for one process ----
from . import multihost_utils  # noqa: F401,E402
