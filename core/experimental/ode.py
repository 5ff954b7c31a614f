"""`jax.experimental.ode`: `odeint`, an adaptive Runge-Kutta solver for `dy/dt = func(y, t, *args)`.

The method is Dormand-Prince 5(4) (Dormand & Prince 1980; Shampine 1986 for its dense output):
seven stages per step (the last one is the next step's first, "first same as last"), an embedded
4th-order solution whose difference with the 5th-order one estimates the local error, and a 4th-order
polynomial through the step for the values at the requested times, so the output times never shorten
a step. As in JAX:
- the first step size follows Hairer, Norsett & Wanner (Solving ODEs I, II.4): one trial Euler step
  measures how fast `func` changes;
- a step is accepted when the root-mean-square of error / (atol + rtol * max(|y0|, |y1|)) is <= 1;
  either way the next step size is 0.9 * ratio**(-1/5) times the last (at most 10 times larger, and
  at most 5 times smaller after a rejection), clipped to [0, hmax];
- `mxstep` bounds the attempts per output interval (then the output is the last polynomial's value,
  extrapolated: JAX does not raise either);
- the state is flattened to one vector (a pytree `y0` works), the solver is a `lax.scan` over the
  output times with a `lax.while_loop` of steps inside, all under one `jit`, so `odeint` works under
  `jit` and `vmap` (a batched loop runs until every member has reached the time);
- derivatives come from a custom_vjp adjoint (Chen et al. 2018, appendix C): the cotangent runs
  backwards in time with `odeint` itself on the system augmented by vjp(func), which gives the
  gradients with respect to `y0`, the times `t` and every array in `args` and in `func`'s closure
  (hoisted with `closure_convert`). Forward mode (`jvp`, `jacfwd`) is refused as for any custom_vjp.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import lax
from .. import numpy as jnp
from .._engine.api.api import jit, vjp, vmap
from .._engine.api.custom_derivatives import closure_convert, custom_vjp
from ..extend.core import valid_jaxtype
from ..flatten_util import ravel_pytree
from ..tree_util import tree_leaves, tree_map

__all__ = ["odeint"]


# ---- the Dormand-Prince tableau (exact rationals, rounded once to the state's dtype) ----
# node c_s of stage s = 1..6 (stage 0 sits at the step's start)
_NODES = (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1., 1.)
# a[s]: the weights of stages 0..s-1 for stage s+1
_STAGE_WEIGHTS = (
    (1 / 5,),
    (3 / 40, 9 / 40),
    (44 / 45, -56 / 15, 32 / 9),
    (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
    (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
    (35 / 384, 0., 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84),
)
# the 5th-order solution (equal to the last stage's weights, so stage 6 is f at the new point)
_B5 = (35 / 384, 0., 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.)
# the embedded 4th-order solution JAX pairs with it; the error estimate is h * sum((b5 - b4) k)
_B4 = (1951 / 21600, 0., 22642 / 50085, 451 / 720, -12231 / 42400, 649 / 6300, 1 / 60)
_ERR = tuple(b5 - b4 for b5, b4 in zip(_B5, _B4))
# Shampine's weights for the solution at the step's midpoint (dense output)
_MID = tuple(w / 2 for w in (6025192743 / 30085553152, 0., 51252292925 / 65400821598,
                             -2691868925 / 45128329728, 187940372067 / 1594534317056,
                             -1776094331 / 19743644256, 11237099 / 235043384))
# JAX's constants for the step-size controller
_SAFETY, _GROW_MAX, _SHRINK_MAX, _ORDER = 0.9, 10.0, 0.2, 5.0


def _combine(weights, ks, dtype):
    """sum_i weights[i] * ks[i] over the stages, as one (stages,) @ (stages, n) product."""
    return jnp.dot(jnp.asarray(np.array(weights, dtype=np.float64), dtype=dtype), jnp.stack(ks))


def _dopri_step(f, y, fy, t, h):
    """One Dormand-Prince step of size h from (t, y) with fy = f(y, t): (y_new, f(y_new), error, stages)."""
    dtype = fy.dtype
    hy = h.astype(dtype)
    ks = [fy]
    for node, weights in zip(_NODES, _STAGE_WEIGHTS):
        padded = weights + (0.,) * (7 - len(weights))
        y_stage = y + hy * _combine(padded, ks + [jnp.zeros_like(fy)] * (7 - len(ks)), dtype)
        ks.append(f(y_stage, t + h * jnp.asarray(node, dtype=h.dtype)))
    y_new = hy * _combine(_B5, ks, dtype) + y
    error = hy * _combine(_ERR, ks, dtype)
    return y_new, ks[-1], error, ks


def _dense_output(y, y_new, ks, h):
    """Coefficients (highest power first) of the quartic p on [0, 1] with p(0) = y, p(1) = y_new,
    p'(0) = h f(y), p'(1) = h f(y_new) and p(1/2) = Shampine's midpoint value."""
    dtype = y.dtype
    h = h.astype(dtype)
    y_mid = y + h * _combine(_MID, ks, dtype)
    d0, d1 = h * ks[0], h * ks[-1]
    return jnp.stack([
        2. * d1 - 2. * d0 - 8. * y - 8. * y_new + 16. * y_mid,
        5. * d0 - 3. * d1 + 18. * y + 14. * y_new - 32. * y_mid,
        d1 - 4. * d0 - 11. * y - 5. * y_new + 16. * y_mid,
        d0,
        y,
    ])


