"""`jax.numpy.linalg`: norm, and solve / inv / det / slogdet / cholesky / eigh / eigvalsh built on
the decomposition primitives of core/_engine/primitives/linalg.py, so they work under jit, grad and
vmap, as do norm, svd and qr."""
from __future__ import annotations

from collections import namedtuple as _namedtuple

import numpy as _np

from ...lax import lax
from ...primitives import linalg as _la
from ...tracing.tracing import get_aval
from ._util import _staged


def norm(x, ord=None, axis=None, keepdims=False):
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    (x,) = _promote_dtypes_inexact(asarray(x))
    if isinstance(axis, list):
        axis = tuple(axis)
    return _norm(x, ord=ord, axis=axis, keepdims=bool(keepdims))


@_staged(static_argnames=("ord", "axis", "keepdims"), name="norm")
def _norm(x, ord, axis, keepdims):
    from ._ufuncs import abs, real, sqrt
    from ._reductions import max, min, sum
    nd = get_aval(x).ndim
    squares = lambda: real(x * x.conj()) if get_aval(x).dtype.kind == "c" else x * x  # noqa: E731
    if axis is None:
        if ord is None:
            return sqrt(sum(squares(), keepdims=keepdims))
        axis = tuple(range(nd))
    elif isinstance(axis, int):
        axis = (axis,)
    axis = tuple(a % nd if nd else a for a in axis)
    if len(axis) == 1:
        if ord is None or ord == 2:
            return sqrt(sum(squares(), axis=axis, keepdims=keepdims))
        if isinstance(ord, str):
            raise ValueError(f"Invalid order '{ord}' for vector norm.")
        if ord == _np.inf:
            return max(abs(x), axis=axis, keepdims=keepdims, initial=0)
        if ord == -_np.inf:
            return min(abs(x), axis=axis, keepdims=keepdims)
        if ord == 0:
            real_dtype = _la._real_dtype(get_aval(x).dtype)
            return sum(lax.ne(x, lax._const(x, 0)), axis=axis, dtype=real_dtype, keepdims=keepdims)
        if ord == 1:
            return sum(abs(x), axis=axis, keepdims=keepdims)
        ax = abs(x)
        total = sum(lax.pow(ax, lax._const(ax, ord)), axis=axis, keepdims=keepdims)
        return lax.pow(total, lax._const(ax, 1.0 / ord))
    if len(axis) == 2:
        row, col = axis
        if row == col:
            raise ValueError(f"Duplicate axes given to jnp.linalg.norm: {axis}")
        if ord in (None, "fro", "f"):
            return sqrt(sum(squares(), axis=axis, keepdims=keepdims))
        if ord in (1, -1):
            if not keepdims and col > row:
                col -= 1
            red = max if ord == 1 else min
            kw = {"initial": 0} if ord == 1 else {}
            return red(sum(abs(x), axis=row, keepdims=keepdims), axis=col, keepdims=keepdims, **kw)
        if ord in (_np.inf, -_np.inf):
            if not keepdims and row > col:
                row -= 1
            red = max if ord == _np.inf else min
            kw = {"initial": 0} if ord == _np.inf else {}
            return red(sum(abs(x), axis=col, keepdims=keepdims), axis=row, keepdims=keepdims, **kw)
        if ord in (2, -2, "nuc"):
            from ._shapes import expand_dims, moveaxis
            sv = svd(moveaxis(x, axis, (-2, -1)), compute_uv=False)
            out = max(sv, axis=-1, initial=0) if ord == 2 else min(sv, axis=-1) if ord == -2 else sum(sv, axis=-1)
            return expand_dims(out, axis) if keepdims else out
        raise ValueError(f"Invalid order '{ord}' for matrix norm.")
    raise ValueError(f"Invalid axis values ({axis}) for jnp.linalg.norm.")


def _float_matrix(name, a):
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    (a,) = _promote_dtypes_inexact(asarray(a))
    aval = get_aval(a)
    if aval.ndim < 2 or aval.shape[-1] != aval.shape[-2]:
        raise ValueError(f"{name}: argument must be a square matrix or a stack of them, shape [..., n, n]; "
                         f"got shape {aval.shape}")
    return a


