"""float64 log, log1p and erf_inv as XLA's CPU backend computes them, bit for bit.

XLA contracts `a * b + c` into fused multiply-adds (one rounding); numpy has no float64 FMA, so
`_fma64` builds one from error-free transformations. XLA's float64 log is the C library's `log`
(numpy's SIMD log differs from it in the last bit on ~0.4% of inputs on AVX-512 machines).
Plain Python + numpy (runs in Pyodide)."""
from __future__ import annotations

import math

import numpy as np

_VELTKAMP = 134217729.0  # 2**27 + 1: splits a double into two 26-bit halves


def _split(a):
    """a = high + low, each half with at most 26 significant bits (so products of halves are exact)."""
    ca = _VELTKAMP * a
    high = ca - (ca - a)
    return high, a - high


def _fma64(a, b, c, b_split=None):
    """round(a * b + c) with one rounding, on float64 arrays: the product exactly as p + p_err
    (Dekker), p + c exactly as s + s_err (Knuth's two-sum), then one add of the error terms
    (which can differ from a true FMA only when that add itself lands on a rounding tie, ~2**-50).
    b_split: _split(b), when the caller reuses one b for many steps. An exact zero result is +0
    here; callers that need IEEE's -0 (both addends -0) fix it themselves."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b) if b_split is None else b_split
    p_err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bv = s - p
    s_err = (p - (s - bv)) + (c - bv)
    s_err += p_err
    s += s_err
    return s


def _horner64(coeffs, x):
    """Horner's rule with a fused multiply-add per step; coeffs highest degree first (numbers,
    or arrays giving each element its own coefficient). Nonzero constant terms: no -0 issue."""
    x_split = _split(x)
    acc = np.broadcast_to(np.asarray(coeffs[0], np.float64), x.shape)
    for c in coeffs[1:]:
        acc = _fma64(acc, x, c, x_split)
    return acc


def _agrees_with_libm(ufunc, libm, probe):
    """Whether numpy's float64 kernel is the C library's here (it is unless numpy picked its own
    SIMD kernel, as on AVX-512 machines); the probe holds inputs the two round apart."""
    probe = np.concatenate([probe, np.linspace(-0.999, 0.999, 2001) * probe.max()])
    probe = probe[np.isfinite(probe) & (probe > 0 if ufunc is np.log else True)]
    with np.errstate(all="ignore"):
        return bool((ufunc(probe) == libm(probe).astype(np.float64)).all())


def _libm_unary(ufunc, math_fn, probe):
    """ufunc on float64 with the C library's rounding: numpy's kernel where it is the C
    library's, else math_fn per element on the finite inputs of its domain (the rest, where
    math raises, keep numpy's inf/nan)."""
    libm = np.frompyfunc(math_fn, 1, 1)
    use_numpy = _agrees_with_libm(ufunc, libm, np.asarray(probe, np.float64))

    def fn(x):
        x = np.asarray(x, np.float64)
        shape, x = x.shape, x.reshape(-1)   # 1-d: a 0-d ufunc result is a scalar, not assignable
        with np.errstate(all="ignore"):
            out = ufunc(x)
        if not use_numpy:
            regular = np.isfinite(out) & np.isfinite(x)
            if ufunc is np.log:
                regular &= x > 0
            out[regular] = libm(x[regular]).astype(np.float64)
        return out.reshape(shape)
    fn.use_numpy = use_numpy
    return fn


# float64 log and tan are the C library's (XLA calls it; numpy's AVX-512 kernels round some
# inputs the other way, e.g. these)
xla_log_f64 = _libm_unary(np.log, math.log, [0.9999999999999998, 0.9764623219360444, 0.8203077943609558,
                                             0.6018248802352766, 1e-300, 3.0, 123456.789])
xla_tan_f64 = _libm_unary(np.tan, math.tan, [1.4, -1.2, 0.7, 3.0, 100.0, 1e5])


# Cephes' rational log1p for |x| < sqrt(2) - 1 (XLA's coefficients, highest degree first)
_LOG1P_NUM = (4.5270000862445199635215e-5, 4.9854102823193375972212e-1, 6.5787325942061044846969e0,
              2.9911919328553073277375e1, 6.0949667980987787057556e1, 5.7112963590585538103336e1,
              2.0039553499201281259648e1)
_LOG1P_DEN = (1.0, 1.5062909083469192043167e1, 8.3047565967967209469434e1, 2.2176239823732856465394e2,
              3.0909872225312059774938e2, 2.1642788614495947685003e2, 6.0118660497603843919306e1)


def xla_log1p_f64(x):
    """XLA's float64 log1p: x + (-x**2/2 + x**3 * P(x)/Q(x)) for |x| < sqrt(2) - 1, else log(1 + x)."""
    x = np.asarray(x, np.float64)
    shape, x = x.shape, x.reshape(-1)
    with np.errstate(all="ignore"):
        small = np.abs(x) < 0.41421356237309504880
        out = xla_log_f64(x + 1.0)
        xs = x[small]
        x2 = xs * xs
        ratio = _horner64(_LOG1P_NUM, xs) / _horner64(_LOG1P_DEN, xs)
        tail = _fma64(-0.5, x2, (xs * x2) * ratio)
        # IEEE: -0.5 * x2 + r is -0 when both terms are -0 (x = -0 gives log1p(-0) = -0)
        tail[tail == 0] = ((-0.5 * x2) + (xs * x2) * ratio)[tail == 0]
        out[small] = xs + tail
    return out.reshape(shape)


# Giles' double-precision erf_inv: three polynomials, for w = -log1p(-x*x) < 6.25 (in w - 3.125),
# < 16 (in sqrt(w) - 3.25) and beyond (in sqrt(w) - 5). Highest degree first; the shorter two are
# padded with leading zeros so that one Horner pass with per-element coefficients serves all three
# (a zero leading coefficient leaves the fused steps exact).
_ERFINV_W_LT_6_25 = (
    -3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
    1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
    6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
    2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
    1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
    4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
    0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
    0.24015818242558961693, 1.6536545626831027356)
_ERFINV_W_LT_16 = (
    2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
    1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
    2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
    6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
    0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
    -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
    3.0838856104922207635)
_ERFINV_W_GE_16 = (
    -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
    -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
    2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
    -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
    7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
    1.0103004648645343977, 4.8499064014085844221)
_DEGREE = len(_ERFINV_W_LT_6_25)
_ERFINV_TABLE = np.array([(0.0,) * (_DEGREE - len(c)) + c
                          for c in (_ERFINV_W_LT_6_25, _ERFINV_W_LT_16, _ERFINV_W_GE_16)]).T  # (23, 3)


def xla_erf_inv_f64(x):
    """XLA's float64 erf_inv (Giles' double-precision approximation), bit for bit on the CPU."""
    x = np.asarray(x, np.float64)
    shape, x = x.shape, x.reshape(-1)
    with np.errstate(all="ignore"):
        w = -xla_log1p_f64(-(x * x))
        branch = (w >= 6.25).astype(np.intp) + (w >= 16)   # 0, 1, 2 (nan w: 0, gives nan anyway)
        root = np.sqrt(w)
        arg = np.where(branch == 0, w - 3.125, root - np.where(branch == 1, 3.25, 5.0))
        out = _horner64(_ERFINV_TABLE[:, branch], arg) * x
        edge = np.abs(x) == 1
        if edge.any():
            out[edge] = np.copysign(np.inf, x[edge])
    return out.reshape(shape)
