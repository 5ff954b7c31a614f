"""`jax.numpy.linalg`: the pieces tutorials use (norm, inv, det, solve via numpy on concrete values)."""
from __future__ import annotations

import numpy as _np

from .. import lax
from ..array import Array
from ..tracing import Tracer, get_aval


def norm(x, ord=None, axis=None, keepdims=False):
    from . import abs, asarray, max, sqrt, sum, _promote_dtypes_inexact
    (x,) = _promote_dtypes_inexact(asarray(x))
    if ord is None or ord == 2 and (axis is not None and not isinstance(axis, tuple) or get_aval(x).ndim == 1):
        if ord is None or ord == 2:
            return sqrt(sum(x * x if get_aval(x).dtype.kind != "c" else (x * x.conj()).real, axis=axis, keepdims=keepdims))
    if ord in ("fro", "f"):
        return sqrt(sum(x * x, axis=axis, keepdims=keepdims))
    if ord == 1:
        return sum(abs(x), axis=axis, keepdims=keepdims)
    if ord in (_np.inf, "inf"):
        return max(abs(x), axis=axis, keepdims=keepdims)
    return sum(abs(x) ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _concrete_only(name, *xs):
    for x in xs:
        if isinstance(x, Tracer):
            raise NotImplementedError(f"jnp.linalg.{name} under jit/grad/vmap is not supported by gradpad yet")


def inv(a):
    _concrete_only("inv", a)
    return Array(_np.linalg.inv(_np.asarray(a)).astype(_np.asarray(a).dtype))


def det(a):
    _concrete_only("det", a)
    return Array(_np.asarray(_np.linalg.det(_np.asarray(a)), _np.asarray(a).dtype))


def solve(a, b):
    _concrete_only("solve", a, b)
    return Array(_np.linalg.solve(_np.asarray(a), _np.asarray(b)).astype(_np.asarray(a).dtype))


def eigh(a):
    _concrete_only("eigh", a)
    w, v = _np.linalg.eigh(_np.asarray(a))
    return Array(w.astype(_np.float32)), Array(v.astype(_np.float32))


def svd(a, full_matrices=True, compute_uv=True):
    _concrete_only("svd", a)
    res = _np.linalg.svd(_np.asarray(a), full_matrices=full_matrices, compute_uv=compute_uv)
    if compute_uv:
        return tuple(Array(r.astype(_np.float32)) for r in res)
    return Array(res.astype(_np.float32))
