"""Callables the generated code runs for equations whose impls redo, on every call, work that
depends only on the avals (index tuples, padding shapes, dtype checks) or enter numpy's errstate
that the generated body has already entered. Each computes its impl's very bits.

A jitted optimizer step on a two-parameter function (optax's alias tests) is ~40 such ops on
scalars and f32[2]: there an impl's few microseconds of Python are most of the step.
"""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray


def _slice(eqn):
    p = eqn.params
    strides = p.get("strides") or (1,) * len(p["start_indices"])
    index = tuple(slice(lo, hi, st) for lo, hi, st in zip(p["start_indices"], p["limit_indices"], strides))
    return lambda x: x[index]


def _squeeze(eqn):
    shape = eqn.outvars[0].aval.shape   # a view without the size-1 axes: np.squeeze's own
    if shape == ():   # (`p[0]` of a vector) its one element as a numpy scalar, which the scalar
        return lambda x: x.reshape(-1)[0]   # operators after it compute ~7x faster than a 0-d array
    return lambda x: x.reshape(shape)


def _pad(eqn):
    """Edge padding without interior or negative amounts (a gradient of `x[i]`): the operand
    written into a block filled with the padding value."""
    config = eqn.params["padding_config"]
    if any(lo < 0 or hi < 0 or interior for lo, hi, interior in config):
        return None
    out = eqn.outvars[0].aval
    shape, dtype = out.shape, out.dtype
    inside = tuple(slice(lo, lo + d) for (lo, _, _), d in zip(config, eqn.invars[0].aval.shape))

    def pad(x, pv):
        y = np.empty(shape, dtype)
        y.fill(pv)
        y[inside] = x
        return y
    return pad


_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


# numpy >= 2 (NEP 50): a numpy scalar combined with a Python number keeps its own dtype, the
# number converted as the scalar type's constructor converts it. So `zero | n` (an integer in
# range) and `one * x` (a float) make the numpy scalar `dt.type(n)` / `dt.type(x)` would, in
# ~70 ns where the constructor costs 300-500 ns; a leapfrog step of a sampler makes a dozen.
def _keeps_scalar_dtype() -> bool:
    return (type(np.uint32(0) | 1) is np.uint32 and type(np.int32(0) | -1) is np.int32
            and type(np.float32(1) * 0.5) is np.float32 and type(np.float32(1) * 3) is np.float32)


KEEPS_SCALAR_DTYPE = _keeps_scalar_dtype()


def scalar_maker(dt):
    """A callable making `dt.type(x)` from a Python int (in dt's range) or float, bit for bit."""
    dt = np.dtype(dt)
    if KEEPS_SCALAR_DTYPE and dt.kind in "iu":
        zero = dt.type(0)
        return zero.__or__
    if KEEPS_SCALAR_DTYPE and dt in (_F32, _F64):
        return dt.type(1).__mul__
    return dt.type


def made(dt, expr: str, const) -> str:
    """An expression for `dt.type(expr)`, `expr` a Python int (in dt's range) or float: an
    operator with a numpy scalar constant where numpy keeps its dtype (scalar_maker)."""
    dt = np.dtype(dt)
    if KEEPS_SCALAR_DTYPE and dt.kind in "iu":
        return "(%s | %s)" % (const(dt.type(0)), expr)
    if KEEPS_SCALAR_DTYPE and dt in (_F32, _F64):
        return "(%s * %s)" % (const(dt.type(1)), expr)
    return "%s(%s)" % (const(dt.type), expr)


def _pow(eqn):
    x, y = eqn.invars
    if x.aval.dtype == _F32 and y.aval.dtype == _F32:   # the impl's powf: float64 power rounded once
        return lambda a, b: np.power(a, b, dtype=np.float64).astype(_F32)
    if x.aval.dtype == y.aval.dtype:
        return np.power
    if y.aval.dtype.kind in "iu":   # an integer exponent (adam's bias correction b1 ** count), in x's dtype
        dtype = x.aval.dtype
        return lambda a, b: np.power(a, b.astype(dtype))
    return None


