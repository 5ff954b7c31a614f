"""`Array`: an immutable, concrete array (a numpy ndarray plus JAX's weak-type flag).

Operators and methods shared with tracers live in `ArrayMethods`; they call `jax.numpy`,
which registers itself in `_jnp` on import (numpy would otherwise import this module first).
"""
from __future__ import annotations

import numpy as np

from ..base import compat as _compat
from ..base import dtypes
from ..base.fp_errors import quietly
from ..base.prng_dtype import KEY_DTYPE_FACE, key_repr
from ..base.avals import ShapedArray, shaped_array_unchecked
from ..base.sharding import Shard, Sharding, SingleDeviceSharding

_jnp = None  # set by core._engine.libraries.numpy on import

# Counts the traces begun (staging bumps it): an Array remembers the count at its birth, so a trace
# can tell a constant that existed before it began (a closed-over array: a constvar in JAX's
# jaxprs, 0-d too) from one made while tracing (a literal, as JAX stages those).
trace_epoch = [0]


def to_numpy(x) -> np.ndarray:
    """The numpy value of a concrete input, in its canonical (x64-aware) dtype."""
    t = type(x)
    if t is Array:
        return x._value
    if t is np.ndarray:
        dt = dtypes.canonicalize_dtype(x.dtype)
        return x if dt == x.dtype else x.astype(dt)
    if t in (bool, int, float, complex):
        return np.asarray(x, dtypes.python_scalar_value_dtype(x))
    if isinstance(x, np.generic):
        return np.asarray(x, dtypes.canonicalize_dtype(x.dtype))
    if isinstance(x, Array):  # device-resident subclasses read their data back
        return x._value
    if hasattr(x, "__jax_array__"):
        dtypes.check_not_jax_array_protocol(x)
        return to_numpy(x.__jax_array__())
    raise TypeError(f"Value {x!r} of type {type(x)} is not a valid JAX type")


def _key_dtype_face():
    return KEY_DTYPE_FACE[0]


_NUMPY_PRINTS_BY_PRECISION = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 3)


def _scientific_as_numpy_2_3(v, trim: str):
    """A float16/float32 scalar at or above 10**precision (1e3, 1e6) in the scientific form NumPy
    2.3 and later print it in (`print(jnp.sum(x))` of 9772635. shows `9.772635e+06` with real JAX on
    a current NumPy), where an older NumPy (the page's, 2.0) printed `9772635.0`; None where the
    two agree. trim "-" is a scalar's str (`1e+07`), "." a 0-d array's repr (`Array(1.e+07, ...)`)."""
    if _NUMPY_PRINTS_BY_PRECISION or v.dtype not in (np.float16, np.float32) or not np.isfinite(v):
        return None
    if abs(float(v)) < 10.0 ** np.finfo(v.dtype).precision:
        return None
    return np.format_float_scientific(v, unique=True, trim=trim)


def _array_format_as_numpy_2_3(v):
    """The formatter that prints a float16/float32 array whose largest finite magnitude is at or
    above 10**precision (and below 1e8, where every NumPy goes scientific) in scientific form, as
    NumPy 2.3+ does (`[1.e+06 2.e+06]`, not the page's NumPy 2.0 `[1000000. 2000000.]`): NumPy's
    own FloatingFormat, told to use exponents. None where the two NumPys agree (or a summarized
    array, whose format NumPy takes from its shown items only)."""
    if (_NUMPY_PRINTS_BY_PRECISION or v.dtype not in (np.float16, np.float32) or v.ndim == 0
            or not 0 < v.size <= np.get_printoptions()["threshold"] or np.get_printoptions()["legacy"] is not False):
        return None
    finite = np.abs(v[np.isfinite(v)])
    finite = finite[finite != 0]
    if not finite.size or not 10.0 ** np.finfo(v.dtype).precision <= float(finite.max()) < 1e8:
        return None
    import sys
    from numpy._core import arrayprint
    opts = np.get_printoptions()
    fmt = arrayprint.FloatingFormat(v, opts["precision"], opts["floatmode"], opts["suppress"], opts["sign"],
                                    legacy=sys.maxsize)
    fmt.exp_format = True
    fmt.fillFormat(v)
    return {"float_kind": fmt}


