"""Matrix decompositions as primitives, named as in JAX's `lax.linalg`: `lu`, `triangular_solve`,
`cholesky`, `eigh`. Each acts on the last two axes (leading axes are a batch, which numpy's
linalg routines broadcast over), has a numpy impl and a batching rule here, and a jvp rule in
core/_engine/libraries/numpy/_linalg_jvp.py (written with jnp, as JAX's are: that module says why);
`triangular_solve` is linear in its right-hand side and has a transpose rule.
`jax.numpy.linalg` builds solve, inv, det, slogdet, cholesky and eigh on them."""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, transpose_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from ..transforms.batching import moveaxis
from . import define


def _lax():
    from ..lax import lax  # INHERENT: up to lax
    return lax


def _no_bfloat16(dtype):
    """JAX's CPU linear algebra (LAPACK) has no bfloat16 kernels: it raises, and so do we (the
    emulated bfloat16's storage would otherwise pass for float32)."""
    if dtype == dtypes.bf16:
        raise NotImplementedError(KeyError(dtypes.bfloat16), "Unsupported dtype bfloat16.")  # (JAX's args)


def _square_check(name, aval):
    if aval.ndim < 2 or aval.shape[-1] != aval.shape[-2]:
        raise ValueError(f"Argument to {name} must have shape [..., n, n], got shape {aval.shape}")
    _no_bfloat16(aval.dtype)
    if aval.dtype.kind not in "fc":
        raise TypeError(f"{name} requires a floating-point matrix, got {aval.dtype.name}; cast it with "
                        f"x.astype(jnp.float32)")


def _batch_front(vals, dims, size):
    """Batched operands with the batch axis first; unbatched ones broadcast to it."""
    out = []
    for v, d in zip(vals, dims):
        if d is None:
            aval = get_aval(v)
            out.append(_lax().broadcast_in_dim(v, (size, *aval.shape), tuple(range(1, aval.ndim + 1))))
        else:
            out.append(moveaxis(v, d, 0))
    return out


def _swap(x):
    """Transpose of the last two axes."""
    n = get_aval(x).ndim
    return _lax().transpose(x, (*range(n - 2), n - 1, n - 2))


def _lower_part(x):
    """x's lower triangle, zeros above (what JAX's cholesky stages: iota, ge, select_n)."""
    lax = _lax()
    aval = get_aval(x)
    shape, nd = aval.shape, aval.ndim
    rows = lax.add(lax.broadcasted_iota(np.int32, shape, nd - 2), np.int32(0))
    keep = lax.ge(rows, lax.broadcasted_iota(np.int32, shape, nd - 1))
    return lax.select(keep, x, lax.full(shape, 0, aval.dtype))


def _conj(x):
    return _lax().conj(x) if get_aval(x).dtype.kind == "c" else x


def _adj(x):
    """The conjugate transpose of the last two axes."""
    return _conj(_swap(x))


def _symmetrize(x):
    """(x + x^H) / 2: what cholesky and eigh read when asked to symmetrize their input."""
    return _lax().div(_lax().add(x, _adj(x)), _lax()._const(x, 2.0))


# ---- triangular_solve ------------------------------------------------------------------------
# op(a) x = b (left_side) or x op(a) = b, where op(a) is a, a^T or a^H and only the `lower` (or
# upper) triangle of a is read; unit_diagonal reads ones on the diagonal.

