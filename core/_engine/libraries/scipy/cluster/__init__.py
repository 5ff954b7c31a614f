"""`jax.scipy.cluster`: vector quantisation (the `vq` submodule)."""
from . import vq  # noqa: F401
