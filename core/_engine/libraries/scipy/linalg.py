"""`jax.scipy.linalg`: SciPy's conventions (cholesky upper by default, lu returns P, L, U) over
the decomposition primitives of core/_engine/primitives/linalg.py, and the special-matrix constructors
written with jnp gathers, so grad, jit and vmap compose."""
from __future__ import annotations

import math

import numpy as np

from .. import numpy as jnp
from ..numpy import linalg as _nla
from ...primitives import linalg as _la
from ...tracing.tracing import get_aval


# ---- decompositions and solvers ------------------------------------------------------------

def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    return _nla.cholesky(a, upper=not lower)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    return cholesky(a, lower=lower), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    c, lower = c_and_lower
    c, b = jnp._promote_dtypes_inexact(jnp.asarray(c), jnp.asarray(b))
    vector = get_aval(b).ndim == get_aval(c).ndim - 1
    if vector:
        b = b[..., None]
    # c c^H = a (lower) or c^H c = a (upper): two triangular solves
    y = _la.triangular_solve(c, b, left_side=True, lower=lower, transpose_a=not lower, conjugate_a=not lower)
    x = _la.triangular_solve(c, y, left_side=True, lower=lower, transpose_a=lower, conjugate_a=lower)
    return x[..., 0] if vector else x


def lu_factor(a, overwrite_a=False, check_finite=True):
    (a,) = jnp._promote_dtypes_inexact(jnp.asarray(a))
    lu_, pivots, _ = _la.lu(a)
    return lu_, pivots


def lu(a, permute_l=False, overwrite_a=False, check_finite=True):
    (a,) = jnp._promote_dtypes_inexact(jnp.asarray(a))
    lu_, _, perm = _la.lu(a)
    aval = get_aval(a)
    m, n = aval.shape[-2:]
    k = min(m, n)
    l_ = jnp.tril(lu_[..., :, :k], -1) + jnp.eye(m, k, dtype=aval.dtype)
    u = jnp.triu(lu_[..., :k, :])
    # rows of a were permuted by perm: a[perm] = l u, so a = p l u with p[perm[i], i] = 1
    p = jnp.swapaxes(jnp.eye(m, dtype=aval.dtype)[perm], -1, -2)
    return (jnp.matmul(p, l_), u) if permute_l else (p, l_, u)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    lu_, pivots = lu_and_piv
    lu_, b = jnp._promote_dtypes_inexact(jnp.asarray(lu_), jnp.asarray(b))
    m = get_aval(lu_).shape[-1]
    perm = jnp.arange(m)
    for i in range(get_aval(pivots).shape[-1]):   # LAPACK's row swaps, applied in order
        j = pivots[..., i]
        pi, pj = perm[i], perm[j]
        perm = perm.at[i].set(pj).at[j].set(pi)
    vector = get_aval(b).ndim == 1
    if vector:
        b = b[:, None]
    if trans == 0:
        x = _la.triangular_solve(lu_, b[perm], left_side=True, lower=True, unit_diagonal=True)
        x = _la.triangular_solve(lu_, x, left_side=True, lower=False)
    elif trans in (1, 2):
        conj = trans == 2
        x = _la.triangular_solve(lu_, b, left_side=True, lower=False, transpose_a=True, conjugate_a=conj)
        x = _la.triangular_solve(lu_, x, left_side=True, lower=True, unit_diagonal=True, transpose_a=True,
                                 conjugate_a=conj)
        x = jnp.zeros_like(x).at[perm].set(x)
    else:
        raise ValueError(f"'trans' value must be 0, 1, or 2, got {trans}")
    return x[:, 0] if vector else x


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, debug=None,
                     check_finite=True):
    a, b = jnp._promote_dtypes_inexact(jnp.asarray(a), jnp.asarray(b))
    transpose, conj = {0: (False, False), "N": (False, False), 1: (True, False), "T": (True, False),
                       2: (True, True), "C": (True, True)}[trans]
    vector = get_aval(b).ndim == get_aval(a).ndim - 1
    if vector:
        b = b[..., None]
    x = _la.triangular_solve(a, b, left_side=True, lower=lower, transpose_a=transpose, conjugate_a=conj,
                             unit_diagonal=unit_diagonal)
    return x[..., 0] if vector else x


def det(a, overwrite_a=False, check_finite=True):
    return _nla.det(a)


