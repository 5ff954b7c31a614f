"""`jax.nn`: activations and friends, written with jax.numpy as JAX writes them."""
from __future__ import annotations

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from .. import numpy as jnp
from ...api.api import custom_jvp, jit  # INHERENT: up to the api
from ...tracing.tracing import get_aval
from ..numpy._logsumexp import logsumexp  # noqa: F401  (jax.nn.logsumexp; jnp's, as in JAX)


def _jit(fn=None, **kw):
    """JAX jits most activations; staging them the same way keeps jaxpr text identical."""
    if fn is None:
        return lambda f: _jit(f, **kw)
    import functools
    return functools.wraps(fn)(jit(fn, **kw))


@custom_jvp
@_jit
def relu(x):
    return jnp.maximum(x, 0)


# the derivative at 0 is 0 (not the 0.5 that max's symmetric rule would give), as in JAX
relu.defjvps(lambda g, ans, x: lax.select(x > 0, g, lax.full_like(g, 0)))


@custom_jvp
@_jit
def relu6(x):
    return jnp.minimum(jnp.maximum(x, 0), 6.0)


relu6.defjvps(lambda g, ans, x: lax.select((x > 0) & (x < 6), g, lax.full_like(g, 0)))


def sigmoid(x):
    (x,) = jnp._promote_dtypes_inexact(x)
    return lax.logistic(x)


@_jit
def silu(x):
    x = jnp.asarray(x)
    return x * sigmoid(x)


swish = silu


@_jit
def softplus(x):
    return jnp.logaddexp(x, 0)


@_jit
def soft_sign(x):
    x = jnp.asarray(x)
    return x / (jnp.abs(x) + 1)


@_jit
def log_sigmoid(x):
    x = jnp.asarray(x)
    return -softplus(-x)


@_jit
def elu(x, alpha=1.0):
    x = jnp.asarray(x)
    return jnp.where(x > 0, x, alpha * jnp.expm1(jnp.where(x > 0, 0.0, x)))


@_jit
def celu(x, alpha=1.0):
    return jnp.maximum(x, 0.0) + alpha * jnp.expm1(jnp.minimum(x, 0.0) / alpha)


@_jit
def selu(x):
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return scale * elu(x, alpha)


@_jit
def leaky_relu(x, negative_slope=1e-2):
    x = jnp.asarray(x)
    return jnp.where(x >= 0, x, negative_slope * x)


@_jit
def hard_tanh(x):
    x = jnp.asarray(x)
    return jnp.where(x > 1, 1, jnp.where(x < -1, -1, x))


@_jit
def hard_sigmoid(x):
    return relu6(x + 3.0) / 6.0


@_jit
def hard_silu(x):
    x = jnp.asarray(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def tanh(x):
    return jnp.tanh(x)


def gelu(x, approximate=True):
    (x,) = jnp._promote_dtypes_inexact(x)
    dt = get_aval(x).dtype
    if approximate:
        sqrt_2_over_pi = _dt.host_array(_np.sqrt(2 / _np.pi), dt)  # [dtypes] (bf16 without ml_dtypes: a 0-d array)
        cdf = 0.5 * (1.0 + jnp.tanh(sqrt_2_over_pi * (x + 0.044715 * (x ** 3))))
        return x * cdf
    sqrt_half = _dt.host_array(_np.sqrt(0.5), dt)
    return jnp.array(0.5 * x * (lax.erfc(-x * sqrt_half)), dtype=dt)


def softmax(x, axis=-1, where=None, initial=-_np.inf):
    x_max = jnp.max(x, axis, where=where, initial=initial, keepdims=True)
    x_safe = x if where is None else jnp.where(where, x, initial)
    unnormalized = jnp.exp(x_safe - lax.stop_gradient(x_max))
    result = unnormalized / jnp.sum(unnormalized, axis, where=where, keepdims=True)
    if where is not None:
        result = jnp.where(where, result, 0)
    return result


@_jit(static_argnames=("axis",))
def log_softmax(x, axis=-1, where=None):
    x = jnp.asarray(x)
    x_max = jnp.max(x, axis, where=where, initial=-_np.inf, keepdims=True)
    x_safe = x if where is None else jnp.where(where, x, -_np.inf)
    shifted = x_safe - lax.stop_gradient(x_max)
    shifted_logsumexp = jnp.log(jnp.sum(jnp.exp(shifted), axis, where=where, keepdims=True))
    result = shifted - shifted_logsumexp
    if where is not None:
        return jnp.where(where, result, -_np.inf)
    return result


@_jit(static_argnames=("axis", "algorithm"))
def standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None, *, algorithm="fast"):
    """JAX's: a jit (`jit[name=standardize]`); variance `mean(x^2) - mean(x)^2` clipped at 0
    ("fast", the default) or the two-pass `mean((x - mean(x))^2)` ("stable")."""
    jnp._check_arraylike("standardize", x)
    for v in (mean, variance, where):
        if v is not None:
            jnp._check_arraylike("standardize", v)
    if mean is None:
        mean = jnp.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        if algorithm == "stable":
            variance = jnp.mean(jnp.square(jnp.subtract(x, mean)), axis, keepdims=True, where=where)
        elif algorithm == "fast":
            variance = jnp.mean(jnp.square(x), axis, keepdims=True, where=where) - jnp.square(mean)
            variance = jnp.clip(variance, 0)
        else:
            raise ValueError(f"Unknown algorithm '{algorithm}'. Expected 'fast' or 'stable'.")
    return jnp.subtract(x, mean) * lax.rsqrt(variance + epsilon)


normalize = standardize


def one_hot(x, num_classes, *, dtype=None, axis=-1):
    if not isinstance(num_classes, int):
        num_classes = jnp._concrete(num_classes, "one_hot")
    x = jnp.asarray(x)
    dtype = jnp._dtype_arg(dtype) or jnp._dt.default_float_dtype()
    return _one_hot(x, int(num_classes), dtype=dtype, axis=axis)


@_jit(static_argnames=("num_classes", "dtype", "axis"))
def _one_hot(x, num_classes, *, dtype, axis):
    nd = get_aval(x).ndim
    out_axis = axis % (nd + 1)
    lhs = lax.expand_dims(x, (axis,))
    rhs_shape = [1] * nd
    rhs_shape.insert(out_axis, num_classes)
    rhs = lax.broadcasted_iota(get_aval(x).dtype, rhs_shape, out_axis)
    return jnp.equal(lhs, rhs).astype(dtype)


def identity(x):
    """x itself, as an array (a no-op activation)."""
    return jnp.asarray(x)


@_jit(static_argnames=("axis",))
def glu(x, axis=-1):
    jnp._check_arraylike("glu", x)
    size = get_aval(x).shape[axis]
    assert size % 2 == 0, "axis size must be divisible by 2"
    a, b = jnp.split(x, 2, axis)
    return a * sigmoid(b)


from . import initializers  # noqa: E402,F401  (jax.nn.initializers)

# ---- transforms area (issue 11) ----
from ._more import (get_scaled_dot_general_config, log1mexp, logmeanexp, mish, scaled_dot_general,  # noqa: E402,F401
                    scaled_matmul, sparse_plus, sparse_sigmoid, squareplus)
from ._attention import dot_product_attention  # noqa: E402,F401


from ...base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