def _lu_solve(lu_, perm, b):
    """Solve a x = b from a's LU factors; b is [..., n, k]."""
    from ._take import take_along_axis
    rows = lax.expand_dims(perm, (get_aval(perm).ndim,))
    pb = take_along_axis(b, lax.broadcast_in_dim(rows, get_aval(b).shape[:-1] + (1,), tuple(range(get_aval(b).ndim)))
                         if get_aval(rows).shape != get_aval(b).shape[:-1] + (1,) else rows, axis=-2)
    y = _la.triangular_solve(lu_, pb, left_side=True, lower=True, unit_diagonal=True)
    return _la.triangular_solve(lu_, y, left_side=True, lower=False)


def solve(a, b):
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    a = _float_matrix("solve", a)
    a, b = _promote_dtypes_inexact(a, asarray(b))
    return _solve(a, b)


@_staged(name="solve")
def _solve(a, b):
    a_aval, b_aval = get_aval(a), get_aval(b)
    vector = b_aval.ndim == 1 or b_aval.ndim == a_aval.ndim - 1  # b is [..., n]: solve for a vector
    if vector:
        b = lax.expand_dims(b, (b_aval.ndim,))
    if get_aval(b).shape[-2] != a_aval.shape[-1]:
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        raise ValueError(f"inconsistent size for core dimension 'm': {get_aval(b).shape[-2]} vs {a_aval.shape[-1]} "
                         f"on vectorized function with excluded=frozenset() and signature='{sig}'\n"
                         f"(jnp.linalg.solve: a has shape {a_aval.shape}, so b needs {a_aval.shape[-1]} rows; "
                         f"b has shape {b_aval.shape})")
    batch = tuple(_np.broadcast_shapes(a_aval.shape[:-2], get_aval(b).shape[:-2]))
    a = lax.broadcast_in_dim(a, batch + a_aval.shape[-2:], tuple(range(len(batch) - a_aval.ndim + 2,
                                                                        len(batch) + 2)))
    bb = get_aval(b)
    b = lax.broadcast_in_dim(b, batch + bb.shape[-2:], tuple(range(len(batch) - bb.ndim + 2, len(batch) + 2)))
    lu_, _, perm = _la.lu(a)
    x = _lu_solve(lu_, perm, b)
    return lax.squeeze(x, (get_aval(x).ndim - 1,)) if vector else x


def inv(a):
    from ._creation import eye
    a = _float_matrix("inv", a)
    aval = get_aval(a)
    n = aval.shape[-1]
    return solve(a, lax.broadcast_in_dim(eye(n, dtype=aval.dtype), aval.shape, (aval.ndim - 2, aval.ndim - 1)))


def _diag(x):
    from ._creation import diagonal
    return diagonal(x, axis1=-2, axis2=-1)


def _lu_det_parts(a):
    """(sign of the permutation, diagonal of u) of a's LU factors."""
    from ._creation import arange
    from ._reductions import sum
    lu_, piv, _ = _la.lu(a)
    n = get_aval(a).shape[-1]
    identity = arange(n, dtype=_np.int32)
    piv_shape = get_aval(piv).shape
    if len(piv_shape) > 1:  # a batch of matrices (distrax's DiagPlusLowRankLinear with batched parameters)
        identity = lax.broadcast_in_dim(identity, piv_shape, (len(piv_shape) - 1,))
    swaps = sum(lax.ne(piv, identity), axis=-1)
    parity = lax.rem(swaps, lax._const(swaps, 2))
    sign = lax.sub(lax._const(lu_, 1), lax.mul(lax._const(lu_, 2), lax.convert_element_type(parity, get_aval(lu_).dtype)))
    return sign, _diag(lu_)


def det(a):
    return _det_jit(_float_matrix("det", a))


