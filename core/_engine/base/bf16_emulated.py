"""bfloat16 without ml_dtypes (the page: Pyodide has no ml_dtypes build).

Why this shape: numpy cannot compute in a dtype that pure Python defines (that needs its C API),
and the engine keys everything on numpy dtypes (avals, rule tables, `np.dtype(x)`, `.astype`).
So a bfloat16 array is stored as float32 holding only bfloat16 values, in the *non-native* byte
order: `STORAGE` (`>f4` on little-endian machines) is a real numpy dtype that numpy computes in,
yet compares and hashes unequal to float32, so it tags the data as bfloat16 wherever the engine
looks at a dtype. Numpy's results come back as native float32: the engine rounds them to nearest
even and re-tags them after every primitive (`round_to_bf16`), as ml_dtypes does (compute in
float32, then round). Users never see the tag: `x.dtype` is `BF16_DTYPE` (`dtype(bfloat16)`).
"""
from __future__ import annotations

import operator

import numpy as np

STORAGE = np.dtype(np.float32).newbyteorder()   # the tag: float32 bytes in the other byte order
_F32 = np.dtype(np.float32)
_NAN_BITS = {False: np.uint32(0x7FC00000), True: np.uint32(0xFFC00000)}  # ml_dtypes' quiet NaNs


def round_to_bf16(x) -> np.ndarray:
    """x rounded to the nearest bfloat16 (ties to even; via float32, as ml_dtypes converts),
    stored with the bfloat16 tag."""
    with np.errstate(over="ignore", invalid="ignore"):  # (a float64 beyond float32 becomes inf, as in ml_dtypes)
        f = np.array(x, dtype=_F32, copy=True, ndmin=0)
        u = f.view(np.uint32)
        nan = f != f
        r = (u + (np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1)))) & np.uint32(0xFFFF0000)
    r = np.asarray(r, dtype=np.uint32)
    if nan.any():
        r = np.where(nan, np.where(np.signbit(f), _NAN_BITS[True], _NAN_BITS[False]), r).astype(np.uint32)
    return r.view(np.float32).astype(STORAGE)


def bitcast(x: np.ndarray, new_dtype: np.dtype) -> np.ndarray:
    """bfloat16 <-> a 16-bit int dtype, bit for bit (bfloat16 is float32's upper half)."""
    if new_dtype == STORAGE:
        wide = np.asarray(x).view(np.uint16).astype(np.uint32) << np.uint32(16)
        return wide.view(np.float32).astype(STORAGE)
    if x.dtype == new_dtype:
        return x
    if new_dtype.itemsize != 2:
        raise TypeError(f"bitcast_convert_type from bfloat16 to {new_dtype.name}: widths differ (16 vs "
                        f"{new_dtype.itemsize * 8} bits)")
    high = np.asarray(x, dtype=_F32).view(np.uint32) >> np.uint32(16)
    return high.astype(np.uint16).view(new_dtype)


class _DtypeAttr:
    """`bfloat16.dtype`: the storage tag on the class (what np.dtype(bfloat16) reads), the dtype
    users see on a scalar (`dtype(bfloat16)`, as an ml_dtypes scalar says)."""

    def __get__(self, obj, cls=None):
        return STORAGE if obj is None else BF16_DTYPE


# jax.Array, which core/_engine/tracing/array.py puts here when it defines it (arrays sit above the dtypes)
array_type: list = [None]


def _scalar_op(op, swap=False):
    def method(self, other):
        if isinstance(other, bfloat16):
            other = other._value
        elif type(other) not in (int, float, bool):
            return NotImplemented   # (arrays and numpy scalars: their own operators decide)
        a, b = (other, self._value) if swap else (self._value, other)
        return bfloat16(op(a, b))
    return method


