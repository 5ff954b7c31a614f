"""jax.scipy.linalg's structured matrices and matrix functions that issue 11 (area "special")
adds: convolution_matrix, fiedler, fiedler_companion, invhilbert, invpascal, expm_frechet,
solve_sylvester, eigh_tridiagonal, qr_multiply, hessenberg, schur, rsf2csf, sqrtm, funm."""
from __future__ import annotations

import functools
import operator

import numpy as np

from ...base import dtypes
from ...lax import lax
from .. import numpy as jnp
from ...tracing.tracing import get_aval


def _default_float():
    return dtypes.canonicalize_dtype(np.float64)


# ---- structured matrices -----------------------------------------------------------------------

def fiedler(a):
    """|a_i - a_j| (batched over leading axes)."""
    arr = jnp.atleast_1d(jnp.asarray(a))
    return jnp.abs(arr[..., None] - arr[..., None, :])


def _fiedler_companion_1d(a):
    """Fiedler's pentadiagonal companion of the monic polynomial a / a[0] (scipy's layout): the
    first column holds -a1 over 1; even rows i carry -a_{i+2} right of the diagonal and 1 two to
    the right; rows i >= 2 carry -a_{i+1} (even i) or 1 (odd i >= 3) left of it."""
    n = get_aval(a).shape[0] - 1
    if n == 0:
        return jnp.zeros((0, 0), a.dtype)
    a = a / a[0]
    if n == 1:
        return -a[1:].reshape(1, 1)
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    even, odd = i % 2 == 0, i % 2 == 1
    right = -a[np.minimum(i + 2, n)]
    left = -a[np.minimum(i + 1, n)]
    one = jnp.ones((), a.dtype)
    out = jnp.zeros((n, n), a.dtype)
    out = jnp.where((j == i + 1) & even, right, out)
    out = jnp.where((j == i + 2) & even, one, out)
    out = jnp.where((j == i - 1) & even & (i >= 2), left, out)
    out = jnp.where((j == i - 2) & odd & (i >= 3), one, out)
    out = jnp.where((i == 0) & (j == 0), -a[1], out)
    out = jnp.where((i == 1) & (j == 0), one, out)
    return out


def fiedler_companion(a):
    (a,) = jnp._promote_args_inexact("fiedler_companion", a)
    a = jnp.atleast_1d(a)
    if a.shape[-1] == 0:
        raise ValueError("fiedler_companion requires the last axis of 'a' to have nonzero "
                         f"length, but got an array of shape {a.shape}.")
    return jnp.vectorize(_fiedler_companion_1d, signature="(n)->(m,m)")(a)


