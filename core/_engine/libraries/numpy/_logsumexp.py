"""`jax.nn.logsumexp` (also jnp's and jax.scipy.special's): log(sum(b * exp(a))) computed stably.
It lives with jnp's reductions, which it is built from, so jax.nn and jnp import it from here."""
from __future__ import annotations

import numpy as _np

from ...lax import lax
from ...tracing.tracing import get_aval
from ._creation import array
from ._reductions import _canon_axis, max as _max, sum as _sum
from ._searching import where as _where_fn
from ._ufuncs import abs as _abs, isfinite, real
from ._util import _promote_args_inexact


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False, where=None):
    """log(sum(b * exp(a))) computed stably (JAX's jax.nn.logsumexp / jax.scipy.special.logsumexp)."""
    if where is not None:
        a = _where_fn(where, a, 0)
    if b is not None:
        a, b = _promote_args_inexact("logsumexp", a, b)
        a = _where_fn(b != 0, a, -_np.inf)
    else:
        (a,) = _promote_args_inexact("logsumexp", a)
    ndim = get_aval(a).ndim
    dims = _canon_axis(axis, ndim, any_iterable=False)  # JAX's logsumexp takes no range
    amax = _max(real(a), axis=dims, keepdims=keepdims, where=where, initial=-_np.inf)
    amax = lax.stop_gradient(lax.select(isfinite(amax), amax, lax.full_like(amax, 0)))
    amax_with_dims = amax if keepdims else lax.expand_dims(amax, dims)
    exp_a = lax.exp(lax.sub(a, amax_with_dims.astype(get_aval(a).dtype)))
    if b is not None:
        exp_a = lax.mul(exp_a, b)
    sumexp = _sum(exp_a, axis=dims, keepdims=keepdims, where=where)
    sign = lax.sign(sumexp)
    complex_ = get_aval(a).dtype.kind == "c"
    if return_sign or not complex_:
        sumexp = _abs(sumexp)
    out = lax.add(lax.log(sumexp), amax.astype(get_aval(sumexp).dtype))
    if return_sign:
        return out, sign
    if b is not None and not complex_:
        out = _where_fn(sign < 0, array(_np.nan, dtype=get_aval(out).dtype), out)
    return out
