# face: re-exports core._engine.libraries.nn.initializers (written by tools/move_to_layers.py; no logic here)
"""`jax.nn.initializers`: functions `init(key, shape, dtype=...)` that make parameter arrays.

`jax.nn.initializers`'s public face: the implementation is core/_engine/libraries/nn/initializers.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.libraries.nn.initializers import (Initializer as Initializer, constant as constant,
    delta_orthogonal as delta_orthogonal, glorot_normal as glorot_normal, glorot_uniform as glorot_uniform,
    he_normal as he_normal, he_uniform as he_uniform, kaiming_normal as kaiming_normal,
    kaiming_uniform as kaiming_uniform, lecun_normal as lecun_normal, lecun_uniform as lecun_uniform,
    normal as normal, ones as ones, orthogonal as orthogonal, truncated_normal as truncated_normal,
    uniform as uniform, variance_scaling as variance_scaling, xavier_normal as xavier_normal,
    xavier_uniform as xavier_uniform, zeros as zeros)
from core._engine.libraries.nn.initializers import __all__ as __all__
