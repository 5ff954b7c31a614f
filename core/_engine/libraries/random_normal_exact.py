"""float32 `random.normal` from random bits, bit for bit JAX's, in as few numpy calls as possible.

JAX computes sqrt(2) * erf_inv(u), u = uniform(nextafter(-1, 0), 1) from the top 23 bits m of each
uint32, with XLA's float32 log1p (Cephes) and Giles' polynomial, multiply-adds fused. This is that
sequence (the same as core/_engine/primitives/_special.erf_inv, which serves every float32 erf_inv), written
for the normal's own inputs, where numpy's per-call cost is what a draw of a thousand costs:

- u is exactly (4 m + 1 - 2**24) * 2**-24 (the uniform's fused multiply-add is exact here), so
  |u| < 1: no infinities, nans or log of zero to patch afterwards;
- each log1p branch runs on its own elements only, and the polynomials of one branch run side by
  side as rows of one array (Cephes' numerator and denominator; plog's three pieces): one Horner
  pass instead of two or three;
- casts are slice assignments and every ufunc sees one dtype (a ufunc that casts costs about
  three times one that does not); the float32 division is float64's, rounded once (exact: 53
  bits hold the 2 * 24 + 2 that a correctly rounded float32 quotient needs).
Same float64 values and the same roundings as the general path: the same bits.

tests/test_random_normal_exact.py holds it to the general path; the exhaustive comparison (all
2**23 mantissas, whose table's sha256 is real JAX's) is tests/test_random_normal_table.py's.
"""
from __future__ import annotations

import numpy as np

from ..primitives import _special as sp

_F32, _F64 = np.float32, np.float64


def _c(value, dtype=_F32):
    """A constant as a read-only 0-d array (numpy takes these faster than scalars)."""
    out = np.array(value, dtype)
    out.flags.writeable = False
    return out


_MANTISSA_SHIFT = _c(32 - 23, np.uint32)
_TWO_POW_M22 = _c(2.0 ** -22)
_U_LO = _c(np.nextafter(_F32(-1.0), _F32(0.0)))   # the float after -1: the uniform's low end
_SQRT2 = _c(np.sqrt(2))
_ONE, _MINUS_HALF = _c(1.0), _c(-0.5)
_LOG1P_SMALL = sp._LOG1P_SMALL                    # |x| below: Cephes' rational function
_SQRT_HALF, _LOG2_HI, _LOG2_LO = sp._SQRT_HALF, sp._LOG2_HI, sp._LOG2_LO
_TWO_AND_HALF, _THREE, _FIVE = sp._TWO_AND_HALF, sp._THREE, sp._FIVE

# Up to this many samples Giles' two polynomials run as one Horner pass with per-element
# coefficients; beyond, the far one (w >= 5, ~1 sample in 300) runs on its own elements.
PER_ELEMENT_COEFFS_MAX = 4096


def _horner(coeffs, x64, acc, out):
    """Horner's rule with one float32 rounding per step (fused multiply-adds) into float32 `out`;
    x64: the float32 argument as float64 (exact), acc: float64 scratch of its shape. coeffs:
    highest degree first, float64 values of float32 numbers (scalars or per-element arrays).
    Casts are slice assignments: a ufunc that casts costs ~3x one that does not."""
    np.multiply(x64, coeffs[0], out=acc)          # exact: two float32 factors
    last = len(coeffs) - 1
    for i in range(1, last + 1):
        np.add(acc, coeffs[i], out=acc)
        out[...] = acc                            # the float32 rounding
        if i < last:
            acc[...] = out                        # back, exactly
            np.multiply(acc, x64, out=acc)
    return out


# Bigger draws run in blocks of this many samples: the stacked polynomial rows and their float64
# scratch then stay in the CPU's cache (a million samples in one pass: ~1.7x the time).
BLOCK = 1 << 14


def normal_f32_of_bits(bits: np.ndarray) -> np.ndarray:
    """float32 standard normals for 1-d uint32 `bits` (consumed: updated in place)."""
    if bits.size <= BLOCK:
        return _normal_block(bits)
    out = np.empty(bits.size, _F32)
    for lo in range(0, bits.size, BLOCK):
        out[lo:lo + BLOCK] = _normal_block(bits[lo:lo + BLOCK])
    return out


def _normal_block(bits):
    np.right_shift(bits, _MANTISSA_SHIFT, out=bits)
    u = bits.astype(_F32)                          # m, exact
    u *= _TWO_POW_M22
    u += _U_LO                                     # exact: (4 m + 1 - 2**24) * 2**-24
    x2 = np.multiply(u, u)                         # erf_inv's x * x
    # w = -log1p(-x2), each log1p branch on its own elements (cheaper than both on all, even at
    # ten samples: a select costs about what a mask does)
    w = np.empty(x2.shape, _F32)
    small = x2 < _LOG1P_SMALL
    w[small] = _minus_log1p_minus(x2[small], "small")
    large = ~small
    w[large] = _minus_log1p_minus(x2[large], "large")
    p = _erf_inv_poly(w)
    p *= u
    p *= _SQRT2
    return p