class ArrayMethods:
    """Operators and methods of jax arrays, shared by `Array` and every `Tracer`."""
    __slots__ = ()
    __array_priority__ = 100

    def __neg__(self): return _jnp.negative(self)
    def __pos__(self): return _jnp.positive(self)
    def __abs__(self): return _jnp.abs(self)
    def __invert__(self): return _jnp.invert(self)
    def __add__(self, o): return _binop(_jnp.add, self, o)
    def __radd__(self, o): return _binop(_jnp.add, o, self)
    def __sub__(self, o): return _binop(_jnp.subtract, self, o)
    def __rsub__(self, o): return _binop(_jnp.subtract, o, self)
    def __mul__(self, o): return _binop(_jnp.multiply, self, o)
    def __rmul__(self, o): return _binop(_jnp.multiply, o, self)
    def __truediv__(self, o): return _binop(_jnp.true_divide, self, o)
    def __rtruediv__(self, o): return _binop(_jnp.true_divide, o, self)
    def __floordiv__(self, o): return _binop(_jnp.floor_divide, self, o)
    def __rfloordiv__(self, o): return _binop(_jnp.floor_divide, o, self)
    def __mod__(self, o): return _binop(_jnp.remainder, self, o)
    def __rmod__(self, o): return _binop(_jnp.remainder, o, self)
    def __divmod__(self, o): return _binop(_jnp.divmod, self, o)
    def __pow__(self, o): return _binop(_jnp.power, self, o)
    def __rpow__(self, o): return _binop(_jnp.power, o, self)
    def __matmul__(self, o): return _binop(_jnp.matmul, self, o)
    def __rmatmul__(self, o): return _binop(_jnp.matmul, o, self)
    def __and__(self, o): return _binop(_jnp.bitwise_and, self, o)
    def __rand__(self, o): return _binop(_jnp.bitwise_and, o, self)
    def __or__(self, o): return _binop(_jnp.bitwise_or, self, o)
    def __ror__(self, o): return _binop(_jnp.bitwise_or, o, self)
    def __xor__(self, o): return _binop(_jnp.bitwise_xor, self, o)
    def __rxor__(self, o): return _binop(_jnp.bitwise_xor, o, self)
    def __lshift__(self, o): return _binop(_jnp.left_shift, self, o)
    def __rlshift__(self, o): return _binop(_jnp.left_shift, o, self)
    def __rshift__(self, o): return _binop(_jnp.right_shift, self, o)
    def __rrshift__(self, o): return _binop(_jnp.right_shift, o, self)
    def __eq__(self, o): return _binop(_jnp.equal, self, o)
    def __ne__(self, o): return _binop(_jnp.not_equal, self, o)
    def __lt__(self, o): return _binop(_jnp.less, self, o)
    def __le__(self, o): return _binop(_jnp.less_equal, self, o)
    def __gt__(self, o): return _binop(_jnp.greater, self, o)
    def __ge__(self, o): return _binop(_jnp.greater_equal, self, o)
    def __getitem__(self, idx): return _jnp._getitem(self, idx)

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        if isinstance(self, Array):
            return (self[i] for i in range(self.shape[0]))
        # a tracer: every row at once, as JAX's `_iter` stages them (`w, b = theta` shows
        # slice[... strides=(1,)] and squeeze for each row, not the equations of indexing)
        _lax = _jnp.lax  # (jax.numpy's lax: this layer reaches it through the module registered in _jnp)
        n, ones = self.shape[0], (1,) * self.ndim
        return iter([_lax.squeeze(_lax.slice(self, (i,) + (0,) * (self.ndim - 1), (i + 1,) + tuple(self.shape[1:]), ones), (0,))
                     for i in range(n)])

    def __reversed__(self):
        return iter(self[::-1])

    @property
    def at(self):
        return _jnp._IndexUpdateHelper(self)

    @property
    def T(self):
        return _jnp.transpose(self)

    @property
    def mT(self):
        return _jnp.swapaxes(self, -1, -2)

    @property
    def real(self): return _jnp.real(self)
    @property
    def imag(self): return _jnp.imag(self)

    def conj(self): return _jnp.conjugate(self)
    conjugate = conj
    def astype(self, dtype, copy=False): return _jnp.astype(self, dtype)
    def reshape(self, *shape, order="C"):
        if len(shape) == 1:  # x.reshape(5), x.reshape((5,)): the one argument, as given (error texts show it)
            shape = shape[0]
        return _jnp.reshape(self, shape, order=order)
    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], int) and axes[0] is not None:
            axes = axes[0]
        return _jnp.transpose(self, axes or None)
    def swapaxes(self, a, b): return _jnp.swapaxes(self, a, b)
    def flatten(self, order="C"): return _jnp.ravel(self, order)
    def ravel(self, order="C"): return _jnp.ravel(self, order)
    def squeeze(self, axis=None): return _jnp.squeeze(self, axis)
    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
        return _jnp.sum(self, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)
    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
        return _jnp.prod(self, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)
    def mean(self, axis=None, dtype=None, out=None, keepdims=False, where=None):
        return _jnp.mean(self, axis=axis, dtype=dtype, keepdims=keepdims, where=where)
    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None):
        return _jnp.var(self, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where)
    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=None):
        return _jnp.std(self, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where)
    def max(self, axis=None, out=None, keepdims=False, initial=None, where=None):
        return _jnp.max(self, axis=axis, keepdims=keepdims, initial=initial, where=where)
    def min(self, axis=None, out=None, keepdims=False, initial=None, where=None):
        return _jnp.min(self, axis=axis, keepdims=keepdims, initial=initial, where=where)
    def any(self, axis=None, out=None, keepdims=False, where=None):
        return _jnp.any(self, axis=axis, keepdims=keepdims, where=where)
    def all(self, axis=None, out=None, keepdims=False, where=None):
        return _jnp.all(self, axis=axis, keepdims=keepdims, where=where)
    def argmax(self, axis=None, out=None, keepdims=None): return _jnp.argmax(self, axis, keepdims=keepdims)
    def argmin(self, axis=None, out=None, keepdims=None): return _jnp.argmin(self, axis, keepdims=keepdims)
    def cumsum(self, axis=None, dtype=None, out=None): return _jnp.cumsum(self, axis, dtype)
    def cumprod(self, axis=None, dtype=None, out=None): return _jnp.cumprod(self, axis, dtype)
    def clip(self, min=None, max=None): return _jnp.clip(self, min, max)
    def round(self, decimals=0, out=None): return _jnp.round(self, decimals)
    def dot(self, b, *, precision=None, preferred_element_type=None):  # optax's lbfgs passes precision
        return _jnp.dot(self, b, precision=precision, preferred_element_type=preferred_element_type)
    def sort(self, axis=-1): return _jnp.sort(self, axis)
    def argsort(self, axis=-1): return _jnp.argsort(self, axis)
    def take(self, indices, axis=None, mode=None): return _jnp.take(self, indices, axis=axis, mode=mode)
    def repeat(self, repeats, axis=None): return _jnp.repeat(self, repeats, axis)
    def nonzero(self, size=None, fill_value=None): return _jnp.nonzero(self, size=size, fill_value=fill_value)
    def compress(self, condition, axis=None, *, out=None, size=None, fill_value=0):  # [docs2]
        return _jnp.compress(condition, self, axis=axis, out=out, size=size, fill_value=fill_value)
    def copy(self): return _jnp.array(self, copy=True)
    def view(self, dtype=None, type=None): return _view(self, dtype, type)
    def byteswap(self): return _byteswap(self)
    # (numpy area) more of JAX's Array methods: ptp, searchsorted, choose; round(x) gives an int array
    def ptp(self, axis=None, out=None, keepdims=False): return _jnp.ptp(self, axis=axis, out=out, keepdims=keepdims)
    def searchsorted(self, v, side="left", sorter=None, *, method="scan"):
        return _jnp.searchsorted(self, v, side=side, sorter=sorter, method=method)
    def choose(self, choices, out=None, mode="raise"): return _jnp.choose(self, choices, out=out, mode=mode)
    def __round__(self, ndigits=None):
        if ndigits is None:
            return _jnp.round(self).astype(dtypes.default_int_dtype())
        return _jnp.round(self, ndigits)
    def block_until_ready(self): return self
    # the array API standard's methods (arrays live in host memory: DLPack is numpy's)
    def __array_namespace__(self, /, *, api_version=None): return _jnp._array_api.array_namespace(api_version)
    def to_device(self, device, /, *, stream=None):
        from .placement import device_put  # (placement imports arrays: imported when called)
        return device_put(self, device)
    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        v = np.asarray(self)
        try:  # DLPack >= 1.0 consumers accept our read-only buffer as it is
            return v.__dlpack__(stream=stream, max_version=max_version, copy=copy)
        except (BufferError, TypeError):  # an older protocol cannot mark it read-only: a copy
            return v.copy().__dlpack__(stream=stream)
    def __dlpack_device__(self, /): return np.asarray(self).__dlpack_device__()
    def trace(self, offset=0, axis1=0, axis2=1): return _jnp.trace(self, offset, axis1, axis2)
    def diagonal(self, offset=0, axis1=0, axis2=1): return _jnp.diagonal(self, offset, axis1, axis2)


