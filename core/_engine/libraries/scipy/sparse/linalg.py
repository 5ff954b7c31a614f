"""`jax.scipy.sparse.linalg`: conjugate gradients, BiCGSTAB and restarted GMRES.

Each solver works on pytrees (flattened to one vector with ravel_pytree), runs as one
`lax.while_loop` (so it stages under jit), and is wrapped in `lax.custom_linear_solve`, so its
gradient is the implicit one (another solve with the transposed operator), never a
differentiation through the iterations. `A` is a matrix or a linear function; `M` a
preconditioner (a matrix or function approximating A^-1). Like JAX, they return (x, info): info is None for cg and bicgstab, and for gmres -1 where the
solution is NaN, else 0.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ....lax import lax
from ... import numpy as jnp
from ...flatten_util import ravel_pytree
from ....base.tree_util import tree_leaves, tree_map, tree_structure


def _as_operator(A):
    if callable(A):
        return A
    if hasattr(A, "shape") and hasattr(A, "dtype"):
        return partial(jnp.dot, A)
    raise TypeError(f"linear operator must be either a function or ndarray: {A}")


def _flat_problem(A, b, x0, M):
    """(matvec, precond, b, x0, unravel) on flat vectors, from pytree operators and vectors."""
    b_flat, unravel = ravel_pytree(b)
    if x0 is None:
        x0 = tree_map(jnp.zeros_like, b)
    if tree_structure(x0) != tree_structure(b):
        raise ValueError("x0 and b must have matching tree structure: "
                         f"{tree_structure(x0)} vs {tree_structure(b)}")
    if any(jnp.shape(u) != jnp.shape(v) for u, v in zip(tree_leaves(x0), tree_leaves(b))):
        raise ValueError("arrays in x0 and b must have matching shapes: "
                         f"{[jnp.shape(u) for u in tree_leaves(x0)]} vs {[jnp.shape(v) for v in tree_leaves(b)]}")
    x0_flat, _ = ravel_pytree(x0)
    A, M = _as_operator(A), (_as_operator(M) if M is not None else (lambda v: v))

    def matvec(v):
        return ravel_pytree(A(unravel(v)))[0].astype(b_flat.dtype)

    def precond(v):
        return ravel_pytree(M(unravel(v)))[0].astype(b_flat.dtype)
    return matvec, precond, b_flat, x0_flat.astype(b_flat.dtype), unravel


def _dot(u, v):
    return jnp.vdot(u, v)  # conjugates u, as the Hermitian inner product


def _norm2(u):
    return jnp.real(jnp.vdot(u, u))


def _tolerance2(b, tol, atol):
    return jnp.maximum(jnp.square(tol) * _norm2(b), jnp.square(atol))


def _cg_loop(matvec, precond, b, x0, tol, atol, maxiter):
    atol2 = _tolerance2(b, tol, atol)
    r0 = b - matvec(x0)
    z0 = precond(r0)

    def keep_going(state):
        x, r, gamma, p, k = state
        return (_norm2(r) > atol2) & (k < maxiter)

    def step(state):
        x, r, gamma, p, k = state
        Ap = matvec(p)
        alpha = gamma / _dot(p, Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        z = precond(r)
        gamma_new = _dot(r, z)
        p = z + (gamma_new / gamma) * p
        return x, r, gamma_new, p, k + 1
    x, *_ = lax.while_loop(keep_going, step, (x0, r0, _dot(r0, z0), z0, 0))
    return x


def _bicgstab_loop(matvec, precond, b, x0, tol, atol, maxiter):
    atol2 = _tolerance2(b, tol, atol)
    r0 = b - matvec(x0)
    one = jnp.ones((), b.dtype)

    def keep_going(state):
        x, r, rhat, rho, alpha, omega, p, v, k = state
        return (_norm2(r) > atol2) & (k < maxiter) & (k >= 0)

    def step(state):
        x, r, rhat, rho, alpha, omega, p, v, k = state
        rho_new = _dot(rhat, r)
        beta = (rho_new / rho) * (alpha / omega)
        p = r + beta * (p - omega * v)
        phat = precond(p)
        v = matvec(phat)
        alpha = rho_new / _dot(rhat, v)
        s = r - alpha * v
        shat = precond(s)
        t = matvec(shat)
        omega = _dot(t, s) / _dot(t, t)
        x = x + alpha * phat + omega * shat
        r = s - omega * t
        # a breakdown (rho or omega zero) ends the iteration where it stands
        k = jnp.where((rho_new == 0) | (omega == 0), -1, k + 1)
        return x, r, rhat, rho_new, alpha, omega, p, v, k
    zeros = jnp.zeros_like(b)
    x, *_ = lax.while_loop(keep_going, step, (x0, r0, r0, one, one, one, zeros, zeros, 0))
    return x


def _gmres_loop(matvec, precond, b, x0, tol, atol, restart, maxiter):
    """Restarted GMRES: each cycle builds a `restart`-step Krylov basis by modified Gram-Schmidt
    Arnoldi on the preconditioned operator and takes the least-squares step in it."""
    n = b.shape[0]
    m = int(min(restart, n))
    # JAX's criterion: the preconditioned residual against |M b| scaled as the tolerance scales |b|
    b_norm = jnp.sqrt(_norm2(b))
    ptol = jnp.sqrt(_norm2(precond(b))) * jnp.minimum(1.0, jnp.maximum(tol * b_norm, atol) / b_norm)
    atol2 = jnp.square(ptol)

    def residual(x):
        return precond(b - matvec(x))

    def cycle(x):
        r = residual(x)
        beta = jnp.sqrt(_norm2(r))
        safe = jnp.where(beta == 0, 1, beta)
        V = jnp.zeros((m + 1, n), b.dtype).at[0].set(r / safe)
        H = jnp.zeros((m + 1, m), b.dtype)

        def arnoldi(j, VH):
            V, H = VH
            w = precond(matvec(V[j]))
            # modified Gram-Schmidt against the basis so far (rows > j are still zero)
            def project(i, wh):
                w, H = wh
                h = jnp.where(i <= j, _dot(V[i], w), 0)
                return w - h * V[i], H.at[i, j].set(h)
            w, H = lax.fori_loop(0, m, project, (w, H))
            h_next = jnp.sqrt(_norm2(w))
            H = H.at[j + 1, j].set(h_next)
            V = V.at[j + 1].set(w / jnp.where(h_next == 0, 1, h_next))
            return V, H
        V, H = lax.fori_loop(0, m, arnoldi, (V, H))
        e1 = jnp.zeros((m + 1,), b.dtype).at[0].set(beta)
        y = jnp.linalg.lstsq(H, e1)[0]
        return x + V[:m].T @ y

    def keep_going(state):
        x, k = state
        return (_norm2(residual(x)) > atol2) & (k < maxiter)

    def step(state):
        x, k = state
        return cycle(x), k + 1
    x, _ = lax.while_loop(keep_going, step, (x0, 0))
    return x


def _solve(name, loop, A, b, x0, M, **kw):
    """The solution pytree; GMRES also reports JAX's `info` (-1 when the solution is NaN, else 0)."""
    matvec, precond, b_flat, x0_flat, unravel = _flat_problem(A, b, x0, M)

    def solve(mv, rhs):
        return loop(mv, precond, rhs, x0_flat, **kw)
    if name == "cg":
        x = lax.custom_linear_solve(matvec, b_flat, solve, symmetric=True)
    else:
        def transpose_solve(vecmat, rhs):
            return loop(vecmat, precond, rhs, x0_flat, **kw)
        x = lax.custom_linear_solve(matvec, b_flat, solve, transpose_solve)
    if name == "gmres":
        return unravel(x), jnp.where(jnp.isnan(jnp.sqrt(_norm2(x))), -1, 0)
    return unravel(x), None


