"""Dtypes as JAX sees them: canonical (x64-dependent) dtypes, weak types and the promotion lattice."""
from __future__ import annotations

import functools

import numpy as np

from .config import config

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

# bfloat16 comes from ml_dtypes where it is installed (CPython), as in JAX. ml_dtypes has no Pyodide
# build, so in the page the engine brings its own (core/_engine/base/bf16_emulated.py says how and why): float32
# storage tagged by a non-native byte order, rounded to nearest even after every primitive, as
# ml_dtypes computes (in float32, then round). GRADPAD_NO_ML_DTYPES=1 forces it in CPython (tests).
import os as _os
try:
    if _os.environ.get("GRADPAD_NO_ML_DTYPES") == "1":
        raise ImportError("GRADPAD_NO_ML_DTYPES=1")
    import ml_dtypes as _ml_dtypes
    bfloat16 = _ml_dtypes.bfloat16   # the scalar type, as `jax.dtypes.bfloat16`
    bf16 = np.dtype(bfloat16)        # its dtype, which the engine's tables use
    EMULATED_BF16 = False
except ImportError:  # Pyodide
    from . import bf16_emulated as _emulated
    _ml_dtypes = None
    bfloat16 = _emulated.bfloat16    # the scalar type
    bf16 = _emulated.STORAGE         # the tag the engine's tables use; users see BF16_DTYPE
    EMULATED_BF16 = True

# Short names used in jaxpr text and shapes: f32[3], i32[], bool[].
_SHORT = {bool_: "bool", int8: "i8", int16: "i16", int32: "i32", int64: "i64", uint8: "u8",
          uint16: "u16", uint32: "u32", uint64: "u64", float16: "f16", float32: "f32",
          float64: "f64", complex64: "c64", complex128: "c128", bf16: "bf16"}

# numpy's kind letter, except that ml_dtypes' bfloat16 says 'V' (void) where JAX treats it as a float
_KIND_OVERRIDES = {bf16: "f"}


def public_dtype(dt):
    """The dtype users see (`x.dtype`): the emulated bfloat16's tag shows as `dtype(bfloat16)`."""
    return _emulated.public(dt) if EMULATED_BF16 else dt


def dtype_name(dt) -> str:
    """`dt.name`, with the emulated bfloat16 named bfloat16 (its storage says float32)."""
    if dt.names == ("float0",):  # numpy would say void (the aval of an integer's tangent prints float0[...])
        return "float0"
    return "bfloat16" if EMULATED_BF16 and dt == bf16 else dt.name


def kind(dtype) -> str:
    """numpy's `dtype.kind` ('b', 'i', 'u', 'f', 'c', ...), with bfloat16 a float ('f')."""
    dt = np.dtype(dtype)
    return _KIND_OVERRIDES.get(dt, dt.kind)

_X32 = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}


def short_name(dtype) -> str:
    dt = np.dtype(dtype)
    return _SHORT.get(dt) or dtype_name(dt)   # (dtype_name: float0 says float0, not void)


def as_engine_dtype(requested):
    """np.dtype(requested), with 'bfloat16' understood where ml_dtypes is absent."""
    if EMULATED_BF16 and isinstance(requested, str) and requested == "bfloat16":
        return bf16
    return np.dtype(requested)


# The x64 flag, mirrored here by a config listener: tracing asks for it on every op.
_x64 = [config.read("jax_enable_x64")]


def _on_config(name, value) -> None:
    if name == "jax_enable_x64":
        _x64[0] = bool(value)
    elif name == "jax_numpy_dtype_promotion":
        _strict[0] = value == "strict"


config.on_change(_on_config)


def x64_enabled() -> bool:
    return _x64[0]


def as_dtype(requested, where: str | None = None) -> np.dtype:
    """np.dtype(requested), refusing what JAX refuses: a request that numpy reads as `object`
    (object itself, or one of the narrow dtypes this engine names but cannot hold, which some numpy
    versions, the page's among them, silently turn into object arrays)."""
    dt = as_engine_dtype(requested)
    if dt.kind == "O":
        getattr(requested, "dtype", None)  # an ml_dtypes-only name (float8_*) raises its NotImplementedError here
        raise TypeError(f"JAX only supports number, bool, and string dtypes, got dtype {requested}"
                        + (f" in {where}" if where else ""))
    return dt


def canonicalize_dtype(dtype) -> np.dtype:
    """float64 -> float32 etc. unless x64 is enabled (JAX's `dtypes.canonicalize_dtype`)."""
    dt = dtype if isinstance(dtype, np.dtype) else as_dtype(dtype)
    if not _x64[0]:
        return _X32.get(dt, dt)
    return dt


