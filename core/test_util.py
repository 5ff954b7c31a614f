"""`jax.test_util`: check a function's derivatives against finite differences."""
from __future__ import annotations

import itertools

import numpy as np

from . import dtypes
from .api import jvp, linearize, vjp
from .tree_util import tree_flatten, tree_map, tree_unflatten

EPS = 1e-4
# loosest tolerance of a check, by dtype (finite differences in float32 are rough)
_GRAD_TOL = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 2e-3, np.dtype(np.float64): 1e-5,
             np.dtype(np.complex64): 1e-3, np.dtype(np.complex128): 1e-5}


def _dtype(x):
    return dtypes.dtype_and_weak(x)[0]


def _tol(tol, x):
    return tol if tol is not None else _GRAD_TOL.get(np.dtype(_dtype(x)), 1e-5)


def _check_close(xs, ys, atol, rtol, err_msg=""):
    for x, y in zip(tree_flatten(xs)[0], tree_flatten(ys)[0]):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), atol=_tol(atol, x), rtol=_tol(rtol, x),
                                   err_msg=err_msg)


def _random_like(rng, x):
    shape, dt = np.shape(x), np.dtype(_dtype(x))
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def _add(xs, ys, scale):
    return tree_map(lambda x, y: np.asarray(x) + scale * np.asarray(y).astype(np.asarray(x).dtype), xs, ys)


def _inner(xs, ys):
    return sum(np.vdot(np.asarray(x), np.asarray(y)) for x, y in zip(tree_flatten(xs)[0], tree_flatten(ys)[0]))


def numerical_jvp(f, primals, tangents, eps=EPS):
    """Central difference (f(x + eps t) - f(x - eps t)) / 2 eps, leaf by leaf."""
    plus = f(*_add(primals, tangents, eps))
    minus = f(*_add(primals, tangents, -eps))
    return tree_map(lambda a, b: (np.asarray(a) - np.asarray(b)) / (2 * eps), plus, minus)


def check_jvp(f, f_jvp, args, atol=None, rtol=None, eps=EPS, err_msg=""):
    rng = np.random.RandomState(0)
    tangent = tree_map(lambda x: _random_like(rng, x), args)
    v_out, t_out = f_jvp(args, tangent)
    _check_close(v_out, f(*args), atol, rtol, err_msg or "JVP primal check")
    _check_close(t_out, numerical_jvp(f, args, tangent, eps), atol, rtol, err_msg or "JVP tangent check")


def check_vjp(f, f_vjp, args, atol=None, rtol=None, eps=EPS, err_msg=""):
    rng = np.random.RandomState(0)
    v_out, vjpfun = f_vjp(*args)
    _check_close(v_out, f(*args), atol, rtol, err_msg or "VJP primal check")
    tangent = tree_map(lambda x: _random_like(rng, x), args)
    tangent_out = numerical_jvp(f, args, tangent, eps)
    cotangent = tree_map(lambda x: _random_like(rng, x), v_out)
    cotangent_out = vjpfun(cotangent)
    ip = _inner(tangent, cotangent_out)
    ip_expected = _inner(tangent_out, cotangent)
    _check_close(ip, ip_expected, atol, rtol, err_msg or "VJP cotangent projection")


def check_grads(f, args, order, modes=("fwd", "rev"), atol=None, rtol=None, eps=None):
    """Check derivatives of `f` at `args` up to `order` in forward ('fwd') and reverse ('rev') mode."""
    args = tuple(args)
    eps = eps or EPS
    for mode in modes:
        if mode not in ("fwd", "rev"):
            raise ValueError(f"Unrecognized mode: {mode}")

    def rec(f, args, order):
        if "fwd" in modes:
            check_jvp(f, lambda a, t: jvp(f, a, t), args, atol, rtol, eps)
            if order > 1:
                rng = np.random.RandomState(0)
                tangent = tree_map(lambda x: _random_like(rng, x), args)
                rec(lambda *a: jvp(f, a, tangent)[1], args, order - 1)
        if "rev" in modes:
            check_vjp(f, lambda *a: vjp(f, *a), args, atol, rtol, eps)
            if order > 1:
                def f_vjp(*a):
                    out, fn = vjp(f, *a)
                    return fn(tree_map(np.ones_like, out))
                rec(f_vjp, args, order - 1)
    rec(f, args, order)


__all__ = ["check_grads", "check_jvp", "check_vjp"]
