"""`jax.tree`: the short names for tree_util functions."""
from .tree_util import (all_leaves, tree_all as all, tree_flatten as flatten, tree_flatten_with_path as flatten_with_path,
                        tree_leaves as leaves, tree_leaves_with_path as leaves_with_path, tree_map as map,
                        tree_map_with_path as map_with_path, tree_reduce as reduce, tree_structure as structure,
                        tree_transpose as transpose, tree_unflatten as unflatten)

__all__ = ["all", "flatten", "leaves", "map", "reduce", "structure", "transpose", "unflatten", "flatten_with_path",
           "leaves_with_path", "map_with_path", "all_leaves"]


from ._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