@_staged(name="det")
def _det_jit(a):
    from ._reductions import prod
    n = get_aval(a).shape[-1]
    e = lambda i, j: a[..., i, j]  # noqa: E731
    if n == 2:  # closed forms for 2x2 and 3x3, as JAX
        return e(0, 0) * e(1, 1) - e(0, 1) * e(1, 0)
    if n == 3:
        return (e(0, 0) * e(1, 1) * e(2, 2) + e(0, 1) * e(1, 2) * e(2, 0) + e(0, 2) * e(1, 0) * e(2, 1)
                - e(0, 2) * e(1, 1) * e(2, 0) - e(0, 0) * e(1, 2) * e(2, 1) - e(0, 1) * e(1, 0) * e(2, 2))
    sign, d = _lu_det_parts(a)
    return lax.mul(sign, prod(d, axis=-1))


SlogdetResult = _namedtuple("SlogdetResult", ["sign", "logabsdet"])


def slogdet(a):
    from ._ufuncs import abs, log, sign as sign_of
    from ._reductions import prod, sum
    a = _float_matrix("slogdet", a)
    s, d = _lu_det_parts(a)
    return SlogdetResult(lax.mul(s, prod(sign_of(d), axis=-1)), sum(log(abs(d)), axis=-1))


def cholesky(a, *, upper=False, symmetrize_input=True):
    return _cholesky(_float_matrix("cholesky", a), upper=upper, symmetrize_input=symmetrize_input)


@_staged(static_argnames=("upper", "symmetrize_input"), name="cholesky")
def _cholesky(a, upper, symmetrize_input):
    l = _la.cholesky(a, symmetrize_input=symmetrize_input)
    return _la._adj(l) if upper else l


EighResult = _namedtuple("EighResult", ["eigenvalues", "eigenvectors"])


def eigh(a, UPLO=None, symmetrize_input=True):
    w, v = _eigh(_float_matrix("eigh", a), lower=UPLO in (None, "L"), symmetrize_input=symmetrize_input)
    return EighResult(w, v)


@_staged(static_argnames=("lower", "symmetrize_input"), name="eigh")
def _eigh(a, lower, symmetrize_input):
    v, w = _la.eigh(a, lower=lower, symmetrize_input=symmetrize_input)
    return w, v


def eigvalsh(a, UPLO="L"):
    return eigh(a, UPLO).eigenvalues


EigResult = _namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


def _general_matrix(name, a):
    from ._util import _check_arraylike, _promote_dtypes_inexact
    _check_arraylike(name, a)
    return _promote_dtypes_inexact(a)[0]


def eig(a):
    """Eigenvalues and right eigenvectors of a general square matrix, complex (numpy's geev)."""
    w, v = _la.eig(_general_matrix("jnp.linalg.eig", a), compute_left_eigenvectors=False)
    return EigResult(w, v)


@_staged
def eigvals(a):
    return _la.eig(_general_matrix("jnp.linalg.eigvals", a), compute_left_eigenvectors=False,
                   compute_right_eigenvectors=False)[0]


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    (a,) = _promote_dtypes_inexact(asarray(a))
    out = _svd(a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))
    return SVDResult(*out) if compute_uv else out


SVDResult = _namedtuple("SVDResult", ["U", "S", "Vh"])


@_staged(static_argnames=("full_matrices", "compute_uv"), name="svd")
def _svd(a, full_matrices, compute_uv):
    if not compute_uv:
        return _la.svd(a, full_matrices=full_matrices, compute_uv=False)
    s, u, vt = _la.svd(a, full_matrices=full_matrices, compute_uv=True)
    return u, s, vt


QRResult = _namedtuple("QRResult", ["Q", "R"])


def qr(a, mode="reduced"):
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    (a,) = _promote_dtypes_inexact(asarray(a))
    if mode == "raw":
        return QRResult(*_qr_raw(a))  # (JAX names H and tau Q and R too)
    out = _qr(a, mode=mode)
    return out if mode == "r" else QRResult(*out)


@_staged(name="qr")
def _qr_raw(a):
    """(H, tau) as numpy's mode='raw' gives them: LAPACK's geqrf output, transposed."""
    from ...primitives.linalg import geqrf
    from ...lax import lax
    h, tau = geqrf(a)
    nd = get_aval(a).ndim
    return lax.transpose(h, (*range(nd - 2), nd - 1, nd - 2)), tau


