"""float32 exp and log as XLA's CPU backend computes them, bit for bit.

XLA does not call the C library for these: it inlines polynomials (exp: Cephes' e^x with Cody-Waite
reduction, n clamped to [-127, 127]; log: Cephes' mantissa polynomial in three interleaved strands,
as in Eigen's plog), and LLVM contracts every single-use float32 multiply that feeds an add into a
fused multiply-add. Read from JAX 0.10.2's LLVM IR dump (XLA_FLAGS=--xla_dump_to) and checked bit
for bit against it on 5.2M inputs (random bit patterns, denormals, inf, nan, the overflow and
underflow edges). XLA's CPU code runs with denormals flushed to zero (inputs and results).

numpy has no float32 FMA: a * b is exact in float64 (24 + 24 bits < 53), so fma = round32(a * b + c
in float64). The float64 add can round once before the float32 rounding; that changes the float32
result only when it lands exactly on a float32 halfway point (~2**-29 of inexact adds; none in the
5.2M checked). Plain numpy (runs in Pyodide); large arrays go in cache-sized blocks."""
from __future__ import annotations

import math
import os

import numpy as np

_F32, _F64 = np.float32, np.float64
_BLOCK = 1 << 14          # elements per block: the float64 temporaries stay in the L2 cache
_TINY = _F32(1.17549435e-38)  # smallest normal float32


def _bits(u):
    return np.array([u], np.uint32).view(_F32)[0]


_NAN = _bits(0xFFFFFFFF)   # log's nan: XLA ors an all-ones mask into the result (x86 keeps the bits)
_NAN_F = float(_NAN)

# exp: n = floor(x * log2(e) + 1/2); r = x - n * ln2 (two parts, the first exact); 2**n * (1 + p(r))
_EXP_LOG2E = _F64(_F32(1.44269504088896341))
_EXP_LN2_HI = _F32(0.693359375)
_EXP_LN2_LO = _F64(_F32(-2.12194440e-4))
_EXP_POLY = tuple(_F64(_F32(c)) for c in (1.9875691500E-4, 1.3981999507E-3, 8.3334519073E-3,
                                           4.1665795894E-2, 1.6666665459E-1, 5.0000001201E-1))

# log: x = m * 2**e with m in [sqrt(1/2), sqrt(2)); f = m - 1; log = f - f**2/2 + f**3 * p(f) + e*ln2
_LOG_SQRTHF = _bits(0x3F3504F3)
_LOG_STRANDS = ((_bits(0x3D9021BB), _bits(0xBDEBD1B8), _bits(0x3DEF251A)),
                (_bits(0xBDFE5D4F), _bits(0x3E11E9BF), _bits(0xBE2AAE50)),
                (_bits(0x3E4CCEAC), _bits(0xBE7FFFFC), _bits(0x3EAAAAAA)))
_LOG_Q1 = _F64(_bits(0xB95E8083))   # ln2's small part
_LOG_Q2 = _F64(_bits(0x3F318000))   # ln2's large part (0.693359375)


# tanh: Eigen's rational x * p(x**2) / q(x**2) on x clamped to +-7.99, x itself below 4e-4,
# sign(x) from 20 on; every product that feeds an add is fused, x * p(x**2) is not
_TANH_CLAMP = _bits(0x40FFF644)
_TANH_P = tuple(_F64(_bits(u)) for u in (0xA59F25C0, 0x2A61337E, 0xAEBD37FF, 0x335C0041, 0x3779434A,
                                          0x3A270DED, 0x3BA059DC))
_TANH_Q = tuple(_F64(_bits(u)) for u in (0x35A0D3D8, 0x38F895D6, 0x3B14AA05, 0x3BA059DD))


def _fma_into(a, b, c, out, tmp):
    """out = round32(a * b + c), a and b float32 (arrays or float64-held float32 scalars)."""
    np.multiply(a, b, out=tmp, dtype=_F64)
    np.add(tmp, c, out=out, casting="same_kind")
    return out


