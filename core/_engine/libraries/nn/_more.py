"""jax.nn activations and reductions added for issue 11 (mish, squareplus, sparse_plus,
sparse_sigmoid, log1mexp, logmeanexp) and the scaled-dot entry points (scaled_dot_general without
block-scale configs is dot_general; block-scaled matmuls need cuDNN, as on JAX's CPU backend)."""
from __future__ import annotations

import numpy as _np

from ...lax import lax
from .. import numpy as jnp
from ...api.api import custom_jvp, jit  # INHERENT: up to the api
from ...tracing.tracing import get_aval


@jit
def mish(x):
    """x * tanh(softplus(x))."""
    from . import softplus
    return x * jnp.tanh(softplus(x))


@jit
def squareplus(x, b=4):
    """(x + sqrt(x**2 + b)) / 2."""
    return (x + jnp.sqrt(jnp.square(x) + b)) / 2


@jit
def sparse_plus(x):
    """0 for x <= -1, (x + 1)**2 / 4 between, x for x >= 1."""
    return jnp.where(x <= -1.0, 0.0, jnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


@jit
def sparse_sigmoid(x):
    """0 for x <= -1, (x + 1) / 2 between, 1 for x >= 1 (the derivative of sparse_plus)."""
    return 0.5 * jnp.clip(x + 1.0, 0.0, 2.0)


@custom_jvp
@jit
def log1mexp(x):
    """log(1 - exp(-x)) for x >= 0, accurate near 0 and for large x (two formulas, switching at log 2)."""
    return jnp.where(x < jnp.log(2.0), jnp.log(-jnp.expm1(-x)), jnp.log1p(-jnp.exp(-x)))


log1mexp.defjvps(lambda g, ans, x: g / jnp.expm1(x))


def logmeanexp(x, axis=None, where=None, keepdims=False):
    """log(mean(exp(x))) = logsumexp(x) - log(n), n the number of (where-selected) elements."""
    return _logmeanexp(x, axis, where, keepdims)


@jit(static_argnames=("axis", "keepdims"))
def _logmeanexp(x, axis, where, keepdims):
    from . import logsumexp
    lse = logsumexp(x, axis=axis, where=where, keepdims=keepdims)
    dt = get_aval(lse).dtype
    if where is None:
        shape = get_aval(x).shape
        axes = range(len(shape)) if axis is None else ((axis,) if isinstance(axis, int) else axis)
        count = jnp.asarray(_np.prod([shape[a] for a in axes], dtype=int), dt)
    else:
        count = jnp.sum(jnp.broadcast_to(where, get_aval(x).shape), axis=axis, keepdims=keepdims, dtype=dt)
    return lse - jnp.log(count)


def scaled_dot_general(lhs, rhs, dimension_numbers, preferred_element_type=_np.float32, configs=None,
                       implementation=None):
    """Without `configs`, lax.dot_general; block-scaled configs need cuDNN (a GPU)."""
    if implementation is not None:
        import warnings
        warnings.warn("Backend selector, now ignored. The system chooses the backend automatically.",
                      DeprecationWarning, stacklevel=2)
    if configs is None:
        return lax.dot_general(lhs, rhs, dimension_numbers, preferred_element_type=preferred_element_type)
    raise NotImplementedError("scaled_dot_general with block-scale configs runs on cuDNN (NVIDIA GPUs) only; "
                              "there is none here. Call it without configs (a plain dot_general).")


def scaled_matmul(lhs, rhs, lhs_scales, rhs_scales, preferred_element_type=_np.float32):
    """Block-scaled matmul: cuDNN only, as in JAX (whose CPU backend raises the same error)."""
    raise NotImplementedError("MLIR translation rule for primitive 'scaled_matmul' not found for platform cpu"
                              "\nBlock-scaled matmul needs cuDNN on an NVIDIA GPU; scale the operands and use "
                              "jnp.einsum('BMK,BNK->BMN', ...) instead.")


def get_scaled_dot_general_config(mode, global_scale=None):
    """The nvfp4/mxfp8 configs are made of float4/float8 dtypes, which gradpad does not have."""
    if mode not in ("nvfp4", "mxfp8"):
        raise ValueError(f"Unsupported mode: {mode}")
    raise NotImplementedError(f"get_scaled_dot_general_config('{mode}') needs float4/float8 dtypes (ml_dtypes), "
                              "which gradpad does not have; scaled_dot_general without configs works.")
