"""Inexact line search along a descent direction, ending where the strong Wolfe conditions hold
(Nocedal & Wright, Numerical Optimization, algorithms 3.5 and 3.6), laid out step for step as
JAX 0.10.2's `jax.scipy.optimize` line search so that BFGS's counters and iterates agree with it.

Everything is a `lax.while_loop` over a dict of arrays and branch-free `jnp.where` selection, so the
search runs eagerly, under jit and under vmap alike."""
from __future__ import annotations

from typing import NamedTuple

from ...api import api  # INHERENT: up to the api
from ...base import dtypes
from ...lax import lax
from .. import numpy as jnp
from ..numpy._util import _promote_dtypes_inexact
from ...tracing.tracing import get_aval


def weak_int(value):
    """Counters are weakly typed ints, as Python ints carried through JAX's loops are."""
    return lax._convert_element_type(jnp.asarray(value), weak_type=True)


def dtype_of(x):
    return get_aval(jnp.asarray(x)).dtype

# Wolfe constants (sufficient decrease, curvature) and the zoom's guards, as JAX's defaults.
C1, C2 = 1e-4, 0.9
CUBIC_MARGIN, QUAD_MARGIN = 0.2, 0.1    # interpolants too close to an end of the bracket are refused
ZOOM_MAX_STEPS = 30
# A bracket narrower than this ends the zoom as failed (keyed on the float width in bits).
ZOOM_MIN_WIDTH = {True: 1e-10, False: 1e-5}     # {64-bit?: width}
SMALLEST_STEP_BELOW_64BIT = 1e-8               # keeps a <64-bit search from stalling at step 0
# Line-search end states reported in `status`.
STATUS_OK, STATUS_ZOOM_FAILED, STATUS_MAXITER = 0, 1, 3


class LineSearchResults(NamedTuple):
    failed: object
    nit: object
    nfev: object
    ngev: object
    k: object
    a_k: object
    f_k: object
    g_k: object
    status: object


def where(flag, if_true, if_false):
    """jnp.where with the scalar flag broadcast to the operands' shape first: the engine's vmap
    rule for select_n mis-handles a batched scalar flag choosing between batched vectors."""
    shape = get_aval(jnp.asarray(if_true)).shape
    return jnp.where(jnp.broadcast_to(flag, shape) if shape else flag, if_true, if_false)


def _select(flag, if_true, if_false, keys):
    """Per-key `where` over two state dicts (the branch-free form of an if)."""
    return {key: where(flag, if_true[key], if_false[key]) for key in keys}


def _cubic_minimizer(a, fa, fpa, b, fb, c, fc):
    """Minimizer of the cubic through (a, fa) with slope fpa at a and through (b, fb), (c, fc);
    nan when it has none (the bracket check then rejects it)."""
    db, dc = b - a, c - a
    denom = (db * dc) ** 2 * (db - dc)
    rb = fb - fa - fpa * db
    rc = fc - fa - fpa * dc
    cubic = (dc ** 2 * rb + -(db ** 2) * rc) / denom
    square = (-(dc ** 3) * rb + db ** 3 * rc) / denom
    disc = square * square - 3. * cubic * fpa
    return a + (-square + jnp.sqrt(disc)) / (3. * cubic)


def _quadratic_minimizer(a, fa, fpa, b, fb):
    """Minimizer of the parabola through (a, fa) with slope fpa at a and through (b, fb)."""
    db = b - a
    curvature = (fb - fa - fpa * db) / (db ** 2)
    return a - fpa / (2. * curvature)