def _exp_block(x, out, tmp):
    r = np.clip(x, _F32(-87.8), _F32(88.8))          # nan stays nan
    n = np.empty_like(r)
    np.multiply(r, _EXP_LOG2E, out=tmp)
    np.add(tmp, 0.5, out=n, casting="same_kind")
    np.floor(n, out=n)
    np.clip(n, _F32(-127), _F32(127), out=n)
    z = n * _EXP_LN2_HI                               # exact (9-bit constant, 8-bit n)
    np.subtract(r, z, out=r)                          # exact (Sterbenz)
    _fma_into(n, -_EXP_LN2_LO, r, r, tmp)
    _fma_into(r, _EXP_POLY[0], _EXP_POLY[1], z, tmp)
    for coeff in _EXP_POLY[2:]:
        _fma_into(z, r, coeff, z, tmp)
    rr = r * r
    _fma_into(z, rr, r, z, tmp)
    np.add(z, _F32(1), out=z)
    with np.errstate(invalid="ignore"):
        ni = n.astype(np.int32)                       # nan -> garbage, but z is nan there
    ni += 127
    ni <<= 23
    np.multiply(z, ni.view(_F32), out=out)
    out[out < _TINY] = 0                              # flush denormal results (n = -126, z < 1)


def _log_block(x, out, tmp):
    xm = np.maximum(x, _TINY)                         # nan -> nan; denormals and below -> FLT_MIN
    bits = xm.view(np.uint32)
    e = (bits >> 23).view(np.int32) - 126             # exponent of the mantissa in [0.5, 1)
    bits &= np.uint32(0x807FFFFF)
    bits |= np.uint32(0x3F000000)
    m = xm                                            # (bits were edited in place: xm is m now)
    small = m < _LOG_SQRTHF
    ef = e.astype(_F32)
    ef -= small
    f = m - _F32(1)
    f += np.where(small, m, _F32(0))
    f2 = f * f
    f3 = f2 * f
    strands = []
    for k1, k0, k2 in _LOG_STRANDS:
        y = np.empty_like(f)
        _fma_into(f, k1, k0, y, tmp)
        _fma_into(y, f, k2, y, tmp)
        strands.append(y)
    y1, y2, y3 = strands
    _fma_into(y1, f3, y2, y1, tmp)
    _fma_into(y1, f3, y3, y1, tmp)
    _fma_into(y1, f3, (ef * _F32(_LOG_Q1)), y1, tmp)
    f2 *= _F32(0.5)
    f -= f2
    f += y1
    _fma_into(ef, _LOG_Q2, f, out, tmp)
    # specials: x <= 0 (or denormal, read as 0) and nan; +inf stays +inf
    zero = np.abs(x) < _TINY
    if zero.any():
        out[zero] = -np.inf
    bad = ~(x >= _TINY)
    bad &= ~zero
    if bad.any():
        out[bad] = _NAN
    inf = x == np.inf
    if inf.any():
        out[inf] = np.inf


# ---- a few elements: Python floats (one numpy call per op costs more than the op) ----------------
# A float64 holding a float32-rounded value stands for that float32; `_r32` rounds a float64 to
# float32's 24 bits (Veltkamp's split: round to nearest; for the polynomials' normal-range values).

def _r32(v):
    t = v * 536870913.0    # 2**29 + 1
    return t - (t - v)


_EXP_SCALARS = tuple(float(c) for c in (_EXP_LOG2E, _EXP_LN2_HI, _EXP_LN2_LO) + _EXP_POLY)
_LOG_SCALARS = tuple(float(c) for strand in _LOG_STRANDS for c in strand) + (float(_LOG_Q1), float(_LOG_Q2))
_TINY_F = float(_TINY)


def _rounded(var, expr, ind="    "):
    """Source lines `var = float32(expr)` (Veltkamp's split, as `_r32`, written out)."""
    return [f"{ind}t = {expr}", f"{ind}u = t * 536870913.0", f"{ind}{var} = u - (u - t)"]


# The scalar algorithms are generated as straight-line Python with their coefficients as literals:
# no calls, loops or tuple unpacking per element (exp 1.5 -> 0.9 us, log and log1p ~1.7 -> 1.25 us,
# a few of each per MCMC leapfrog step), the same operations in the same order as before.

def _exp_scalar_source() -> str:
    log2e, hi, lo, p0, p1, *poly = (repr(c) for c in _EXP_SCALARS)
    lines = ["def _exp_scalar(x):",
             "    if x != x:", "        return x",
             "    if x < -87.80000305175781:", "        x = -87.80000305175781",    # float32(-87.8)
             "    elif x > 88.80000305175781:", "        x = 88.80000305175781"]     # float32(88.8)
    lines += _rounded("n", f"x * {log2e} + 0.5")
    lines += ["    n = floor(n)", "    if n < -127:", "        n = -127", "    elif n > 127:", "        n = 127"]
    lines += _rounded("r", f"(x - n * {hi}) - n * {lo}")   # x - n*hi is exact; then one fused multiply-add
    lines += _rounded("z", f"r * {p0} + {p1}")
    for c in poly:
        lines += _rounded("z", f"z * r + {c}")
    lines += _rounded("rr", "r * r")
    lines += _rounded("z", "z * rr + r")
    lines += _rounded("z", "1.0 + z")
    lines += ["    if n == -127:", "        return 0.0",
              "    out = ldexp(z, n)",
              f"    return 0.0 if out < {_TINY_F!r} else out"]   # (the float32 cast makes > FLT_MAX inf)
    return "\n".join(lines)


