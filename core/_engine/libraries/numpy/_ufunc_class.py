"""jnp.ufunc and jnp.frompyfunc: a Python scalar function made a NumPy-style universal function,
as JAX's: called elementwise (vectorized), and for binary functions with one output the methods
reduce, accumulate, reduceat, outer and at (each written with lax loops, so they also run under
jit). JAX's ufuncs take no `out`, and `at` returns the updated array (inplace=False)."""
from __future__ import annotations

import math
import operator

import numpy as _np

from ...lax import lax

_AT_INPLACE = ("Because JAX arrays are immutable, jnp.ufunc.at() cannot operate inplace like\nnp.ufunc.at(). "
               "Instead, you can pass inplace=False and capture the result; e.g.\n"
               ">>> arr = jnp.add.at(arr, ind, val, inplace=False)\n")


def _api():
    from ...api import api  # INHERENT: up to the api; jit, vmap and eval_shape sit in the api, above jax.numpy
    return api


class ufunc:
    """A universal function over jax arrays, from a function of `nin` scalars to `nout`."""

    def __init__(self, func, /, nin, nout, *, name=None, nargs=None, identity=None, call=None, reduce=None,
                 accumulate=None, at=None, reduceat=None):
        self.__doc__ = func.__doc__
        self.__name__ = name or func.__name__
        # read-only, so that a ufunc can be a static argument of jit
        self.__props = {"func": func, "nin": operator.index(nin), "nout": operator.index(nout),
                        "nargs": operator.index(nargs or nin), "identity": identity, "call": call,
                        "reduce": reduce, "accumulate": accumulate, "at": at, "reduceat": reduceat}

    _func = property(lambda self: self.__props["func"])
    nin = property(lambda self: self.__props["nin"])
    nout = property(lambda self: self.__props["nout"])
    nargs = property(lambda self: self.__props["nargs"])
    identity = property(lambda self: self.__props["identity"])

    def _key(self):
        return (self._func, self.__name__, self.identity, self.nin, self.nout, self.nargs)

    def __hash__(self):  # cached: jnp.add is a dict key on the operators' fast path (core._engine.tracing.array)
        if "hash" not in self.__dict__:
            self.__dict__["hash"] = hash(self._key())
        return self.__dict__["hash"]

    def __eq__(self, other):
        return isinstance(other, ufunc) and self._key() == other._key()

    def __repr__(self):
        return f"<jnp.ufunc '{self.__name__}'>"

    # ---- calling ------------------------------------------------------------------------------

    def __call__(self, *args, out=None, where=None):
        if out is not None:
            raise NotImplementedError(f"out argument of {self}")
        if where is not None:
            raise NotImplementedError(f"where argument of {self}")
        call = self.__props["call"]
        if call is not None:  # jnp.add and the like: their function checks its arguments itself
            return call(*args)
        from ._util import _check_arraylike
        _check_arraylike(self.__name__, *args)
        return self._vectorized()(*args)

    def _vectorized(self):
        if "vectorized" not in self.__dict__:
            from ._vectorize import vectorize
            fn = vectorize(self._func)
            fn.__name__ = self.__name__
            self.__dict__["vectorized"] = _api().jit(fn)
        return self.__dict__["vectorized"]

    def _binary_only(self, method):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary ufuncs")
        if self.nout != 1:
            raise ValueError(f"{method} only supported for functions returning a single value")

    def _result_dtype(self, *args):
        from ._creation import asarray
        ones = [lax.full((), 1, asarray(a).dtype) for a in args]
        return _api().eval_shape(self._func, *ones).dtype

    # ---- reduce / accumulate / reduceat -------------------------------------------------------

    def reduce(self, a, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=None):
        from ._util import _check_arraylike
        from ...api.api import _hashable  # INHERENT: up to the api (JAX's reduce is a jit with static axis/dtype/keepdims)
        _check_arraylike(f"{self.__name__}.reduce", a)
        self._binary_only("reduce")
        for static in (axis, dtype, keepdims):   # jnp.add.reduce(x, jnp.array([0, 2])): JAX's ValueError
            _hashable(static, "reduce")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduce()")
        if initial is not None:
            _check_arraylike(f"{self.__name__}.reduce", initial)
        if where is not None:
            _check_arraylike(f"{self.__name__}.reduce", where)
            if self.identity is None and initial is None:
                raise ValueError(f"reduction operation {self.__name__!r} does not have an identity, so to use a "
                                 "where mask one has to specify 'initial'.")
            if _np.dtype(getattr(where, "dtype", type(where))) != _np.bool_:
                raise ValueError(f"where argument must have dtype=bool; got dtype={_np.dtype(where.dtype)}")
        fn = self.__props["reduce"] or self._reduce_by_loop
        return fn(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)

    def _reduce_by_loop(self, a, axis=0, dtype=None, keepdims=False, initial=None, where=None):
        from ._reductions import _canon_one
        from ._creation import asarray
        from ._shapes import broadcast_to, moveaxis, ravel
        from ._searching import where as _where
        a = asarray(a)
        initial = self.identity if initial is None else initial
        dtype = self._result_dtype(a, a) if dtype is None else dtype
        if where is not None:
            where = broadcast_to(where, a.shape)
        if isinstance(axis, tuple):
            raise NotImplementedError("tuple of axes")
        if axis is None:
            final_shape = (1,) * a.ndim if keepdims else ()
            a, where, axis = ravel(a), (None if where is None else ravel(where)), 0
        else:
            axis = _canon_one(axis, a.ndim)
            final_shape = a.shape[:axis] + ((1,) if keepdims else ()) + a.shape[axis + 1:]
        if axis != 0:
            a = moveaxis(a, axis, 0)
            where = None if where is None else moveaxis(where, axis, 0)
        if a.shape[0] == 0:
            if initial is None:
                raise ValueError(f"zero-size array to reduction operation {self.__name__} which has no identity")
            return lax.full(final_shape, initial, dtype)

        def body(i, acc):
            new = self(acc, a[i].astype(dtype))
            return new if where is None else _where(where[i], new, acc)
        start, first = (1, a[0]) if initial is None else (0, initial)
        first = broadcast_to(asarray(first).astype(dtype), a.shape[1:])
        result = lax.fori_loop(start, a.shape[0], body, first)
        return result.reshape(final_shape) if keepdims else result

    def accumulate(self, a, axis=0, dtype=None, out=None):
        self._binary_only("accumulate")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.accumulate()")
        fn = self.__props["accumulate"] or self._accumulate_by_scan
        return fn(a, axis=axis, dtype=dtype)

    def _accumulate_by_scan(self, a, axis=0, dtype=None):
        from ._reductions import _canon_one
        from ._util import _check_arraylike
        from ._creation import asarray
        from ._shapes import moveaxis, ndim
        _check_arraylike(f"{self.__name__}.accumulate", a)
        a = asarray(a)
        dtype = self._result_dtype(a, a) if dtype is None else dtype
        if axis is None or isinstance(axis, tuple):
            raise ValueError("accumulate does not allow multiple axes")
        axis = _canon_one(axis, ndim(a))
        if a.size == 0:
            return lax.full(a.shape, 0, dtype)
        a = moveaxis(a, axis, 0)

        def step(acc, x):
            acc = self(acc, x.astype(dtype))
            return acc, acc
        first = a[0].astype(dtype)
        _, rest = lax.scan(step, first, a[1:])
        out = lax.concatenate([first[None], rest], 0) if a.shape[0] > 1 else first[None]
        return moveaxis(out, 0, axis)

    def reduceat(self, a, indices, axis=0, dtype=None, out=None):
        self._binary_only("reduceat")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduceat()")
        fn = self.__props["reduceat"] or self._reduceat_by_loop
        return fn(a, indices, axis=axis, dtype=dtype)

    def _reduceat_by_loop(self, a, indices, axis=0, dtype=None):
        from ._reductions import _canon_one
        from ._util import _check_arraylike
        from ._rearrange import append
        from ._creation import asarray
        from ._take import take
        from ._searching import where as _where
        _check_arraylike(f"{self.__name__}.reduceat", a, indices)
        a, indices = asarray(a), asarray(indices)
        if a.ndim == 0:
            raise ValueError(f"reduceat: a must have 1 or more dimension, got a.shape={a.shape}")
        if indices.ndim != 1:
            raise ValueError(f"reduceat: indices must be one-dimensional, got indices.shape={indices.shape}")
        dtype = a.dtype if dtype is None else dtype
        if axis is None or isinstance(axis, (tuple, list)):
            raise ValueError("reduceat requires a single integer axis.")
        axis = _canon_one(axis, a.ndim)
        out = take(a, indices, axis=axis)
        bounds = lax.expand_dims(append(indices, a.shape[axis]), [d for d in range(out.ndim) if d != axis])
        starts = lax.slice_in_dim(bounds, 0, bounds.shape[axis] - 1, axis=axis)
        ends = lax.slice_in_dim(bounds, 1, bounds.shape[axis], axis=axis)

        def body(i, acc):  # position i joins every segment [start, end) that holds it past its start
            return _where((i > starts) & (i < ends), self(acc, take(a, lax.expand_dims(i, (0,)), axis=axis)), acc)
        return lax.fori_loop(0, a.shape[axis], body, out)

    # ---- outer / at ---------------------------------------------------------------------------

    def outer(self, A, B, /):
        from ._util import _check_arraylike
        from ._creation import asarray
        self._binary_only("outer")
        _check_arraylike(f"{self.__name__}.outer", A, B)
        A, B = asarray(A), asarray(B)
        vmap = _api().vmap
        table = vmap(vmap(self, (None, 0)), (0, None))(A.reshape(A.size), B.reshape(B.size))
        return table.reshape(A.shape + B.shape)

    def at(self, a, indices, b=None, /, *, inplace=True):
        if inplace:
            raise NotImplementedError(_AT_INPLACE)
        fn = self.__props["at"] or self._at_by_scan
        return fn(a, indices) if b is None else fn(a, indices, b)

    def _at_by_scan(self, a, indices, *args):
        from ._util import _check_arraylike
        from ._creation import asarray
        from ._shapes import broadcast_shapes, broadcast_to
        _check_arraylike(f"{self.__name__}.at", a, *args)
        dtype = self._result_dtype(a, *args)
        a = asarray(a).astype(dtype)
        args = tuple(asarray(x).astype(dtype) for x in args)
        indices = indices if isinstance(indices, tuple) else (indices,)
        if not indices:
            return a
        shapes = [_np.shape(i) for i in indices if not isinstance(i, slice)]
        shape = broadcast_shapes(*shapes) if shapes else ()
        if not shape:
            return a.at[indices].set(self(a.at[indices].get(), *args))
        # one update per index position, in order, so repeated indices accumulate (unlike .at[].set)
        if args:
            arg = broadcast_to(args[0], shape + args[0].shape[len(shape):])
            args = (arg.reshape((math.prod(shape),) + args[0].shape[len(shape):]),)
        indices = [i if isinstance(i, slice) else broadcast_to(asarray(i), shape).reshape(-1) for i in indices]

        def step(acc, i):
            idx = tuple(ind if isinstance(ind, slice) else ind[i] for ind in indices)
            return acc.at[idx].set(self(acc.at[idx].get(), *(x[i] for x in args))), None
        out, _ = lax.scan(step, a, lax.iota(_np.int32, math.prod(shape)))
        return out


ufunc.__module__ = "jax.numpy"  # the class prints as JAX's: <class 'jax.numpy.ufunc'>


def frompyfunc(func, /, nin, nout, *, identity=None):
    """jnp.frompyfunc: `func` (of nin scalars) as a jnp.ufunc."""
    return ufunc(func, nin, nout, identity=identity)
