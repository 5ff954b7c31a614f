"""Primitives behind jax.scipy.special's integral functions (expn, expi, sici, dawsn, spence,
owens_t): numpy kernels in special_integrals.py, analytic jvp rules here. JAX writes these as
jnp code with custom_jvp rules; gradpad evaluates them in numpy (float64, one rounding), so each
is one primitive whose derivative is the closed form JAX's custom rules also use."""
from __future__ import annotations

import numpy as np

from ..transforms import ad
from . import special_integrals as K
from .elementwise import _const, _one, add, cos, div, exp, log, mul, neg, sin, square, sub
from .special_functions import _nary, _unary


dawsn_p = _unary("dawsn", K.dawsn, strong=True)
expi_p = _unary("expi", K.expi, strong=True)
expn_p = _nary("expn", K.expn, 2, strong=True)
si_p = _unary("sici_si", K.si, strong=True)
ci_p = _unary("sici_ci", K.ci, strong=True)
spence_p = _unary("spence", K.spence, strong=True)
owens_t_p = _nary("owens_t", K.owens_t, 2, strong=True)


def _no_n_derivative(g, n, x):
    raise ValueError("expn is not differentiable in its order n (an integer).")


ad.defjvp2(dawsn_p, lambda g, y, x: mul(g, sub(_one(x), mul(_const(x, 2), mul(x, y)))))
ad.defjvp(expi_p, lambda g, x: mul(g, div(exp(x), x)))
ad.defjvp(expn_p, _no_n_derivative, lambda g, n, x: neg(mul(g, expn_p.bind(sub(n, _one(n)), x))))
ad.defjvp(si_p, lambda g, x: mul(g, div(sin(x), x)))
ad.defjvp(ci_p, lambda g, x: mul(g, div(cos(x), x)))
ad.defjvp(spence_p, lambda g, x: mul(g, div(log(x), sub(_one(x), x))))


def _owens_dh(g, h, a):
    from .elementwise import erf_p
    phi = mul(_const(h, 1 / np.sqrt(2 * np.pi)), exp(mul(_const(h, -0.5), square(h))))
    return mul(g, mul(_const(h, -0.5), mul(phi, erf_p.bind(mul(_const(h, 1 / np.sqrt(2)), mul(a, h))))))


def _owens_da(g, h, a):
    one_a2 = add(_one(a), square(a))
    return mul(g, div(exp(mul(_const(h, -0.5), mul(square(h), one_a2))), mul(_const(a, 2 * np.pi), one_a2)))


ad.defjvp(owens_t_p, _owens_dh, _owens_da)

fresnel_s_p = _unary("fresnel_s", K.fresnel_s, strong=True)
fresnel_c_p = _unary("fresnel_c", K.fresnel_c, strong=True)


def _half_pi_square(x):
    return mul(_const(x, np.pi / 2), square(x))


ad.defjvp(fresnel_s_p, lambda g, x: mul(g, sin(_half_pi_square(x))))
ad.defjvp(fresnel_c_p, lambda g, x: mul(g, cos(_half_pi_square(x))))


# Faddeeva's w(z): complex in, complex out
def _wofz_abstract(z):
    from ..base.avals import ShapedArray
    if np.dtype(z.dtype).kind != "c":
        raise TypeError(f"wofz does not accept dtype {np.dtype(z.dtype).name}. Accepted dtypes are subtypes of complexfloating.")
    return ShapedArray(z.shape, z.dtype, False)


def _wofz_impl(z):
    return K.wofz(z, z.dtype)


from . import define as _define  # noqa: E402
from ..transforms.batching import defvectorized as _defvectorized  # noqa: E402

wofz_p = _define("wofz", abstract_eval=_wofz_abstract, impl=_wofz_impl)
_defvectorized(wofz_p)
ad.defjvp2(wofz_p, lambda g, w, z: mul(g, add(mul(_const(z, -2.0), mul(z, w)), _const(z, 2j / np.sqrt(np.pi)))))