def default_float_dtype():
    return float64 if _x64[0] else float32


def default_int_dtype():
    return int64 if _x64[0] else int32


def default_uint_dtype():
    return uint64 if x64_enabled() else uint32


def default_complex_dtype():
    return complex128 if x64_enabled() else complex64


def is_python_scalar(x) -> bool:
    return type(x) in (bool, int, float, complex)


class extended(np.generic):
    """Scalar type of JAX's extended dtypes (dtypes that are not numpy's, such as typed PRNG keys)."""


class prng_key(extended):
    """Scalar type of typed PRNG key dtypes (`jax.random.key(0).dtype`)."""


# float0: the dtype of tangents of integer and boolean values
float0 = np.dtype([("float0", np.void, 0)])


def bitcast(x: np.ndarray, new_dtype) -> np.ndarray:
    """x's bits read as `new_dtype` (same width), the emulated bfloat16's 16 bits included."""
    nd = np.dtype(new_dtype)
    if EMULATED_BF16 and bf16 in (x.dtype, nd):
        return _emulated.bitcast(x, nd)
    return x.view(nd)


def float_bits(value: float, dtype) -> int:
    """The bit pattern of `value` (exact in `dtype`) stored as float dtype `dtype`."""
    dt = np.dtype(dtype)
    width = itemsize_bits(dt)
    return int(bitcast(np.asarray(np.asarray(value, dt)), np.dtype(f"u{width // 8}")))


def host_array(value, dtype) -> np.ndarray:
    """np.asarray(value, dtype), rounded where dtype is the emulated bfloat16 (numpy would only
    convert to its float32 storage)."""
    dt = np.dtype(dtype)
    if EMULATED_BF16 and dt == bf16:
        return _emulated.round_to_bf16(value)
    return np.asarray(value, dt)


def _unchanged(x):
    return x


def step_rounding(dtype):
    """For impls that compose several numpy ops: a function applied to each intermediate result.
    With ml_dtypes numpy rounds every op to bfloat16; the emulated bfloat16 must be told to."""
    return _emulated.round_to_bf16 if EMULATED_BF16 and dtype == bf16 else _unchanged


def emulated_reduce(ufunc, x, axes):
    """`ufunc.reduce` of the emulated bfloat16, rounding each step (as numpy does with ml_dtypes)."""
    return _emulated.reduce_rounding(ufunc, x, axes)


def emulated_scatter(ufunc, target, idx, updates) -> None:
    """`ufunc.at(target, idx, updates)` for the emulated bfloat16, rounding after each update."""
    _emulated.scatter_rounding(ufunc, target, idx, updates)


def is_bfloat16_dtype(dt) -> bool:
    """Whether an engine dtype is bfloat16 (ml_dtypes' or the emulated one)."""
    return dt == bf16


def bf16_nextafter(x, y):
    """nextafter in bfloat16's 16 bits, as float32 values (numpy's works in float32 bits)."""
    from . import bf16_emulated   # (pure numpy: usable with ml_dtypes too)
    return bf16_emulated.nextafter(x, y)


def itemsize_bits(dtype) -> int:
    dt = np.dtype(dtype)
    return 16 if dt == bf16 else dt.itemsize * 8   # (the emulated bfloat16 is stored in 32 bits)


def scalar_type_of(x):
    """The Python scalar type JAX uses for x's dtype category (bool, int, float, complex)."""
    return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[kind(dtype_and_weak(x)[0])]


def is_extended(dt) -> bool:
    """Whether `dt` is an extended dtype (a key dtype) or one of the extended scalar types."""
    t = dt if isinstance(dt, type) else getattr(dt, "type", None)
    return isinstance(t, type) and issubclass(t, extended)


def issubdtype(a, b) -> bool:
    ext = getattr(a, "type", None)
    if isinstance(ext, type) and issubclass(ext, extended):  # a key dtype: only extended categories hold it
        return isinstance(b, type) and issubclass(ext, b)
    if isinstance(b, type) and issubclass(b, extended):
        return isinstance(a, type) and issubclass(a, b)
    if b in _CATEGORIES:
        b = _CATEGORIES[b]
    if _is_bfloat16(a):  # ml_dtypes' scalar type derives from np.generic only
        return b in (np.floating, np.inexact, np.number, np.generic) or _is_bfloat16(b)
    return np.issubdtype(np.dtype(a) if not isinstance(a, type) or not issubclass(a, np.generic) else a, b)