def _horner(coeffs, s):
    # from zero, as jnp.polyval: times that do not increase (s = -inf) give nan, as in JAX
    out = jnp.zeros_like(coeffs[0])
    for c in coeffs:
        out = out * s + c
    return out


def _first_step(f, t0, y0, fy0, rtol, atol):
    """Hairer-Norsett-Wanner's starting step for a method of order 4 (the embedded solution)."""
    dtype = jnp.result_type(y0, fy0)
    if not jnp.issubdtype(dtype, jnp.inexact):
        dtype = jnp.result_type(float)
    y0, fy0 = y0.astype(dtype), fy0.astype(dtype)
    weight = (atol + jnp.abs(y0) * rtol).astype(dtype)
    size_y = jnp.linalg.norm(y0 / weight)
    size_f = jnp.linalg.norm(fy0 / weight)
    h0 = jnp.where((size_y < 1e-5) | (size_f < 1e-5), 1e-6, 0.01 * size_y / size_f)
    fy1 = f(y0 + h0.astype(dtype) * fy0, t0 + h0)
    curvature = jnp.linalg.norm((fy1 - fy0) / weight) / h0
    h1 = jnp.where((size_f <= 1e-15) & (curvature <= 1e-15), jnp.maximum(1e-6, h0 * 1e-3),
                   (0.01 / jnp.maximum(size_f, curvature)) ** (1. / 5.))
    return jnp.minimum(100. * h0, h1)


def _error_ratio(error, y, y_new, rtol, atol):
    tol = (atol + rtol * jnp.maximum(jnp.abs(y), jnp.abs(y_new))).astype(error.dtype)
    r = error / tol
    sq = r.real ** 2 + r.imag ** 2 if jnp.iscomplexobj(r) else r ** 2
    return jnp.sqrt(jnp.mean(sq))


def _next_step(h, ratio):
    shrink = jnp.where(ratio < 1, 1.0, _SHRINK_MAX)
    factor = jnp.minimum(_GROW_MAX, jnp.maximum(ratio ** (-1.0 / _ORDER) * _SAFETY, shrink))
    return jnp.where(ratio == 0, h * _GROW_MAX, h * factor)


