"""jax.numpy's dtypes: the scalar types (`jnp.float32` is a dtype and a constructor), constants,
and the dtype queries (result_type, issubdtype, isdtype, can_cast, iscomplexobj, isscalar)."""
from __future__ import annotations

import builtins
import sys

import numpy as _np

from ...base import dtypes as _dt
from ...tracing.array import Array
from ...base.dtypes import float32  # noqa: F401  (jnp.float32, re-exported by numpy/__init__)
from ...tracing.tracing import Tracer, get_aval


from ...tracing.basearray import Array as ndarray  # noqa: E402,F401  (jnp.ndarray is jax.Array)
pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan
euler_gamma = _np.euler_gamma
newaxis = None

generic = _np.generic
number = _np.number
inexact = _np.inexact
floating = _np.floating
integer = _np.integer
signedinteger = _np.signedinteger
unsignedinteger = _np.unsignedinteger
complexfloating = _np.complexfloating
bool = _np.bool_  # noqa: A001  (jnp.bool is numpy's bool dtype)
dtype = _np.dtype


if _dt.EMULATED_BF16:  # [dtypes] no ml_dtypes (the page): jnp.dtype knows the engine's bfloat16
    class _DtypeMeta(type):
        def __instancecheck__(cls, obj):
            return isinstance(obj, (_np.dtype, type(_dt.public_dtype(_dt.bf16))))

    class dtype(metaclass=_DtypeMeta):  # noqa: F811,N801
        """numpy's `np.dtype`, except that 'bfloat16' and jnp.bfloat16 give `dtype(bfloat16)`."""

        def __new__(cls, obj, align=False, copy=False):
            if isinstance(obj, _ScalarType):
                obj = obj.dtype
            return _dt.public_dtype(_dt.as_engine_dtype(obj) if not align else _np.dtype(obj, align, copy))
iinfo = _np.iinfo
finfo = _dt.finfo  # [dtypes] bfloat16's finfo comes from ml_dtypes


class _ScalarType:
    """`jnp.float32(x)` builds a jax array; `jnp.float32` also works wherever a dtype does."""

    def __init__(self, np_type):
        self.dtype = _np.dtype(np_type)  # (the emulated bfloat16: its storage tag, which np.dtype reads)
        self.type = np_type
        self.__name__ = _dt.dtype_name(self.dtype)

    def __call__(self, x=0):
        return asarray(x, dtype=self.dtype)

    def __repr__(self):
        return f"<class 'jax.numpy.{self.__name__}'>"

    # JAX compares the scalar type, not a dtype coerced from `other`: jnp.float32 == np.float32 and
    # == np.dtype('float32'), but not == 'float32', None, a dict or a structured-dtype spec
    def __eq__(self, other):
        return other is self or self.type == other

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.type)


def _canon(d):
    if isinstance(d, _ScalarType):
        return d.dtype
    return d


# jnp.float32 etc.: usable as dtypes and as constructors
for _name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64", "complex64", "complex128", "bool_"):
    globals()[_name] = _ScalarType(getattr(_np, _name))
# [dtypes] bfloat16: ml_dtypes' where present (CPython), else the engine's own (the page)
bfloat16 = _ScalarType(_dt.bfloat16)
float_ = globals()["float64"]
int_ = globals()["int64"]
complex_ = globals()["complex128"]


def _dtype_arg(d):
    if d is None:
        return None
    if isinstance(d, _ScalarType):
        return d.dtype
    if d is float:
        return _dt.default_float_dtype()
    if d is int:
        return _dt.default_int_dtype()
    if d is complex:
        return _dt.default_complex_dtype()
    if d is builtins.bool:
        return _dt.bool_
    caller = sys._getframe(1).f_code.co_name  # [dtypes] JAX names the function: "... in zeros"
    return _dt.as_dtype(d, caller if not caller.startswith("_") else sys._getframe(2).f_code.co_name)


def _warn_x64(requested, got, where="array"):
    if requested is not None and _np.dtype(requested) != got:
        import warnings
        warnings.warn(f"Explicitly requested dtype {_np.dtype(requested).name} requested in {where} is not "
                      f"available, and will be truncated to dtype {got.name}. To enable more dtypes, set the "
                      "jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment variable. "
                      "See https://github.com/jax-ml/jax#current-gotchas for more.", UserWarning, stacklevel=3)


def _canonical_request(d, where=None):
    """The dtype a request gets (x64 off: float64 -> float32, with JAX's warning naming `where`)."""
    d = _dtype_arg(d)
    if d is None:
        return None
    c = _dt.canonicalize_dtype(d)
    _warn_x64(d, c, where or sys._getframe(1).f_code.co_name)
    return c


def result_type(*args):
    return _dt.public_dtype(_dt.result_type(*[_canon(a) for a in args]))


def promote_types(a, b):
    return _dt.public_dtype(_dt.promote_types(_canon(a), _canon(b)))  # [dtypes] bfloat16 shows as itself


def issubdtype(a, b):
    if _dt.is_extended(a) or _dt.is_extended(b):  # key dtypes: only jax.dtypes.extended/prng_key hold them
        return _dt.issubdtype(a, b)
    a = _canon(a)
    b = _canon(b)
    if _dt._is_bfloat16(a):  # [dtypes] ml_dtypes' bfloat16 is no np.floating
        return _dt.issubdtype(a, b)
    if isinstance(b, _np.dtype):
        return _np.issubdtype(_np.dtype(a), b)
    return _np.issubdtype(_np.dtype(a) if not (isinstance(a, type) and issubclass(a, _np.generic)) else a, b)


def isdtype(dt, kind):
    return _np.isdtype(_np.dtype(_canon(dt)), kind)


def can_cast(a, b, casting="safe"):
    return _np.can_cast(_canon(a), _canon(b), casting)


def iscomplexobj(x):
    """As JAX's: whatever has a `.dtype` (arrays, jax.ShapeDtypeStruct, scalar types) answers from
    it without becoming an array (optax's init checks its abstract params this way); None is real."""
    if x is None:
        return False
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = get_aval(asarray(x)).dtype
    kind = getattr(dt, "kind", None)
    return (kind if isinstance(kind, str) else _np.dtype(dt).kind) == "c"


def isrealobj(x):
    return not iscomplexobj(x)


def isscalar(element):
    # as JAX's: any 0-d array counts, numpy's included (numpy's own isscalar says False for those)
    if _np.isscalar(element):
        return True
    if isinstance(element, (_np.ndarray, Array, Tracer)):
        return _np.ndim(element) == 0 if isinstance(element, _np.ndarray) else get_aval(element).ndim == 0
    if getattr(element, "__jax_array__", None) is not None:
        return get_aval(asarray(element)).ndim == 0
    return False


# jax.numpy's modules call one another: imported after this module's definitions, so that the
# import order of the package does not matter (these names are only used at call time)
from ._creation import asarray  # noqa: E402
