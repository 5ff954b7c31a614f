"""`jax.experimental.shard_map`: the older home of shard_map, with its positional mesh and specs."""
from __future__ import annotations

from .._engine.api.shard_map_api import shard_map as _shard_map


def shard_map(f, mesh, in_specs, out_specs, check_rep=True, auto=frozenset()):
    return _shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=check_rep)
