# face: re-exports core._engine.api.example_libraries.stax (written by tools/move_to_layers.py; no logic here)
"""`jax.example_libraries.stax`: neural networks as (init_fun, apply_fun) pairs.

`jax.example_libraries.stax`'s public face: the implementation is core/_engine/api/example_libraries/stax.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.example_libraries.stax import (AvgPool as AvgPool, BatchNorm as BatchNorm,
    Conv as Conv, Conv1DTranspose as Conv1DTranspose, ConvTranspose as ConvTranspose, Dense as Dense,
    Dropout as Dropout, Elu as Elu, Exp as Exp, FanInConcat as FanInConcat, FanInSum as FanInSum,
    FanOut as FanOut, Flatten as Flatten, Gelu as Gelu, GeneralConv as GeneralConv,
    GeneralConvTranspose as GeneralConvTranspose, Identity as Identity, LeakyRelu as LeakyRelu,
    LogSoftmax as LogSoftmax, MaxPool as MaxPool, Relu as Relu, Selu as Selu, Sigmoid as Sigmoid,
    Softmax as Softmax, Softplus as Softplus, SumPool as SumPool, Tanh as Tanh, elementwise as elementwise,
    elu as elu, gelu as gelu, glorot as glorot, glorot_normal as glorot_normal, leaky_relu as leaky_relu,
    log_softmax as log_softmax, logsoftmax as logsoftmax, normal as normal, ones as ones,
    parallel as parallel, randn as randn, relu as relu, selu as selu, serial as serial,
    shape_dependent as shape_dependent, sigmoid as sigmoid, softmax as softmax, softplus as softplus,
    standardize as standardize, zeros as zeros)
from core import numpy as jnp
from core import lax
from core import random
