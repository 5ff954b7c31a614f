"""The jvp rules of the matrix decompositions (core/_engine/primitives/linalg.py: triangular_solve, lu,
cholesky, eigh, svd, qr, eig). They sit in the libraries layer, beside jnp.linalg, because they are
written with jnp (matmul, tril, triu, eye, diagonal, linalg.inv), as JAX's lax.linalg writes them:
jnp.tril and jnp.diagonal are nested jits, so only this way do the jaxprs of grad(eigh) & co. show
what JAX's show. core/_engine/libraries/numpy/linalg.py imports this module, which fills ad.jvp_rules."""
from __future__ import annotations

import functools
import types

from ...primitives.linalg import (_adj, _conj, _lax, _swap, cholesky_p, eig_p, eigh_p, lu_p, qr_p, svd_p,
                                 triangular_solve, triangular_solve_p)
from ...tracing.tracing import get_aval
from ...transforms import ad


@functools.cache
def _jnp():
    # the jnp functions this module calls, from the modules that define them (importing the
    # package face, which imports this module, tied jnp's modules into one circle)
    from ._creation import diagonal, eye, ones, ones_like, tril, triu
    from ._products import matmul
    from ._take import take_along_axis
    from . import linalg
    return types.SimpleNamespace(diagonal=diagonal, eye=eye, linalg=linalg, matmul=matmul, ones=ones,
                                 ones_like=ones_like, take_along_axis=take_along_axis, tril=tril,
                                 triu=triu)


def _matmul(a, b):
    return _jnp().matmul(a, b)


def _tril(x, k=0):
    return _jnp().tril(x, k)


def _triu(x, k=0):
    return _jnp().triu(x, k)


def _tri_jvp(primals, tangents, **p):
    a, b = primals
    da, db = tangents
    x = triangular_solve_p.bind(a, b, **p)
    dx = ad.Zero(get_aval(x))
    if type(db) is not ad.Zero:
        dx = triangular_solve_p.bind(a, db, **p)
    if type(da) is not ad.Zero:
        # d(op(a)) only has the triangle that is read; a unit diagonal is constant
        dt = _tril(da, -1 if p["unit_diagonal"] else 0) if p["lower"] else _triu(da, 1 if p["unit_diagonal"] else 0)
        if p["conjugate_a"]:
            dt = _conj(dt)
        if p["transpose_a"]:
            dt = _swap(dt)
        rhs = _matmul(dt, x) if p["left_side"] else _matmul(x, dt)
        corr = _lax().neg(triangular_solve_p.bind(a, rhs, **p))
        dx = corr if type(dx) is ad.Zero else _lax().add(dx, corr)
    return x, dx


def _like_batch(m, x):
    """The (n, n) matrix `m` broadcast over x's leading batch dimensions (lax ops do not broadcast)."""
    shape = get_aval(x).shape
    return m if len(shape) == 2 else _lax().broadcast_in_dim(m, shape, (len(shape) - 2, len(shape) - 1))


def _lu_factors(lu_):
    """(unit lower l, upper u) of a square LU result."""
    n = get_aval(lu_).shape[-1]
    eye = _like_batch(_jnp().eye(n, dtype=get_aval(lu_).dtype), lu_)
    return _lax().add(_tril(lu_, -1), eye), _triu(lu_)


def _lu_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    lu_, piv, perm = lu_p.bind(a)
    aval = get_aval(a)
    if aval.shape[-1] != aval.shape[-2]:
        raise NotImplementedError("Differentiation rule for 'lu' of a non-square matrix not implemented")
    zeros = [ad.Zero(get_aval(piv)), ad.Zero(get_aval(perm))]
    if type(da) is ad.Zero:
        return [lu_, piv, perm], [ad.Zero(get_aval(lu_)), *zeros]
    l, u = _lu_factors(lu_)
    x = _jnp().take_along_axis(da, _lax().expand_dims(perm, (aval.ndim - 1,)), axis=-2)  # rows as in l @ u
    la = triangular_solve(l, x, left_side=True, lower=True, unit_diagonal=True)
    lau = triangular_solve(u, la, left_side=False, lower=False)
    dlu = _lax().add(_matmul(l, _tril(lau, -1)), _matmul(_triu(lau), u))
    return [lu_, piv, perm], [dlu, *zeros]