def _maxiter(b, maxiter):
    return 10 * sum(int(np.size(v)) for v in tree_leaves(b)) if maxiter is None else maxiter


def cg(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):
    """Solve A x = b for Hermitian positive definite A by conjugate gradients."""
    return _solve("cg", _cg_loop, A, b, x0, M, tol=tol, atol=atol, maxiter=_maxiter(b, maxiter))


def bicgstab(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):
    """Solve A x = b by the biconjugate gradient stabilized method (any invertible A)."""
    return _solve("bicgstab", _bicgstab_loop, A, b, x0, M, tol=tol, atol=atol, maxiter=_maxiter(b, maxiter))


def gmres(A, b, x0=None, *, tol=1e-5, atol=0.0, restart=20, maxiter=None, M=None, solve_method="batched"):
    """Solve A x = b by GMRES restarted every `restart` steps (any invertible A)."""
    if solve_method not in ("incremental", "batched"):
        raise ValueError(f"invalid solve_method {solve_method!r}, must be either 'incremental' or 'batched'")
    size = sum(int(np.size(v)) for v in tree_leaves(b))
    maxiter = 10 * size if maxiter is None else maxiter
    return _solve("gmres", _gmres_loop, A, b, x0, M, tol=tol, atol=atol, restart=restart, maxiter=maxiter)


__all__ = ["bicgstab", "cg", "gmres"]
