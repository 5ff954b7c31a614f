# face: re-exports core._engine.api.example_libraries.optimizers (written by tools/move_to_layers.py; no logic here)
"""`jax.example_libraries.optimizers`: first-order optimizers as (init, update, get_params) triples.

`jax.example_libraries.optimizers`'s public face: the implementation is core/_engine/api/example_libraries/optimizers.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.example_libraries.optimizers import (Any as Any, Callable as Callable,
    JoinPoint as JoinPoint, NamedTuple as NamedTuple, Optimizer as Optimizer,
    OptimizerState as OptimizerState, Schedule as Schedule, Step as Step, adagrad as adagrad, adam as adam,
    adamax as adamax, clip_grads as clip_grads, constant as constant, exponential_decay as exponential_decay,
    inverse_time_decay as inverse_time_decay, l2_norm as l2_norm, make_schedule as make_schedule,
    momentum as momentum, nesterov as nesterov, optimizer as optimizer,
    pack_optimizer_state as pack_optimizer_state, piecewise_constant as piecewise_constant,
    polynomial_decay as polynomial_decay, rmsprop as rmsprop, rmsprop_momentum as rmsprop_momentum,
    sgd as sgd, sm3 as sm3, unpack_optimizer_state as unpack_optimizer_state)
from core._engine.api.example_libraries.optimizers import __all__ as __all__
from core import numpy as jnp
