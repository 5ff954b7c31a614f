# face: re-exports core._engine.libraries.debug (written by tools/move_to_layers.py; no logic here)
"""`jax.debug`: print and call back at run time, also inside jit/vmap/grad.

`jax.debug`'s public face: the implementation is core/_engine/libraries/debug.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.debug import (DebugEffect as DebugEffect,
    OrderedDebugEffect as OrderedDebugEffect, batch_rules as batch_rules, bind as bind,
    breakpoint as breakpoint, callback as callback, debug_callback_p as debug_callback_p,
    debug_print_p as debug_print_p, define as define, get_aval as get_aval,
    inspect_array_sharding as inspect_array_sharding, jvp_rules as jvp_rules, log as log, print as print,
    tree_flatten as tree_flatten, tree_unflatten as tree_unflatten,
    visualize_array_sharding as visualize_array_sharding, visualize_sharding as visualize_sharding)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
