"""L-BFGS (Nocedal & Wright, Numerical Optimization, algorithm 7.5; complex x as in Sorber et al.
2012): the inverse Hessian is never stored, only the last `maxcor` steps s, gradient changes y and
1 / y.s, applied by the two-loop recursion. JAX 0.10.2 exposes it as the method
'l-bfgs-experimental-do-not-rely-on-this'; defaults, counters and end states follow it."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...api import api  # INHERENT: up to the api
from ...lax import lax
from .. import numpy as jnp
from .optimize_linesearch import line_search, weak_int, dtype_of

ITERATIONS_PER_VARIABLE = 200   # default maxiter when no budget at all is given
# End states, in increasing priority (a later row overrides an earlier one when both hold).
STATUS_PRIORITY = (("small_decrease", 4), ("gradient_budget", 3), ("function_budget", 2),
                   ("maxiter", 1), ("line_search_failed", 5))


class LBFGSResults(NamedTuple):
    converged: object
    failed: object
    k: object
    nfev: object
    ngev: object
    x_k: object
    f_k: object
    g_k: object
    s_history: object
    y_history: object
    rho_history: object
    gamma: object
    status: object
    ls_status: object


def _push(history, new):
    """Drop the oldest row, append `new` as the newest (last) row."""
    return jnp.concatenate([history[1:], jnp.asarray(new, dtype=history.dtype)[None]], axis=0)


def _direction(s):
    """Two-loop recursion: -H g from the stored pairs (the newest last), scaled by gamma."""
    size = s["rho_history"].shape[0]
    real_dtype = s["rho_history"].dtype
    used = jnp.minimum(s["k"], size)

    def newest_first(j, carry):
        q, alphas = carry
        i = size - 1 - j
        alpha = s["rho_history"][i] * jnp.dot(jnp.conj(s["s_history"][i]), q).real.astype(real_dtype)
        return q - alpha * jnp.conj(s["y_history"][i]), alphas.at[i].set(alpha)

    q, alphas = lax.fori_loop(0, used, newest_first,
                              (-jnp.conj(s["g_k"]), jnp.zeros_like(s["rho_history"])))

    def oldest_first(j, q):
        i = size - used + j
        beta = s["rho_history"][i] * jnp.dot(s["y_history"][i], q).real.astype(real_dtype)
        return q + (alphas[i] - beta) * s["s_history"][i]

    return lax.fori_loop(0, used, oldest_first, s["gamma"] * q)


def minimize_lbfgs(fun, x0, maxiter=None, norm=np.inf, maxcor=10, ftol=2.220446049250313e-09,
                   gtol=1e-05, maxfun=None, maxgrad=None, maxls=20):
    """Minimize fun(x) from x0 until the `norm` of the gradient is below gtol, the decrease of f
    is below ftol, a budget (maxiter, maxfun, maxgrad) is spent, or a line search fails."""
    n = len(x0)
    dtype = dtype_of(x0)
    if maxiter is None and maxfun is None and maxgrad is None:
        maxiter = n * ITERATIONS_PER_VARIABLE
    budgets = {name: np.inf if value is None else value
               for name, value in (("maxiter", maxiter), ("maxfun", maxfun), ("maxgrad", maxgrad))}
    f_0, g_0 = api.value_and_grad(fun)(x0)
    state = dict(converged=jnp.asarray(False), failed=jnp.asarray(False), k=weak_int(0),
                 nfev=weak_int(1), ngev=weak_int(1), x_k=x0, f_k=f_0, g_k=g_0,
                 s_history=jnp.zeros((maxcor, n), dtype=dtype), y_history=jnp.zeros((maxcor, n), dtype=dtype),
                 rho_history=jnp.zeros((maxcor,), dtype=dtype),
                 gamma=lax._convert_element_type(jnp.asarray(1.), weak_type=True),
                 status=weak_int(0), ls_status=weak_int(0))

    def step(s):
        p = _direction(s)
        ls = line_search(f=fun, xk=s["x_k"], pk=p, old_fval=s["f_k"], gfk=s["g_k"], maxiter=maxls)
        move = jnp.asarray(ls.a_k).astype(dtype_of(p)) * p
        dg = ls.g_k - s["g_k"]
        curvature = jnp.real(jnp.dot(dg, move))
        ended = dict(small_decrease=s["f_k"] - ls.f_k < ftol, gradient_budget=s["ngev"] >= budgets["maxgrad"],
                     function_budget=s["nfev"] >= budgets["maxfun"], maxiter=s["k"] >= budgets["maxiter"],
                     line_search_failed=ls.failed)
        status = jnp.asarray(0)
        for reason, code in STATUS_PRIORITY:
            status = jnp.where(ended[reason], code, status)
        converged = jnp.linalg.norm(ls.g_k, ord=norm) < gtol
        return dict(converged=converged, failed=(status > 0) & ~converged, k=s["k"] + 1,
                    nfev=s["nfev"] + ls.nfev, ngev=s["ngev"] + ls.ngev,
                    x_k=(s["x_k"] + move).astype(dtype_of(s["x_k"])), f_k=ls.f_k.astype(dtype_of(s["f_k"])),
                    g_k=ls.g_k.astype(dtype_of(s["g_k"])),
                    s_history=_push(s["s_history"], move), y_history=_push(s["y_history"], dg),
                    rho_history=_push(s["rho_history"], jnp.reciprocal(curvature).astype(dtype_of(dg))),
                    gamma=(curvature / jnp.real(jnp.dot(jnp.conj(dg), dg))).astype(dtype_of(s["g_k"])),
                    status=jnp.where(converged, 0, status), ls_status=ls.status)

    s = lax.while_loop(lambda s: ~s["converged"] & ~s["failed"], step, state)
    return LBFGSResults(**s)
