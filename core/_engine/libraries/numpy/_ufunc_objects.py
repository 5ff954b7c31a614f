"""The jnp functions that JAX makes `jnp.ufunc` objects (jnp.add, jnp.multiply, jnp.maximum, ...):
calling one is calling the plain function in _ufuncs; its reduce / accumulate / at use the
matching fast reduction or indexed update where JAX's do (add.reduce is sum, add.at is
.at[].add), and the ufunc's generic loops otherwise."""
from __future__ import annotations

from . import _reductions as _red
from . import _ufuncs as _uf
from ._more_math import logaddexp2 as _logaddexp2
from ._ufunc_class import ufunc


def _reduction(fn, takes_dtype=True):
    """A jnp reduction called as ufunc.reduce calls it: (a, axis, dtype, keepdims, initial, where)."""
    def reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
        kw = {"dtype": dtype} if takes_dtype else {}
        if initial is not None:
            kw["initial"] = initial
        out = fn(a, axis=axis, keepdims=keepdims, where=where, **kw)
        return out if takes_dtype or dtype is None else out.astype(dtype)
    return reduce


def _boolean(fn):
    """all / any as reductions (no initial: logical_and's identity is True, logical_or's False)."""
    def reduce(a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
        out = fn(a, axis=axis, keepdims=keepdims, where=where)
        if initial is not None:
            out = (_uf.logical_and if fn is _red.all else _uf.logical_or)(out, initial)
        return out if dtype is None else out.astype(dtype)
    return reduce


def _indexed(update):
    """ufunc.at by the matching .at[] update; booleans go through int32 as JAX's do."""
    def at(a, indices, b):
        from ._creation import asarray
        a = asarray(a)
        if a.dtype == bool:
            b = asarray(b).astype(bool).astype("int32")
            return update(a.astype("int32").at[indices], b).astype(bool)
        return update(a.at[indices], b)
    return at


def _binary(fn, identity, **methods):
    return ufunc(fn, 2, 1, name=fn.__name__, identity=identity, call=fn, **methods)


add = _binary(_uf.add, 0, reduce=_reduction(_red.sum), accumulate=_red.cumsum,
              at=_indexed(lambda ref, b: ref.add(b)))
multiply = _binary(_uf.multiply, 1, reduce=_reduction(_red.prod), accumulate=_red.cumprod,
                   at=_indexed(lambda ref, b: ref.multiply(b)))
subtract = _binary(_uf.subtract, None, at=lambda a, indices, b: a.at[indices].subtract(b))
maximum = _binary(_uf.maximum, None, reduce=_reduction(_red.max, takes_dtype=False))
minimum = _binary(_uf.minimum, None, reduce=_reduction(_red.min, takes_dtype=False))
logical_and = _binary(_uf.logical_and, True, reduce=_boolean(_red.all))
logical_or = _binary(_uf.logical_or, False, reduce=_boolean(_red.any))
logical_xor = _binary(_uf.logical_xor, False)
bitwise_and = _binary(_uf.bitwise_and, -1)
bitwise_or = _binary(_uf.bitwise_or, 0)
bitwise_xor = _binary(_uf.bitwise_xor, 0)
negative = ufunc(_uf.negative, 1, 1, name="negative", call=_uf.negative)
logaddexp = _binary(_uf.logaddexp, -float("inf"))
logaddexp2 = _binary(_logaddexp2, -float("inf"))