def _select_n(eqn):
    """A scalar predicate choosing between two operands of the result's shape: the chosen
    operand (np.where's result has its values)."""
    which, *cases = eqn.invars
    out = eqn.outvars[0].aval
    if which.aval.shape != () or which.aval.dtype != np.bool_ or len(cases) != 2 or any(
            c.aval.shape != out.shape or c.aval.dtype != out.dtype for c in cases):
        return None
    return lambda p, a, b: b if p else a


# up to this many elements a broadcast is materialised into a new array (np.broadcast_to's view
# costs ~5x more Python than a small copy: optax's trust ratios and clipping broadcast per leaf)
_SMALL_BROADCAST = 4096


def _broadcast_in_dim(eqn):
    out = eqn.outvars[0].aval
    if out.size > _SMALL_BROADCAST:
        return None
    shape, dtype = out.shape, out.dtype
    expanded = [1] * len(shape)
    for i, d in enumerate(eqn.params["broadcast_dimensions"]):
        expanded[d] = eqn.invars[0].aval.shape[i]
    expanded = tuple(expanded)
    if expanded == shape:   # only size-1 axes added: a reshape (rules' specialisation), no copy
        return None

    def broadcast(x):
        y = np.empty(shape, dtype)
        y[...] = x.reshape(expanded)
        return y
    return broadcast


# ---- the scalar and one-window ops of an MCMC kernel's loop (blackjax's NUTS: a dozen dtype
# conversions, shifts, a population count, a remainder and a one-row scatter per leapfrog step),
# each specialised to its avals, without the impl's dtype dispatch and its own errstate

def _convert_element_type(eqn):
    from ..primitives.elementwise import plain_astype
    src, nd = eqn.invars[0].aval.dtype, np.dtype(eqn.params["new_dtype"])
    if not plain_astype(src, nd):
        return None
    if eqn.invars[0].aval.ndim == 0:
        scalar = _scalar_convert(src, nd)
        if scalar is not None:
            return scalar
    return lambda x: x.astype(nd)


def _scalar_convert(src, nd):
    """A 0-d conversion without numpy's astype on a scalar (~2 us: more than the loop step's
    arithmetic): a bool picks one of two constants, an integer goes through a Python int
    (wrapped to the target's width as astype's C cast does), a small int to float exactly."""
    if src.kind == "b":
        zero, one = np.zeros((), src).astype(nd)[()], np.ones((), src).astype(nd)[()]
        return lambda x: one if x else zero
    if src.kind in "iu" and nd.kind in "iu":
        bits, make = 8 * nd.itemsize, scalar_maker(nd)
        if nd.kind == "u":
            mask = (1 << bits) - 1
            return lambda x: make(int(x) & mask)
        mask, half = (1 << bits) - 1, 1 << (bits - 1)
        return lambda x: make(((int(x) + half) & mask) - half)
    if src.kind in "iu" and src.itemsize <= 4 and nd.kind == "f" and nd.itemsize >= 4:
        make = scalar_maker(nd)   # (an int of up to 32 bits is exact as a double: one rounding, as the cast)
        return lambda x: make(int(x))
    return None


def _concatenate(eqn):
    axis = eqn.params["dimension"]   # (the shapes were checked when the jaxpr was made)
    return lambda *xs: np.concatenate(xs, axis=axis)


