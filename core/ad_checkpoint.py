# face: re-exports core._engine.api.ad_checkpoint (written by tools/move_to_layers.py; no logic here)
"""jax.checkpoint / jax.remat, jax.checkpoint_policies and jax.ad_checkpoint (checkpoint_name,
print_saved_residuals, Recompute, Saveable, Offloadable), as JAX 0.10.2 has them.

`jax.ad_checkpoint`'s public face: the implementation is core/_engine/api/ad_checkpoint.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.ad_checkpoint import (DotsSaveable as DotsSaveable, NamedTuple as NamedTuple,
    Offloadable as Offloadable, Recompute as Recompute, RecomputeType as RecomputeType,
    SaveAnyNamesButThese as SaveAnyNamesButThese, SaveOnlyTheseNames as SaveOnlyTheseNames,
    Saveable as Saveable, SaveableType as SaveableType, checkpoint_dots as checkpoint_dots,
    checkpoint_dots_with_no_batch_dims as checkpoint_dots_with_no_batch_dims,
    checkpoint_name as checkpoint_name, checkpoint_policies as checkpoint_policies,
    dots_saveable as dots_saveable, dots_with_no_batch_dims_saveable as dots_with_no_batch_dims_saveable,
    everything_saveable as everything_saveable, get_aval as get_aval, keystr as keystr,
    missing_attribute as missing_attribute, nothing_saveable as nothing_saveable,
    offload_dot_with_no_batch_dims as offload_dot_with_no_batch_dims,
    print_saved_residuals as print_saved_residuals,
    save_and_offload_only_these_names as save_and_offload_only_these_names,
    save_any_names_but_these as save_any_names_but_these,
    save_anything_except_these_names as save_anything_except_these_names,
    save_from_both_policies as save_from_both_policies, save_only_these_names as save_only_these_names,
    saved_residuals as saved_residuals, tree_flatten as tree_flatten,
    tree_flatten_with_path as tree_flatten_with_path, tree_map as tree_map, tree_unflatten as tree_unflatten)
from core._engine.base import source_info as source_info
from core._engine.api.ad_checkpoint import __getattr__ as __getattr__