@_staged(static_argnames=("mode",), name="qr")
def _qr(a, mode):
    q, r = _la.qr(a, full_matrices=mode == "complete")
    return r if mode == "r" else (q, r)


# ---- the array API's linalg names (thin faces over jnp functions, so grad/jit/vmap carry over) ----

def cross(x1, x2, /, *, axis=-1):
    from ._creation import asarray
    from ._products import cross as _jnp_cross
    x1, x2 = asarray(x1), asarray(x2)
    if get_aval(x1).shape[axis] != 3 or get_aval(x2).shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they have "
                         f"x1.shape[axis]={get_aval(x1).shape[axis]} and x2.shape[axis]={get_aval(x2).shape[axis]}")
    return _jnp_cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    from ._creation import diagonal as _jnp_diagonal
    return _jnp_diagonal(x, offset=offset, axis1=-2, axis2=-1)


def trace(x, /, *, offset=0, dtype=None):
    from ._creation import trace as _jnp_trace
    return _jnp_trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def matrix_transpose(x, /):
    from ._creation import asarray
    from ._shapes import matrix_transpose as _jnp_mt
    x = asarray(x)
    if get_aval(x).ndim < 2:
        raise ValueError(f"x must be at least two-dimensional for matrix_transpose; got ndim={get_aval(x).ndim}")
    return _jnp_mt(x)


def outer(x1, x2, /):
    from ._creation import asarray
    from ._products import outer as _jnp_outer
    x1, x2 = asarray(x1), asarray(x2)
    if get_aval(x1).ndim != 1 or get_aval(x2).ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={get_aval(x1).ndim} "
                         f"x2.ndim={get_aval(x2).ndim}")
    return _jnp_outer(x1, x2)


def tensordot(x1, x2, /, *, axes=2, precision=None, preferred_element_type=None):
    from ._products import tensordot as _jnp_tensordot
    return _jnp_tensordot(x1, x2, axes=axes, precision=precision, preferred_element_type=preferred_element_type)


def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    from ._products import vecdot as _jnp_vecdot
    return _jnp_vecdot(x1, x2, axis=axis, precision=precision, preferred_element_type=preferred_element_type)