def _dynamic_slice(eqn):
    sizes = tuple(eqn.params["slice_sizes"])
    highest = [d - z for d, z in zip(eqn.invars[0].aval.shape, sizes)]   # starts clamp into [0, highest]
    moving = [d for d, h in enumerate(highest) if h]
    if len(moving) == 1:   # one axis where the start matters: the others clamp to 0 (a whole axis)
        axis = moving[0]
        h, z, lead = highest[axis], sizes[axis], (slice(None),) * axis

        def dynamic_slice_one_axis(x, *starts):
            b = int(starts[axis])
            b = 0 if b < 0 else (h if b > h else b)
            return x[lead + (slice(b, b + z),)] if axis else x[b:b + z]
        return dynamic_slice_one_axis

    def dynamic_slice(x, *starts):
        return x[tuple(slice(b, b + z) for b, z in zip(
            [min(max(int(s), 0), h) for s, h in zip(starts, highest)], sizes))]
    return dynamic_slice


def _rem(eqn):
    out = eqn.outvars[0].aval
    if out.ndim or out.dtype.kind not in "iu":
        return None
    make = scalar_maker(out.dtype)

    def rem(a, b):   # C's remainder (the dividend's sign) on Python ints; x where y == 0, as the impl
        a, b = int(a), int(b)
        if b == 0:
            return make(a)
        r = abs(a) % abs(b)
        return make(-r if a < 0 else r)
    return rem


def _integer_pow(eqn):
    y = eqn.params["y"]
    dt = eqn.outvars[0].aval.dtype
    if y == 0 or (y < 0 and dt.kind != "f"):
        return None
    one, power = dt.type(1), abs(y)

    def integer_pow(x):   # exponentiation by squaring, as the impl (and XLA); 1 / that for y < 0
        acc, base, n = None, x, power
        while n:
            if n & 1:
                acc = base if acc is None else acc * base
            n >>= 1
            if n:
                base = base * base
        return acc if y > 0 else one / acc
    return integer_pow


def _literal_shift(eqn):
    """The shift amount when it is a scalar literal, with the operand's width; else None."""
    x, y = eqn.invars
    from ..tracing.jaxpr import Literal
    if type(y) is not Literal or np.ndim(y.val) or x.aval.dtype.kind not in "iu":
        return None
    return int(y.val), x.aval.dtype.itemsize * 8


def _shift_right_logical(eqn):
    known = _literal_shift(eqn)
    if known is None:
        return None
    s, bits = known
    dt = eqn.invars[0].aval.dtype
    if not 0 <= s < bits:
        return lambda x, y: np.zeros_like(x)
    unsigned = np.dtype(f"u{dt.itemsize}")
    amount = unsigned.type(s)
    if eqn.invars[0].aval.ndim == 0:   # a scalar: on its Python int (a numpy scalar's view costs ~2 us)
        if s == 0:
            return lambda x, y: x
        mask, make = (1 << bits) - 1, scalar_maker(dt)
        return lambda x, y: make((int(x) & mask) >> s)
    return lambda x, y: np.right_shift(x.view(unsigned), amount).view(dt)


def _shift_right_arithmetic(eqn):
    known = _literal_shift(eqn)
    if known is None:
        return None
    s, bits = known
    amount = eqn.invars[0].aval.dtype.type(s if 0 <= s < bits else bits - 1)
    if eqn.invars[0].aval.ndim == 0:   # numpy's scalar operator: the same shift without the ufunc call
        return lambda x, y: x >> amount
    return lambda x, y: np.right_shift(x, amount)


def _population_count(eqn):
    dt = eqn.invars[0].aval.dtype
    if not hasattr(np, "bitwise_count") or dt.kind not in "iu":
        return None
    unsigned = np.dtype(f"u{dt.itemsize}")   # two's complement bits, as XLA counts them
    if eqn.invars[0].aval.ndim == 0 and hasattr(int, "bit_count"):   # a scalar: its Python int's count
        mask, make = (1 << (8 * dt.itemsize)) - 1, scalar_maker(dt)
        return lambda x: make((int(x) & mask).bit_count())
    return lambda x: np.bitwise_count(x.view(unsigned)).astype(dt)


