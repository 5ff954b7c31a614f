"""Special functions in plain numpy (no scipy in the browser), float32-accurate."""
from __future__ import annotations

import numpy as np


def _fma32(a, b, c):
    """float32 fused multiply-add (XLA on CPU contracts a*b+c into one rounding). The float32
    product is exact in float64, so only the final add rounds (twice, rarely off by 1 ulp)."""
    prod = np.multiply(a, b, dtype=np.float64)
    prod += c
    return prod.astype(np.float32)


# Up to this many elements both branches of a piecewise function run over the whole array and a
# select picks (numpy's cost there is per call, and masks add calls); beyond, each branch runs on
# its own elements only (there the arithmetic dominates).
_WHOLE_ARRAY_MAX = 4096


def _piecewise(x, take, f_true, f_false):
    """f_true(x) where `take`, else f_false(x); both elementwise and float32-valued."""
    if x.size <= _WHOLE_ARRAY_MAX:
        return np.where(take, f_true(x), f_false(x))
    out = np.empty(x.shape, np.float32)
    out[take] = f_true(x[take])
    rest = ~take
    out[rest] = f_false(x[rest])
    return out


def _horner32(coeffs, x64):
    """Horner's rule in float32 with one rounding per step (fused multiply-adds), x64 = x as
    float64 (exact). coeffs: highest degree first (numbers, or arrays that give every element
    its own coefficient). In-place float64 steps: numpy's cost here is per call."""
    acc = np.multiply(x64, coeffs[0])
    p = np.empty(acc.shape, np.float32)
    for i in range(1, len(coeffs)):
        acc += coeffs[i]
        p[...] = acc   # the float32 rounding
        if i + 1 < len(coeffs):
            acc[...] = p   # back, exactly: same-type multiplies are cheaper than mixed ones
            acc *= x64
    return p


def _f32_values(coeffs):
    """Coefficients as the float64 values of their float32 roundings (what XLA multiplies by),
    as 0-d arrays: numpy adds one to an array ~30% faster than it adds a Python float."""
    return tuple(np.array(float(np.float32(c))) for c in coeffs)


def _c32(value):
    """A float32 constant as a 0-d array: numpy takes one ~25% faster than a numpy scalar in an
    operation with an array (these functions are ~150 numpy calls of ~0.5 us each)."""
    out = np.array(value, np.float32)
    out.flags.writeable = False
    return out


_ONE, _HALF, _MINUS_HALF = _c32(1.0), _c32(0.5), _c32(-0.5)
_TINY = _c32(1.17549435e-38)            # the smallest normal float32
_SQRT_HALF = _c32(0.707106781186547524)
_LOG2_HI, _LOG2_LO = _c32(0.693359375), _c32(-2.12194440e-4)   # log(2) in two parts (Cephes)
_LOG1P_SMALL = _c32(0.41421356237309504880)                      # sqrt(2) - 1


_LOG_P = _f32_values((7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                                  1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                                  3.3333331174e-1))


def xla_log_f32(x):
    """XLA CPU's float32 log (Eigen/Cephes `plog`, its multiply-adds fused): bit for bit on all 2**23
    floats random.uniform can draw in [0, 1)."""
    f32 = np.float32
    x = np.asarray(x, f32)
    shape, x = x.shape, x.reshape(-1)   # 1-d: frexp of a 0-d array gives scalars
    with np.errstate(all="ignore"):
        return _log_f32(x).reshape(shape)


def _log_f32(x):
    m, e = np.frexp(np.maximum(x, _TINY))  # mantissa in [0.5, 1)
    e = e.astype(np.float32)
    small = m < _SQRT_HALF
    e -= small
    m = (m - _ONE) + m * small
    x2 = m * m
    x3 = x2 * m
    m64 = m.astype(np.float64)
    y = _horner32(_LOG_P[0:3], m64)
    y1 = _horner32(_LOG_P[3:6], m64)
    y2 = _horner32(_LOG_P[6:9], m64)
    # XLA contracts `y * x3 + q1 * e` into one fused multiply-add over the rounded q1 * e
    y = _fma32(_fma32(_fma32(y, x3, y1), x3, y2), x3, _LOG2_LO * e)
    out = (m - _HALF * x2) + y
    out += _LOG2_HI * e
    if not ((x > 0) & (x < np.inf)).all():
        out[x == 0] = -np.inf
        out[x == np.inf] = np.inf
        out[~(x >= 0)] = np.nan   # negative or nan
    return out


_LOG1P_NUM = _f32_values((4.5270000862445199635215e-5, 4.9854102823193375972212e-1, 6.5787325942061044846969e0,
                          2.9911919328553073277375e1, 6.0949667980987787057556e1, 5.7112963590585538103336e1,
                          2.0039553499201281259648e1))
