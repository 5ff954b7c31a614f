# face: re-exports core._engine.api.ref (written by tools/move_to_layers.py; no logic here)
"""`jax.ref`: JAX's mutable array references (`jax.ref.new_ref`, `get`, `set`, ...). gradpad has
none (see core/_engine/api/refs.py): every name exists, so code that only mentions them imports, and each
call raises NotImplementedError naming why and what to write instead.

`jax.ref`'s public face: the implementation is core/_engine/api/ref.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.ref import (AbstractRef as AbstractRef, Ref as Ref, addupdate as addupdate,
    empty_ref as empty_ref, free_ref as free_ref, freeze as freeze, get as get, new_ref as new_ref,
    set as set, swap as swap)
from core._engine.api.ref import __all__ as __all__