def _logistic(eqn):
    dt = eqn.invars[0].aval.dtype
    if dt not in (_F32, np.dtype(np.float64)):   # (the emulated bfloat16 rounds every step)
        return None
    if eqn.invars[0].aval.ndim == 0:   # numpy's scalar math keeps the dtype: no astype (~2 us on a scalar)
        return lambda x: 1 / (1 + np.exp(-x))
    return lambda x: (1 / (1 + np.exp(-x))).astype(dt)


def _bitcast_convert_type(eqn):
    """A 32-bit integer scalar read as a float32 (a uniform draw's mantissa bits) through struct,
    without numpy's view of a scalar; NaN bit patterns keep the impl (a double could quiet them)."""
    src, out = eqn.invars[0].aval, eqn.outvars[0].aval
    if src.ndim or src.dtype.kind not in "iu" or src.dtype.itemsize != 4 or out.dtype != _F32:
        return None
    import struct
    from ..base import dtypes
    pack, unpack, make = struct.Struct("<I").pack, struct.Struct("<f").unpack, scalar_maker(_F32)

    def bitcast_to_f32(x):
        v = unpack(pack(int(x) & 0xFFFFFFFF))[0]
        return make(v) if v == v else dtypes.bitcast(x, _F32)
    return bitcast_to_f32


def _scatter(eqn, scalar_index=False):
    """One window written over a copy (x.at[i].set(v) in a loop): its start from the index
    vector, clamped (mode clip) or the write skipped where it does not fit, as the impl.
    `scalar_index`: the index comes as the one number a broadcast would have made that vector of
    (cpu_elements.scatter_at; rows only)."""
    from ..primitives.indexing import GatherScatterMode, _window_shape
    operand, indices, updates = (v.aval for v in eqn.invars)
    if scalar_index:
        indices = ShapedArray((1,), indices.dtype)
    dn = eqn.params["dimension_numbers"]
    sdims = tuple(dn.scatter_dims_to_operand_dims)
    if (not operand.ndim or indices.shape != (len(sdims),) or dn.operand_batching_dims
            or list(dn.update_window_dims) != sorted(dn.update_window_dims) or updates.ndim != len(dn.update_window_dims)):
        return None
    window = _window_shape(operand.shape, updates.shape, dn)
    shape = operand.shape
    clip = GatherScatterMode.from_any(eqn.params["mode"]) == GatherScatterMode.CLIP
    highest = [max(d - w, 0) if clip else d - w for d, w in zip(shape, window)]
    if sdims == (0,) and all(w == d for w, d in zip(window[1:], shape[1:])):
        # a row block at one index along the first axis (a tree builder's checkpoint write)
        h, w = highest[0], window[0]
        if scalar_index and w == 1 and updates.shape == shape[1:]:
            def scatter_row_at(x, b, upd):   # one row, at a number: out[b] = upd (no index vector, no reshape)
                out = x.copy()
                b = int(b)
                if clip:
                    b = 0 if b < 0 else (h if b > h else b)
                elif b < 0 or b > h:
                    return out
                out[b] = upd
                return out
            return scatter_row_at
        if scalar_index:
            return None

        def scatter_rows(x, idx, upd):
            out = x.copy()
            b = int(idx[0])
            if clip:
                b = 0 if b < 0 else (h if b > h else b)
            elif b < 0 or b > h:
                return out   # XLA skips a window that does not fit
            out[b:b + w] = upd.reshape(window)
            return out
        return scatter_rows
    if scalar_index:
        return None

    def scatter(x, idx, upd):
        out = x.copy()
        starts = [0] * len(shape)
        for d, i in zip(sdims, idx.tolist()):
            starts[d] = i
        for d, h in enumerate(highest):
            b = starts[d]
            if clip:
                starts[d] = min(max(b, 0), h)
            elif b < 0 or b > h:
                return out   # XLA skips a window that does not fit
        out[tuple(slice(b, b + w) for b, w in zip(starts, window))] = upd.reshape(window)
        return out
    return scatter


