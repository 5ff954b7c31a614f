"""The array API's unique_* functions and NumPy's set routines (concrete values: their output
shapes depend on the data, so like JAX they cannot run under jit without `size=`)."""
from __future__ import annotations

import builtins
import operator
from collections import namedtuple as _namedtuple

import numpy as _np

from ...base import dtypes as _dt
from ...tracing.array import Array

UniqueAllResult = _namedtuple("_UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = _namedtuple("_UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = _namedtuple("_UniqueInverseResult", ["values", "inverse_indices"])


def _values(x, what):
    """x's numpy value; a traced x has none (the output size depends on it), as in JAX."""
    from ._util import _check_arraylike
    from ._creation import asarray
    from ...tracing.tracing import Tracer
    _check_arraylike(what, x)
    x = asarray(x)
    if isinstance(x, Tracer):
        v = x.to_concrete_value()
        if v is None:
            from ...base.errors import ConcretizationTypeError
            raise ConcretizationTypeError(x, f"The error arose in jnp.{what}: its output size depends on the "
                                             "values; outside jit, or pass size=.\n")
        return _np.asarray(v)
    return _np.asarray(x._value)


def _wrap(v, like=None):
    v = _np.asarray(v)
    dt = like if like is not None else (_dt.default_int_dtype() if v.dtype.kind in "iu" else v.dtype)
    return Array(v.astype(_dt.canonicalize_dtype(dt)))


def _unique_api(x, what, **returns):
    """The array API's unique_*: jnp.unique keeping NaNs apart (equal_nan=False), as JAX's."""
    from ._util import _check_arraylike
    from ._unique import unique
    _check_arraylike(what, x)
    return unique(x, equal_nan=False, **returns)


def unique_values(x, /, *, size=None, fill_value=None):
    return _unique_api(x, "unique_values", size=size, fill_value=fill_value)


def unique_counts(x, /, *, size=None, fill_value=None):
    return UniqueCountsResult(*_unique_api(x, "unique_counts", return_counts=True, size=size, fill_value=fill_value))


def unique_inverse(x, /, *, size=None, fill_value=None):
    return UniqueInverseResult(*_unique_api(x, "unique_inverse", return_inverse=True, size=size,
                                            fill_value=fill_value))


def unique_all(x, /, *, size=None, fill_value=None):
    return UniqueAllResult(*_unique_api(x, "unique_all", return_index=True, return_inverse=True,
                                        return_counts=True, size=size, fill_value=fill_value))


def _two(what, a, b):
    from ._util import _promote_dtypes
    from ._creation import asarray
    a, b = _promote_dtypes(asarray(a), asarray(b))
    return _values(a, what).ravel(), _values(b, what).ravel(), a.dtype


def _static_size(size, what):
    from ...tracing.tracing import Tracer
    if isinstance(size, Tracer):
        from ...base.errors import ConcretizationTypeError
        raise ConcretizationTypeError(size, f"The error arose in {what}()")
    return operator.index(size)


def union1d(ar1, ar2, *, size=None, fill_value=None):
    if size is not None:  # traceable: the unique values of both, `size` of them
        from ._util import _check_arraylike
        from ._shapes import concatenate
        from ._unique import unique
        _check_arraylike("union1d", ar1, ar2)
        return unique(concatenate((ar1, ar2), axis=None), size=_static_size(size, "union1d"),
                      fill_value=fill_value)
    a, b, dt = _two("union1d", ar1, ar2)
    return _wrap(_np.union1d(a, b), dt)


def _to_size(values, size, fill_value, what, *indices):
    """A concrete result cut or padded to `size` as JAX pads it: with fill_value, else the smallest
    value found (0 when none); index arrays pad with their array's length."""
    size = operator.index(size)
    found = values[:size]
    fill = fill_value if fill_value is not None else (found.min() if found.size else 0)
    pad = size - found.size
    values = _np.concatenate([found, _np.full(pad, fill, values.dtype)]) if pad > 0 else found
    return (values,) + tuple(_np.concatenate([i[:size], _np.full(builtins.max(pad, 0), n, i.dtype)])
                             for i, n in indices)


def _eager_only_with_size(what, size, *arrays):
    from ...tracing.tracing import Tracer
    if size is not None and builtins.any(isinstance(x, Tracer) for x in (size,) + arrays):
        raise NotImplementedError(f"jnp.{what}(size=...) under a transformation is not supported in gradpad "
                                  "yet; call it outside jit")


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None, fill_value=None):
    _eager_only_with_size("intersect1d", size, ar1, ar2)
    a, b, dt = _two("intersect1d", ar1, ar2)
    out = _np.intersect1d(a, b, assume_unique=assume_unique, return_indices=return_indices)
    if size is not None:
        out = _to_size(*((out[0], size, fill_value, "intersect1d", (out[1], a.size), (out[2], b.size))
                         if return_indices else (out, size, fill_value, "intersect1d")))
        out = out if return_indices else out[0]
    if return_indices:
        return _wrap(out[0], dt), _wrap(out[1]), _wrap(out[2])
    return _wrap(out, dt)


def _setdiff1d_sized(ar1, ar2, assume_unique, size, fill_value):
    """setdiff1d's first `size` values (then fill_value, default 0), traceable as JAX's."""
    from ._util import _check_arraylike
    from ._creation import arange, asarray, full
    from ._sets import isin
    from ._searching import nonzero, where
    from ._unique import unique
    from ._shapes import ravel
    _check_arraylike("setdiff1d", ar1, ar2)
    a, b = ravel(asarray(ar1)), ravel(asarray(ar2))
    fill = asarray(0 if fill_value is None else fill_value).astype(a.dtype)
    if a.size == 0:
        return full(size, fill, a.dtype)
    if not assume_unique:
        a = unique(a, size=a.size)  # padded with its smallest value: masked out below
    keep = isin(a, b, invert=True)
    if not assume_unique:
        n_unique = a.size + 1 - (a == a[0]).sum()
        keep = keep & (arange(a.size) < n_unique)
    return where(arange(size) < keep.sum(), a[nonzero(keep, size=size)[0]], fill)


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    if size is not None:
        return _setdiff1d_sized(ar1, ar2, assume_unique, _static_size(size, "setdiff1d"), fill_value)
    a, b, dt = _two("setdiff1d", ar1, ar2)
    from ._creation import asarray
    # the values come from ar1, and keep its dtype (as JAX's)
    return _wrap(_np.setdiff1d(a, b, assume_unique=assume_unique), asarray(ar1).dtype)


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    _eager_only_with_size("setxor1d", size, ar1, ar2)
    a, b, dt = _two("setxor1d", ar1, ar2)
    out = _np.setxor1d(a, b, assume_unique=assume_unique)
    if size is not None:
        out = _to_size(out, size, fill_value, "setxor1d")[0]
    return _wrap(out, dt)


def isin(element, test_elements, assume_unique=False, invert=False, *, method="auto"):
    """Elementwise membership by broadcasting (traceable, so it works under jit and vmap)."""
    from ._reductions import any as _any
    from ._creation import asarray
    from ._ufuncs import equal
    from ._shapes import ravel
    e, t = asarray(element), ravel(asarray(test_elements))
    hit = _any(equal(e[..., None], t), axis=-1)
    return ~hit if invert else hit
