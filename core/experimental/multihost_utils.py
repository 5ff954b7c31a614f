"""`jax.experimental.multihost_utils` for gradpad's single process: every collective over processes
has one participant, so barriers return at once and gathers/broadcasts hand back the process's own
values as host numpy arrays (what JAX returns when `jax.process_count() == 1`)."""
from __future__ import annotations

import numpy as np

from ..tree_util import tree_map


def sync_global_devices(name: str) -> None:
    """A barrier across processes: with one process there is nothing to wait for."""
    return None


def broadcast_one_to_all(in_tree, is_source: bool | None = None):
    """The source process's values on every process: here, this process's, as numpy arrays."""
    return tree_map(np.asarray, in_tree)


def process_allgather(in_tree, tiled: bool = False):
    """Each leaf gathered from every process: stacked on a new leading axis (one process: size 1),
    or concatenated along axis 0 when `tiled`."""
    return tree_map(lambda x: np.asarray(x) if tiled else np.asarray(x)[None], in_tree)


def assert_equal(in_tree, fail_message: str = "") -> None:
    """Checks that every process holds equal values: one process always does."""
    return None


__all__ = ["assert_equal", "broadcast_one_to_all", "process_allgather", "sync_global_devices"]
