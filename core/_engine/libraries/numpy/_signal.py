"""jnp.convolve / jnp.correlate for 1-d arrays, as a gather of sliding windows and a dot, so
grad, jit and vmap compose with them."""
from __future__ import annotations

import numpy as _np

from ...tracing.tracing import get_aval


def _full_convolution(a, v):
    """out[k] = sum_j v[j] a[k - j] over the full overlap (length n + m - 1)."""
    from ._creation import asarray
    from ._products import dot
    from ._pad import pad
    from ._shapes import flip
    from ._take import take
    n, m = get_aval(a).shape[0], get_aval(v).shape[0]
    padded = pad(a, [(m - 1, m - 1)])
    windows = take(padded, asarray((_np.arange(n + m - 1)[:, None] + _np.arange(m)[None, :]).astype(_np.int32)),
                   axis=0)
    return dot(windows, flip(v, 0))


def _conv(name, a, v, mode, precision, preferred_element_type, flip_v):
    from ._util import _check_arraylike, _promote_dtypes_inexact
    from ._creation import asarray
    from ._ufuncs import conjugate
    from ._shapes import flip
    _check_arraylike(name, a, v)
    a, v = _promote_dtypes_inexact(asarray(a), asarray(v))
    if get_aval(a).ndim != 1 or get_aval(v).ndim != 1:
        raise ValueError(f"{name}() only support 1-dimensional inputs.")
    n, m = get_aval(a).shape[0], get_aval(v).shape[0]
    if n == 0 or m == 0:
        raise ValueError(f"{name}: inputs cannot be empty, got shapes {get_aval(a).shape} and {get_aval(v).shape}.")
    if flip_v:
        v = flip(conjugate(v), 0)
    full = _full_convolution(a, v)
    lo, hi = min(n, m), max(n, m)
    if mode == "full":
        return full
    if mode == "same":
        start = (lo - 1) // 2
        return full[start:start + hi]
    if mode == "valid":
        return full[lo - 1:hi]
    raise ValueError("mode must be one of ['full', 'same', 'valid']")  # JAX's words (it names no mode)


def convolve(a, v, mode="full", *, precision=None, preferred_element_type=None):
    return _conv("convolve", a, v, mode, precision, preferred_element_type, False)


def correlate(a, v, mode="valid", *, precision=None, preferred_element_type=None):
    return _conv("correlate", a, v, mode, precision, preferred_element_type, True)