def matmul(x1, x2, /, *, precision=None, preferred_element_type=None):
    from ._products import matmul as _jnp_matmul
    return _jnp_matmul(x1, x2, precision=precision, preferred_element_type=preferred_element_type)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return norm(x, ord=ord, keepdims=keepdims, axis=(-2, -1))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Reductions over any axes; like JAX it does not promote integers first (ord=1 of ints is an int)."""
    from ._util import _check_arraylike
    from ._ufuncs import abs as _abs, conj, power, real, sqrt
    from ._creation import asarray
    from ._dtypes import finfo
    from ._reductions import max as _max, min as _min
    from ._reductions import sum as _sum
    _check_arraylike("jnp.linalg.vector_norm", x)
    x = asarray(x)
    if ord is None or ord == 2:
        return sqrt(_sum(real(x * conj(x)), axis=axis, keepdims=keepdims))
    if ord == _np.inf:
        return _max(_abs(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -_np.inf:
        return _min(_abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return _sum(x != 0, dtype=finfo(get_aval(x).dtype).dtype, axis=axis, keepdims=keepdims)
    if ord == 1:
        return _sum(_abs(x), axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        msg = f"Invalid order '{ord}' for vector norm."
        if ord in ("inf", "-inf"):
            msg += f"Use '{ord[:-3]}jax.numpy.inf' instead."
        raise ValueError(msg)
    ax = _abs(x)
    return power(_sum(ax ** lax._const(ax, ord), axis=axis, keepdims=keepdims), lax._const(ax, 1.0 / ord))


def svdvals(x, /):
    return svd(x, compute_uv=False)


def matrix_power(a, n):
    """a @ a @ ... (n times) by repeated squaring; a negative n inverts first, as JAX does."""
    import operator
    from ._creation import asarray, eye
    from ._products import matmul as _mm
    a = asarray(a)
    aval = get_aval(a)
    if aval.ndim < 2:
        raise TypeError(f"{aval.ndim}-dimensional array given. Array must be at least two-dimensional")
    if aval.shape[-1] != aval.shape[-2]:
        raise TypeError("Last 2 dimensions of the array must be square")
    try:
        n = operator.index(n)
    except TypeError as err:
        raise TypeError(f"exponent must be an integer, got {n}") from err
    if n == 0:
        return lax.broadcast_in_dim(eye(aval.shape[-1], dtype=aval.dtype), aval.shape,
                                    (aval.ndim - 2, aval.ndim - 1))
    if n < 0:
        a, n = inv(a), -n
    if n == 3:   # JAX's own order for a cube: (a @ a) @ a (the loop's a @ (a @ a) rounds, overflows otherwise)
        return _mm(_mm(a, a), a)
    result, z = None, a
    while n > 0:
        if n % 2:
            result = z if result is None else _mm(result, z)
        n //= 2
        if n:
            z = _mm(z, z)
    return result


def matrix_rank(M, rtol=None, *, tol=None):
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    from ._dtypes import finfo
    from ._reductions import sum as _sum, max as _max
    (M,) = _promote_dtypes_inexact(asarray(M))
    aval = get_aval(M)
    if aval.ndim < 2:
        return lax.convert_element_type((M != 0).any(), _np.int32)
    S = svd(M, full_matrices=False, compute_uv=False)
    if tol is not None:
        rtol = tol
    if rtol is None:
        rtol = _max(S, axis=-1) * builtins_max(aval.shape[-2:]) * finfo(get_aval(S).dtype).eps
    # JAX 0.10.2 compares the singular values with rtol itself (an absolute cutoff), so do we
    rtol = asarray(rtol)
    rtol = lax.expand_dims(rtol, (get_aval(rtol).ndim,))
    return _sum(S > rtol, axis=-1)


def builtins_max(xs):
    import builtins
    return builtins.max(xs)


def pinv(a, rtol=None, hermitian=False):
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    from ._dtypes import finfo
    from ._reductions import max as _max
    from ._searching import where
    from ._products import matmul as _mm
    from ._ufuncs import conj
    from ._shapes import swapaxes
    (a,) = _promote_dtypes_inexact(asarray(a))
    aval = get_aval(a)
    m, n = aval.shape[-2:]
    if m == 0 or n == 0:
        from ._creation import empty
        return empty(aval.shape[:-2] + (n, m), aval.dtype)
    a = conj(a)
    if rtol is None:
        rtol = 10. * builtins_max((m, n)) * finfo(aval.dtype).eps
    u, s, vh = svd(a, full_matrices=False)
    cutoff = asarray(rtol)[..., None] * _max(s, axis=-1, keepdims=True)
    s = where(s > cutoff, s, _np.inf).astype(get_aval(u).dtype)
    return _mm(swapaxes(vh, -1, -2) / s[..., None, :], swapaxes(u, -1, -2))


def multi_dot(arrays, *, precision=None):
    """The chain as one einsum: the cheapest order by opt_einsum's rule, as JAX picks it."""
    from ._products import einsum
    from ._util import _check_arraylike
    from ._creation import asarray
    _check_arraylike("jnp.linalg.multi_dot", *arrays)
    arrs = [asarray(x) for x in arrays]
    if len(arrs) == 1:   # JAX's argument check hands back a lone array itself: its rows are the chain
        arrs = list(arrs[0])
    if len(arrs) < 2:
        raise ValueError(f"multi_dot requires at least two arrays; got len(arrays)={len(arrs)}")
    shapes = [get_aval(a).shape for a in arrs]
    if not (len(shapes[0]) in (1, 2) and len(shapes[-1]) in (1, 2) and all(len(s) == 2 for s in shapes[1:-1])):
        raise ValueError("multi_dot: input arrays must all be two-dimensional, except for the first and last array "
                         f"which may be 1 or 2 dimensional. Got array shapes {list(shapes)}")
    if any(a[-1] != b[0] for a, b in zip(shapes[:-1], shapes[1:])):
        raise ValueError("multi_dot: last dimension of each array must match first dimension of following array. "
                         f"Got array shapes {list(shapes)}")
    axes = [(i, i + 1) for i in range(len(arrs))]
    if len(shapes[0]) == 1:
        axes[0] = axes[0][1:]
    if len(shapes[-1]) == 1:
        axes[-1] = axes[-1][:1]
    args = [x for pair in zip(arrs, axes) for x in pair]
    return einsum(*args, optimize="auto", precision=precision)