_CATEGORIES = {}


def _is_bfloat16(t) -> bool:
    try:
        return t is not None and as_engine_dtype(t) == bf16  # (np.dtype(None) means float64)
    except TypeError:
        return False


def python_scalar_dtype(x) -> np.dtype:
    t = type(x)
    if t is bool:
        return bool_
    if t is int:
        return default_int_dtype()
    if t is float:
        return default_float_dtype()
    if t is complex:
        return default_complex_dtype()
    raise TypeError(f"not a python scalar: {x!r}")


def python_scalar_value_dtype(x) -> np.dtype:
    """The dtype a Python scalar *value* becomes: an int must fit the default int dtype (numpy
    would wrap it or say "out of bounds"; JAX's OverflowError has its own words)."""
    dt = python_scalar_dtype(x)
    if type(x) is int:
        info = np.iinfo(dt)
        if not info.min <= x <= info.max:
            raise OverflowError(f"Python int {x} too large to convert to {dt.name}")
    return dt


# ---- the promotion lattice (JAX's `jax.numpy` type promotion, "standard" mode) --------------
# Nodes are dtypes plus the three weak kinds 'i*', 'f*', 'c*' (python int/float/complex).
_I, _F, _C = "i*", "f*", "c*"
_EDGES = {
    bool_: [_I],
    _I: [uint8, int8],
    uint8: [int16, uint16],
    uint16: [int32, uint32],
    uint32: [int64, uint64],
    uint64: [_F],
    int8: [int16],
    int16: [int32],
    int32: [int64],
    int64: [_F],
    _F: [float16, _C, bf16],
    float16: [float32],
    bf16: [float32],
    float32: [float64, complex64],
    float64: [complex128],
    _C: [complex64],
    complex64: [complex128],
    complex128: [],
}


@functools.lru_cache(None)
def _upper_bounds(node) -> frozenset:
    out = {node}
    for nxt in _EDGES[node]:
        out |= _upper_bounds(nxt)
    return frozenset(out)


def _lub(nodes) -> object:
    common = functools.reduce(frozenset.intersection, (_upper_bounds(n) for n in nodes))
    for c in common:
        if all(c2 in _upper_bounds(c) for c2 in common):
            return c
    raise TypeError(f"no common type for {nodes}")


def _node(dtype, weak: bool):
    dtype = np.dtype(dtype)
    if not weak or dtype == bool_:
        return dtype
    k = kind(dtype)
    return _I if k in "iu" else _F if k == "f" else _C if k == "c" else dtype


_WEAK_DEFAULT = {_I: default_int_dtype, _F: default_float_dtype, _C: default_complex_dtype}


def _from_node(node) -> np.dtype:
    if node in _WEAK_DEFAULT:
        return _WEAK_DEFAULT[node]()
    return canonicalize_dtype(node)


class TypePromotionError(ValueError):
    pass


from ._public import set_public_module  # noqa: E402
set_public_module("jax.dtypes", extended, prng_key, TypePromotionError)


# jax_numpy_dtype_promotion == 'strict', mirrored by a config listener (checked on every promotion)
_strict = [False]


def _check_strict(dtype_weak_pairs) -> None:
    strong = sorted({np.dtype(d).name for d, w in dtype_weak_pairs if not w})
    if len(strong) > 1:
        raise TypePromotionError(
            f"Input dtypes {tuple(strong)} have no available implicit dtype promotion path when "
            "jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired output type, "
            "or set jax_numpy_dtype_promotion=standard.")


def result_type_weak(*dtype_weak_pairs) -> tuple[np.dtype, bool]:
    """(dtype, weak_type) of an elementwise op on inputs given as (dtype, weak) pairs."""
    if _strict[0]:
        _check_strict(dtype_weak_pairs)
    try:
        return _result_type_weak_cached(dtype_weak_pairs, _x64[0])  # hashable pairs: the common case
    except TypeError:
        pass
    try:
        key = tuple((np.dtype(d), bool(w)) for d, w in dtype_weak_pairs)
    except TypeError:
        return _result_type_weak(*dtype_weak_pairs)
    return _result_type_weak_cached(key, _x64[0])


@functools.lru_cache(maxsize=4096)
def _result_type_weak_cached(key, x64):   # x64 in the key: the answer depends on it
    return _result_type_weak(*key)