def _fma(eqn):
    """The backend's fused multiply-add (cpu.py's _fma_impl) on float32 scalars, in Python
    floats: the product of two float32s is exact in a double, the sum rounds once there, then
    once to float32, as the impl's float64 arrays do."""
    if any(v.aval.ndim or v.aval.dtype != _F32 for v in (*eqn.invars, *eqn.outvars)):
        return None
    make = scalar_maker(_F32)
    if eqn.params["negate_addend"] and eqn.params["negate_product"]:
        return None
    if eqn.params["negate_addend"]:
        return lambda a, b, c: make(float(a) * float(b) - float(c))
    if eqn.params["negate_product"]:
        return lambda a, b, c: make(float(c) - float(a) * float(b))
    return lambda a, b, c: make(float(a) * float(b) + float(c))


def _random_fold_in(eqn):
    keys, msgs = (v.aval for v in eqn.invars)
    if keys.ndim or msgs.ndim:
        return None
    from ..primitives.random_bits import fold_in_one
    return fold_in_one


def _random_bits(eqn):
    if eqn.invars[0].aval.ndim or tuple(eqn.params["shape"]) or eqn.params["bit_width"] != 32:
        return None
    from ..primitives.random_bits import bits32_one
    return bits32_one


def _stack_scalars(eqn):
    dtype = eqn.params["dtype"]
    return lambda *xs: np.array(xs, dtype)


def _scatter_at(eqn):
    from ..tracing.jaxpr import JaxprEqn
    return _scatter(JaxprEqn(eqn.primitive, eqn.invars, eqn.outvars, eqn.params["params"]), scalar_index=True)


_SPECIAL = {"scatter_at": _scatter_at, "stack_scalars": _stack_scalars, "bitcast_convert_type": _bitcast_convert_type, "fma": _fma, "random_fold_in": _random_fold_in, "random_bits": _random_bits, "slice": _slice, "squeeze": _squeeze, "pad": _pad, "pow": _pow, "select_n": _select_n,
            "broadcast_in_dim": _broadcast_in_dim, "convert_element_type": _convert_element_type,
            "concatenate": _concatenate, "dynamic_slice": _dynamic_slice, "rem": _rem,
            "integer_pow": _integer_pow, "shift_right_logical": _shift_right_logical,
            "shift_right_arithmetic": _shift_right_arithmetic, "population_count": _population_count,
            "logistic": _logistic, "scatter": _scatter}


def special(eqn):
    """A callable computing `eqn` as its impl does, specialised to its avals, or None."""
    make = _SPECIAL.get(eqn.primitive.name)
    return None if make is None else make(eqn)


# ---- expressions written into the generated code instead of a call: the special callables above
# whose whole body is one expression (a loop step runs a dozen of them; a Python call costs
# ~0.1 us, more than the expression). Each computes the same value as its callable.

def _select_n_inline(eqn, const):
    return "({2} if {0} else {1})" if _select_n(eqn) is not None else None


def _squeeze_inline(eqn, const):
    shape = eqn.outvars[0].aval.shape
    return "{0}.reshape(-1)[0]" if shape == () else "{0}.reshape(%s)" % const(shape)


def _slice_inline(eqn, const):
    p = eqn.params
    strides = p.get("strides") or (1,) * len(p["start_indices"])
    index = tuple(slice(lo, hi, st) for lo, hi, st in zip(p["start_indices"], p["limit_indices"], strides))
    return "{0}[%s]" % const(index)