_LOG1P_DEN = _f32_values((1.0, 1.5062909083469192043167e1, 8.3047565967967209469434e1, 2.2176239823732856465394e2,
                          3.0909872225312059774938e2, 2.1642788614495947685003e2, 6.0118660497603843919306e1))


def xla_log1p_f32(x):
    """XLA's float32 log1p: a Cephes rational function for |x| < sqrt(2)-1, else log(1 + x).
    Both branches run over the whole array and a select picks per element: at the sizes a
    learner samples, numpy's cost is per call, and masks would add calls, not save them."""
    f32 = np.float32
    x = np.asarray(x, f32)
    with np.errstate(all="ignore"):
        return _log1p_f32(x.reshape(-1)).reshape(x.shape)


def _log1p_f32(x):
    return _piecewise(x, np.abs(x) < _LOG1P_SMALL, _log1p_small, _log1p_large)


def _log1p_small(x):
    x64 = x.astype(np.float64)
    ratio = _horner32(_LOG1P_NUM, x64)
    ratio /= _horner32(_LOG1P_DEN, x64)
    x2 = x * x
    ratio *= x * x2
    return x + _fma32(_MINUS_HALF, x2, ratio)


def _log1p_large(x):
    return _log_f32(x + _ONE)


# Giles' single-precision erf_inv: one polynomial in w - 2.5 for w < 5, one in sqrt(w) - 3 beyond;
# row 0 / row 1 of the table, picked per element so that one Horner pass serves both.
_ERFINV_LT5 = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
               -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_GE5 = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
               -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
_TWO_AND_HALF, _THREE, _FIVE = _c32(2.5), _c32(3.0), _c32(5.0)   # the branch point and shifts
_ERFINV_TABLE = np.array([_f32_values(_ERFINV_LT5), _f32_values(_ERFINV_GE5)]).T  # (9, 2)


def _erf_inv_w_lt5(w):
    return _horner32(_ERFINV_TABLE[:, 0], (w - np.float32(2.5)).astype(np.float64))


def _erf_inv_w_ge5(w):
    return _horner32(_ERFINV_TABLE[:, 1], (np.sqrt(w) - np.float32(3.0)).astype(np.float64))


def _erf_inv_poly(w, ge5):
    """Giles' polynomial of w for each element's branch. Small arrays: one Horner pass with
    per-element coefficients (half the numpy calls of running both branches)."""
    if w.size > _WHOLE_ARRAY_MAX:
        return _piecewise(w, ge5, _erf_inv_w_ge5, _erf_inv_w_lt5)
    arg = np.where(ge5, np.sqrt(w) - _THREE, w - _TWO_AND_HALF).astype(np.float64)
    # (take: twice as fast as the fancy index `_ERFINV_TABLE[:, i]`, ~6 us at 1000 elements)
    return _horner32(_ERFINV_TABLE.take(ge5.astype(np.intp), axis=1), arg)


def erf_inv(x):
    """Inverse error function as XLA evaluates it (Giles' single-precision polynomial over
    XLA's log1p, fused multiply-adds): JAX's float32 bits on every float32 random.normal can
    draw; float64 takes Giles' double-precision polynomials (_xla_f64)."""
    x = np.asarray(x)
    dt = x.dtype
    if dt == np.float64:
        from ._xla_f64 import xla_erf_inv_f64
        return xla_erf_inv_f64(x)
    f32 = np.float32
    xf = x.astype(f32, copy=False).reshape(-1)   # 1-d: the per-element coefficient table needs an axis
    with np.errstate(all="ignore"):
        w = _log1p_f32(-(xf * xf))
        np.negative(w, out=w)
        out = _erf_inv_poly(w, w >= _FIVE)   # (a nan w gives nan in either branch)
        out *= xf
        edge = np.abs(xf) == 1
        if edge.any():
            out[edge] = np.copysign(f32(np.inf), xf[edge])
    return out.astype(dt, copy=False).reshape(x.shape)


def digamma(x):
    x = np.asarray(x)
    if x.dtype == np.float32:   # XLA's CPU flushes float32 subnormals to zero (digamma(1e-45) is nan)
        x = np.where(np.abs(x) < np.finfo(np.float32).tiny, np.float32(0), x)
    x = np.asarray(x, np.float64)
    pole = (x <= 0) & (x == np.floor(x))   # 0, -1, -2, ...: nan, as XLA (not -inf)
    result = np.zeros_like(x)
    xx = x.copy()
    with np.errstate(all="ignore"):
        for _ in range(6):
            small = xx < 6
            result = np.where(small, result - 1 / xx, result)
            xx = np.where(small, xx + 1, xx)
        f = 1 / (xx * xx)
        t = f * (-1 / 12 + f * (1 / 120 + f * (-1 / 252 + f * (1 / 240 + f * (-1 / 132)))))
        result = result + np.log(xx) - 0.5 / xx + t
        return np.where(pole, np.nan, result).astype(np.float32)   # (past float32's range: inf, silently, as XLA)