def _chol_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    l = cholesky_p.bind(a)
    if type(da) is ad.Zero:
        return l, ad.Zero(get_aval(l))
    # dl = l phi(l^-1 da l^-H), phi: the lower triangle with the diagonal halved
    tmp = triangular_solve(l, da, left_side=False, lower=True, transpose_a=True, conjugate_a=True)  # l^-H for complex
    s = triangular_solve(l, tmp, left_side=True, lower=True)
    n = get_aval(a).shape[-1]
    half = _lax().sub(_jnp().ones((n, n), get_aval(a).dtype), _lax().mul(_jnp().eye(n, dtype=get_aval(a).dtype),
                                                                          _lax()._const(s, 0.5)))
    return l, _matmul(l, _lax().mul(_tril(s), _like_batch(half, s)))


def _eigh_jvp(primals, tangents, **p):
    (a,), (da,) = primals, tangents
    v, w = eigh_p.bind(a, **p)
    if type(da) is ad.Zero:
        return [v, w], [ad.Zero(get_aval(v)), ad.Zero(get_aval(w))]
    lax, jnp = _lax(), _jnp()
    vt = _adj(v)
    vdv = _matmul(vt, _matmul(da, v))
    # eigenvalues move by the diagonal of v^H da v; eigenvectors by v (F * v^H da v), where
    # F[i, j] = 1 / (w[j] - w[i]) off the diagonal and 0 on it
    dw = lax.real(jnp.diagonal(vdv, axis1=-2, axis2=-1)) if get_aval(vdv).dtype.kind == "c" else \
        jnp.diagonal(vdv, axis1=-2, axis2=-1)
    diff = lax.sub(lax.expand_dims(w, (get_aval(w).ndim - 1,)), lax.expand_dims(w, (get_aval(w).ndim,)))
    n = get_aval(a).shape[-1]
    eye = _like_batch(jnp.eye(n, dtype=get_aval(diff).dtype), diff)  # (a batch of matrices: eye over it)
    f = lax.div(lax.sub(jnp.ones_like(eye), eye), lax.add(diff, eye))
    dv = _matmul(v, lax.mul(lax.convert_element_type(f, get_aval(vdv).dtype), vdv))
    return [v, w], [dv, dw]


def _svd_jvp(primals, tangents, *, full_matrices, compute_uv, subset_by_index, algorithm):
    (a,), (da,) = primals, tangents
    outs = svd_p.bind(a, full_matrices=full_matrices, compute_uv=compute_uv,
                      subset_by_index=subset_by_index, algorithm=algorithm)
    if type(da) is ad.Zero:
        return outs, [ad.Zero(get_aval(o)) for o in outs]
    if compute_uv and full_matrices:
        raise NotImplementedError("Singular value decomposition JVP not implemented for full matrices")
    lax, jnp = _lax(), _jnp()
    s, u, vt = svd_p.bind(a, full_matrices=False, compute_uv=True, subset_by_index=None, algorithm=None)
    dt = get_aval(a).dtype
    ut, v = _adj(u), _adj(vt)
    ds_mat = _matmul(ut, _matmul(da, v))            # u^H da v: its diagonal moves s
    diag = jnp.diagonal(ds_mat, axis1=-2, axis2=-1)
    ds = lax.real(diag) if dt.kind == "c" else diag
    if not compute_uv:
        return [s], [ds]
    k = get_aval(s).shape[-1]
    eye = jnp.eye(k, dtype=get_aval(s).dtype)
    s_row = lax.expand_dims(s, (get_aval(s).ndim - 1,))   # [..., 1, k]
    s_col = _swap(s_row)                                   # [..., k, 1]
    # F[i, j] = 1 / (s_j^2 - s_i^2) off the diagonal, 0 on it
    f = lax.sub(lax.div(lax._const(eye, 1), lax.add(lax.mul(lax.add(s_row, s_col), lax.sub(s_row, s_col)), eye)), eye)
    f = lax.convert_element_type(f, dt)
    s_row_c, s_col_c = lax.convert_element_type(s_row, dt), lax.convert_element_type(s_col, dt)
    dss, sds = lax.mul(s_row_c, ds_mat), lax.mul(s_col_c, ds_mat)
    zero_s = lax.convert_element_type(lax.eq(s, lax._const(s, 0)), get_aval(s).dtype)
    s_inv = lax.sub(lax.div(lax._const(s, 1), lax.add(s, zero_s)), zero_s)
    s_inv_mat = lax.mul(lax.expand_dims(s_inv, (get_aval(s).ndim,)), eye)
    du_dv_diag = lax.mul(lax.mul(lax._const(ds_mat, 0.5), lax.sub(ds_mat, _adj(ds_mat))),
                         lax.convert_element_type(s_inv_mat, dt))
    du = _matmul(u, lax.add(lax.mul(f, lax.add(dss, _adj(dss))), du_dv_diag))
    dv = _matmul(v, lax.mul(f, lax.add(sds, _adj(sds))))
    m, n = get_aval(a).shape[-2:]
    if m > n:  # the part of da outside u's column space
        dav = _matmul(da, v)
        du = lax.add(du, lax.div(lax.sub(dav, _matmul(u, _matmul(ut, dav))), s_row_c))
    if n > m:
        dahu = _matmul(_adj(da), u)
        dv = lax.add(dv, lax.div(lax.sub(dahu, _matmul(v, _matmul(vt, dahu))), s_row_c))
    return [s, u, vt], [ds, du, _adj(dv)]