def _integrate(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    """The solution at every time of ts (a flat state y0): shape (len(ts), y0.size)."""
    def f(y, t):
        return func(y, t, *args)

    def to_time(state, t_out):
        def keep_going(loop):
            count, _, _, t, h, _, _ = loop
            return (t < t_out) & (count < mxstep) & (h > 0)

        def attempt(loop):
            count, y, fy, t, h, t_prev, poly = loop
            y_new, fy_new, error, ks = _dopri_step(f, y, fy, t, h)
            ratio = _error_ratio(error, y, y_new, rtol, atol)
            poly_new = _dense_output(y, y_new, ks, h)
            h_next = jnp.clip(_next_step(h, ratio), min=0., max=hmax)
            ok = ratio <= 1.
            accepted = (y_new, fy_new, t + h, h_next, t, poly_new)
            rejected = (y, fy, t, h_next, t_prev, poly)
            return (count + 1,) + tuple(jnp.where(ok, a, r) for a, r in zip(accepted, rejected))

        _, *state = lax.while_loop(keep_going, attempt, (0,) + tuple(state))
        _, _, t, _, t_prev, poly = state
        s = (t_out - t_prev) / (t - t_prev)
        return tuple(state), _horner(poly, s.astype(poly.dtype))

    fy0 = f(y0, ts[0])
    h0 = jnp.clip(_first_step(f, ts[0], y0, fy0, rtol, atol), min=0., max=hmax)
    start = (y0, fy0, ts[0], h0, ts[0], jnp.stack([y0] * 5))
    _, ys = lax.scan(to_time, start, ts[1:])
    return jnp.concatenate((y0[None], ys))


_integrate = custom_vjp(_integrate, nondiff_argnums=(0, 1, 2, 3, 4))


def _integrate_fwd(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    ys = _integrate(func, rtol, atol, mxstep, hmax, y0, ts, *args)
    return ys, (ys, ts, args)


def _integrate_bwd(func, rtol, atol, mxstep, hmax, saved, ys_bar):
    """The adjoint: between consecutive output times, solve backwards (in reversed time s = -t)
    y' = -f, a' = -a df/dy, and the running sums of a df/dt and a df/dargs; each output time adds its
    cotangent to a and gives t_i its cotangent f(y_i, t_i) . g_i."""
    ys, ts, args = saved

    def backwards(state, s, *args):
        y, adj = state[0], state[1]
        dy, pullback = vjp(func, y, -s, *args)
        return (-dy, *pullback(adj))

    def interval(carry, i):
        adj, t0_bar, args_bar = carry
        t_bar = jnp.dot(func(ys[i], ts[i], *args), ys_bar[i]).real
        t0_bar = t0_bar - t_bar
        path = odeint(backwards, (ys[i], adj, t0_bar, args_bar), jnp.stack([-ts[i], -ts[i - 1]]),
                      *args, rtol=rtol, atol=atol, mxstep=mxstep, hmax=hmax)
        _, adj, t0_bar, args_bar = tree_map(operator.itemgetter(1), path)
        return (adj + ys_bar[i - 1], t0_bar, args_bar), t_bar

    start = (ys_bar[-1], 0., tree_map(jnp.zeros_like, args))
    (y0_bar, t0_bar, args_bar), ts_bar_rev = lax.scan(interval, start, jnp.arange(len(ts) - 1, 0, -1))
    ts_bar = jnp.concatenate([jnp.array([t0_bar]), ts_bar_rev[::-1]])
    return (y0_bar, ts_bar, *args_bar)


_integrate.defvjp(_integrate_fwd, _integrate_bwd)


def _flat_state(func, unravel):
    def flat(y, t, *args):
        return ravel_pytree(func(unravel(y), t, *args))[0]
    return flat


def _solve(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    flat_y0, unravel = ravel_pytree(y0)
    ys = _integrate(_flat_state(func, unravel), rtol, atol, mxstep, hmax, flat_y0, ts, *args)
    return vmap(unravel)(ys)


_solve = jit(_solve, static_argnums=(0, 1, 2, 3, 4))


def odeint(func, y0, t, *args, rtol=1.4e-8, atol=1.4e-8, mxstep=jnp.inf, hmax=jnp.inf):
    """Solve dy/dt = func(y, t, *args) from y(t[0]) = y0; returns y at every time of `t`.

    Args:
      func: the derivative, `func(y, t, *args)`, returning the structure of `y0`.
      y0: the initial state: an array or a pytree of arrays.
      t: a 1-d float array of increasing times; the first is the time of y0.
      *args: extra arrays (or pytrees of arrays) passed to func; gradients flow to them.
      rtol, atol: relative and absolute tolerances of the local error per step.
      mxstep: the most step attempts per output time.
      hmax: the largest step size.

    Returns:
      `y0`'s structure with a new leading axis of length `len(t)`.
    """
    for leaf in tree_leaves(args):
        if not valid_jaxtype(leaf):
            raise TypeError(f"The contents of odeint *args must be arrays or scalars, but got {leaf}.")
    if not hasattr(t, "dtype"):
        raise AttributeError(f"'{type(t).__name__}' object has no attribute 'dtype'\n(odeint's t must be an "
                             "array of float times, as in JAX: jnp.array(...) or jnp.linspace(0., 10., 101))")
    if not jnp.issubdtype(t.dtype, jnp.floating):
        raise TypeError(f"t must be an array of floats, but got {t}.")
    converted, consts = closure_convert(func, y0, t[0], *args)
    return _solve(converted, rtol, atol, mxstep, hmax, y0, t, *args, *consts)