def _scalar_convert_inline(src, nd, const):
    """`_scalar_convert(src, nd)` as an expression, or None."""
    if src.kind == "b":
        zero, one = np.zeros((), src).astype(nd)[()], np.ones((), src).astype(nd)[()]
        return "(%s if {0} else %s)" % (const(one), const(zero))
    if src.kind in "iu" and nd.kind in "iu":
        bits = 8 * nd.itemsize
        if nd.kind == "u":
            return made(nd, "(int({0}) & %d)" % ((1 << bits) - 1), const)
        return made(nd, "(((int({0}) + %d) & %d) - %d)" % (1 << (bits - 1), (1 << bits) - 1, 1 << (bits - 1)), const)
    if src.kind in "iu" and src.itemsize <= 4 and nd.kind == "f" and nd.itemsize >= 4:
        return made(nd, "int({0})", const)
    return None


def _convert_inline(eqn, const):
    from ..primitives.elementwise import plain_astype
    src, nd = eqn.invars[0].aval.dtype, np.dtype(eqn.params["new_dtype"])
    if eqn.invars[0].aval.ndim or not plain_astype(src, nd):
        return None
    return _scalar_convert_inline(src, nd, const)


def _shift_right_logical_inline(eqn, const):
    known = _literal_shift(eqn)
    if known is None or eqn.invars[0].aval.ndim or not 0 < known[0] < known[1]:
        return None
    s, bits = known
    return made(eqn.invars[0].aval.dtype, "((int({0}) & %d) >> %d)" % ((1 << bits) - 1, s), const)


def _shift_right_arithmetic_inline(eqn, const):
    known = _literal_shift(eqn)
    if known is None or eqn.invars[0].aval.ndim:
        return None
    s, bits = known
    return "({0} >> %s)" % const(eqn.invars[0].aval.dtype.type(s if 0 <= s < bits else bits - 1))


def _population_count_inline(eqn, const):
    dt = eqn.invars[0].aval.dtype
    if _population_count(eqn) is None or eqn.invars[0].aval.ndim or not hasattr(int, "bit_count"):
        return None
    return made(dt, "(int({0}) & %d).bit_count()" % ((1 << (8 * dt.itemsize)) - 1), const)


def _fma_inline(eqn, const):
    if _fma(eqn) is None:
        return None
    if eqn.params["negate_addend"]:
        return made(_F32, "(float({0}) * float({1}) - float({2}))", const)
    if eqn.params["negate_product"]:
        return made(_F32, "(float({2}) - float({0}) * float({1}))", const)
    return made(_F32, "(float({0}) * float({1}) + float({2}))", const)


def _stack_scalars_inline(eqn, const):
    return "%s((%s,), %s)" % (const(np.array), ", ".join("{%d}" % i for i in range(len(eqn.invars))),
                               const(eqn.params["dtype"]))


def _integer_pow_inline(eqn, const):
    """A scalar's integer_pow as the products `_integer_pow` multiplies, in its order (squaring:
    acc * base), written out: x ** -2 is `one / (x * x)`."""
    if _integer_pow(eqn) is None or eqn.invars[0].aval.ndim or eqn.outvars[0].aval.dtype.kind not in "iuf":
        return None
    y = eqn.params["y"]
    acc, base, n = None, "{0}", abs(y)
    while n:
        if n & 1:
            acc = base if acc is None else "(%s * %s)" % (acc, base)
        n >>= 1
        if n:
            base = "(%s * %s)" % (base, base)
    if len(acc) > 200:
        return None
    return acc if y > 0 else "(%s / %s)" % (const(eqn.outvars[0].aval.dtype.type(1)), acc)


def _logistic_inline(eqn, const):
    if _logistic(eqn) is None or eqn.invars[0].aval.ndim:
        return None
    return "(1 / (1 + %s(-{0})))" % const(np.exp)