def _log_scalar_source() -> str:
    a1, a0, a2, b1, b0, b2, c1, c0, c2, q1, q2 = (repr(c) for c in _LOG_SCALARS)
    tiny = repr(_TINY_F)
    lines = ["def _log_scalar(x):",
             f"    if not x >= {tiny}:",      # nan, negatives, zeros and denormals (read as 0)
             f"        return -inf if abs(x) < {tiny} else NAN",
             "    if x == inf:", "        return x",
             "    m, e = frexp(x)",           # m in [0.5, 1), exact
             "    if m < 0.7071067690849304:",   # float32(sqrt(1/2))
             "        e -= 1"]
    lines += _rounded("f", "(m - 1.0) + m", "        ")
    lines += ["    else:", "        f = m - 1.0"]   # exact
    lines += _rounded("f2", "f * f") + _rounded("f3", "f2 * f")
    for y, (k1, k0, k2) in (("y1", (a1, a0, a2)), ("y2", (b1, b0, b2)), ("y3", (c1, c0, c2))):
        lines += _rounded(y, f"f * {k1} + {k0}") + _rounded(y, f"{y} * f + {k2}")
    lines += _rounded("y", "y1 * f3 + y2") + _rounded("y", "y * f3 + y3")
    lines += _rounded("eq", f"e * {q1}") + _rounded("y", "y * f3 + eq")
    lines += _rounded("r", "f - 0.5 * f2") + _rounded("r", "r + y") + _rounded("r", f"e * {q2} + r")
    lines.append("    return r")
    return "\n".join(lines)


_SCALAR_NAMESPACE: dict = {"floor": math.floor, "ldexp": math.ldexp, "frexp": math.frexp, "inf": math.inf,
                           "NAN": _NAN_F}
exec(compile(_exp_scalar_source(), "<xla exp f32>", "exec"), _SCALAR_NAMESPACE)
exec(compile(_log_scalar_source(), "<xla log f32>", "exec"), _SCALAR_NAMESPACE)
_exp_scalar = _SCALAR_NAMESPACE["_exp_scalar"]
_log_scalar = _SCALAR_NAMESPACE["_log_scalar"]


_TANH_SCALARS = tuple(float(c) for c in (_TANH_CLAMP,) + _TANH_P + _TANH_Q)


def _tanh_scalar(x, S=536870913.0):
    ax = abs(x)
    if ax < 0.00039999998989515007 or x != x:     # float32(4e-4), below the float64 4e-4
        return x
    if ax >= 20.0:
        return math.copysign(1.0, x)
    clamp, p0, p1, p2, p3, p4, p5, p6, q0, q1, q2, q3 = _TANH_SCALARS
    x = min(max(x, -clamp), clamp)
    t = x * x
    u = t * S
    x2 = u - (u - t)
    t = x2 * p0 + p1
    u = t * S
    p = u - (u - t)
    for c in (p2, p3, p4, p5, p6):
        t = x2 * p + c
        u = t * S
        p = u - (u - t)
    t = x2 * q0 + q1
    u = t * S
    q = u - (u - t)
    for c in (q2, q3):
        t = x2 * q + c
        u = t * S
        q = u - (u - t)
    t = x * p
    u = t * S
    t = (u - (u - t)) / q           # (float64's quotient of float32s rounds to float32 correctly)
    u = t * S
    return u - (u - t)


_SCALAR_MAX = 16      # up to this many elements the Python-float path is the faster one
# elementwise.py uses these up to this many elements: scalars and tiny vectors (an MCMC state, a
# Dirichlet over a few categories) by default; beyond, numpy's kernels (a loop over an 8-element
# tanh ran 10x slower with the emulation). GRADPAD_XLA_MATH_MAX=N raises it.
EXACT_MAX = int(os.environ.get("GRADPAD_XLA_MATH_MAX", "4"))


