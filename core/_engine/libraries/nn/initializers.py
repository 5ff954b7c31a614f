"""`jax.nn.initializers`: functions `init(key, shape, dtype=...)` that make parameter arrays.

Each builder returns an `init`; for the same key, shape and dtype the values are JAX's bit for bit
(they are built from the same jax.random samplers in the same order).
"""
from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np

from ...base import dtypes
from .. import random
from .. import numpy as jnp


class Initializer(Protocol):
    def __call__(self, key, shape, dtype=None, out_sharding=None) -> Any: ...


from ...base._public import set_public_module  # noqa: E402
set_public_module("jax.nn.initializers", Initializer)


def _dtype(dtype):
    return dtypes.default_float_dtype() if dtype is None else dtype


def zeros(key, shape, dtype=None, out_sharding=None):
    """Zeros; the key is ignored."""
    return jnp.zeros(shape, _dtype(dtype))


def ones(key, shape, dtype=None, out_sharding=None):
    """Ones; the key is ignored."""
    return jnp.ones(shape, _dtype(dtype))


def constant(value, dtype=None) -> Initializer:
    def init(key, shape, dtype=dtype, out_sharding=None):
        return jnp.full(shape, value, dtype=_dtype(dtype))
    return init


def uniform(scale=1e-2, dtype=None) -> Initializer:
    """Uniform on [0, scale)."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        return random.uniform(key, shape, dtype) * jnp.array(scale, dtype)
    return init


def normal(stddev=1e-2, dtype=None) -> Initializer:
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        return random.normal(key, shape, dtype) * jnp.array(stddev, dtype)
    return init


def truncated_normal(stddev=1e-2, dtype=None, lower=-2.0, upper=2.0) -> Initializer:
    """A normal truncated to [lower, upper] standard deviations, then scaled (no variance correction)."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        return random.truncated_normal(key, lower, upper, shape, dtype) * jnp.array(stddev, dtype)
    return init


def _axes_size(shape, axes) -> int:
    return shape[axes] if isinstance(axes, int) else math.prod(shape[i] for i in axes)


def _compute_fans(shape, in_axis=-2, out_axis=-1, batch_axis=()):
    """(fan_in, fan_out): axes outside in/out/batch form the receptive field (conv kernel axes)."""
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(f"Can't compute input and output sizes of a {len(shape)}-dimensional weights tensor "
                         "with default in_axis. Must be at least 2D or specify in_axis explicitly.")
    in_size, out_size = _axes_size(shape, in_axis), _axes_size(shape, out_axis)
    receptive = math.prod(shape) / in_size / out_size / _axes_size(shape, batch_axis)
    return in_size * receptive, out_size * receptive


# mode -> the fan the variance is divided by
_DENOMINATORS = {
    "fan_in": lambda fan_in, fan_out: fan_in,
    "fan_out": lambda fan_in, fan_out: fan_out,
    "fan_avg": lambda fan_in, fan_out: (fan_in + fan_out) / 2,
    "fan_geo_avg": lambda fan_in, fan_out: (fan_in * fan_out) ** 0.5,
}
# stddev of a standard normal truncated to [-2, 2], real and complex (divided out so the
# truncated samples have the requested variance)
_TRUNC_STD_REAL = .87962566103423978
_TRUNC_STD_COMPLEX = .95311164380491208


def _complex_uniform(key, shape, dtype):
    """Uniform on the unit-variance disk of the complex plane."""
    key_r, key_theta = random.split(key)
    real = np.array(0, dtype).real.dtype
    r = jnp.sqrt(2 * random.uniform(key_r, shape, real)).astype(dtype)
    theta = 2 * np.pi * random.uniform(key_theta, shape, real).astype(dtype)
    return r * jnp.exp(1j * theta)


def _complex_truncated_normal(key, upper, shape, dtype):
    """A complex normal whose modulus is truncated at `upper`."""
    key_r, key_theta = random.split(key)
    real = np.array(0, dtype).real.dtype
    t = ((1 - jnp.exp(jnp.array(-(upper ** 2), dtype))) * random.uniform(key_r, shape, real).astype(dtype))
    r = jnp.sqrt(-jnp.log(1 - t))
    theta = 2 * np.pi * random.uniform(key_theta, shape, real).astype(dtype)
    return r * jnp.exp(1j * theta)


