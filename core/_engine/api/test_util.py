"""`jax.test_util`: check automatic derivatives against central finite differences, along one
random direction per check (seeded, so a check is repeatable)."""
from __future__ import annotations

from functools import partial

import numpy as _np

from ..base import tree_util

EPS = 1e-4
# per-dtype tolerance when atol / rtol are not given: a float32 finite difference is only this good
_DEFAULT_TOL = {_np.dtype(_np.float16): 1e-2, _np.dtype(_np.float32): 2e-3, _np.dtype(_np.float64): 1e-5,
                _np.dtype(_np.complex64): 1e-3, _np.dtype(_np.complex128): 1e-5}


def _tol(given, dtype):
    if given is not None:
        return given
    return _DEFAULT_TOL.get(_np.dtype(dtype), 1e-1)   # bfloat16 and narrower: 0.1


def _leaves(x):
    return [_np.asarray(v) for v in tree_util.tree_leaves(x)]


def _check_close(got, want, atol, rtol, err_msg):
    got_l, want_l = _leaves(got), _leaves(want)
    if len(got_l) != len(want_l):
        raise AssertionError(f"{err_msg}: {len(got_l)} outputs where {len(want_l)} were expected")
    for g, w in zip(got_l, want_l):
        dt = _np.result_type(g.dtype, w.dtype)
        _np.testing.assert_allclose(g.astype(_np.promote_types(dt, _np.float32)), w.astype(_np.promote_types(dt, _np.float32)),
                                    atol=_tol(atol, dt), rtol=_tol(rtol, dt), err_msg=err_msg)


def _rand_like(rng, x):
    from ..libraries import numpy as jnp
    shape, dtype = _np.shape(x), jnp.asarray(x).dtype
    r = rng.randn(*shape)
    if _np.issubdtype(dtype, _np.complexfloating):
        r = r + 1j * rng.randn(*shape)
    return jnp.asarray(_np.asarray(r).astype(dtype))


def _scale(tree, s):
    return tree_util.tree_map(lambda v: v * s, tree)


def _combine(a, b, sign):
    return tree_util.tree_map(lambda x, y: x + sign * y, a, b)


def _numerical_jvp(f, primals, tangents, eps):
    delta = _scale(tangents, eps)
    ahead = f(*_combine(primals, delta, 1))
    behind = f(*_combine(primals, delta, -1))
    return _scale(_combine(ahead, behind, -1), 0.5 / eps)


def _inner(xs, ys):
    from ..libraries import numpy as jnp
    total = 0.0
    for x, y in zip(tree_util.tree_leaves(xs), tree_util.tree_leaves(ys)):
        total = total + jnp.sum(jnp.asarray(x) * jnp.asarray(y))
    return total


def _conj(tree):
    from ..libraries import numpy as jnp
    return tree_util.tree_map(jnp.conj, tree)


def check_jvp(f, f_jvp, args, atol=None, rtol=None, eps=EPS, err_msg=""):
    rng = _np.random.RandomState(0)
    tangent = tree_util.tree_map(partial(_rand_like, rng), args)
    v_out, t_out = f_jvp(args, tangent)
    _check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal" if err_msg else "primal")
    _check_close(t_out, _numerical_jvp(f, args, tangent, eps), atol, rtol,
                 f"{err_msg} tangent" if err_msg else "tangent")


def check_vjp(f, f_vjp, args, atol=None, rtol=None, eps=EPS, err_msg=""):
    rng = _np.random.RandomState(0)
    v_out, vjpfun = f_vjp(*args)
    _check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal" if err_msg else "primal")
    tangent = tree_util.tree_map(partial(_rand_like, rng), args)
    tangent_out = _numerical_jvp(f, args, tangent, eps)
    cotangent = tree_util.tree_map(partial(_rand_like, rng), v_out)
    cotangent_in = _conj(vjpfun(_conj(cotangent)))
    # <J t, c> must equal <t, J^T c>
    _check_close(_inner(tangent, cotangent_in), _inner(tangent_out, cotangent), atol, rtol,
                 f"{err_msg} cotangent projection" if err_msg else "cotangent projection")


def check_grads(f, args, order, modes=("fwd", "rev"), atol=None, rtol=None, eps=None):
    from .api import jvp, vjp
    args = tuple(args)
    eps = eps or EPS

    def check(f, args, order, err_msg=""):
        if "fwd" in modes:
            msg = f"JVP of {err_msg}" if err_msg else "JVP"
            check_jvp(f, partial(jvp, f), args, atol, rtol, eps, msg)
            if order > 1:
                check(partial(jvp, f), (args, args), order - 1, msg)
        if "rev" in modes:
            msg = f"VJP of {err_msg}" if err_msg else "VJP"
            check_vjp(f, partial(vjp, f), args, atol, rtol, eps, msg)
            if order > 1:
                def f_vjp(*primals):
                    out, pullback = vjp(f, *primals)
                    return pullback(out)
                check(f_vjp, args, order - 1, msg)
        unknown = set(modes) - {"fwd", "rev"}
        if unknown:
            raise NotImplementedError(f"check_grads: modes {sorted(unknown)} are not supported here "
                                      "(gradpad checks 'fwd' and 'rev')")

    check(f, args, order)