def _tanh_block(x, out, tmp):
    xc = np.clip(x, -_TANH_CLAMP, _TANH_CLAMP)
    x2 = xc * xc
    p = np.empty_like(xc)
    _fma_into(x2, _TANH_P[0], _TANH_P[1], p, tmp)
    for coeff in _TANH_P[2:]:
        _fma_into(x2, p, coeff, p, tmp)
    p *= xc
    q = np.empty_like(xc)
    _fma_into(x2, _TANH_Q[0], _TANH_Q[1], q, tmp)
    for coeff in _TANH_Q[2:]:
        _fma_into(x2, q, coeff, q, tmp)
    np.divide(p, q, out=out)
    ax = np.abs(x)
    tiny = ax < _F32(4e-4)
    np.copyto(out, x, where=tiny)
    big = ax >= _F32(20)
    if big.any():
        out[big] = np.copysign(_F32(1), x[big])


def _blocked(block_fn, x):
    x = np.asarray(x, _F32)
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty(flat.shape, _F32)
    tmp = np.empty(min(flat.size, _BLOCK), _F64)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        for start in range(0, flat.size, _BLOCK):
            stop = min(start + _BLOCK, flat.size)
            block_fn(flat[start:stop], out[start:stop], tmp[:stop - start])
    return out.reshape(x.shape)


def _by_size(block_fn, scalar_fn, x):
    if getattr(x, "ndim", None) == 0 and x.dtype == _F32:   # a scalar (an MCMC step's): numpy's
        return _F32(scalar_fn(float(x)))                   # ufuncs answer a numpy scalar there too
    x = np.asarray(x, _F32)
    if x.size <= _SCALAR_MAX:
        return np.array([scalar_fn(v) for v in x.reshape(-1).tolist()], _F32).reshape(x.shape)
    return _blocked(block_fn, x)


def xla_exp_f32(x):
    return _by_size(_exp_block, _exp_scalar, x)


def xla_log_f32(x):
    return _by_size(_log_block, _log_scalar, x)


def xla_tanh_f32(x):
    return _by_size(_tanh_block, _tanh_scalar, x)


def _log1p_scalar_source() -> str:
    from ._special import _LOG1P_DEN, _LOG1P_NUM
    nums = [repr(float(c)) for c in _LOG1P_NUM]
    dens = [repr(float(c)) for c in _LOG1P_DEN]
    lines = ["def _log1p_scalar(x):",
             "    ax = abs(x)",
             f"    if ax < {_TINY_F!r}:", "        return x * 0.0",   # a denormal reads as +-0: log1p(+-0) = +-0
             "    if not ax < 0.4142135679721832:",                    # float32(sqrt(2) - 1); also nan
             "        if ax >= 16777216.0:",                           # (x + 1 may round twice: numpy's cast)
             "            return _log_scalar(float(F32(x + 1.0)))"]
    lines += _rounded("v", "x + 1.0", "        ") + ["        return _log_scalar(v)"]
    lines += _rounded("num", f"x * {nums[0]} + {nums[1]}")
    for c in nums[2:]:
        lines += _rounded("num", f"num * x + {c}")
    lines += _rounded("den", f"x * {dens[0]} + {dens[1]}")
    for c in dens[2:]:
        lines += _rounded("den", f"den * x + {c}")
    lines += ["    xx = x * x", "    u = xx * 536870913.0", "    x2 = u - (u - xx)"]
    lines += _rounded("q", "num / den") + _rounded("c3", "x * x2") + _rounded("v", "q * c3")
    lines += _rounded("v", "v - 0.5 * x2") + _rounded("v", "x + v")
    lines.append("    return v")
    return "\n".join(lines)


_SCALAR_NAMESPACE.update(_log_scalar=_log_scalar, F32=_F32)
exec(compile(_log1p_scalar_source(), "<xla log1p f32>", "exec"), _SCALAR_NAMESPACE)
_log1p_scalar = _SCALAR_NAMESPACE["_log1p_scalar"]


def _log1p_block(x, out, tmp):
    """XLA's float32 log1p (_special's Cephes rational / log(1 + x)), denormal inputs read as
    +-0 (giving +-0) as XLA's flushed arithmetic reads them."""
    from ._special import xla_log1p_f32 as log1p
    denormal = np.abs(x) < _TINY
    if denormal.any():
        x = np.where(denormal, np.copysign(_F32(0), x), x)
    out[...] = log1p(x)
    nan = np.isnan(out)
    if nan.any():
        out[nan] = _NAN


def xla_log1p_f32(x):
    return _by_size(_log1p_block, _log1p_scalar, x)