def _view(x, dtype, type_=None):
    """JAX's Array.view: the same bytes read as `dtype`; a change of width resizes the last axis
    (int16 (1, 2, 3) -> int8 (1, 2, 6)), bool counts as 8 bits, complex as its (real, imag) pair."""
    if type_ is not None:
        raise NotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return x
    lax, jnp = _jnp.lax, _jnp
    dtype = np.dtype(jnp.dtype(dtype))
    src = np.dtype(x.dtype)
    a, b = dtypes.itemsize_bits(src), dtypes.itemsize_bits(dtype)
    if x.ndim == 0:
        if a != b:
            raise ValueError("view() of a 0d array is only supported if the itemsize is unchanged.")
        return _view(lax.expand_dims(x, (0,)), dtype).squeeze()
    if (x.shape[-1] * a) % b:
        raise ValueError("When changing to a larger dtype, its size must be a divisor "
                         "of the total size in bytes of the last axis of the array.")
    if src == dtype:
        return x
    if src == np.bool_:
        return _view(x.astype(np.uint8), dtype)
    if src.kind == "c":   # interleave (real, imag) in the last axis, in the parts' float dtype
        parts = jnp.stack([jnp.real(x), jnp.imag(x)], axis=-1)
        return _view(parts.reshape(*x.shape[:-1], 2 * x.shape[-1]), dtype)
    if dtype == np.bool_:
        return _view(x, np.uint8).astype(bool)
    if dtype.kind == "c":
        out = _view(x, np.dtype(f"f{dtype.itemsize // 2}"))
        return (out[..., 0::2] + 1j * out[..., 1::2]).astype(dtype)
    if a < b:
        return lax.bitcast_convert_type(x.reshape(*x.shape[:-1], x.shape[-1] * a // b, b // a), dtype)
    out = lax.bitcast_convert_type(x, dtype)
    return out.reshape(*out.shape[:-2], out.shape[-2] * out.shape[-1]) if a > b else out


def _byteswap(x):
    """JAX's Array.byteswap: each element's bytes in reverse order, as a new array (no `inplace`)."""
    lax = _jnp.lax
    if np.dtype(x.dtype).kind == "c":
        return lax.complex(_byteswap(_jnp.real(x)), _byteswap(_jnp.imag(x)))
    if dtypes.itemsize_bits(x.dtype) == 8:
        return _jnp.array(x, copy=True)
    raw = lax.bitcast_convert_type(x, np.uint8)
    return lax.bitcast_convert_type(lax.rev(raw, (x.ndim,)), x.dtype)


def _binop(fn, a, b):
    fast = _eager_binop(fn, a, b)
    if fast is not None:
        return fast
    fast = _traced_binop(fn, a, b)
    if fast is not None:
        return fast
    other = b if isinstance(a, ArrayMethods) else a
    if not isinstance(other, _ACCEPTED_OPERANDS) and not hasattr(other, "__jax_array__"):
        # JAX's rule: a container is an error, anything else it does not know is given back to
        # Python (NotImplemented), so the other operand's reflected method (`__rpow__` of a
        # library's own type) runs, and `x == None` falls back to identity as in JAX
        if type(other) in (list, tuple, set, dict):
            sym = _OPERATOR_SYMBOLS.get(fn.__name__, fn.__name__)
            names = [type(v).__name__ for v in (a, b)]
            raise TypeError(f"unsupported operand type(s) for {sym}: {names[0]!r} and {names[1]!r}")
        return NotImplemented
    if not isinstance(other, _ACCEPTED_OPERANDS):
        # an Array's operator converts an object with `__jax_array__` explicitly (JAX 0.10:
        # `jnp.ones(3) + obj` works where `jnp.add(jnp.ones(3), obj)` raises)
        conv = other.__jax_array__()
        a, b = (a, conv) if other is b else (conv, b)
    return fn(a, b)


_ACCEPTED_OPERANDS = (bool, int, float, complex, np.generic, np.ndarray, ArrayMethods)
_OPERATOR_SYMBOLS = {"add": "+", "subtract": "-", "multiply": "*", "true_divide": "/", "floor_divide": "//",
                     "remainder": "%", "divmod": "divmod()", "power": "**", "matmul": "@", "bitwise_and": "&",
                     "bitwise_or": "|", "bitwise_xor": "^", "left_shift": "<<", "right_shift": ">>",
                     "equal": "==", "not_equal": "!=", "less": "<", "less_equal": "<=", "greater": ">",
                     "greater_equal": ">="}


_FAST_UFUNCS: dict = {}   # jnp function -> (numpy ufunc, result is bool)


def _fast_table():
    j = _jnp
    for f, u in ((j.add, np.add), (j.subtract, np.subtract), (j.multiply, np.multiply)):
        _FAST_UFUNCS[f] = (u, False)
    for f, u in ((j.equal, np.equal), (j.not_equal, np.not_equal), (j.less, np.less),
                 (j.less_equal, np.less_equal), (j.greater, np.greater), (j.greater_equal, np.greater_equal)):
        _FAST_UFUNCS[f] = (u, True)
    return _FAST_UFUNCS


def _eager_binop(fn, a, b):
    """Operators on concrete arrays of one dtype (or a float array and a Python float/int) skip
    jnp's promotion and the primitive machinery: same numpy ufunc, same result, far less
    Python. None means: take the general path."""
    entry = (_FAST_UFUNCS or _fast_table()).get(fn)
    if entry is None:
        return None
    ta, tb = type(a), type(b)
    if ta is Array and tb is Array:
        x, y = a._value, b._value
        if x.dtype != y.dtype or x.shape != y.shape or dtypes.kind(x.dtype) not in "fiuc" or not x.dtype.isnative:
            return None
        weak = a.weak_type and b.weak_type
    # (numpy's own kinds: numpy would promote bfloat16 and a Python scalar to float32, JAX keeps
    # bfloat16; the emulated bfloat16, float32 in the non-native byte order, is not `isnative`)
    elif ta is Array and (tb is float or tb is int and _small(b)) and a._value.dtype.kind in "fc" \
            and a._value.dtype.isnative:
        x, y, weak = a._value, b, a.weak_type
    elif tb is Array and (ta is float or ta is int and _small(a)) and b._value.dtype.kind in "fc" \
            and b._value.dtype.isnative:
        x, y, weak = a, b._value, b.weak_type
    else:
        return None
    if not _tracing().eager_fast_path_ok():
        return None
    out = quietly(entry[0], x, y)
    return Array(out if type(out) is np.ndarray else np.asarray(out), weak)  # comparisons too: JAX keeps weak


_TRACED_PRIMS: dict = {}   # jnp function -> its primitive, for a traced operand of a numeric dtype


def _traced_table():
    _TRACED_PRIMS.update(_jnp._util.operator_primitives(_jnp))   # (primitives sit above arrays)
    return _TRACED_PRIMS


def _traced_binop(fn, a, b):
    """`x * 1.0001` or `x + y` on tracers (what a traced function is mostly made of): the
    operands jnp's promotion would give, bound straight to the primitive, skipping the ufunc
    object and jnp's wrappers (fewer frames for every traced op, source info walks them all).
    Not for bool operands: jnp.add/multiply on bools are logical or/and. None: the general path."""
    prim = (_TRACED_PRIMS or _traced_table()).get(fn)
    if prim is None:
        return None
    tracer = _tracing().Tracer
    t = a if isinstance(a, tracer) else b
    if not isinstance(t, tracer) or t.aval.dtype.kind not in "fciu":
        return None
    args = _jnp._util._traced_binary_args(a, b, False)
    return None if args is None else prim.bind(*args)


def _small(i):
    """A Python int that fits int32 (a bigger one takes the general path, which says JAX's OverflowError)."""
    return -2147483648 <= i <= 2147483647


def _tracing():
    global _tracing_mod
    if _tracing_mod is None:
        from . import tracing
        _tracing_mod = tracing
    return _tracing_mod


_tracing_mod = None


class Array(ArrayMethods):
    """A concrete jax array. Immutable: use `x.at[idx].set(y)` to get an updated copy."""
    __slots__ = ("_value", "weak_type", "_device", "_epoch", "__weakref__")

    def __init__(self, value: np.ndarray, weak_type: bool = False, device=None):
        self._value = value
        self.weak_type = weak_type
        self._device = device
        self._epoch = trace_epoch[0]

    @property
    def aval(self) -> ShapedArray:
        v = self._value
        return shaped_array_unchecked(v.shape, v.dtype, bool(self.weak_type))

    shape = property(lambda self: self._value.shape)
    dtype = property(lambda self: self._value.dtype if self._value.dtype.names is None else _key_dtype_face())
    ndim = property(lambda self: self._value.ndim)
    size = property(lambda self: self._value.size)
    nbytes = property(lambda self: self._value.nbytes)
    itemsize = property(lambda self: self._value.itemsize)
    # (without ml_dtypes, dtype/nbytes/itemsize/printing are replaced below for the emulated bfloat16)

    # `_device` holds a device, or the NamedSharding `device_put` / `out_sharding=` gave the array: its
    # values stay whole in `_value`, the sharding says which device holds which slice. An operation's
    # result is a new Array on the default device (gradpad does not propagate shardings).
    @property
    def device(self):
        from ..base.devices import default_device
        return self._device or default_device()   # a sharded array answers its sharding, as in JAX

    def devices(self):
        return set(self.sharding.device_set)

    @property
    def sharding(self):
        d = self.device
        return d if isinstance(d, Sharding) else SingleDeviceSharding(d)

    @property
    def addressable_shards(self):
        sharding, value = self.sharding, self._value
        return [Shard(device, sharding, value.shape, Array(value[index], self.weak_type, device), index)
                for device, index in sharding.devices_indices_map(value.shape).items()]

    global_shards = addressable_shards   # one process: every shard is addressable
    is_fully_replicated = property(lambda self: self.sharding.is_fully_replicated)

    def is_fully_addressable(self):
        return True

    def __array__(self, dtype=None, copy=None):
        v = self._value
        if type(v) is _DeletedBuffer:
            v._refuse()
        return v if dtype is None else v.astype(dtype)

    def __setitem__(self, idx, value):
        raise TypeError(
            "JAX arrays are immutable and do not support in-place item assignment. Instead of "
            "x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
            "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html")

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("len() of unsized object")
        return self._value.shape[0]

    def __bool__(self): return bool(self._value)
    # JAX converts only 0-d arrays to Python scalars (numpy once allowed size-1 arrays, and the
    # page's numpy may still): int/float/complex of shape (1,) raise as in JAX 0.10.2
    def __int__(self): return int(self._scalar())
    def __float__(self): return float(self._scalar())
    def __complex__(self): return complex(self._scalar())

    def _scalar(self):
        v = self._value
        if v.ndim:
            raise TypeError(f"Only scalar arrays can be converted to Python scalars; got arr.ndim={v.ndim}")
        return v

    def __index__(self):
        if self._value.ndim or self._value.dtype.kind not in "iub":
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        return int(self._value)

    def __hash__(self):
        raise TypeError("unhashable type: 'jaxlib._jax.ArrayImpl'")

    def __format__(self, spec):
        if self._value.ndim == 0:
            return format(self._value[()], spec)
        return format(str(self), spec)

    def item(self, *args): return self._value.item(*args)
    def tolist(self): return self._value.tolist()

    def __reduce__(self):
        return (rebuild, (self._value, self.weak_type))  # (the class's printed module is JAX's, not importable)

    def __str__(self):
        if self._value.dtype.names is not None:  # typed PRNG keys print as JAX does (core._engine.libraries.random)
            return key_repr(self)
        if self._value.ndim == 0:
            return _scientific_as_numpy_2_3(self._value[()], trim="-") or str(self._value)
        fmt = _array_format_as_numpy_2_3(self._value)
        return np.array2string(self._value, separator=" ", formatter=fmt) if fmt else str(self._value)

    def __repr__(self):
        if self._value.dtype.names is not None:
            return key_repr(self)
        prefix = "Array("
        dtype_str = f"dtype={self.dtype.name}, weak_type=True)" if self.weak_type else f"dtype={self.dtype.name})"
        line_width = np.get_printoptions()["linewidth"]
        if self.size == 0:
            s = f"[], shape={self.shape}"
        elif self._value.ndim == 0 and _scientific_as_numpy_2_3(self._value[()], trim="."):
            s = _scientific_as_numpy_2_3(self._value[()], trim=".")
        else:
            s = np.array2string(self._shown(), prefix=prefix, suffix=",", separator=", ",
                                max_line_width=line_width, formatter=_array_format_as_numpy_2_3(self._value))
        last_line_len = len(s) - s.rfind("\n") + 1
        sep = " "
        if last_line_len + len(dtype_str) + 1 > line_width:
            sep = " " * len(prefix)
        return f"{prefix}{s},{sep}{dtype_str}"

    def __copy__(self):
        return self

    def _shown(self):
        return self._value

    def __deepcopy__(self, memo):
        return Array(self._value.copy(), self.weak_type, self._device)

    # (docs3) x.delete() frees the buffer, as JAX's: shape and dtype stay, every read of the
    # values raises RuntimeError (its stand-in refuses numpy conversion, so nothing reads stale data)
    def delete(self):
        if not isinstance(self._value, _DeletedBuffer):
            self._value = _DeletedBuffer(self)

    def is_deleted(self):
        return isinstance(self._value, _DeletedBuffer)


class _DeletedBuffer:
    """What a deleted Array holds instead of its values: its shape and dtype, nothing to read."""
    __slots__ = ("shape", "dtype", "ndim", "size", "itemsize", "nbytes", "_message")

    def __init__(self, array):
        aval = array.aval
        self.shape, self.dtype, self.ndim = aval.shape, np.dtype(aval.dtype), len(aval.shape)
        self.size = int(np.prod(aval.shape, dtype=np.int64))
        self.itemsize, self.nbytes = self.dtype.itemsize, self.size * self.dtype.itemsize
        self._message = f"Array has been deleted with shape={array.aval.str_short(short_dtypes=False)}."

    def _refuse(self, *args, **kwargs):
        raise RuntimeError(self._message)

    __array__ = __array_ufunc__ = __array_function__ = __getitem__ = __iter__ = _refuse
    __bool__ = __int__ = __float__ = __complex__ = __index__ = __str__ = __repr__ = _refuse
    item = tolist = astype = copy = reshape = view = tobytes = ravel = _refuse


if dtypes.EMULATED_BF16:   # no ml_dtypes (the page): bfloat16 is float32 storage with a tag
    from ..base import bf16_emulated as _bf16
    _plain_init = Array.__init__

    def _init_rounding(self, value, weak_type=False, device=None):
        if getattr(value, "dtype", None) == _bf16.STORAGE:   # every bfloat16 array holds bfloat16 values
            value = _bf16.round_to_bf16(value)
        _plain_init(self, value, weak_type, device)

    def _shown(self):   # what str/repr print: ml_dtypes' element format for bfloat16
        v = self._value
        return _bf16.printable(v) if v.dtype == _bf16.STORAGE else v

    def _str(self):
        if self._value.dtype.names is not None:
            return key_repr(self)
        if self._value.ndim == 0:
            return _scientific_as_numpy_2_3(self._value[()], trim="-") or str(_shown(self))
        fmt = _array_format_as_numpy_2_3(self._value)
        return np.array2string(self._value, separator=" ", formatter=fmt) if fmt else str(_shown(self))

    Array.__init__ = _init_rounding
    Array.dtype = property(lambda self: dtypes.public_dtype(self._value.dtype) if self._value.dtype.names is None
                           else _key_dtype_face())
    Array.itemsize = property(lambda self: 2 if self._value.dtype == _bf16.STORAGE else self._value.itemsize)
    Array.nbytes = property(lambda self: self.size * self.itemsize)
    Array.__str__ = _str
    Array._shown = _shown
    _bf16.array_type[0] = Array   # a bfloat16 scalar's __jax_array__ builds one


def rebuild(value, weak_type):
    """Unpickling: an Array of `value` (pickle cannot find the class by its JAX-style name)."""
    return Array(value, weak_type)


def wrap(value, weak_type: bool = False) -> Array:
    return Array(np.asarray(value), weak_type)


# Seed-era name used in isinstance checks: jax.numpy.DeviceArray / jax.interpreters.xla.DeviceArray.
DeviceArray = Array
_compat.register_old_name("DeviceArray", Array)  # compat (layer 1) serves the old name without importing arrays
# `type(x)` is `<class 'jaxlib._jax.ArrayImpl'>` in JAX (jax.Array is its abstract base); code that
# prints the type of an array sees the same here.
Array.__name__ = Array.__qualname__ = "ArrayImpl"
Array.__module__ = "jaxlib._jax"
