"""`jax.scipy.optimize`: `minimize` with method 'BFGS' (optimize_bfgs.py) or JAX's experimental
'l-bfgs-experimental-do-not-rely-on-this' (optimize_lbfgs.py), returning JAX's `OptimizeResults`."""
from __future__ import annotations

from typing import NamedTuple

from .optimize_bfgs import minimize_bfgs
from .optimize_lbfgs import minimize_lbfgs


class OptimizeResults(NamedTuple):
    """x: solution; success: converged without a failed line search; status: 0 converged,
    1 maxiter reached, 3 zoom failed, 4 saddle point, 5 line search maxiter, -1 undefined;
    fun, jac, hess_inv: value, gradient and inverse Hessian estimate at x; nfev, njev: function
    and gradient evaluations; nit: iterations."""
    x: object
    success: object
    status: object
    fun: object
    jac: object
    hess_inv: object
    nfev: object
    njev: object
    nit: object


def _bfgs(fun, x0, options):
    r = minimize_bfgs(fun, x0, **options)
    return OptimizeResults(x=r.x_k, success=r.converged & ~r.failed, status=r.status, fun=r.f_k,
                           jac=r.g_k, hess_inv=r.H_k, nfev=r.nfev, njev=r.ngev, nit=r.k)


def _lbfgs(fun, x0, options):
    r = minimize_lbfgs(fun, x0, **options)
    return OptimizeResults(x=r.x_k, success=r.converged & ~r.failed, status=r.status, fun=r.f_k,
                           jac=r.g_k, hess_inv=None, nfev=r.nfev, njev=r.ngev, nit=r.k)


# method name (lower case) -> solver(fun_of_x, x0, options) -> OptimizeResults
METHODS = {"bfgs": _bfgs, "l-bfgs-experimental-do-not-rely-on-this": _lbfgs}


def minimize(fun, x0, args=(), *, method, tol=None, options=None):
    """Minimize fun(x, *args) over a 1-D x from x0. `tol` is accepted and ignored, as in JAX;
    `options` go to the solver (BFGS: maxiter, norm, gtol, line_search_maxiter)."""
    options = {} if options is None else options
    if not isinstance(args, tuple):
        raise TypeError(f"args argument to jax.scipy.optimize.minimize must be a tuple, got {args}")
    solver = METHODS.get(method.lower())
    if solver is None:
        raise ValueError(f"Method {method} not recognized")
    return solver(lambda x: fun(x, *args), x0, options)
