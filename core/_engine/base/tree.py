"""`jax.tree`: the short names for tree_util functions."""
import dataclasses

from .tree_util import (all_leaves, tree_broadcast as broadcast, tree_reduce_associative as reduce_associative, tree_all as all, tree_flatten as flatten, tree_flatten_with_path as flatten_with_path,
                        tree_leaves as leaves, tree_leaves_with_path as leaves_with_path, tree_map as map,
                        tree_map_with_path as map_with_path, tree_reduce as reduce, tree_structure as structure,
                        tree_transpose as transpose, tree_unflatten as unflatten)

__all__ = ["all", "flatten", "leaves", "map", "reduce", "structure", "transpose", "unflatten", "flatten_with_path",
           "leaves_with_path", "map_with_path", "all_leaves", "broadcast", "reduce_associative", "static"]


def static(**kwargs):
    """A dataclass field marked static (metadata, not a child) for `register_dataclass`:
    the arguments are `dataclasses.field`'s."""
    metadata = dict(kwargs.pop("metadata", None) or {})
    metadata["static"] = True
    return dataclasses.field(metadata=metadata, **kwargs)


from ._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