def _truncated_normal_sample(key, shape, dtype, variance):
    if dtypes.issubdtype(dtype, np.floating):
        return random.truncated_normal(key, -2, 2, shape, dtype) * (jnp.sqrt(variance) / jnp.array(_TRUNC_STD_REAL, dtype))
    return _complex_truncated_normal(key, 2, shape, dtype) * (jnp.sqrt(variance) / jnp.array(_TRUNC_STD_COMPLEX, dtype))


def _normal_sample(key, shape, dtype, variance):
    return random.normal(key, shape, dtype) * jnp.sqrt(variance)


def _uniform_sample(key, shape, dtype, variance):
    if dtypes.issubdtype(dtype, np.floating):
        return random.uniform(key, shape, dtype, -1) * jnp.sqrt(3 * variance)
    return _complex_uniform(key, shape, dtype) * jnp.sqrt(variance)


_DISTRIBUTIONS = {"truncated_normal": _truncated_normal_sample, "normal": _normal_sample,
                  "uniform": _uniform_sample}


def variance_scaling(scale, mode, distribution, in_axis=-2, out_axis=-1, batch_axis=(), dtype=None) -> Initializer:
    """Samples with variance scale / n, n the fan chosen by `mode`, from `distribution`."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        shape = tuple(int(d) for d in shape)
        dtype = _dtype(dtype)
        fan_in, fan_out = _compute_fans(shape, in_axis, out_axis, batch_axis)
        if mode not in _DENOMINATORS:
            raise ValueError(f"invalid mode for variance scaling initializer: {mode}")
        if distribution not in _DISTRIBUTIONS:
            raise ValueError(f"invalid distribution for variance scaling initializer: {distribution}")
        variance = jnp.array(scale / _DENOMINATORS[mode](fan_in, fan_out), dtype=dtype)
        return _DISTRIBUTIONS[distribution](key, shape, dtype, variance)
    return init


def _variance_scaling_family(scale, mode, distribution):
    def builder(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None) -> Initializer:
        return variance_scaling(scale, mode, distribution, in_axis=in_axis, out_axis=out_axis,
                                batch_axis=batch_axis, dtype=dtype)
    return builder


glorot_uniform = xavier_uniform = _variance_scaling_family(1.0, "fan_avg", "uniform")
glorot_normal = xavier_normal = _variance_scaling_family(1.0, "fan_avg", "truncated_normal")
lecun_uniform = _variance_scaling_family(1.0, "fan_in", "uniform")
lecun_normal = _variance_scaling_family(1.0, "fan_in", "truncated_normal")
he_uniform = kaiming_uniform = _variance_scaling_family(2.0, "fan_in", "uniform")
he_normal = kaiming_normal = _variance_scaling_family(2.0, "fan_in", "truncated_normal")
for _name in ("glorot_uniform", "glorot_normal", "lecun_uniform", "lecun_normal", "he_uniform", "he_normal"):
    globals()[_name].__name__ = globals()[_name].__qualname__ = _name


def orthogonal(scale=1.0, column_axis=-1, dtype=None) -> Initializer:
    """Orthonormal rows or columns (whichever side is smaller) along `column_axis`."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        if any(d == 0 for d in shape):
            return jnp.zeros(shape, dtype=dtype)
        n_cols = shape[column_axis]
        n_rows = math.prod(shape) // n_cols
        q = random.orthogonal(key, n_rows, (), dtype, n_cols)
        q = jnp.reshape(q, tuple(np.delete(shape, column_axis)) + (n_cols,))
        return jnp.array(scale, dtype) * jnp.moveaxis(q, -1, column_axis)
    return init


def delta_orthogonal(scale=1.0, column_axis=-1, dtype=None) -> Initializer:
    """For 3-5D conv kernels: an orthogonal matrix at the spatial centre, zeros elsewhere."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _dtype(dtype)
        if len(shape) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-1] < shape[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        ortho = orthogonal(scale=scale, column_axis=column_axis, dtype=dtype)(key, shape[-2:])
        centre = tuple((k - 1) // 2 for k in shape[:-2])
        return jnp.zeros(shape, dtype=dtype).at[centre + (Ellipsis,)].set(ortho)
    return init


__all__ = ["Initializer", "constant", "delta_orthogonal", "glorot_normal", "glorot_uniform", "he_normal",
           "he_uniform", "kaiming_normal", "kaiming_uniform", "lecun_normal", "lecun_uniform", "normal", "ones",
           "orthogonal", "truncated_normal", "uniform", "variance_scaling", "xavier_normal", "xavier_uniform",
           "zeros"]