def _tri_abstract(a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise TypeError(f"triangular_solve requires a square matrix a, got shape {a.shape}")
    k = -2 if left_side else -1
    if b.ndim != a.ndim or b.shape[:-2] != a.shape[:-2] or b.shape[k] != a.shape[-1]:
        raise TypeError(f"triangular_solve: incompatible shapes a {a.shape} and b {b.shape} "
                        f"(left_side={left_side})")
    return ShapedArray(b.shape, b.dtype)


def _tri_matrix(a, lower, unit_diagonal, transpose_a, conjugate_a):
    t = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        n = a.shape[-1]
        t = t.copy()
        t[..., np.arange(n), np.arange(n)] = 1
    if conjugate_a:
        t = np.conj(t)
    return np.swapaxes(t, -1, -2) if transpose_a else t


def _tri_impl(a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    t = _tri_matrix(np.asarray(a), lower, unit_diagonal, transpose_a, conjugate_a)
    b = np.asarray(b)
    if b.size == 0:
        return np.zeros(b.shape, b.dtype)
    t_lower = lower != transpose_a   # the triangle t holds
    if left_side:
        x = _substitute(t, b, t_lower)
    else:  # x t = b  <=>  t^T x^T = b^T
        x = np.swapaxes(_substitute(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2), not t_lower), -1, -2)
    return x.astype(b.dtype)


def _substitute(t, b, lower):
    """x with t x = b for a triangular t, by forward (lower) or back substitution, row by row, as a
    triangular solver does (LAPACK's trsm, XLA's): an entry of x that the triangle makes zero stays
    exactly zero (the inverse of a lower-triangular matrix is lower triangular to the bit; a general
    LU solve left ~1e-18 above the diagonal, which numpyro's support checks read as out of support)."""
    n = t.shape[-1]
    x = np.zeros(b.shape, np.result_type(t.dtype, b.dtype))
    with np.errstate(all="ignore"):   # a zero (or denormal) on the diagonal: inf/nan, as JAX's, silently
        inv = (1 / np.diagonal(t, axis1=-2, axis2=-1)).astype(x.dtype)  # each row times its reciprocal, as trsm
    with np.errstate(all="ignore"):   # inf * 0 after a zero pivot: nan, silently, as JAX's
        for i in (range(n) if lower else range(n - 1, -1, -1)):
            done = slice(0, i) if lower else slice(i + 1, n)
            acc = b[..., i, :]
            if (i if lower else n - 1 - i):
                acc = acc - (t[..., i:i + 1, done] @ x[..., done, :])[..., 0, :]
            x[..., i, :] = acc * inv[..., i][..., None]
    return x


triangular_solve_p = define("triangular_solve", abstract_eval=_tri_abstract, impl=_tri_impl)


def triangular_solve(a, b, left_side=False, lower=False, transpose_a=False, conjugate_a=False,
                     unit_diagonal=False):
    return triangular_solve_p.bind(a, b, left_side=bool(left_side), lower=bool(lower),
                                   transpose_a=bool(transpose_a), conjugate_a=bool(conjugate_a),
                                   unit_diagonal=bool(unit_diagonal))


def _tri_transpose(ct, a, b, **p):
    # x = op(a)^-1 b is linear in b: its transpose solves with op(a)^T
    if type(ct) is ad.Zero:
        return [None, None]
    return [None, triangular_solve_p.bind(a, ct, **dict(p, transpose_a=not p["transpose_a"]))]


def _tri_batch(axis_data, vals, dims, **p):
    a, b = _batch_front(vals, dims, axis_data.size)
    return triangular_solve_p.bind(a, b, **p), 0


transpose_rules[triangular_solve_p] = _tri_transpose
batch_rules[triangular_solve_p] = _tri_batch


# ---- lu: a[perm] = l @ u with partial pivoting ------------------------------------------------

def _lu_abstract(a):
    if a.ndim < 2:
        raise ValueError(f"Argument to LU decomposition must have ndims >= 2, got shape {a.shape}")
    _no_bfloat16(a.dtype)
    if a.dtype.kind not in "fc":
        raise TypeError(f"lu requires a floating-point matrix, got {a.dtype.name}")
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    return [ShapedArray(a.shape, a.dtype), ShapedArray((*batch, min(m, n)), np.int32),
            ShapedArray((*batch, m), np.int32)]


def _lu_one(a):
    a = a.copy()
    m, n = a.shape
    k = min(m, n)
    pivots = np.zeros(k, np.int32)
    perm = np.arange(m, dtype=np.int32)
    for j in range(k):
        p = j + int(np.argmax(np.abs(a[j:, j])))
        pivots[j] = p
        if p != j:
            a[[j, p]] = a[[p, j]]
            perm[[j, p]] = perm[[p, j]]
        if a[j, j] != 0:
            a[j + 1:, j] /= a[j, j]
        a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    return a, pivots, perm


def _lu_impl(a):
    a = np.asarray(a)
    out = _lu_abstract(ShapedArray(a.shape, a.dtype))
    lu, piv, perm = (np.zeros(o.shape, o.dtype) for o in out)
    for idx in np.ndindex(*a.shape[:-2]):
        lu[idx], piv[idx], perm[idx] = _lu_one(a[idx])
    return [lu, piv, perm]


lu_p = define("lu", abstract_eval=_lu_abstract, impl=_lu_impl, multiple_results=True,
              weak_type_rule=lambda w: [False, False, False])


def lu(a):
    return tuple(lu_p.bind(a))


def _lu_batch(axis_data, vals, dims):
    return lu_p.bind(moveaxis(vals[0], dims[0], 0)), [0, 0, 0]


batch_rules[lu_p] = _lu_batch


# ---- cholesky ----------------------------------------------------------------------------------

def _chol_abstract(a):
    _square_check("cholesky", a)
    return ShapedArray(a.shape, a.dtype)


def _chol_impl(a):
    a = np.asarray(a)
    try:
        return np.linalg.cholesky(a).astype(a.dtype)
    except np.linalg.LinAlgError:
        # XLA returns NaNs for a matrix that is not positive definite
        return np.full(a.shape, np.nan, a.dtype)


cholesky_p = define("cholesky", abstract_eval=_chol_abstract, impl=_chol_impl)


def cholesky(x, *, symmetrize_input: bool = True):
    """The lower Cholesky factor of x (of (x + x^H) / 2 when symmetrize_input), as lax.linalg."""
    if symmetrize_input:
        x = _symmetrize(x)
    return _lower_part(cholesky_p.bind(x))


def _chol_batch(axis_data, vals, dims):
    return cholesky_p.bind(moveaxis(vals[0], dims[0], 0)), 0


batch_rules[cholesky_p] = _chol_batch


# ---- eigh: eigenvectors v and ascending eigenvalues w of a symmetric matrix ------------------

def _eigh_abstract(a, *, lower, sort_eigenvalues, subset_by_index, algorithm):
    _square_check("eigh", a)
    real = np.dtype(a.dtype.char.lower()) if a.dtype.kind == "c" else a.dtype
    return [ShapedArray(a.shape, a.dtype), ShapedArray(a.shape[:-1], real)]


def _eigh_impl(a, *, lower, sort_eigenvalues, subset_by_index, algorithm):
    a = np.asarray(a)
    real = np.dtype(a.dtype.char.lower()) if a.dtype.kind == "c" else a.dtype
    found = _scipy_syevd(a, lower)
    w, v = found if found is not None else np.linalg.eigh(a, UPLO="L" if lower else "U")
    return [v.astype(a.dtype), w.astype(real)]


def _scipy_syevd(a, lower):
    """(w, v) from the LAPACK that jaxlib's CPU kernels call: jaxlib takes its LAPACK routines from
    scipy's cython_lapack, so scipy's syevd/heevd gives JAX's eigenvectors, signs included. numpy's
    eigh runs the same algorithm from another OpenBLAS build, whose rounding can flip a vector's
    sign (a different, equally valid answer). None where scipy is missing (the page: numpy's)."""
    if a.dtype.kind not in "fc" or a.dtype.itemsize not in (4, 8, 16) or a.shape[-1] == 0:
        return None
    try:
        from scipy.linalg import lapack
    except ImportError:
        return None
    fn = lapack.get_lapack_funcs("heevd" if a.dtype.kind == "c" else "syevd", (a,))
    flat = a.reshape(-1, *a.shape[-2:])
    ws, vs = [], []
    for m in flat:
        w, v, info = fn(m, compute_v=1, lower=int(bool(lower)))
        if info != 0:
            return None
        ws.append(w)
        vs.append(v)
    return np.stack(ws).reshape(*a.shape[:-1]), np.stack(vs).reshape(a.shape)


def _eigh_pp(params):
    return sorted(params.items())


eigh_p = define("eigh", abstract_eval=_eigh_abstract, impl=_eigh_impl, multiple_results=True,
                weak_type_rule=lambda w, **p: [False, False], pp_params=_eigh_pp)


def eigh(a, lower=True, symmetrize_input=True, sort_eigenvalues=True, subset_by_index=None):
    if symmetrize_input:
        a = _symmetrize(a)
    v, w = eigh_p.bind(a, lower=bool(lower), sort_eigenvalues=bool(sort_eigenvalues),
                       subset_by_index=subset_by_index, algorithm=None)
    return v, w


def _eigh_batch(axis_data, vals, dims, **p):
    return eigh_p.bind(moveaxis(vals[0], dims[0], 0), **p), [0, 0]


batch_rules[eigh_p] = _eigh_batch


# ---- svd: a = u @ diag(s) @ vt, s descending -------------------------------------------------

def _real_dtype(dtype):
    dt = np.dtype(dtype)
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt


def _svd_abstract(a, *, full_matrices, compute_uv, subset_by_index, algorithm):
    if a.ndim < 2:
        raise ValueError(f"Argument to singular value decomposition must have ndims >= 2, got shape {a.shape}")
    _no_bfloat16(a.dtype)
    if a.dtype.kind not in "fc":
        raise TypeError(f"svd requires a floating-point matrix, got {a.dtype.name}")
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    s = ShapedArray((*batch, k), _real_dtype(a.dtype))
    if not compute_uv:
        return [s]
    u_cols, vt_rows = (m, n) if full_matrices else (k, k)
    return [s, ShapedArray((*batch, m, u_cols), a.dtype), ShapedArray((*batch, vt_rows, n), a.dtype)]


def _per_matrix_or_nan(decompose, a, *, finite_only=False):
    """decompose(a) (a tuple of arrays), or, where LAPACK through numpy gives up on a NaN (svd: "SVD
    did not converge") or refuses an inf or NaN (eig), each matrix of the batch on its own with
    NaN results for those that fail: JAX's LAPACK calls return NaNs there, raising nothing."""
    try:
        if finite_only and not np.isfinite(a).all():
            raise np.linalg.LinAlgError("not finite")
        return decompose(a)
    except np.linalg.LinAlgError:
        if a.ndim > 2:
            parts = [_per_matrix_or_nan(decompose, m, finite_only=finite_only) for m in a.reshape((-1,) + a.shape[-2:])]
            return tuple(np.stack([p[i] for p in parts]).reshape(a.shape[:-2] + parts[0][i].shape)
                         for i in range(len(parts[0])))
        shapes = decompose(np.zeros(a.shape, a.dtype))   # (the shapes and dtypes numpy gives)
        return tuple(np.full(o.shape, complex(np.nan, np.nan) if o.dtype.kind == "c" else np.nan, o.dtype)
                     for o in shapes)


def _svd_impl(a, *, full_matrices, compute_uv, subset_by_index, algorithm):
    a = np.asarray(a)
    if a.size and not np.isfinite(a).all():
        if not compute_uv:
            return [_per_matrix_or_nan(lambda m: (np.linalg.svd(m, compute_uv=False),), a)[0]
                    .astype(_real_dtype(a.dtype))]
        u, s, vt = _per_matrix_or_nan(lambda m: tuple(np.linalg.svd(m, full_matrices=full_matrices)), a)
        return [s.astype(_real_dtype(a.dtype)), u.astype(a.dtype), vt.astype(a.dtype)]
    if not compute_uv:
        return [np.linalg.svd(a, compute_uv=False).astype(_real_dtype(a.dtype))]
    u, s, vt = np.linalg.svd(a, full_matrices=full_matrices)
    return [s.astype(_real_dtype(a.dtype)), u.astype(a.dtype), vt.astype(a.dtype)]


svd_p = define("svd", abstract_eval=_svd_abstract, impl=_svd_impl, multiple_results=True,
               weak_type_rule=lambda w, **p: [False] * (3 if p["compute_uv"] else 1),
               pp_params=lambda params: sorted(params.items()))


def svd(a, full_matrices=True, compute_uv=True, subset_by_index=None):
    outs = svd_p.bind(a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv),
                      subset_by_index=subset_by_index, algorithm=None)
    return tuple(outs) if compute_uv else outs[0]