def tensorinv(a, ind=2):
    import math
    from ._creation import asarray
    from ._shapes import reshape
    a = asarray(a)
    shape = get_aval(a).shape
    out_shape = shape[ind:] + shape[:ind]
    rows = math.prod(shape[:ind])
    if rows != math.prod(shape[ind:]):
        raise ValueError(f"tensorinv: product of first {ind} dimensions ({rows}) must equal the product of the rest")
    return reshape(inv(reshape(a, (rows, -1))), out_shape)


def tensorsolve(a, b, axes=None):
    import math
    from ._creation import asarray
    from ._shapes import moveaxis, reshape
    a, b = asarray(a), asarray(b)
    if axes is not None:
        a = moveaxis(a, axes, len(axes) * (get_aval(a).ndim - 1,))
    out_shape = get_aval(a).shape[get_aval(b).ndim:]
    return reshape(solve(reshape(a, (math.prod(get_aval(b).shape), math.prod(out_shape))), reshape(b, (-1,))),
                   out_shape)


def cond(x, p=None):
    from ._creation import asarray
    from ._ufuncs import isnan
    from ._searching import where
    from ._dtypes import inf
    x = asarray(x)
    shape = get_aval(x).shape
    if len(shape) < 2:
        raise ValueError(f"jnp.linalg.cond: input array must be at least 2D; got arr.shape={shape}")
    if shape[-1] == 0 or shape[-2] == 0:
        raise ValueError(f"jnp.linalg.cond: input array must not be empty; got arr.shape={shape}")
    if p is None or p == 2:
        # JAX returns the ratio as it is: a NaN singular value (an inf in x) stays NaN, not inf
        s = svd(x, compute_uv=False)
        return s[..., 0] / s[..., -1]
    if p == -2:
        s = svd(x, compute_uv=False)
        r = s[..., -1] / s[..., 0]
    else:
        if shape[-2] != shape[-1]:
            raise ValueError(f"jnp.linalg.cond: for p={p!r}, array must be square; got arr.shape={shape}")
        r = norm(x, ord=p, axis=(-2, -1)) * norm(inv(x), ord=p, axis=(-2, -1))
    return where(isnan(r) & ~isnan(x).any(axis=(-2, -1)), inf, r)


def lstsq(a, b, rcond=None, *, numpy_resid=False):
    from ._util import _promote_dtypes_inexact
    from ._creation import asarray
    from ._dtypes import finfo
    from ._reductions import sum as _sum
    from ._products import matmul as _mm
    from ._ufuncs import conj
    from ._searching import where
    a, b = _promote_dtypes_inexact(asarray(a), asarray(b))
    m, n = get_aval(a).shape
    b_vec = get_aval(b).ndim == 1
    if b_vec:
        b = b[:, None]
    dtype = get_aval(a).dtype
    if rcond is None:
        rcond = finfo(dtype).eps * builtins_max((n, m))
    u, s, vt = svd(a, full_matrices=False)
    mask = (s >= rcond * s[0]) & (s > 0)
    rank = _sum(mask)
    safe_s = where(mask, s, 1).astype(dtype)
    s_inv = where(mask, 1 / safe_s, 0)[:, None]
    uTb = _mm(conj(u).T, b)
    x = _mm(conj(vt).T, s_inv * uTb)
    if numpy_resid and (rank < n or m <= n):
        resid = asarray([], dtype=_la._real_dtype(dtype))
    else:
        b_est = _mm(a, x)
        resid = norm(b - b_est, axis=0) ** 2
    if b_vec:
        x = x.ravel()
        resid = resid.ravel()
    return x, resid, rank, s


from ...base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)

# the decompositions' jvp rules, written with jnp (they fill ad.jvp_rules)
from . import _linalg_jvp  # noqa: E402,F401