def _result_type_weak(*dtype_weak_pairs) -> tuple[np.dtype, bool]:
    dts = [np.dtype(d) for d, _ in dtype_weak_pairs]
    weaks = [w for _, w in dtype_weak_pairs]
    if len(dts) == 1:
        return canonicalize_dtype(dts[0]), bool(weaks[0]) and dts[0] != bool_
    if len(set(dts)) == 1 and not all(weaks):
        return canonicalize_dtype(dts[0]), False
    if all(weaks):
        node = _lub(tuple({_node(d, False) for d in dts}))
        out = _from_node(node)
        return out, out != bool_
    node = _lub(tuple({_node(d, w) for d, w in zip(dts, weaks)}))
    weak = node in (_I, _F, _C)
    out = _from_node(node)
    return out, weak and out != bool_


JAX_ARRAY_PROTOCOL_ERROR = (
    "Triggering __jax_array__() during abstractification is no longer supported. To avoid this error, "
    "either explicitly convert your object using jax.numpy.array(), or register your object as a pytree.")


def check_not_jax_array_protocol(x) -> None:
    """JAX 0.10 no longer reads a user object's `__jax_array__` where it needs an input's type (jnp
    and lax functions, jit/grad/vmap arguments): only an explicit jnp.array/asarray (or an Array's
    operator) converts it. Raises JAX's ValueError for such an object; the engine's own types that
    use the protocol (the emulated bfloat16 scalar) set `_engine_jax_array`."""
    t = type(x)
    if hasattr(t, "__jax_array__") and not getattr(t, "_engine_jax_array", False):
        raise ValueError(JAX_ARRAY_PROTOCOL_ERROR)


def dtype_and_weak(x) -> tuple[np.dtype, bool]:
    """The (dtype, weak_type) JAX assigns to any array-like input."""
    if is_python_scalar(x):
        return python_scalar_dtype(x), type(x) is not bool
    aval = getattr(x, "aval", None)
    if aval is not None:
        return aval.dtype, aval.weak_type
    if isinstance(x, (np.ndarray, np.generic)):
        return canonicalize_dtype(x.dtype), False
    check_not_jax_array_protocol(x)
    if hasattr(x, "dtype"):
        return canonicalize_dtype(x.dtype), bool(getattr(x, "weak_type", False))
    raise TypeError(f"Value {x!r} of type {type(x)} is not a valid JAX type")


def result_type(*args, return_weak_type_flag=False):
    pairs = []
    for a in args:
        if isinstance(a, (np.dtype, type, str)) and not is_python_scalar(a):
            if any(a is t for t in (int, float, complex, bool)):  # `in` would coerce: dtype('complex128') == complex
                pairs.append((python_scalar_dtype(a(0)), a is not bool))
            else:
                pairs.append((np.dtype(a), False))
        else:
            pairs.append(dtype_and_weak(a))
    dt, weak = result_type_weak(*pairs)
    return (dt, weak) if return_weak_type_flag else dt


def promote_types(a, b) -> np.dtype:
    """`jnp.promote_types`: lattice join of two dtypes treated as strongly typed
    (python `int`/`float`/`complex` count as weak kinds)."""
    def node(t):
        if t is int:
            return _I
        if t is float:
            return _F
        if t is complex:
            return _C
        if t is bool:
            return bool_
        return np.dtype(t)
    n = _lub((node(a), node(b)))
    if n in _WEAK_DEFAULT:
        return _WEAK_DEFAULT[n]()
    return canonicalize_dtype(n)   # JAX: promote_types(uint32, int32) is int32 without x64


def float_dtype_for(dtype) -> np.dtype:
    """Dtype of e.g. `jnp.sin` of an input: ints and bools become the default float."""
    dt = np.dtype(dtype)
    if kind(dt) in "fc":
        return dt
    return default_float_dtype()


# JAX sums and averages float16/bfloat16 in float32 and rounds once at the end
# (`upcast_f16_for_computation` in jax.numpy's reductions)
_NARROW_FLOATS = frozenset((float16, bf16))


def reduction_computation_dtype(dtype) -> np.dtype:
    """The dtype jnp.sum/prod/mean compute in: float32 for the 16-bit floats, else `dtype`."""
    dt = np.dtype(dtype)
    return float32 if dt in _NARROW_FLOATS else dt


def finfo(dtype):
    """numpy's finfo; bfloat16's from ml_dtypes (numpy's refuses it), as JAX's `dtypes.finfo`."""
    dt = as_engine_dtype(dtype)
    if dt == bf16:
        return _emulated.finfo() if EMULATED_BF16 else _ml_dtypes.finfo(dt)
    return np.finfo(dt)


def iinfo(dtype):
    return np.iinfo(dtype)


from ._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