def _svd_batch(axis_data, vals, dims, **p):
    outs = svd_p.bind(moveaxis(vals[0], dims[0], 0), **p)
    return outs, [0] * len(outs)


batch_rules[svd_p] = _svd_batch


# ---- qr: a = q @ r -------------------------------------------------------------------------------

def _qr_abstract(a, *, full_matrices, pivoting, use_magma):
    if a.ndim < 2:
        raise ValueError(f"Argument to QR decomposition must have ndims >= 2, got shape {a.shape}")
    _no_bfloat16(a.dtype)
    if a.dtype.kind not in "fc":
        raise TypeError(f"qr requires a floating-point matrix, got {a.dtype.name}")
    m, n = a.shape[-2:]
    k = m if full_matrices else min(m, n)
    batch = a.shape[:-2]
    return [ShapedArray((*batch, m, k), a.dtype), ShapedArray((*batch, k, n), a.dtype)]


def _qr_impl(a, *, full_matrices, pivoting, use_magma):
    a = np.asarray(a)
    q, r = np.linalg.qr(a, mode="complete" if full_matrices else "reduced")
    return [q.astype(a.dtype), r.astype(a.dtype)]


qr_p = define("qr", abstract_eval=_qr_abstract, impl=_qr_impl, multiple_results=True,
              weak_type_rule=lambda w, **p: [False, False], pp_params=lambda params: sorted(params.items()))