def _zoom(probe, sufficient_decrease_fails, curvature_holds, lo, hi, g_0, skip):
    """Algorithm 3.6: shrink the bracket [lo, hi] (each a (step, value, slope) triple) until a step
    satisfies both Wolfe conditions. `skip` (a bool array) makes it a no-op, so that a batched
    caller can run it unconditionally."""
    (a_lo, phi_lo, dphi_lo), (a_hi, phi_hi, dphi_hi) = lo, hi
    step_dtype, value_dtype, grad_dtype = dtype_of(a_lo), dtype_of(phi_lo), dtype_of(g_0)
    state = dict(
        done=jnp.asarray(False), failed=jnp.asarray(False), j=weak_int(0),
        a_lo=a_lo, phi_lo=phi_lo, dphi_lo=dphi_lo, a_hi=a_hi, phi_hi=phi_hi, dphi_hi=dphi_hi,
        # the third point for the cubic: the previous end that was replaced
        a_rec=(a_lo + a_hi) / 2., phi_rec=(phi_lo + phi_hi) / 2.,
        a_star=jnp.asarray(1., dtype=step_dtype), phi_star=phi_lo, dphi_star=dphi_lo, g_star=g_0,
        nfev=weak_int(0), ngev=weak_int(0))
    min_width = ZOOM_MIN_WIDTH[dtypes.finfo(step_dtype).bits >= 64]

    def next_trial_step(s):
        width = s["a_hi"] - s["a_lo"]   # signed: a reversed bracket fails the width check below
        left, right = jnp.minimum(s["a_hi"], s["a_lo"]), jnp.maximum(s["a_hi"], s["a_lo"])

        def inside(a, margin):
            return (a > left + margin * width) & (a < right - margin * width)

        cubic = _cubic_minimizer(s["a_lo"], s["phi_lo"], s["dphi_lo"], s["a_hi"], s["phi_hi"],
                                 s["a_rec"], s["phi_rec"])
        quad = _quadratic_minimizer(s["a_lo"], s["phi_lo"], s["dphi_lo"], s["a_hi"], s["phi_hi"])
        use_cubic = (s["j"] > 0) & inside(cubic, CUBIC_MARGIN)
        use_quad = ~use_cubic & inside(quad, QUAD_MARGIN)
        bisect = (s["a_lo"] + s["a_hi"]) / 2.
        return jnp.where(use_cubic, cubic, jnp.where(use_quad, quad, bisect)), width <= min_width

    def body(s):
        a_j, too_narrow = next_trial_step(s)
        phi_j, dphi_j, g_j = probe(a_j)
        trial = dict(a=a_j, phi=phi_j.astype(value_dtype), dphi=dphi_j.astype(value_dtype),
                     g=g_j.astype(grad_dtype))
        # Exactly one of three moves: the trial becomes the new hi end, the answer, or the new lo
        # end (and when the slope there points back past lo, the old lo becomes the hi end).
        becomes_hi = sufficient_decrease_fails(trial["a"], trial["phi"]) | (trial["phi"] >= s["phi_lo"])
        is_answer = curvature_holds(trial["dphi"]) & ~becomes_hi
        becomes_lo = ~becomes_hi & ~is_answer
        lo_turns_hi = becomes_lo & (trial["dphi"] * (s["a_hi"] - s["a_lo"]) >= 0.)

        new = dict(s)
        new.update(_select(becomes_hi, dict(a_hi=trial["a"], phi_hi=trial["phi"], dphi_hi=trial["dphi"],
                                            a_rec=s["a_hi"], phi_rec=s["phi_hi"]), s,
                           ("a_hi", "phi_hi", "dphi_hi", "a_rec", "phi_rec")))
        new.update(_select(is_answer, dict(a_star=trial["a"], phi_star=trial["phi"],
                                           dphi_star=trial["dphi"], g_star=trial["g"]), s,
                           ("a_star", "phi_star", "dphi_star", "g_star")))
        new.update(_select(lo_turns_hi, dict(a_hi=s["a_lo"], phi_hi=s["phi_lo"], dphi_hi=s["dphi_lo"],
                                             a_rec=s["a_hi"], phi_rec=s["phi_hi"]), new,
                           ("a_hi", "phi_hi", "dphi_hi", "a_rec", "phi_rec")))
        new.update(_select(becomes_lo & ~lo_turns_hi, dict(a_rec=s["a_lo"], phi_rec=s["phi_lo"]), new,
                           ("a_rec", "phi_rec")))
        new.update(_select(becomes_lo, dict(a_lo=trial["a"], phi_lo=trial["phi"], dphi_lo=trial["dphi"]),
                           new, ("a_lo", "phi_lo", "dphi_lo")))
        new["done"] = s["done"] | is_answer
        new["j"] = s["j"] + 1
        new["failed"] = s["failed"] | too_narrow | (new["j"] >= ZOOM_MAX_STEPS)
        new["nfev"] = s["nfev"] + 1
        new["ngev"] = s["ngev"] + 1
        return new

    return lax.while_loop(lambda s: ~s["done"] & ~skip & ~s["failed"], body, state)