def inv(a, overwrite_a=False, check_finite=True):
    return _nla.inv(a)


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, debug=False, check_finite=True,
          assume_a="gen"):
    if assume_a not in ("gen", "sym", "her", "pos"):
        raise ValueError(f"Expected assume_a to be one of {'gen', 'sym', 'her', 'pos'}; got {assume_a!r}")
    return _nla.solve(a, b)


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    out = _nla.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)
    return tuple(out) if compute_uv else out


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False, check_finite=True):
    if pivoting:
        raise NotImplementedError("qr(pivoting=True) is not supported by gradpad")
    modes = {"full": "complete", "economic": "reduced", "r": "r"}
    if mode not in modes:
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    if mode == "r":
        r = _nla.qr(a, mode="complete")[1]
        return (r,)
    return tuple(_nla.qr(a, mode=modes[mode]))


def eigh(a, b=None, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False, turbo=True,
         eigvals=None, type=1, check_finite=True):
    if b is not None:
        raise NotImplementedError("Only the b=None case of eigh is implemented")
    w, v = _nla.eigh(a, UPLO="L" if lower else "U")
    return w if eigvals_only else (w, v)


def polar(a, side="right", *, method="svd", eps=None, max_iterations=None):
    if method != "svd":
        raise NotImplementedError(f"polar(method={method!r}) is not supported by gradpad; use method='svd'")
    u, s, vh = _nla.svd(a, full_matrices=False)
    unitary = jnp.matmul(u, vh)
    s = s.astype(get_aval(u).dtype)
    if side == "right":
        posdef = jnp.matmul(jnp.conj(vh).T * s, vh)
    elif side == "left":
        posdef = jnp.matmul(u * s, jnp.conj(u).T)
    else:
        raise ValueError(f"side={side!r} is not understood")
    return unitary, posdef


def expm(A, *, upper_triangular=False, max_squarings=16):
    """Scaling and squaring: exp(A) = exp(A / 2^s)^(2^s), exp of the small matrix by its degree-18
    Taylor polynomial (Horner form); s = ceil(log2(|A|_1 / 0.25)), at most max_squarings. A traced A
    squares max_squarings times and keeps only the first s results (selects, so grad works)."""
    (A,) = jnp._promote_dtypes_inexact(jnp.asarray(A))
    aval = get_aval(A)
    if aval.ndim < 2 or aval.shape[-1] != aval.shape[-2]:
        raise ValueError(f"expected A to be a square matrix, got shape {aval.shape}")
    norm = jnp.max(jnp.sum(jnp.abs(A), axis=-2), axis=-1, initial=0)
    s = jnp.clip(jnp.ceil(jnp.log2(jnp.maximum(norm, 1e-30) / 0.25)), 0, max_squarings)
    X = A / (2.0 ** s)[..., None, None].astype(aval.dtype)
    n = aval.shape[-1]
    eye = jnp.broadcast_to(jnp.eye(n, dtype=aval.dtype), aval.shape)
    out = eye
    for k in range(18, 0, -1):
        out = eye + jnp.matmul(X, out) / k
    from ...tracing.tracing import Tracer
    # (a NaN norm, from a NaN in A, gives a NaN s: X is NaN already and JAX squares nothing more)
    steps = max_squarings if isinstance(s, Tracer) else int(np.max(np.nan_to_num(np.asarray(s._value)), initial=0))
    for i in range(steps):
        out = jnp.where((i < s)[..., None, None], jnp.matmul(out, out), out)
    return out


# ---- special matrices ----------------------------------------------------------------------

def _index_matrix(vals, idx):
    return jnp.take(vals, jnp.asarray(idx.astype(np.int32)), axis=-1)


def toeplitz(c, r=None):
    # as JAX's: leading axes of c and r are batch axes (broadcast together), never raveled
    jnp._check_arraylike("toeplitz", c) if r is None else jnp._check_arraylike("toeplitz", c, r)
    c = jnp.atleast_1d(jnp.asarray(c))
    r = jnp.conj(c) if r is None else jnp.atleast_1d(jnp.asarray(r))
    c, r = jnp._promote_dtypes(c, r)
    batch = jnp.broadcast_shapes(get_aval(c).shape[:-1], get_aval(r).shape[:-1])
    c = jnp.broadcast_to(c, batch + get_aval(c).shape[-1:])
    r = jnp.broadcast_to(r, batch + get_aval(r).shape[-1:])
    m, n = get_aval(c).shape[-1], get_aval(r).shape[-1]
    if m == 0 or n == 0:
        return jnp.empty(batch + (m, n), get_aval(c).dtype)
    vals = jnp.concatenate([jnp.flip(r[..., 1:], -1), c], axis=-1)   # r reversed (without r[0]), then c
    idx = (n - 1) + np.arange(m)[:, None] - np.arange(n)[None, :]
    # JAX's result comes out of a convolution: never weakly typed, and -0.0 parts summed to +0.0
    return _index_matrix(vals, idx) + jnp.zeros((), get_aval(vals).dtype)