def qr(a, full_matrices=True, pivoting=False, use_magma=None):
    return tuple(qr_p.bind(a, full_matrices=bool(full_matrices), pivoting=bool(pivoting), use_magma=use_magma))


def _qr_batch(axis_data, vals, dims, **p):
    return qr_p.bind(moveaxis(vals[0], dims[0], 0), **p), [0, 0]


batch_rules[qr_p] = _qr_batch


# ---- geqrf: QR as LAPACK stores it (Householder vectors below R's diagonal, and their taus) ----
# jnp.linalg.qr(mode='raw') is this, transposed. JAX defines no derivative for it.

def _geqrf_abstract(a):
    if a.ndim < 2:
        raise ValueError(f"Argument to QR decomposition must have ndims >= 2, got shape {a.shape}")
    _no_bfloat16(a.dtype)
    if a.dtype.kind not in "fc":
        raise TypeError(f"geqrf requires a floating-point matrix, got {a.dtype.name}")
    m, n = a.shape[-2:]
    return [ShapedArray(a.shape, a.dtype), ShapedArray((*a.shape[:-2], min(m, n)), a.dtype)]


def _geqrf_impl(a):
    a = np.asarray(a)
    h, tau = np.linalg.qr(a, mode="raw")  # numpy gives LAPACK's geqrf output transposed
    return [np.ascontiguousarray(np.swapaxes(h, -1, -2)).astype(a.dtype), tau.astype(a.dtype)]


