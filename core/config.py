# face: re-exports core._engine.base.config (written by tools/move_to_layers.py; no logic here)
"""`jax.config`: global flags, settable by `config.update(name, value)` or environment variables.

`jax.config`'s public face: the implementation is core/_engine/base/config.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.config import (Config as Config, STATE_FLAGS as STATE_FLAGS, State as State,
    config as config, transfer_guard as transfer_guard)
import sys as _sys
from core._engine.base.config import _ConfigModule as _module_class
_sys.modules[__name__].__class__ = _module_class
