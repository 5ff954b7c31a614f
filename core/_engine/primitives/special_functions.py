"""lax's special-function primitives: igamma, igammac, igamma_grad_a, random_gamma_grad,
regularized_incomplete_beta, polygamma, zeta, bessel_i0e, bessel_i1e (shape rule, numpy impl,
jvp and batching, together). Their derivatives are JAX's: where JAX defines none (igamma_grad_a,
zeta, random_gamma_grad) or refuses one (betainc in a and b, polygamma in m), so do we, with
JAX's error."""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from ..tracing.tracing import get_aval
from ..transforms import ad
from ..transforms.batching import defbroadcasting, defvectorized
from ..base.avals import ShapedArray
from . import define, never_weak, special_kernels as K
from .elementwise import (_const, _one, add, digamma_p, exp, log, mul, neg, nary_abstract, select,
                          sign, sub, gt, abs_, reciprocal, unary_abstract, lgamma_p, _maybe_broadcast)


def _work_dtype(dtype):
    """float16/bfloat16 compute (and take their underflow limits) in float32, as JAX upcasts them."""
    return dtype if dtype in (np.float32, np.float64) else np.dtype(np.float32)


def _check_floating(name, dtypes_):
    """JAX's dtype rule for these primitives, naming the offending operand."""
    for i, dt in enumerate(dtypes_):
        if np.dtype(dt).kind != "f":
            where = f" at position {i}" if len(dtypes_) > 1 else ""
            raise TypeError(f"{name} does not accept dtype {np.dtype(dt).name}{where}. "
                            f"Accepted dtypes{where} are subtypes of floating.")


def _floating_rule(name, rule, strong=False):
    def abstract(*avals, **params):
        _check_floating(name, [a.dtype for a in avals])
        if len({a.dtype for a in avals}) > 1:   # (no jnp twin to suggest, unlike lax.add's message)
            raise TypeError(f"lax.{name} requires arguments to have the same dtypes, got "
                            f"{', '.join(a.dtype.name for a in avals)}.")
        out = rule(*avals, **params)
        return ShapedArray(out.shape, out.dtype, False) if strong else out
    return abstract


def _elementwise(name, kernel):
    def impl(*args):
        _check_floating(name, [a.dtype for a in args])   # eager calls skip the shape rule
        dtype = args[0].dtype
        return np.asarray(kernel(*args, _work_dtype(dtype))).astype(dtype)
    impl.__name__ = kernel.__name__
    return impl


def _nary(name, kernel, nargs, strong=False):
    """strong: the output is never weakly typed (JAX's jnp-written scipy functions end in ops
    whose outputs are strong, whatever the inputs)."""
    p = define(name, abstract_eval=_floating_rule(name, nary_abstract(name), strong), impl=_elementwise(name, kernel),
               weak_type_rule=never_weak if strong else None)
    if nargs == 2:
        p.same_rank_operands = True
    defbroadcasting(p)
    return p


def _unary(name, kernel, strong=False):
    p = define(name, abstract_eval=_floating_rule(name, unary_abstract(name), strong), impl=_elementwise(name, kernel),
               weak_type_rule=never_weak if strong else None)
    defvectorized(p)
    return p


igamma_p = _nary("igamma", K.igamma, 2)
igammac_p = _nary("igammac", K.igammac, 2)
igamma_grad_a_p = _nary("igamma_grad_a", K.igamma_grad_a, 2)
random_gamma_grad_p = _nary("random_gamma_grad", K.random_gamma_grad, 2)
regularized_incomplete_beta_p = _nary("regularized_incomplete_beta", K.betainc, 3)
polygamma_p = _nary("polygamma", K.polygamma, 2)
zeta_p = _nary("zeta", K.zeta, 2)
bessel_i0e_p = _unary("bessel_i0e", K.bessel_i0e)
bessel_i1e_p = _unary("bessel_i1e", K.bessel_i1e)


def lgamma(x): return lgamma_p.bind(x)
def igamma_grad_a(a, x): return igamma_grad_a_p.bind(a, x)
def polygamma(m, x): return polygamma_p.bind(m, x)
def bessel_i0e(x): return bessel_i0e_p.bind(x)
def bessel_i1e(x): return bessel_i1e_p.bind(x)


# ---- jvp rules (JAX's, in jax/_src/lax/special.py) ---------------------------------------------

def _igamma_dx(g, a, x):
    """d/dx P(a, x) = x^(a-1) e^-x / Gamma(a)."""
    return mul(g, exp(add(neg(x), sub(mul(sub(a, _one(a)), log(x)), lgamma(a)))))


ad.defjvp(igamma_p, lambda g, a, x: mul(g, igamma_grad_a(a, x)), _igamma_dx)
ad.defjvp(igammac_p, lambda g, a, x: neg(mul(g, igamma_grad_a(a, x))), lambda g, a, x: neg(_igamma_dx(g, a, x)))


def _betainc_ab(g, a, b, x):
    raise ValueError("Betainc gradient with respect to a and b not supported.")


def _betainc_dx(g, a, b, x):
    log_beta = sub(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))
    from .elementwise import log1p_p
    density = exp(sub(add(mul(sub(b, _one(b)), log1p_p.bind(neg(x))), mul(sub(a, _one(a)), log(x))), log_beta))
    return mul(density, g)


ad.defjvp(regularized_incomplete_beta_p, _betainc_ab, _betainc_ab, _betainc_dx)


def _polygamma_dm(g, m, x):
    raise ValueError("polygamma gradient with respect to m is not supported")


ad.defjvp(polygamma_p, _polygamma_dm, lambda g, m, x: mul(g, polygamma(add(m, _one(m)), x)))
ad.defjvp(digamma_p, lambda g, x: mul(g, polygamma(_const(x, 1), x)))

ad.defjvp2(bessel_i0e_p, lambda g, y, x: mul(g, sub(bessel_i1e(x), mul(sign(x), y))))


def _bessel_i1e_jvp(g, y, x):
    aval = get_aval(x)
    eps = float(dtypes.finfo(aval.dtype).eps)
    not_tiny = gt(abs_(x), _const(x, eps))
    safe_x = select(not_tiny, x, _maybe_broadcast(aval.shape, _const(x, eps)))
    dy_dx = sub(bessel_i0e(safe_x), mul(y, add(sign(safe_x), reciprocal(safe_x))))
    dy_dx = select(not_tiny, dy_dx, _maybe_broadcast(aval.shape, _const(x, 0.5)))
    return mul(g, dy_dx)


ad.defjvp2(bessel_i1e_p, _bessel_i1e_jvp)


# digamma's float32 kernel (elementwise.py) evaluates in float32 whatever the input: float64 input
# gets the float64 series here (its jvp, polygamma(1, x), is checked against finite differences).
from ..tracing.rules import impl_rules as _impl_rules  # noqa: E402

_digamma_float32_impl = _impl_rules[digamma_p]


def _digamma_impl(x):
    if x.dtype == np.float64:
        return K.digamma64(x)
    return _digamma_float32_impl(x)


_impl_rules[digamma_p] = _digamma_impl