geqrf_p = define("geqrf", abstract_eval=_geqrf_abstract, impl=_geqrf_impl, multiple_results=True,
                 weak_type_rule=lambda w, **p: [False, False])


def geqrf(a):
    return tuple(geqrf_p.bind(a))


batch_rules[geqrf_p] = lambda axis_data, vals, dims: (geqrf_p.bind(moveaxis(vals[0], dims[0], 0)), [0, 0])


# ---- eig: eigenvalues and right eigenvectors of a general square matrix (complex) ----------
# (added with jnp.linalg.eig/eigvals; LAPACK's geev through numpy, as JAX's CPU eig)

def _eig_abstract(a, *, compute_left_eigenvectors, compute_right_eigenvectors, enable_eigvec_derivs,
                  implementation):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"The input to eig must be a square matrix. Got shape {a.shape}.")
    complex_dtype = np.result_type(a.dtype, np.complex64)
    outs = [ShapedArray(a.shape[:-1], complex_dtype)]
    if compute_left_eigenvectors:
        outs.append(ShapedArray(a.shape, complex_dtype))
    if compute_right_eigenvectors:
        outs.append(ShapedArray(a.shape, complex_dtype))
    return outs


def _eig_impl(a, *, compute_left_eigenvectors, compute_right_eigenvectors, enable_eigvec_derivs,
              implementation):
    if compute_left_eigenvectors:
        raise NotImplementedError("eig with compute_left_eigenvectors=True is not available in gradpad "
                                  "(numpy's eig gives right eigenvectors only)")
    a = np.asarray(a)
    complex_dtype = np.result_type(a.dtype, np.complex64)
    w, v = (_per_matrix_or_nan(lambda m: tuple(o.astype(complex_dtype) for o in np.linalg.eig(m)), a, finite_only=True)
            if a.size else np.linalg.eig(a))
    return [w.astype(complex_dtype)] + ([v.astype(complex_dtype)] if compute_right_eigenvectors else [])


eig_p = define("eig", abstract_eval=_eig_abstract, impl=_eig_impl, multiple_results=True,
               weak_type_rule=lambda w, **p: [False] * (1 + p["compute_left_eigenvectors"]
                                                        + p["compute_right_eigenvectors"]),
               pp_params=lambda params: sorted(params.items()))


def eig(a, *, compute_left_eigenvectors=True, compute_right_eigenvectors=True, use_magma=None,
        implementation=None):
    shape = get_aval(a).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:  # also eagerly, where the shape rule is not asked
        raise ValueError(f"The input to eig must be a square matrix. Got shape {shape}.")
    return eig_p.bind(a, compute_left_eigenvectors=bool(compute_left_eigenvectors),
                      compute_right_eigenvectors=bool(compute_right_eigenvectors), enable_eigvec_derivs=False,
                      implementation=implementation)


def _eig_batch(axis_data, vals, dims, **p):
    outs = eig_p.bind(moveaxis(vals[0], dims[0], 0), **p)
    return outs, [0] * len(outs)


batch_rules[eig_p] = _eig_batch
