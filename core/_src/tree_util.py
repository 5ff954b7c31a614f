"""`jax._src.tree_util` (flax.nnx reads the pytree registry to see which types are nodes)."""
from .._engine.base.tree_util import _registry  # noqa: F401
from ..tree_util import flatten_one_level  # noqa: F401  [docs2] JAX's docstring imports it from here
