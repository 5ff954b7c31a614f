"""The array API's cumulative_sum / cumulative_prod: an explicit axis for n-d input, and
`include_initial` prepends the identity (0 or 1) along that axis."""
from __future__ import annotations

from .. import lax
from ..tracing import get_aval


def _cumulative(name, what, jnp_fn, identity):
    def fn(x, /, *, axis=None, dtype=None, include_initial=False):
        from . import _canon_one, _check_arraylike, asarray, concatenate, full
        _check_arraylike(name, x)
        x = asarray(x)
        nd = get_aval(x).ndim
        if nd == 0:
            raise ValueError(f"The input must be non-scalar to take a {what}, however a scalar value or scalar "
                             "array was given.")
        if axis is None:
            if nd > 1:
                raise ValueError(f"The input array has rank {nd}, however axis was not set to an explicit value. "
                                 "The axis argument is only optional for one-dimensional arrays.")
            axis = 0
        axis = _canon_one(axis, nd)
        out = jnp_fn(x, axis=axis, dtype=dtype)
        if include_initial:
            shape = list(get_aval(out).shape)
            shape[axis] = 1
            out = lax.concatenate([full(shape, identity, get_aval(out).dtype), out], axis)
        return out
    fn.__name__ = name
    return fn


def _sum(x, axis, dtype):
    from . import cumsum
    return cumsum(x, axis=axis, dtype=dtype)


def _prod(x, axis, dtype):
    from . import cumprod
    return cumprod(x, axis=axis, dtype=dtype)


cumulative_sum = _cumulative("cumulative_sum", "cumulative sum", _sum, 0)
cumulative_prod = _cumulative("cumulative_prod", "cumulative product", _prod, 1)
