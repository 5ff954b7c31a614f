"""Elementwise lax primitives beyond jax.numpy's needs: clz (leading zero bits), mulhi (the
high half of an integer product). lax.complex lives in complex_parts.py."""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..transforms import ad
from ..transforms.batching import defbroadcasting, defvectorized
from . import define
from .elementwise import nary_abstract, unary_abstract


def _lax():
    from ..lax import lax  # INHERENT: up to lax; lax wraps these primitives (a layer above)
    return lax


def _unsigned(dtype):
    return np.dtype(f"uint{np.dtype(dtype).itemsize * 8}")


def _bit_length(u):
    """Bit length of every element of an unsigned array (0 for 0), by halving."""
    v = u.astype(np.uint64)
    length = np.zeros(u.shape, np.int64)
    for s in (32, 16, 8, 4, 2, 1):
        big = v >= np.uint64(1 << s)
        length += np.where(big, s, 0)
        v = np.where(big, v >> np.uint64(s), v)
    return length + (v > 0)


def _clz_impl(x):
    x = np.asarray(x)
    unary_abstract("clz", "iu")(ShapedArray(x.shape, x.dtype))
    bits = x.dtype.itemsize * 8
    return (bits - _bit_length(x.view(_unsigned(x.dtype)))).astype(x.dtype)


clz_p = define("clz", abstract_eval=unary_abstract("clz", "iu"), impl=_clz_impl)
defvectorized(clz_p)
ad.defjvp_zero(clz_p)


def _mulhi_impl(x, y):
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    bits = x.dtype.itemsize * 8
    if bits < 64:  # the full product fits in 64 bits
        wide = np.int64 if x.dtype.kind == "i" else np.uint64
        return ((x.astype(wide) * y.astype(wide)) >> wide(bits)).astype(x.dtype)
    # 64-bit operands: Python integers hold the 128-bit product (>> floors, as an arithmetic shift)
    flat = [(int(a) * int(b)) >> 64 for a, b in zip(x.ravel().tolist(), y.ravel().tolist())]
    return np.array(flat, dtype=object).astype(np.int64 if x.dtype.kind == "i" else np.uint64).astype(
        x.dtype).reshape(x.shape) if flat else np.zeros(x.shape, x.dtype)


mulhi_p = define("mulhi", abstract_eval=nary_abstract("mulhi", "iu"), impl=_mulhi_impl)
mulhi_p.same_rank_operands = True
defbroadcasting(mulhi_p)
ad.defjvp_zero(mulhi_p)


def clz(x):
    return clz_p.bind(x)


def mulhi(x, y, /):
    return mulhi_p.bind(x, y)



LAX_EXPORTS = {"clz": clz, "clz_p": clz_p, "mulhi": mulhi, "mulhi_p": mulhi_p}
# lax.complex and complex_p live in complex_parts.py (with their jvp and transpose rules)


# ---- eq_to / le_to / lt_to: comparisons in XLA's total order (sort's comparators) ----------
# floats order as -NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN, bit patterns compared exactly

def _total_order_key(x):
    x = np.asarray(x)
    if x.dtype.kind != "f":
        return x
    if not x.dtype.isnative:  # the emulated bfloat16's storage: its bits, read natively, are another number
        x = x.astype(x.dtype.newbyteorder("="))
    signed = x.view(np.dtype(f"int{x.dtype.itemsize * 8}"))
    flip = (signed >> (x.dtype.itemsize * 8 - 1)) & np.iinfo(signed.dtype).max  # negatives: reverse their order
    return signed ^ flip


def _total_compare(name, op):
    def impl(x, y):
        return op(_total_order_key(x), _total_order_key(y))
    p = define(name, abstract_eval=nary_abstract(name, None, np.dtype(bool)), impl=impl)
    p.same_rank_operands = True
    defbroadcasting(p)
    ad.defjvp_zero(p)
    return p


eq_to_p = _total_compare("eq_to", np.equal)
le_to_p = _total_compare("le_to", np.less_equal)
lt_to_p = _total_compare("lt_to", np.less)


# ---- copy: an identity that makes a new buffer ---------------------------------------------

copy_p = define("copy", abstract_eval=unary_abstract("copy"), impl=lambda x: np.array(x, copy=True))
defvectorized(copy_p)
ad.deflinear(copy_p, lambda ct, x: [None if type(ct) is ad.Zero else copy_p.bind(ct)])


LAX_EXPORTS.update({"eq_to_p": eq_to_p, "le_to_p": le_to_p, "lt_to_p": lt_to_p, "copy_p": copy_p})
