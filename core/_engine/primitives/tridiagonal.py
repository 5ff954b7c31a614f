"""tridiagonal_solve: solve A x = b for a tridiagonal A given by its three diagonals.

dl (sub-diagonal, dl[0] unused), d (diagonal), du (super-diagonal, du[-1] unused), all (..., m);
b (..., m, n). The numpy impl is Gaussian elimination with partial pivoting between neighbouring
rows (what LAPACK's gtsv does on JAX's CPU), vectorised over the batch and right-hand sides. The
solution is linear in b (transpose: the same solve with A^T, whose diagonals are du and dl shifted
by one), and its jvp in the diagonals is the solve of -dA x.
"""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import batch_rules, transpose_rules
from ..tracing.tracing import get_aval
from ..transforms import ad
from . import define
from .linalg import _batch_front, _lax


def _abstract(dl, d, du, b, *, perturb_singular):
    for i, x in enumerate((dl, d, du, b)):
        if x.ndim < (2 if i == 3 else 1):
            raise TypeError(f"Input {i} to tridiagonal_solve must have rank at least {2 if i == 3 else 1}, "
                            f"but got shape={x.shape}")
    m = d.shape[-1]
    if not (dl.shape == d.shape == du.shape) or b.shape[-2] != m or b.shape[:-2] != d.shape[:-1]:
        raise TypeError("tridiagonal_solve requires that all inputs have the same batch dimensions, dl, d and "
                        f"du the same shape and b's second-to-last dimension their length: got dl={dl.shape}, "
                        f"d={d.shape}, du={du.shape}, b={b.shape}")
    if len({dl.dtype, d.dtype, du.dtype, b.dtype}) != 1 or d.dtype.kind not in "fc":
        raise TypeError("tridiagonal_solve requires the same floating-point dtype for all inputs, got "
                        f"{[x.dtype.name for x in (dl, d, du, b)]}")
    return ShapedArray(b.shape, b.dtype)


def _impl(dl, d, du, b, *, perturb_singular):
    """Elimination down the rows, swapping row i and i+1 when the sub-diagonal entry is larger,
    which fills one extra super-diagonal (du2), then back substitution."""
    dtype = b.dtype
    work = np.result_type(dtype, np.float64) if dtype.itemsize < 8 else dtype
    m = d.shape[-1]
    diag = np.array(d, work)
    up = np.array(du, work)
    up2 = np.zeros_like(diag)
    low = np.array(dl, work)
    x = np.array(b, work)
    for i in range(m - 1):
        sub = low[..., i + 1]
        swap = np.abs(diag[..., i]) < np.abs(sub)
        # rows i, i+1 as (diag, up, up2 | rhs); after an optional swap, eliminate row i+1's first entry
        p_diag = np.where(swap, sub, diag[..., i])
        p_up = np.where(swap, diag[..., i + 1], up[..., i])
        p_up2 = np.where(swap, up[..., i + 1] if i + 1 < m - 1 else 0, 0)
        q_first = np.where(swap, diag[..., i], sub)
        q_diag = np.where(swap, up[..., i], diag[..., i + 1])
        q_up = np.where(swap, 0, up[..., i + 1] if i + 1 < m - 1 else 0)
        p_rhs = np.where(swap[..., None], x[..., i + 1, :], x[..., i, :])
        q_rhs = np.where(swap[..., None], x[..., i, :], x[..., i + 1, :])
        with np.errstate(divide="ignore", invalid="ignore"):
            f = q_first / p_diag
        diag[..., i], up[..., i], up2[..., i] = p_diag, p_up, p_up2
        diag[..., i + 1] = q_diag - f * p_up
        if i + 1 < m - 1:
            up[..., i + 1] = q_up - f * p_up2
        x[..., i, :] = p_rhs
        x[..., i + 1, :] = q_rhs - f[..., None] * p_rhs
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(m - 1, -1, -1):
            acc = x[..., i, :]
            if i + 1 < m:
                acc = acc - up[..., i, None] * x[..., i + 1, :]
            if i + 2 < m:
                acc = acc - up2[..., i, None] * x[..., i + 2, :]
            x[..., i, :] = acc / diag[..., i, None]
    return x.astype(dtype)


