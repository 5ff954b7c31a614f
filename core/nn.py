"""`jax.nn`: activations and friends, written with jax.numpy as JAX writes them."""
from __future__ import annotations

import numpy as _np

from . import lax
from . import numpy as jnp
from .api import custom_jvp
from .tracing import get_aval


def relu(x):
    return jnp.maximum(x, 0)


def relu6(x):
    return jnp.minimum(jnp.maximum(x, 0), 6.0)


def sigmoid(x):
    (x,) = jnp._promote_dtypes_inexact(x)
    return lax.logistic(x)


def silu(x):
    (x,) = jnp._promote_dtypes_inexact(x)
    return x * sigmoid(x)


swish = silu


def softplus(x):
    return jnp.logaddexp(x, 0)


def soft_sign(x):
    return x / (jnp.abs(x) + 1)


def log_sigmoid(x):
    return -softplus(-x)


def elu(x, alpha=1.0):
    safe = jnp.where(x > 0, 0.0, x)
    return jnp.where(x > 0, x, alpha * jnp.expm1(safe))


def celu(x, alpha=1.0):
    return jnp.maximum(x, 0.0) + alpha * jnp.expm1(jnp.minimum(x, 0.0) / alpha)


def selu(x):
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return scale * elu(x, alpha)


def leaky_relu(x, negative_slope=1e-2):
    return jnp.where(x >= 0, x, negative_slope * x)


def hard_tanh(x):
    return jnp.where(x > 1, 1, jnp.where(x < -1, -1, x))


def tanh(x):
    return jnp.tanh(x)


def gelu(x, approximate=True):
    (x,) = jnp._promote_dtypes_inexact(x)
    if approximate:
        sqrt_2_over_pi = _np.sqrt(2 / _np.pi).astype(get_aval(x).dtype)
        cdf = 0.5 * (1.0 + jnp.tanh(sqrt_2_over_pi * (x + 0.044715 * (x ** 3))))
        return x * cdf
    return jnp.array(0.5, get_aval(x).dtype) * x * (lax.erfc(-x * (1 / _np.sqrt(2)).astype(get_aval(x).dtype)))


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False, where=None):
    a = jnp.asarray(a)
    if b is not None:
        a, b = jnp._promote_dtypes_inexact(a, b)
        a = jnp.where(b != 0, a, -jnp.inf)
    else:
        (a,) = jnp._promote_dtypes_inexact(a)
    amax = jnp.max(a, axis=axis, keepdims=True)
    amax = lax.stop_gradient(lax.select(jnp.isfinite(amax), amax, lax.full_like(amax, 0)))
    exp_a = lax.exp(lax.sub(a, amax))
    if b is not None:
        exp_a = lax.mul(exp_a, b)
    sumexp = jnp.sum(exp_a, axis=axis, keepdims=keepdims)
    sign = lax.sign(sumexp)
    if return_sign or b is not None:
        sumexp = jnp.abs(sumexp)
    out = lax.add(lax.log(sumexp), amax if keepdims else jnp.squeeze(amax, axis) if axis is not None else jnp.reshape(amax, ()))
    if return_sign:
        return out, sign
    return out


def softmax(x, axis=-1, where=None, initial=None):
    x_max = jnp.max(x, axis, keepdims=True)
    unnormalized = jnp.exp(x - lax.stop_gradient(x_max))
    return unnormalized / jnp.sum(unnormalized, axis, keepdims=True)


def log_softmax(x, axis=-1, where=None, initial=None):
    x_max = jnp.max(x, axis, keepdims=True)
    shifted = x - lax.stop_gradient(x_max)
    shifted_logsumexp = jnp.log(jnp.sum(jnp.exp(shifted), axis, keepdims=True))
    return shifted - shifted_logsumexp


def standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None):
    if mean is None:
        mean = jnp.mean(x, axis, keepdims=True)
    if variance is None:
        variance = jnp.mean(jnp.square(x), axis, keepdims=True) - jnp.square(mean)
    return (x - mean) * lax.rsqrt(variance + epsilon)


normalize = standardize


def one_hot(x, num_classes, *, dtype=None, axis=-1):
    dtype = jnp._dtype_arg(dtype) or jnp._dt.default_float_dtype()
    x = jnp.asarray(x)
    lhs = lax.expand_dims(x, (axis % (x.ndim + 1),)) if x.ndim or True else x
    rhs_shape = [1] * (x.ndim + 1)
    ax = axis % (x.ndim + 1)
    rhs_shape[ax] = num_classes
    rhs = lax.broadcast_in_dim(lax.iota(x.dtype, num_classes), tuple(rhs_shape), (ax,))
    return lax.convert_element_type(jnp.equal(lhs, rhs), dtype)


def glu(x, axis=-1):
    a, b = jnp.split(x, 2, axis)
    return a * sigmoid(b)


class initializers:
    @staticmethod
    def zeros(key, shape, dtype=jnp.float32):
        return jnp.zeros(shape, dtype)

    @staticmethod
    def ones(key, shape, dtype=jnp.float32):
        return jnp.ones(shape, dtype)
