"""BFGS (Nocedal & Wright, Numerical Optimization, algorithm 6.1): quasi-Newton steps along
-H g with the strong-Wolfe line search of optimize_linesearch, and the rank-two update of the
inverse Hessian estimate H; the loop is a `lax.while_loop`, so it runs under jit and vmap. The
defaults, counters and end states are JAX 0.10.2's."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...api import api  # INHERENT: up to the api
from ...lax import lax
from .. import numpy as jnp
from .optimize_linesearch import line_search, weak_int, where

# End states reported in `status` (a failed line search adds its own status to LINE_SEARCH_FAILED).
CONVERGED, MAXITER_REACHED, LINE_SEARCH_FAILED, UNDEFINED = 0, 1, 2, -1
ITERATIONS_PER_VARIABLE = 200   # default maxiter = 200 * n


class BFGSResults(NamedTuple):
    converged: object
    failed: object
    k: object
    nfev: object
    ngev: object
    nhev: object
    x_k: object
    f_k: object
    g_k: object
    H_k: object
    old_old_fval: object
    status: object
    line_search_status: object


def _inverse_hessian_update(H, s, y):
    """H+ = (I - rho s y^T) H (I - rho y s^T) + rho s s^T with rho = 1 / y.s; H is kept when
    y.s = 0 makes rho infinite."""
    rho = jnp.reciprocal(jnp.dot(y, s))
    w = jnp.eye(s.shape[0], dtype=rho.dtype) - rho * (s[:, None] * y[None, :])
    updated = jnp.dot(jnp.dot(w, H), w.T) + rho * (s[:, None] * s[None, :])
    return where(jnp.isfinite(rho), updated, H)


def minimize_bfgs(fun, x0, maxiter=None, norm=np.inf, gtol=1e-5, line_search_maxiter=10):
    """Minimize fun(x) for a 1-D x from x0; stops when the `norm` of the gradient is below gtol,
    after `maxiter` iterations, or when a line search fails."""
    if maxiter is None:
        maxiter = np.size(x0) * ITERATIONS_PER_VARIABLE
    n = x0.shape[0]
    f_0, g_0 = api.value_and_grad(fun)(x0)
    state = dict(converged=jnp.linalg.norm(g_0, ord=norm) < gtol, failed=jnp.asarray(False),
                 k=weak_int(0), nfev=weak_int(1), ngev=weak_int(1),
                 x_k=x0, f_k=f_0, g_k=g_0, H_k=jnp.eye(n, dtype=x0.dtype),
                 # a made-up previous value that makes the first trial step about 1/|g|
                 old_old_fval=f_0 + jnp.linalg.norm(g_0) / 2,
                 line_search_status=weak_int(0))

    def keep_going(s):
        return ~s["converged"] & ~s["failed"] & (s["k"] < maxiter)

    def step(s):
        p = -jnp.dot(s["H_k"], s["g_k"])
        ls = line_search(fun, s["x_k"], p, old_fval=s["f_k"], old_old_fval=s["old_old_fval"],
                         gfk=s["g_k"], maxiter=line_search_maxiter)
        move = ls.a_k * p
        # the step is taken even when the search failed, as JAX does; the loop then stops
        return dict(converged=jnp.linalg.norm(ls.g_k, ord=norm) < gtol, failed=ls.failed,
                    k=s["k"] + 1, nfev=s["nfev"] + ls.nfev, ngev=s["ngev"] + ls.ngev,
                    x_k=s["x_k"] + move, f_k=ls.f_k, g_k=ls.g_k,
                    H_k=_inverse_hessian_update(s["H_k"], move, ls.g_k - s["g_k"]),
                    old_old_fval=s["f_k"], line_search_status=ls.status)

    s = lax.while_loop(keep_going, step, state)
    status = jnp.where(s["converged"], CONVERGED,
                       jnp.where(s["k"] == maxiter, MAXITER_REACHED,
                                 jnp.where(s["failed"], LINE_SEARCH_FAILED + s["line_search_status"],
                                           UNDEFINED)))
    return BFGSResults(converged=s["converged"], failed=s["failed"], k=s["k"], nfev=s["nfev"],
                       ngev=s["ngev"], nhev=weak_int(0), x_k=s["x_k"], f_k=s["f_k"], g_k=s["g_k"],
                       H_k=s["H_k"], old_old_fval=s["old_old_fval"], status=status,
                       line_search_status=s["line_search_status"])