class bfloat16:  # noqa: N801  (JAX's name for the scalar type, `jax.dtypes.bfloat16`)
    """A bfloat16 scalar (what `jax.dtypes.bfloat16(1.1)` builds): a float rounded to bfloat16;
    arithmetic with Python numbers gives bfloat16 scalars, as ml_dtypes' do."""
    dtype = _DtypeAttr()
    __slots__ = ("_value",)

    def __init__(self, value=0.0):
        self._value = float(round_to_bf16(float(value)))

    def __float__(self):
        return self._value

    def __int__(self):
        return int(self._value)

    shape, ndim, size = (), 0, 1

    def __array__(self, dtype=None, copy=None):
        a = round_to_bf16(self._value)
        return a if dtype is None else a.astype(dtype)

    _engine_jax_array = True   # the engine's own: its __jax_array__ is read where a user's is refused

    def __jax_array__(self):   # jit arguments, jnp functions: a bfloat16 0-d array, strongly typed
        return array_type[0](round_to_bf16(self._value))

    def __repr__(self):
        return format_element(self._value)

    __str__ = __repr__

    def __neg__(self):
        return bfloat16(-self._value)

    def __abs__(self):
        return bfloat16(abs(self._value))

    def __bool__(self):
        return bool(self._value)

    def __lt__(self, other):
        return self._value < float(other)

    def __le__(self, other):
        return self._value <= float(other)

    def __gt__(self, other):
        return self._value > float(other)

    def __ge__(self, other):
        return self._value >= float(other)

    def __eq__(self, other):
        try:
            return self._value == float(other)
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self):
        return hash(self._value)


for _name, _op in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("pow", operator.pow)):
    setattr(bfloat16, f"__{_name}__", _scalar_op(_op))
    setattr(bfloat16, f"__r{_name}__", _scalar_op(_op, swap=True))
bfloat16.__module__ = "ml_dtypes"   # repr(jax.dtypes.bfloat16) is JAX's: <class 'ml_dtypes.bfloat16'>


class BFloat16DType:
    """What users see as a bfloat16 array's dtype: `dtype(bfloat16)`, itemsize 2, kind 'V'
    (as ml_dtypes' dtype says). `np.dtype(it)` is the storage tag, so any dtype it is passed as
    reaches the engine's tables as bfloat16."""
    name = "bfloat16"
    kind = "V"
    char = "E"
    str = "<V2"
    itemsize = 2
    alignment = 2
    byteorder = "="
    isnative = True
    isbuiltin = 0
    names = fields = subdtype = metadata = None
    shape = ()
    ndim = 0
    hasobject = False
    descr = [("", "<V2")]
    type = bfloat16
    dtype = STORAGE

    @property
    def base(self):
        return self

    def __repr__(self):
        return "dtype(bfloat16)"

    def __str__(self):
        return "bfloat16"

    def __eq__(self, other):
        if other is self or other is bfloat16 or getattr(other, "type", None) is bfloat16:
            return True
        if isinstance(other, str):   # (the builtin: class attributes are not in a method's scope)
            return other == "bfloat16"
        if isinstance(other, np.dtype):
            return other == STORAGE
        return False

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(STORAGE)   # equal to the tag, so tables keyed on it find it

    def __reduce__(self):
        return (_public_dtype, ())


BF16_DTYPE = BFloat16DType()


def _public_dtype():
    return BF16_DTYPE


def public(dt):
    """The dtype users see for an engine dtype: the tag shows as `dtype(bfloat16)`."""
    return BF16_DTYPE if dt == STORAGE else dt


# ---- printing: ml_dtypes prints each element as C++ streams print a float (%g, 6 digits), with
# no column padding
def format_element(v) -> str:
    v = float(v)
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return "%g" % v


class _Printed:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def printable(value: np.ndarray) -> np.ndarray:
    """An object array whose elements print as ml_dtypes' bfloat16 elements do."""
    flat = [_Printed(format_element(v)) for v in np.asarray(value, dtype=np.float64).ravel()]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(value.shape)