# log1p's polynomials, evaluated side by side as rows of one array (one Horner pass for several):
# Cephes' numerator and denominator in x (|x| < sqrt(2) - 1), and plog's three cubic pieces in m - 1.
_CEPHES_ROWS = np.array([sp._LOG1P_NUM, sp._LOG1P_DEN], _F64).T[:, :, None]      # (7, 2, 1)
_PLOG_ROWS = np.array([sp._LOG_P[0:3], sp._LOG_P[3:6], sp._LOG_P[6:9]], _F64).T[:, :, None]  # (3, 3, 1)


def _horner_rows(coeffs, x, rows):
    """_horner over `rows` stacked copies of float32 x: coeffs (degree + 1, rows, 1). Returns the
    float64 array of the rounded results, (rows, n)."""
    x64 = np.empty((rows,) + x.shape, _F64)
    x64[...] = x
    acc = np.multiply(x64, coeffs[0])
    out = np.empty(x64.shape, _F32)
    for i in range(1, len(coeffs)):
        np.add(acc, coeffs[i], out=acc)
        out[...] = acc
        acc[...] = out
        if i < len(coeffs) - 1:
            np.multiply(acc, x64, out=acc)
    return acc


def _minus_log1p_minus(x2, branch):
    """-log1p(-x2) as XLA computes log1p in float32, for elements all on one `branch`: "small"
    (|x| < sqrt(2) - 1: Cephes' rational function) or "large" (plog(1 + x), Eigen/Cephes' log);
    multiply-adds fused."""
    if branch == "small":
        x = np.negative(x2)
        num, den = _horner_rows(_CEPHES_ROWS, x, 2)
        return _cephes_tail(x, num, den)
    # plog's argument reduction: 1 + x = mm * 2**e, mm in [sqrt(1/2), sqrt(2)); 1 + x >= 2**-23
    # here (a normal positive float), so plog's special cases never arise
    mant, e = np.frexp(np.subtract(_ONE, x2))      # mant in [0.5, 1)
    e = e.astype(_F32)
    below = mant < _SQRT_HALF
    e -= below
    m = np.where(below, mant + mant, mant)         # (exact)
    m -= _ONE                                      # (exact)
    return _plog_tail(m, e, _horner_rows(_PLOG_ROWS, m, 3))


def _cephes_tail(x, num, den):
    """-(x + fma(-0.5, x^2, x^3 num/den)); num, den: float64 holding float32 values."""
    scratch = num
    ratio = np.divide(num, den).astype(_F32)       # (exact as float32's division: both are floats)
    xx = np.multiply(x, x)
    ratio *= np.multiply(x, xx)
    xx *= _MINUS_HALF                              # (exact)
    scratch[...] = xx
    wide = ratio.astype(_F64)
    wide += scratch                                # the fused multiply-add's one sum ...
    ratio[...] = wide                              # ... and its rounding
    ratio += x
    return np.negative(ratio, out=ratio)


def _plog_tail(m, e, y):
    """-plog's result from its three pieces y (float64 (3, n), rounded to float32 values):
    fma(fma(fma(y0, m^3, y1), m^3, y2), m^3, LOG2_LO * e) + (m - m^2 / 2) + LOG2_HI * e."""
    mm = np.multiply(m, m)
    m3 = np.multiply(mm, m).astype(_F64)
    y0, y1, y2 = y
    r = np.empty(m.shape, _F32)
    last = np.multiply(_LOG2_LO, e).astype(_F64)
    for addend in (y1, y2, last):
        y0 *= m3                                   # exact
        y0 += addend
        r[...] = y0                                # the fused multiply-add's rounding
        y0[...] = r
    mm *= _MINUS_HALF
    mm += m                                        # m - m^2 / 2 (one rounding)
    mm += r
    e *= _LOG2_HI
    mm += e
    return np.negative(mm, out=mm)


_ERFINV_COEFFS = sp._ERFINV_TABLE   # (9, 2) float64: column 0 below w = 5, column 1 from there
_ERFINV_LT5, _ERFINV_GE5 = (tuple(_c(c, _F64) for c in _ERFINV_COEFFS[:, j]) for j in (0, 1))


def _erf_inv_poly(w):
    """Giles' polynomial of w (consumed): in w - 2.5 below w = 5, in sqrt(w) - 3 from there on."""
    ge5 = w >= _FIVE
    t = w - _TWO_AND_HALF
    if w.size <= PER_ELEMENT_COEFFS_MAX:
        if ge5.any():
            s = np.sqrt(w)
            s -= _THREE
            np.copyto(t, s, where=ge5)
        arg = t.astype(_F64)
        coeffs = _ERFINV_COEFFS.take(ge5.view(np.uint8), axis=1)   # (9, n)
        return _horner(coeffs, arg, np.empty_like(arg), w)
    arg = t.astype(_F64)
    out = _horner(_ERFINV_LT5, arg, np.empty_like(arg), t)
    far = np.flatnonzero(ge5)
    if far.size:
        s = np.sqrt(w[far])
        s -= _THREE
        out[far] = _horner(_ERFINV_GE5, s.astype(_F64), np.empty(far.size, _F64), s)
    return out