def _qr_jvp(primals, tangents, *, full_matrices, pivoting, use_magma):
    (a,), (da,) = primals, tangents
    q, r = qr_p.bind(a, full_matrices=full_matrices, pivoting=pivoting, use_magma=use_magma)
    if type(da) is ad.Zero:
        return [q, r], [ad.Zero(get_aval(q)), ad.Zero(get_aval(r))]
    m, n = get_aval(a).shape[-2:]
    if m < n or (full_matrices and m != n):
        raise NotImplementedError("Unimplemented case of QR decomposition derivative")
    lax = _lax()
    da_rinv = triangular_solve(r, da)                      # da r^-1 (a right-side solve)
    qt_da_rinv = _matmul(_adj(q), da_rinv)
    low = _tril(qt_da_rinv, -1)
    omega = lax.sub(low, _adj(low))                # skew-symmetric part
    if get_aval(a).dtype.kind == "c":
        eye = _jnp().eye(n, dtype=get_aval(a).dtype)
        omega = lax.add(omega, lax.mul(eye, lax.sub(qt_da_rinv, lax.convert_element_type(lax.real(qt_da_rinv),
                                                                                       get_aval(a).dtype))))
    dq = lax.add(_matmul(q, lax.sub(omega, qt_da_rinv)), da_rinv)
    dr = _matmul(lax.sub(qt_da_rinv, omega), r)
    return [q, r], [dq, dr]


def _eig_jvp(primals, tangents, **p):
    """Eigenvalues move by the diagonal of v^-1 da v (v the right eigenvectors); eigenvectors'
    derivatives need assumptions JAX makes the user opt into, and gradpad does not have them."""
    if p["compute_left_eigenvectors"] or p["compute_right_eigenvectors"]:
        raise NotImplementedError(
            "Derivatives of non-symmetric eigenvectors are only valid under assumptions on the input that JAX "
            "cannot check (see the enable_eigvec_derivs argument to jax.lax.linalg.eig). Pass "
            "enable_eigvec_derivs=True to jax.lax.linalg.eig to opt in. See "
            "https://github.com/jax-ml/jax/issues/2748 for discussion.")
    (a,), (da,) = primals, tangents
    w, v = eig_p.bind(a, **{**p, "compute_right_eigenvectors": True})
    if type(da) is ad.Zero:
        return [w], [ad.Zero(get_aval(w))]
    lax, jnp = _lax(), _jnp()
    da = lax.convert_element_type(da, get_aval(v).dtype)
    moved = _matmul(jnp.linalg.inv(v), _matmul(da, v))
    return [w], [jnp.diagonal(moved, axis1=-2, axis2=-1)]


ad.jvp_rules[triangular_solve_p] = _tri_jvp
ad.jvp_rules[lu_p] = _lu_jvp
ad.jvp_rules[cholesky_p] = _chol_jvp
ad.jvp_rules[eigh_p] = _eigh_jvp
ad.jvp_rules[svd_p] = _svd_jvp
ad.jvp_rules[qr_p] = _qr_jvp
ad.jvp_rules[eig_p] = _eig_jvp