tridiagonal_solve_p = define("tridiagonal_solve", abstract_eval=_abstract, impl=_impl,
                             weak_type_rule=lambda w, **p: False)


def tridiagonal_solve(dl, d, du, b, *, perturb_singular=False):
    """x with A x = b, A tridiagonal with sub-diagonal dl, diagonal d and super-diagonal du."""
    _abstract(*(get_aval(v) for v in (dl, d, du, b)), perturb_singular=perturb_singular)  # (eagerly too)
    return tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=bool(perturb_singular))


def _shift(v, k):
    """v moved k places along its last axis (k > 0: towards the end), zero-filled."""
    lax = _lax()
    m = get_aval(v).shape[-1]
    nd = get_aval(v).ndim
    zeros = [(0, 0, 0)] * (nd - 1)
    if k > 0:
        return lax.pad(lax.slice_in_dim(v, 0, m - k, axis=nd - 1), np.zeros((), get_aval(v).dtype),
                       zeros + [(k, 0, 0)])
    return lax.pad(lax.slice_in_dim(v, -k, m, axis=nd - 1), np.zeros((), get_aval(v).dtype), zeros + [(0, -k, 0)])


def _tridiagonal_matmul(dl, d, du, x):
    """A x for A given by its diagonals (x: (..., m, n))."""
    lax = _lax()
    col = lambda v: lax.expand_dims(v, (get_aval(v).ndim,))  # noqa: E731
    out = lax.mul(col(d), x)
    out = lax.add(out, lax.mul(col(dl), _shift_rows(x, 1)))
    return lax.add(out, lax.mul(col(du), _shift_rows(x, -1)))


def _shift_rows(x, k):
    """x's rows moved k places down (row i of the result is row i - k of x), zero-filled."""
    lax = _lax()
    nd = get_aval(x).ndim
    m = get_aval(x).shape[-2]
    zeros = [(0, 0, 0)] * (nd - 2)
    z = np.zeros((), get_aval(x).dtype)
    if k > 0:
        return lax.pad(lax.slice_in_dim(x, 0, m - k, axis=nd - 2), z, zeros + [(k, 0, 0), (0, 0, 0)])
    return lax.pad(lax.slice_in_dim(x, -k, m, axis=nd - 2), z, zeros + [(0, -k, 0), (0, 0, 0)])


def _jvp(primals, tangents, *, perturb_singular):
    dl, d, du, b = primals
    tdl, td, tdu, tb = tangents
    lax = _lax()
    x = tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=perturb_singular)
    zero = lambda v: lax.full_like(v, 0)  # noqa: E731
    rhs = None
    if not all(type(t) is ad.Zero for t in (tdl, td, tdu)):
        dA_x = _tridiagonal_matmul(*(zero(p) if type(t) is ad.Zero else t for p, t in zip((dl, d, du), (tdl, td, tdu))), x)
        rhs = lax.neg(dA_x)
    if type(tb) is not ad.Zero:
        rhs = tb if rhs is None else lax.add(tb, rhs)
    if rhs is None:
        return x, ad.Zero(get_aval(x))
    return x, tridiagonal_solve_p.bind(dl, d, du, rhs, perturb_singular=perturb_singular)


def _transpose(ct, dl, d, du, b, *, perturb_singular):
    # linear in b only: A^T has sub-diagonal du shifted down one place and super-diagonal dl shifted up
    if type(ct) is ad.Zero:
        return [None, None, None, None]
    return [None, None, None, tridiagonal_solve_p.bind(_shift(du, 1), d, _shift(dl, -1), ct,
                                                       perturb_singular=perturb_singular)]


def _batch(axis_data, vals, dims, *, perturb_singular):
    return tridiagonal_solve_p.bind(*_batch_front(vals, dims, axis_data.size), perturb_singular=perturb_singular), 0


ad.jvp_rules[tridiagonal_solve_p] = _jvp
transpose_rules[tridiagonal_solve_p] = _transpose
batch_rules[tridiagonal_solve_p] = _batch