def convolution_matrix(a, n, mode="full"):
    """The Toeplitz matrix A with A @ v == np.convolve(a, v, mode) for v of length n."""
    from .linalg import toeplitz
    n = operator.index(n)
    if n <= 0:
        raise ValueError(f"n must be a positive integer; got {n}.")
    a = jnp.asarray(a)
    if a.ndim == 0:
        raise ValueError("convolution_matrix: a must be at least 1-dimensional, got a scalar.")
    m = a.shape[-1]
    if m < 1:
        raise ValueError(f"len(a) must be at least 1; got shape {a.shape}.")
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"mode must be one of 'full', 'valid', 'same'; got {mode!r}.")
    trim = min(n, m) - 1
    lead, tail = {"full": (0, 0), "valid": (trim, trim), "same": (trim // 2, trim - trim // 2)}[mode]
    length = m + n - 1
    pad = [(0, 0)] * (a.ndim - 1) + [(0, n - 1)]
    column = jnp.pad(a, pad)[..., lead:length - tail]
    row = jnp.pad(jnp.flip(a, axis=-1), pad)[..., length - n - lead:length - lead]
    return jnp.vectorize(toeplitz, signature="(k),(n)->(k,n)")(column, row)


def _binomial(n, k):
    """C(n, k) through lgamma (0 where k > n: lgamma's pole gives exp(-inf))."""
    return lax.exp(lax.lgamma(n + 1.0) - lax.lgamma(n - k + 1.0) - lax.lgamma(k + 1.0))


def invhilbert(n):
    """The exact inverse of the n x n Hilbert matrix (integers, in the default float dtype)."""
    from .special import comb
    a = jnp.arange(n, dtype=_default_float())
    i, j = a[:, None], a[None, :]
    s = i + j
    return ((-1.0) ** s * (s + 1.0) * comb(n + i, n - j - 1) * comb(n + j, n - i - 1) * comb(s, i) ** 2)


def invpascal(n, kind=None):
    """Inverse Pascal matrix: lower (-1)^(i-j) C(i, j), its transpose, or their product."""
    kind = "symmetric" if kind is None else kind
    kinds = ["symmetric", "lower", "upper"]
    if kind not in kinds:
        raise ValueError(f"Expected kind to be one of: {kinds}; got {kind}")
    a = jnp.arange(n, dtype=_default_float())
    i, j = a[:, None], a[None, :]
    lower = ((-1.0) ** (i - j)) * _binomial(i, j)
    if kind == "lower":
        return lower
    if kind == "upper":
        return lower.T
    return jnp.dot(lower.T, lower)


# ---- matrix functions and equations ------------------------------------------------------------

def expm_frechet(A, E, *, method=None, compute_expm=True):
    """(expm(A), L(A, E)), L the Frechet derivative of expm at A in direction E: the upper-right
    block of expm([[A, E], [0, A]]) (a block identity; JAX's `method` names the algorithm only)."""
    from .linalg import expm
    A, E = jnp._promote_dtypes_inexact(jnp.asarray(A), jnp.asarray(E))
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"expected A to be a square matrix, got shape {A.shape}")
    if E.shape != A.shape:
        raise ValueError(f"expected E to have the shape of A, {A.shape}, got {E.shape}")
    n = A.shape[0]
    block = jnp.concatenate([jnp.concatenate([A, E], axis=1),
                             jnp.concatenate([jnp.zeros_like(A), A], axis=1)], axis=0)
    big = expm(block)
    expm_a, frechet = big[:n, :n], big[:n, n:]
    return (expm_a, frechet) if compute_expm else frechet


def solve_sylvester(A, B, C, *, method="schur", tol=1e-8):
    """X with A X + X B = C, through the Kronecker form (I (x) A + B^T (x) I) vec(X) = vec(C)
    (column-major vec). Where A and -B share an eigenvalue there is no unique solution: nan,
    as JAX returns."""
    if method not in ("schur", "eigen"):
        raise ValueError(f'Unrecognized method {method}. The two valid methods are either "schur" or "eigen".')
    A, B, C = jnp._promote_dtypes_inexact(jnp.asarray(A), jnp.asarray(B), jnp.asarray(C))
    m, n = C.shape
    kron = jnp.kron(jnp.eye(n, dtype=A.dtype), A) + jnp.kron(B.T, jnp.eye(m, dtype=A.dtype))
    # the smallest singular value of the Kronecker operator measures how close to singular it is
    smallest = jnp.min(jnp.linalg.svd(kron, compute_uv=False))
    singular = smallest < tol * jnp.maximum(1.0, jnp.max(jnp.abs(kron)))
    safe = jnp.where(singular, jnp.eye(m * n, dtype=A.dtype), kron)   # (solve must not see the singular one)
    x = jnp.linalg.solve(safe, C.T.reshape(-1)).reshape(n, m).T
    return jnp.where(singular, jnp.nan, x).astype(x.dtype)


def eigh_tridiagonal(d, e, *, eigvals_only=False, select="a", select_range=None, tol=None, key=None):
    """Eigenvalues (ascending) and optionally eigenvectors of the symmetric tridiagonal matrix with
    diagonal d and off-diagonal e; select='i' keeps indices select_range[0]..[1] inclusive."""
    d, e = jnp._promote_dtypes_inexact(jnp.asarray(d), jnp.asarray(e))
    if select == "v":
        raise NotImplementedError("eigh_tridiagonal(..., select='v') is not implemented")
    if select not in ("a", "i"):
        raise ValueError(f"Invalid select value {select!r}; expected one of 'a', 'v', 'i'")
    n = d.shape[0]
    if e.shape[0] != n - 1:
        raise ValueError(f"e must have length len(d) - 1 = {n - 1}, got {e.shape[0]}")
    dense = jnp.diag(d) + jnp.diag(e, 1) + jnp.diag(jnp.conj(e), -1)
    w, v = jnp.linalg.eigh(dense)
    if select == "i":
        lo, hi = (int(i) for i in select_range)
        w, v = w[lo:hi + 1], v[:, lo:hi + 1]
    return w if eigvals_only else (w, v)


def qr_multiply(a, c, mode="right", pivoting=False, conjugate=False, overwrite_a=False, overwrite_c=False):
    """(c @ Q or Q @ c, R) from the economic QR of a; conjugate uses Q's conjugate."""
    if pivoting:
        raise NotImplementedError("qr_multiply with pivoting=True is not supported by gradpad")
    if mode not in ("right", "left"):
        raise ValueError(f"mode must be 'right' or 'left', got {mode!r}")
    a, c = jnp._promote_dtypes_inexact(jnp.asarray(a), jnp.asarray(c))
    q, r = jnp.linalg.qr(a, mode="reduced")
    if conjugate:
        q = jnp.conj(q)
    one_d = c.ndim == 1
    c2 = c[None, :] if (one_d and mode == "right") else (c[:, None] if one_d else c)
    out = c2 @ q if mode == "right" else q @ c2
    return (out.reshape(-1) if one_d else out), r


def hessenberg(a, *, calc_q=False, overwrite_a=False, check_finite=True):
    """Upper Hessenberg H = Q^H a Q by Householder reflections with LAPACK's sign convention
    (the subdiagonal entry of column k becomes -sign(alpha) ||x||), so H and Q are LAPACK's."""
    (a,) = jnp._promote_dtypes_inexact(jnp.asarray(a))
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"hessenberg expects a square matrix, got shape {a.shape}")
    n = a.shape[0]
    h = a
    q = jnp.eye(n, dtype=a.dtype)
    for k in range(n - 2):
        x = h[k + 1:, k]
        alpha = x[0]
        norm = jnp.sqrt(jnp.sum(jnp.abs(x) ** 2))
        tail_zero = jnp.all(x[1:] == 0)
        phase = jnp.where(alpha == 0, 1.0, alpha / jnp.where(alpha == 0, 1.0, jnp.abs(alpha))).astype(a.dtype)
        beta = -phase * norm
        v = x.at[0].add(-beta)
        vnorm2 = jnp.sum(jnp.abs(v) ** 2)
        scale = jnp.where(tail_zero | (vnorm2 == 0), 0.0, 2.0 / jnp.where(vnorm2 == 0, 1.0, vnorm2)).astype(a.dtype)
        full_v = jnp.concatenate([jnp.zeros(k + 1, a.dtype), v])
        # H <- P H P with P = I - scale v v^H (Hermitian, so P^H = P)
        h = h - scale * jnp.outer(full_v, jnp.conj(full_v) @ h)
        h = h - scale * jnp.outer(h @ full_v, jnp.conj(full_v))
        q = q - scale * jnp.outer(q @ full_v, jnp.conj(full_v))
        h = h.at[k + 2:, k].set(0)
    return (h, q) if calc_q else h