def _reduce_sum_inline(eqn, const):
    from ..tracing.rules import specialize_rules
    rule = specialize_rules.get(eqn.primitive)
    fn = rule and rule([v.aval for v in eqn.invars], **eqn.params)
    axes = getattr(fn, "add_reduce_axes", None)
    if axes is None:
        return None
    axes = tuple(axes)
    if len(axes) == 1:   # one axis by number (numpy parses a tuple on every call: ~0.3 us more), the
        ndim = eqn.invars[0].aval.ndim   # same reduction; a vector's whole sum by the default axis 0
        axis = axes[0] % ndim if ndim else axes[0]
        return "%s({0})" % const(np.add.reduce) if ndim == 1 and axis == 0 else "%s({0}, %d)" % (const(np.add.reduce), axis)
    return "%s({0}, %s)" % (const(np.add.reduce), const(axes))


def _bitcast_convert_type_inline(eqn, const):
    """`_bitcast_convert_type`'s struct round trip as an expression, for the bit patterns that are
    no NaN or infinity (all exponent bits set: those call it, which keeps a NaN's bits)."""
    fn = _bitcast_convert_type(eqn)
    if fn is None:
        return None
    import struct
    pack, unpack = struct.Struct("<I").pack, struct.Struct("<f").unpack
    return "(%s if (int({0}) & 2139095040) != 2139095040 else %s({0}))" % (
        made(_F32, "%s(%s(int({0}) & 4294967295))[0]" % (const(unpack), const(pack)), const), const(fn))


def _rem_inline(eqn, const):
    """C's remainder of two (at most 32-bit) integer scalars as math.fmod computes it on them
    (exact below 2**53); the dividend itself where the divisor is 0, as `_rem`."""
    out = eqn.outvars[0].aval
    if _rem(eqn) is None or out.dtype.itemsize > 4 or any(v.aval.ndim for v in eqn.invars):
        return None
    import math
    return "(%s if {1} else %s)" % (made(out.dtype, "int(%s(int({0}), int({1})))" % const(math.fmod), const),
                                    made(out.dtype, "int({0})", const))


def _random_fold_in_inline(eqn, const):
    """fold_in_one's body written out: its message as the uint32 it masks (a counter converted
    to uint32 just for this call is then read as the Python int it was made from)."""
    if _random_fold_in(eqn) is None:
        return None
    from ..primitives.random_bits import _MASK32, _fold_in_one
    return "%s({0}, (int({1}) & %d))" % (const(_fold_in_one), _MASK32)


def _vector_element_inline(eqn, const):
    return "{0}[%d]" % eqn.params["index"]


def _row_index_inline(eqn, const):
    """A row start clamped into [0, last] as dynamic_slice clamps it, as a Python int (numpy
    indexes with one faster than with a numpy integer)."""
    last = eqn.params["last"]
    return "(0 if {0} < 0 else (%d if {0} > %d else int({0})))" % (last, last)


def _row_element_inline(eqn, const):
    return "{0}[{1}, %d]" % eqn.params["column"]


_INLINE = {"row_index": _row_index_inline, "bitcast_convert_type": _bitcast_convert_type_inline, "rem": _rem_inline, "vector_element": _vector_element_inline, "row_element": _row_element_inline,
           "integer_pow": _integer_pow_inline, "logistic": _logistic_inline, "reduce_sum": _reduce_sum_inline, "select_n": _select_n_inline, "squeeze": _squeeze_inline, "slice": _slice_inline,
           "convert_element_type": _convert_inline, "shift_right_logical": _shift_right_logical_inline,
           "shift_right_arithmetic": _shift_right_arithmetic_inline, "population_count": _population_count_inline,
           "fma": _fma_inline, "stack_scalars": _stack_scalars_inline, "random_fold_in": _random_fold_in_inline}


# ... whose operands are only read as numbers (float(), int()): a 0-d constant may be a numpy scalar there
SCALAR_READS = frozenset({"fma", "shift_right_logical", "population_count", "rem"})


def inline(eqn, const):
    """A Python expression computing `eqn` as `special(eqn)` does, over operand names `{0}`, `{1}`...,
    or None. `const(value)` names a value the expression reads (a global of the generated code)."""
    make = _INLINE.get(eqn.primitive.name)
    return None if make is None else make(eqn, const)