def hankel(c, r=None):
    c = jnp.asarray(c)
    if r is None:
        r = jnp.zeros_like(c)
    c, r = jnp._promote_dtypes(c, jnp.asarray(r))
    m, n = get_aval(c).shape[-1], get_aval(r).shape[-1]
    vals = jnp.concatenate([c, r[..., 1:]], axis=-1)
    return _index_matrix(vals, np.arange(m)[:, None] + np.arange(n)[None, :])


def circulant(c):
    c = jnp.asarray(c)
    n = get_aval(c).shape[-1]
    return _index_matrix(c, (np.arange(n)[:, None] - np.arange(n)[None, :]) % n)


def companion(a):
    a = jnp.asarray(a)
    if get_aval(a).ndim != 1:
        raise ValueError("Incorrect shape for `a`.  `a` must be one-dimensional.")
    n = get_aval(a).shape[0]
    if n < 2:
        raise ValueError("The length of `a` must be at least 2.")
    first_row = -a[1:] / (1.0 * a[0])
    return jnp.concatenate([first_row[None, :], jnp.eye(n - 2, n - 1, dtype=get_aval(first_row).dtype)], axis=0)


def hilbert(n):
    i = np.arange(n)
    return jnp.asarray(1.0 / (i[:, None] + i[None, :] + 1), dtype=jnp.float32 if not _x64() else jnp.float64)


def _x64():
    from ...base.config import config
    return bool(config.jax_enable_x64)


def block_diag(*arrs):
    if not arrs:
        return jnp.zeros((1, 0))
    arrs = jnp._promote_dtypes(*[jnp.atleast_2d(jnp.asarray(a)) for a in arrs])
    cols = sum(get_aval(a).shape[1] for a in arrs)
    rows, start = [], 0
    for a in arrs:
        h, w = get_aval(a).shape
        rows.append(jnp.pad(a, [(0, 0), (start, cols - start - w)]))
        start += w
    return jnp.concatenate(rows, axis=0)


def pascal(n, kind="symmetric", exact=True):
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError(f"Expected kind to be 'symmetric', 'lower', or 'upper'; got {kind}")
    i = np.arange(n)
    lower = np.array([[math.comb(int(a), int(b)) for b in i] for a in i], dtype=np.float64)
    m = {"lower": lower, "upper": lower.T, "symmetric": lower @ lower.T}[kind]
    return jnp.asarray(m.astype(np.float64 if _x64() else np.float32))


def hadamard(n, dtype=int):
    if n < 1 or n & (n - 1):
        raise ValueError("n must be an positive a power of 2 integer")
    h = np.ones((1, 1), dtype=np.int64)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return jnp.asarray(h, dtype=dtype)


def dft(n, scale=None):
    k = np.arange(n)
    m = np.exp(-2j * np.pi * np.outer(k, k) / n)
    if scale == "sqrtn":
        m = m / np.sqrt(n)
    elif scale == "n":
        m = m / n
    elif scale is not None:
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; {scale!r} is not valid.")
    return jnp.asarray(m.astype(np.complex128 if _x64() else np.complex64))


def helmert(n, full=False):
    h = np.tril(np.ones((n, n)), -1) - np.diag(np.arange(n))
    d = np.arange(n) * np.arange(1, n + 1)
    h[0] = 1
    d[0] = n
    out = h / np.sqrt(d)[:, None]
    out = out if full else out[1:]
    return jnp.asarray(out.astype(np.float64 if _x64() else np.float32))


def leslie(f, s):
    f, s = jnp._promote_dtypes_inexact(jnp.asarray(f), jnp.asarray(s))
    n = get_aval(f).shape[-1]
    if get_aval(s).shape[-1] != n - 1:
        raise ValueError(f"Incorrect lengths for f and s. The length of s along the last axis must be one less "
                         f"than the length of f; got f.shape={get_aval(f).shape}, s.shape={get_aval(s).shape}")
    sub = jnp.pad(jnp.diag(s), [(0, 0), (0, 1)])
    return jnp.concatenate([f[None, :], sub], axis=0)


# ---- issue 11, area "special": structured matrices and matrix functions ---------------------------
from ._linalg_more import (convolution_matrix, fiedler, fiedler_companion, invhilbert,  # noqa: E402,F401
                           invpascal, expm_frechet, solve_sylvester, eigh_tridiagonal, qr_multiply,
                           hessenberg, sqrtm, funm, rsf2csf)
# ---- end of area "special" ------------------------------------------------------------------------

# ---- schur (issue 11, special2)
from ._linalg_more import schur  # noqa: E402,F401