# ---- matrix functions through the eigendecomposition -------------------------------------------

def _eig(a):
    # right eigenvectors only (JAX's sqrtm/funm go through schur, which grad refuses; eig's
    # eigenvector jvp refuses too)
    from ...lax.lax_linalg import eig
    return eig(a, compute_left_eigenvectors=False)


def _square_float_matrix(name, A):
    (A,) = jnp._promote_dtypes_inexact(jnp.asarray(A))
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square array_like input, got shape {A.shape}" if name == "funm"
                         else f"{name} expects a square matrix, got shape {A.shape}")
    return A


def _apply_to_eigenvalues(A, f):
    """V f(diag w) V^-1 (always complex, as JAX's Schur-based results): for diagonalizable A
    this is the same matrix function the Schur-Parlett recurrence computes."""
    w, v = _eig(A)
    return jnp.linalg.solve(v.T, (v * f(w)[None, :]).T).T


def sqrtm(A, blocksize=1):
    """The principal square root (complex dtype, as JAX's)."""
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    A = _square_float_matrix("sqrtm", A)
    return _apply_to_eigenvalues(A, jnp.sqrt)


def funm(A, func, disp=True):
    """func(A) for a scalar function func applied to A's eigenvalues (complex dtype, as JAX's)."""
    A = _square_float_matrix("funm", A)
    if not disp:
        raise NotImplementedError("funm(..., disp=False) (the Schur-Parlett error estimate) is not supported by "
                                  "gradpad; call it with disp=True")
    return _apply_to_eigenvalues(A, func)


