"""Small float32 dot products summed as XLA's CPU backend sums them, bit for bit.

For a vector dot, a matrix-vector product with a short contraction, or a vector-matrix one, XLA:CPU
(JAX 0.10.2, eager and under jit) computes each output element as one sequential chain of fused
multiply-adds: acc = x[0] * y[0]; acc = fma(x[i], y[i], acc) for i = 1 .. k-1. numpy's matmul and
BLAS sum the other way (plain multiplies, pairwise or vectorised adds), which differs in the last
bit for a quarter to 40% of 2-element dots and more of longer ones; optimistix's BFGS (a 2x2
inverse Hessian times a gradient) then took 56 steps where JAX run op by op takes 55.

Measured against real JAX on random float32 operands (tests/golden/cases_xladot.py keeps the
cases): vector . vector up to k = 32 (at 64 XLA switches to lane-wise partial sums); a matrix
times a vector, or a vector times a matrix's transpose, for k <= 7 and any row count (from k = 8
it vectorises along k); a vector times a (k, n) matrix, or a (k, n) matrix contracted over k with
a vector, for n = 1, 3..8 or k <= 2 (n = 2 or n >= 9 take another kernel). Everything else
keeps numpy's product.

numpy has no float32 FMA: a * b is exact in float64 (24 + 24 bits < 53), so fma = round32(a * b + c
in float64); the float64 add can round once first, which matters only on an exact float32
halfway point (as in _xla_f32)."""
from __future__ import annotations

import numpy as np

_F32, _F64 = np.dtype(np.float32), np.float64
_VECVEC_MAX_K = 32   # vector . vector: one fma chain up to here (checked); 64 takes lane-wise sums
_MATVEC_MAX_K = 7    # matrix . vector: one fma chain per row up to here; 8 vectorises along k


def _chain(rows, v):
    """out[i] = the fma chain over rows[i, :] * v (rows (m, k) float32, v (k,) float32)."""
    k = v.shape[0]
    acc = rows[:, 0] * v[0]                      # float32 product: rounded once
    for i in range(1, k):
        acc = (rows[:, i].astype(_F64) * _F64(v[i]) + acc).astype(_F32)
    return acc


def _vector_dot(x, y, f32=None, array=np.array):
    # in Python floats (an MCMC step's kinetic energy and U-turn checks: a few us less than
    # numpy per call); each float32 * float32 product is exact in a Python float, and the last
    # sum is rounded to float32 by np.array itself
    f32 = f32 or _TO_F32
    xs, ys = x.tolist(), y.tolist()
    acc = float(f32(xs[0] * ys[0]))
    last = len(xs) - 1
    for i in range(1, last):
        acc = float(f32(xs[i] * ys[i] + acc))
    return array(xs[last] * ys[last] + acc, _F32)


# numpy >= 2 keeps a numpy float32's dtype times a Python float (NEP 50): `one * v` rounds v to
# float32 as np.float32(v) does, in a fraction of the constructor's time (numpy 1.x: the constructor)
_TO_F32 = np.float32(1).__mul__ if type(np.float32(1) * 0.5) is np.float32 else np.float32


def _vector_dot2(x, y, f32=_TO_F32):
    # _vector_dot for two terms (a two-parameter model's kinetic energy, U-turn checks), written
    # out: one float32 product, then the second product added to it in a double, rounded once
    x0, x1 = x.tolist()
    y0, y1 = y.tolist()
    return f32(x1 * y1 + float(f32(x0 * y0)))


def small_dot(x_shape, y_shape, x_dtype, y_dtype, dimension_numbers, preferred_element_type=None):
    """A function (x, y) -> XLA's product for the shapes above, or None where numpy's stands."""
    if x_dtype != _F32 or y_dtype != _F32:
        return None
    if preferred_element_type is not None and np.dtype(preferred_element_type) != _F32:
        return None
    (lc, rc), (lb, rb) = dimension_numbers
    if lb or rb or len(lc) != 1 or len(x_shape) > 2 or len(y_shape) > 2:
        return None
    if len(x_shape) == 2 and len(y_shape) == 2:
        return None   # matrix . matrix: not measured (4x4 @ 4x4 already differs from a chain)
    lc, rc = lc[0], rc[0]
    k = x_shape[lc]
    if k < 2:
        return None   # a one-term contraction is the product path
    if len(x_shape) == 1 and len(y_shape) == 1:
        if k > _VECVEC_MAX_K:
            return None
        return _vector_dot2 if k == 2 else _vector_dot
    if k > _MATVEC_MAX_K:
        return None
    if len(y_shape) == 1:   # matrix . vector: rows are x's (m, k) or its transpose
        if lc == 1:
            return lambda x, y: _chain(x, y)
        return None if _other_kernel(x_shape[1], k) else (lambda x, y: _chain(x.T, y))
    # vector . matrix
    if rc == 1:             # y is (n, k): each row dotted with x
        return lambda x, y: _chain(y, x)
    return None if _other_kernel(y_shape[1], k) else (lambda x, y: _chain(y.T, x))


def _other_kernel(n, k) -> bool:
    # a contraction over the matrix's first axis with 2 or more than 8 outputs: XLA takes a
    # kernel that is not one chain per output (measured: about half the results differ)
    return (n == 2 or n > 8) and k > 2
