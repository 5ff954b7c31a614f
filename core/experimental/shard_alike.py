"""`jax.experimental.shard_alike`: `shard_alike(x, y)` gives x and y the same sharding. gradpad has
one device, where every array has the same (single-device) sharding: the values come back unchanged
after JAX's checks (same tree structure, same leaf shapes)."""
from __future__ import annotations

from .. import numpy as jnp
from ..tree_util import tree_flatten, tree_unflatten

__all__ = ["shard_alike"]


def shard_alike(x, y):
    x_leaves, x_tree = tree_flatten(x)
    y_leaves, y_tree = tree_flatten(y)
    if x_tree != y_tree:
        raise ValueError(f"`x` and `y` should have the same tree structure. Got {x_tree} and {y_tree}")
    for a, b in zip(x_leaves, y_leaves):
        if jnp.shape(a) != jnp.shape(b):
            raise ValueError(f"The leaves shapes of `x` and `y` should match. Got `x` leaf shape: {jnp.shape(a)} and "
                             f"`y` leaf shape: {jnp.shape(b)}. (shard_alike pairs arrays of one shape)")
    return (tree_unflatten(x_tree, [jnp.asarray(a) for a in x_leaves]),
            tree_unflatten(y_tree, [jnp.asarray(b) for b in y_leaves]))
