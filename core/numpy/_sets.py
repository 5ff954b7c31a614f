"""The array API's unique_* functions and NumPy's set routines (concrete values: their output
shapes depend on the data, so like JAX they cannot run under jit without `size=`)."""
from __future__ import annotations

from collections import namedtuple as _namedtuple

import numpy as _np

from .. import dtypes as _dt
from ..array import Array

UniqueAllResult = _namedtuple("_UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = _namedtuple("_UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = _namedtuple("_UniqueInverseResult", ["values", "inverse_indices"])


def _values(x, what):
    """x's numpy value; a traced x has none (the output size depends on it), as in JAX."""
    from . import _check_arraylike, asarray
    from ..tracing import Tracer
    _check_arraylike(what, x)
    x = asarray(x)
    if isinstance(x, Tracer):
        v = x.to_concrete_value()
        if v is None:
            from ..errors import ConcretizationTypeError
            raise ConcretizationTypeError(x, f"The error arose in jnp.{what}: its output size depends on the "
                                             "values; outside jit, or pass size=.\n")
        return _np.asarray(v)
    return _np.asarray(x._value)


def _wrap(v, like=None):
    v = _np.asarray(v)
    dt = like if like is not None else (_dt.default_int_dtype() if v.dtype.kind in "iu" else v.dtype)
    return Array(v.astype(_dt.canonicalize_dtype(dt)))


def _unique_parts(x, what):
    v = _values(x, what)
    vals, idx, inv, counts = _np.unique(v.ravel(), return_index=True, return_inverse=True, return_counts=True)
    return v, vals, idx, inv.reshape(v.shape), counts


def unique_values(x, /, *, size=None, fill_value=None):
    v, vals, *_ = _unique_parts(x, "unique_values")
    return _wrap(vals, v.dtype)


def unique_counts(x, /, *, size=None, fill_value=None):
    v, vals, _, _, counts = _unique_parts(x, "unique_counts")
    return UniqueCountsResult(_wrap(vals, v.dtype), _wrap(counts))


def unique_inverse(x, /, *, size=None, fill_value=None):
    v, vals, _, inv, _ = _unique_parts(x, "unique_inverse")
    return UniqueInverseResult(_wrap(vals, v.dtype), _wrap(inv))


def unique_all(x, /, *, size=None, fill_value=None):
    v, vals, idx, inv, counts = _unique_parts(x, "unique_all")
    return UniqueAllResult(_wrap(vals, v.dtype), _wrap(idx), _wrap(inv), _wrap(counts))


def _two(what, a, b):
    from . import _promote_dtypes, asarray
    a, b = _promote_dtypes(asarray(a), asarray(b))
    return _values(a, what).ravel(), _values(b, what).ravel(), a.dtype


def union1d(ar1, ar2, *, size=None, fill_value=None):
    a, b, dt = _two("union1d", ar1, ar2)
    return _wrap(_np.union1d(a, b), dt)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None, fill_value=None):
    a, b, dt = _two("intersect1d", ar1, ar2)
    out = _np.intersect1d(a, b, assume_unique=assume_unique, return_indices=return_indices)
    if return_indices:
        return _wrap(out[0], dt), _wrap(out[1]), _wrap(out[2])
    return _wrap(out, dt)


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    a, b, dt = _two("setdiff1d", ar1, ar2)
    from . import asarray
    # the values come from ar1, and keep its dtype (as JAX's)
    return _wrap(_np.setdiff1d(a, b, assume_unique=assume_unique), asarray(ar1).dtype)


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    a, b, dt = _two("setxor1d", ar1, ar2)
    return _wrap(_np.setxor1d(a, b, assume_unique=assume_unique), dt)


def isin(element, test_elements, assume_unique=False, invert=False, *, method="auto"):
    """Elementwise membership by broadcasting (traceable, so it works under jit and vmap)."""
    from . import any as _any, asarray, equal, ravel
    e, t = asarray(element), ravel(asarray(test_elements))
    hit = _any(equal(e[..., None], t), axis=-1)
    return ~hit if invert else hit
