# face: re-exports core._engine.base.tree (written by tools/move_to_layers.py; no logic here)
"""`jax.tree`: the short names for tree_util functions.

`jax.tree`'s public face: the implementation is core/_engine/base/tree.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.tree import (all as all, all_leaves as all_leaves, broadcast as broadcast,
    flatten as flatten, flatten_with_path as flatten_with_path, leaves as leaves,
    leaves_with_path as leaves_with_path, map as map, map_with_path as map_with_path, reduce as reduce,
    reduce_associative as reduce_associative, static as static, structure as structure,
    transpose as transpose, unflatten as unflatten)
from core._engine.base.tree import __all__ as __all__
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
