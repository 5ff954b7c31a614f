"""`jax._src.tree_util` (flax.nnx reads the pytree registry to see which types are nodes)."""
from ..tree_util import _registry  # noqa: F401