# ---- finfo, as ml_dtypes' finfo(bfloat16) (which JAX's `finfo` returns)
class finfo:  # noqa: N801
    bits, nmant, nexp, iexp = 16, 7, 8, 8
    machep, negep, minexp, maxexp, precision = -7, -8, -126, 128, 2

    def __init__(self):
        s = bfloat16
        self.dtype = BF16_DTYPE
        self.eps = s(2.0 ** -7)
        self.epsneg = s(2.0 ** -8)
        self.max = s(float(np.float32(3.3895313892515355e38)))
        self.min = s(-float(self.max))
        self.tiny = self.smallest_normal = s(2.0 ** -126)
        self.smallest_subnormal = s(2.0 ** -133)
        self.resolution = s(0.01)

    def __repr__(self):
        return f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, dtype=bfloat16)"

    def __str__(self):
        line = "-" * 63
        return (f"Machine parameters for bfloat16\n{line}\n"
                f"precision = {self.precision}   resolution = {self.resolution}\n"
                f"machep = {self.machep}   eps =        {self.eps}\n"
                f"negep =  {self.negep}   epsneg =     {self.epsneg}\n"
                f"minexp = {self.minexp}   tiny =       {self.tiny}\n"
                f"maxexp = {self.maxexp}   max =        {self.max}\n"
                f"nexp =   {self.nexp}   min =        -max\n"
                f"smallest_normal = {self.smallest_normal}   smallest_subnormal = {self.smallest_subnormal}\n"
                f"{line}\n")


def reduce_rounding(ufunc, x: np.ndarray, axes) -> np.ndarray:
    """`ufunc.reduce` over `axes` rounding to bfloat16 after every step, element after element
    in index order: how numpy reduces ml_dtypes' bfloat16 (no pairwise loop for it), and what
    lax.reduce_sum/reduce_prod give in JAX (they accumulate in bfloat16)."""
    axes = sorted(a % x.ndim for a in axes) if x.ndim else []
    keep = [a for a in range(x.ndim) if a not in axes]
    out_shape = tuple(x.shape[a] for a in keep)
    moved = np.transpose(x, keep + axes).reshape(out_shape + (-1,))
    if moved.shape[-1] == 0:
        return round_to_bf16(np.full(out_shape, ufunc.identity, dtype=_F32))
    acc = round_to_bf16(moved[..., 0])
    for i in range(1, moved.shape[-1]):
        acc = round_to_bf16(ufunc(acc, moved[..., i]))
    return acc


def scatter_rounding(ufunc, target: np.ndarray, idx: tuple, updates: np.ndarray) -> None:
    """`ufunc.at(target, idx, updates)` rounding to bfloat16 after each update, in order: a
    repeated index accumulates as JAX's scatter-add does in bfloat16. `idx` holds index arrays
    whose leading axis enumerates the update windows (one window at a time: within a window each
    index is distinct)."""
    idx = np.broadcast_arrays(*idx)
    with np.errstate(all="ignore"):
        for n in range(updates.shape[0]):
            where = tuple(i[n] for i in idx)
            target[where] = round_to_bf16(ufunc(target[where], updates[n]))


def nextafter(x, y) -> np.ndarray:
    """The bfloat16 after x toward y (XLA's nextafter, on the 16 bits), as float32 values."""
    x32 = np.asarray(x, dtype=_F32)
    y32 = np.asarray(y, dtype=_F32)
    x32, y32 = np.broadcast_arrays(x32, y32)
    bits = (x32.view(np.uint32) >> np.uint32(16)).astype(np.int32)
    magnitude_up = (x32 < y32) == (x32 > 0)            # away from zero when moving toward y
    stepped = np.where(magnitude_up, bits + 1, bits - 1)
    from_zero = np.where(np.signbit(y32), 0x8001, 0x0001)  # the smallest subnormal, y's sign
    out = np.where(x32 == 0, from_zero, stepped)
    out = (out.astype(np.uint32) << np.uint32(16)).view(np.float32)
    out = np.where(x32 == y32, y32, out)
    return np.where(np.isnan(x32) | np.isnan(y32), np.float32(np.nan), out).astype(_F32)