def line_search(f, xk, pk, old_fval=None, old_old_fval=None, gfk=None, c1=C1, c2=C2, maxiter=20):
    """Algorithm 3.5: try steps start, 2*start, 4*start, ... from xk along pk until one satisfies
    the strong Wolfe conditions or brackets one (then zoom). Returns LineSearchResults."""
    xk, pk = _promote_dtypes_inexact(xk, pk)
    step_dtype = dtype_of(pk)

    def probe(t):
        t = jnp.asarray(t, dtype=step_dtype)
        phi, g = api.value_and_grad(f)(xk + t * pk)
        return phi, jnp.real(jnp.dot(g, pk)), g

    given = old_fval is not None and gfk is not None
    if given:
        phi_0, dphi_0 = old_fval, jnp.real(jnp.dot(gfk, pk))
    else:
        phi_0, dphi_0, gfk = probe(0)
    phi_0, dphi_0 = jnp.asarray(phi_0), jnp.asarray(dphi_0)
    if old_old_fval is None:
        start = jnp.asarray(1., dtype=step_dtype)
    else:  # step that would repeat the last decrease, capped at the full step 1
        guess = 1.01 * 2 * (phi_0 - old_old_fval) / dphi_0
        start = jnp.where(guess > 1, 1.0, guess).astype(step_dtype)

    def sufficient_decrease_fails(a, phi):
        return phi > phi_0 + c1 * a * dphi_0

    def curvature_holds(dphi):
        return jnp.abs(dphi) <= -c2 * dphi_0

    zero = jnp.asarray(0., dtype=step_dtype)
    state = dict(done=jnp.asarray(False), failed=jnp.asarray(False),
                 i=weak_int(1),    # Nocedal & Wright count from 1
                 a_prev=zero, phi_prev=phi_0, dphi_prev=dphi_0,
                 nfev=weak_int(0 if given else 1),
                 ngev=weak_int(0 if given else 1),
                 a_star=zero, phi_star=phi_0, dphi_star=dphi_0, g_star=gfk)

    def body(s):
        a_i = jnp.where(s["i"] == 1, start, s["a_prev"] * 2.)
        phi_i, dphi_i, g_i = probe(a_i)
        # The bracket is [prev, a_i] when a_i overshoots, [a_i, prev] when the slope turned uphill.
        overshoot = sufficient_decrease_fails(a_i, phi_i) | ((phi_i >= s["phi_prev"]) & (s["i"] > 1))
        accept = curvature_holds(dphi_i) & ~overshoot
        uphill = (dphi_i >= 0.) & ~overshoot & ~accept
        prev = (s["a_prev"], s["phi_prev"], s["dphi_prev"])
        here = (a_i, phi_i, dphi_i)
        lo = tuple(jnp.where(overshoot, p, h) for p, h in zip(prev, here))
        hi = tuple(jnp.where(overshoot, h, p) for p, h in zip(prev, here))
        zoomed = _zoom(probe, sufficient_decrease_fails, curvature_holds, lo, hi, gfk,
                       ~(overshoot | uphill))
        new = dict(s)
        new.update(_select(overshoot | uphill, zoomed, s, ("a_star", "phi_star", "dphi_star", "g_star")))
        new.update(_select(accept, dict(a_star=a_i, phi_star=phi_i, dphi_star=dphi_i, g_star=g_i), new,
                           ("a_star", "phi_star", "dphi_star", "g_star")))
        new["done"] = s["done"] | overshoot | accept | uphill
        new["failed"] = s["failed"] | ((overshoot | uphill) & zoomed["failed"])
        new["nfev"] = s["nfev"] + 1 + zoomed["nfev"]
        new["ngev"] = s["ngev"] + 1 + zoomed["ngev"]
        new.update(i=s["i"] + 1, a_prev=a_i, phi_prev=phi_i, dphi_prev=dphi_i)
        return new

    s = lax.while_loop(lambda s: ~s["done"] & (s["i"] <= maxiter) & ~s["failed"], body, state)
    status = jnp.where(s["failed"], STATUS_ZOOM_FAILED,
                       jnp.where(s["i"] > maxiter, STATUS_MAXITER, STATUS_OK))
    a_k = s["a_star"]
    if dtypes.finfo(step_dtype).bits != 64:
        floor = SMALLEST_STEP_BELOW_64BIT
        a_k = jnp.where(jnp.abs(a_k) < floor, jnp.sign(a_k) * floor, a_k)
    return LineSearchResults(failed=s["failed"] | ~s["done"], nit=s["i"] - 1, nfev=s["nfev"],
                             ngev=s["ngev"], k=s["i"], a_k=a_k, f_k=s["phi_star"], g_k=s["g_star"],
                             status=status)