def _rsf2csf_2d(T, Z):
    """Givens rotations from the bottom up: each 2x2 diagonal block with a nonzero subdiagonal
    (a complex-conjugate eigenvalue pair) is rotated to upper triangular with the eigenvalue of
    positive imaginary part first (LAPACK's order for a standardised block)."""
    n = T.shape[0]
    eps = float(dtypes.finfo(T.dtype).eps)
    for m in range(n - 1, 0, -1):
        a, b, c, d = T[m - 1, m - 1], T[m - 1, m], T[m, m - 1], T[m, m]
        half_trace = (a + d) / 2
        root = jnp.sqrt(((a - d) / 2) ** 2 + b * c)      # complex sqrt: +i first for a complex pair
        mu = half_trace + root - d
        r = jnp.sqrt(jnp.abs(mu) ** 2 + jnp.abs(c) ** 2).astype(T.dtype)
        rotate = jnp.abs(c) > eps * (jnp.abs(a) + jnp.abs(d))
        cs = jnp.where(rotate, mu / jnp.where(rotate, r, 1), 1).astype(T.dtype)
        sn = jnp.where(rotate, c / jnp.where(rotate, r, 1), 0).astype(T.dtype)
        G = jnp.stack([jnp.stack([jnp.conj(cs), sn]), jnp.stack([-sn, cs])])
        T = T.at[m - 1:m + 1, m - 1:].set(G @ T[m - 1:m + 1, m - 1:])
        T = T.at[:m + 1, m - 1:m + 1].set(T[:m + 1, m - 1:m + 1] @ jnp.conj(G).T)
        Z = Z.at[:, m - 1:m + 1].set(Z[:, m - 1:m + 1] @ jnp.conj(G).T)
        T = T.at[m, m - 1].set(0)
    return T, Z


def rsf2csf(T, Z, check_finite=True):
    """A real Schur form (T, Z) to the complex one (upper-triangular T, unitary Z)."""
    T, Z = jnp.asarray(T), jnp.asarray(Z)
    if T.ndim < 2 or T.shape[-1] != T.shape[-2]:
        raise ValueError("Input 'T' must be square.")
    if Z.ndim < 2 or Z.shape[-1] != Z.shape[-2]:
        raise ValueError("Input 'Z' must be square.")
    if T.shape[-1] != Z.shape[-1]:
        raise ValueError(f"Input array shapes must match: Z: {Z.shape} vs. T: {T.shape}")
    T, Z = jnp._promote_dtypes_inexact(T, Z)
    complex_dtype = jnp.result_type(T.dtype, np.complex64)
    T, Z = T.astype(complex_dtype), Z.astype(complex_dtype)
    if T.shape[-1] == 1:
        return T, Z
    return jnp.vectorize(_rsf2csf_2d, signature="(n,n),(n,n)->(n,n),(n,n)")(T, Z)


# ---- schur (issue 11, special2) -------------------------------------------------------------------

def _schur(a, output):
    from ...lax.lax_linalg import schur as lax_schur
    if output == "complex":
        a = a.astype(np.result_type(a.dtype, np.complex64))   # float16 -> complex64, as JAX
    return lax_schur(a)


def schur(a, output="real"):
    """(T, Z) with a = Z T Z^H: T quasi-upper-triangular ('real', 2x2 blocks for complex pairs)
    or upper-triangular ('complex'), as LAPACK's gees computes them on JAX's CPU."""
    if output not in ("real", "complex"):
        raise ValueError(f"Expected 'output' to be either 'real' or 'complex', got {output=}.")
    return _schur_jitted()(a, output)


@functools.lru_cache(maxsize=None)
def _schur_jitted():
    # one jitted function for every call, so its trace cache is reused (as JAX's module-level jit)
    from ...api.api import jit  # INHERENT: up to the api
    return jit(_schur, static_argnames=("output",))
