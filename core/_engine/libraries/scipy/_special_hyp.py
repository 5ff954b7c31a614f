"""`hyp1f1` and `hyp2f1`: confluent and Gauss hypergeometric functions, computed the way
JAX 0.10.2 computes them (the methods of Pearson, Olver & Porter 2014, arXiv:1407.7786), so that
values, NaNs and the float32 rounding of the truncated series follow real JAX's.

Every series is summed term by term inside `lax.while_loop` until a term falls under the dtype's
eps relative to the sum, or 250 terms. The functions are scalar bodies under `jnp.vectorize`
inside `jit`, with `custom_jvp` derivatives in every argument (series in a, b, c; the contiguous
relation in x), as in JAX. Only real inputs are accepted.
"""
from __future__ import annotations

import numpy as np

from ...lax import lax
from .. import numpy as jnp
from ...api.api import custom_jvp, jit  # INHERENT: up to the api
from .special import gamma  # special.py imports this module after defining gamma


MAX_TERMS = 250


def _eps(x):
    return jnp.finfo(x.dtype).eps


def _typed(x, value):
    return jnp.array(value, dtype=x.dtype)


def _sum_series(first, ratio, x, *, weight=None, start=1.0):
    """sum over k >= 0 of weight(k) * term_k, term_0 = `first` for k = 1 onward in JAX's
    bookkeeping: the loop carries (sum, k, term); each step adds the current term (times
    `weight(k)` when given) and multiplies the term by `ratio(k)`. Stops when
    |term| / |sum| <= eps, or after MAX_TERMS steps."""
    eps = _eps(x)

    def keep_going(state):
        total, k, term = state
        return (k < MAX_TERMS) & (lax.abs(term) / lax.abs(total) > eps)

    def step(state):
        total, k, term = state
        total = total + (term if weight is None else term * weight(k))
        return total, k + 1, term * ratio(k)

    init = (_typed(x, start), _typed(x, 1), first)
    return lax.while_loop(keep_going, step, init)[0]


# ---------------------------------------------------------------------------------- 1F1

def _hyp1f1_taylor(a, b, x):
    # 1 + sum (a)_k / (b)_k x^k / k!   (used for |x| < 100)
    return _sum_series(a / b * x, lambda k: (a + k) / (b + k) * x / (k + 1), x)


def _hyp1f1_large_x(a, b, x):
    # Gamma(b)/Gamma(a) e^x x^(a-b) sum (b-a)_k (1-a)_k / k! x^-k  (|x| >= 100; NaN for x < 0
    # unless a - b is an integer, as in JAX)
    tail = _sum_series((b - a) * (1 - a) / x, lambda k: (b - a + k) * (1 - a + k) / (k + 1) / x, x)
    return gamma(b) / gamma(a) * lax.exp(x) * x ** (a - b) * tail


def _digamma(x):
    return lax.digamma(x)


def _check_real(name, x):
    if jnp.issubdtype(x.dtype, np.complexfloating):
        raise ValueError(f"{name} does not support complex-valued inputs.")


@custom_jvp
@jit
@jnp.vectorize
def hyp1f1(a, b, x):
    """The confluent hypergeometric function 1F1(a; b; x) (real inputs; 1F1(0, 0, x) = 1)."""
    a, b, x = jnp._promote_args_inexact("hyp1f1", a, b, x)
    _check_real("hyp1f1", x)
    series = lax.cond(lax.abs(x) < 100, _hyp1f1_taylor, _hyp1f1_large_x, a, b, x)
    # special parameters: a == 0 -> 1; a == b -> e^x; b == 0 (a != 0) -> inf
    which = ((a == 0) * 1 + ((a == b) & (a != 0)) * 2 + ((b == 0) & (a != 0)) * 3)
    return lax.select_n(which, series, _typed(x, 1), jnp.exp(x), _typed(x, np.inf))


def _hyp1f1_param_series(a, b, x, dterm):
    # d/da or d/db of the Taylor series: sum term_k * dterm(k), term_k = (a)_k/(b)_k x^k/k!
    return _sum_series(a / b * x, lambda k: (a + k) / (b + k) * x / (k + 1), x,
                       weight=dterm, start=0.0)


@jit
@jnp.vectorize
def _hyp1f1_da(a, b, x):
    return _hyp1f1_param_series(a, b, x, lambda k: _digamma(a + k) - _digamma(a))


@jit
@jnp.vectorize
def _hyp1f1_db(a, b, x):
    return _hyp1f1_param_series(a, b, x, lambda k: _digamma(b) - _digamma(b + k))


@jit
def _hyp1f1_dx(a, b, x):
    return a / b * hyp1f1(a + 1, b + 1, x)


hyp1f1.defjvps(
    lambda a_dot, out, a, b, x: _hyp1f1_da(a, b, x) * a_dot,
    lambda b_dot, out, a, b, x: _hyp1f1_db(a, b, x) * b_dot,
    lambda x_dot, out, a, b, x: _hyp1f1_dx(a, b, x) * x_dot,
)



# ---------------------------------------------------------------------------------- 2F1

def _near_int(v, eps):
    return lax.abs(v - jnp.round(v)) < eps


def _hyp2f1_polynomial(a, b, c, x):
    """The series when a or b is a non-positive integer: a polynomial of degree |n|, summed
    for i = 1..|n| with a float loop counter (JAX's fori_loop over float bounds). The degree
    comes from b when b < a is (near) an integer, unless c is a non-positive integer in
    (b, 0] (which would hit the pole of (c)_k first)."""
    eps = _eps(x) * 50
    c_pole_above_b = (c % 1 == 0) & (c <= 0) & (c > b)
    use_b = (b < a) & _near_int(b, eps) & ~c_pole_above_b
    n = lax.abs(jnp.where(use_b, b, a))
    other = jnp.where(use_b, a, b)

    def step(i, state):
        total, term = state
        term = term * (-(n - i + 1) / (c + i - 1) * (other + i - 1) / i * x)
        return total + term, term

    one = _typed(x, 1)
    return lax.fori_loop(jnp.array(1, dtype=n.dtype), n + 1, step, (one, one))[0]


def _hyp2f1_taylor(a, b, c, x):
    # sum (a)_k (b)_k / (c)_k x^k / k!; stops when |term| <= eps |sum| (note: not a ratio)
    eps = _eps(x)

    def keep_going(state):
        total, k, term = state
        return (k < MAX_TERMS) & (lax.abs(term) > eps * lax.abs(total))

    def step(state):
        total, k, term = state
        return total + term, k + 1, term * ((a + k - 1) * (b + k - 1) / (c + k - 1) / k * x)

    init = (_typed(x, 0), _typed(x, 1), _typed(x, 1))
    return lax.while_loop(keep_going, step, init)[0]


def _hyp2f1_near_one(a, b, c, x):
    """x > 0.9 with c - a - b (near) an integer: the logarithmic case of the 1 - x
    transformation (Abramowitz & Stegun 15.3.10-12), as JAX sums it."""
    eps = _eps(x)
    d = c - a - b
    s = 1 - x
    rd = jnp.round(d)
    nonneg = rd >= 0
    zero = _typed(d, 0)
    e = jnp.where(nonneg, d, -d)
    d1 = jnp.where(nonneg, d, zero)
    d2 = jnp.where(nonneg, zero, d)
    m = jnp.where(nonneg, rd, -rd).astype("int32")
    log_s = jnp.log(s)

    psi = _digamma
    y0 = (psi(_typed(x, 1.0)) + psi(1.0 + e) - psi(a + d1) - psi(b + d1) - log_s) / gamma(e + 1.0)
    p0 = (a + d1) * (b + d1) * s / gamma(e + 2.0)

    def keep_going(state):
        p, q, t, y = state
        return (t < MAX_TERMS) & (lax.abs(q) >= eps * lax.abs(y))

    def step(state):
        p, q, t, y = state
        r = psi(1.0 + t) + psi(1.0 + t + e) - psi(a + t + d1) - psi(b + t + d1) - log_s
        q = p * r
        y = y + q
        p = p * (s * (a + t + d1) / (t + 1.0))
        p = p * ((b + t + d1) / (t + 1.0 + e))
        return p, q, t + 1.0, y

    _, _, _, y = lax.while_loop(keep_going, step, (p0, y0, _typed(x, 1), y0))

    def finite_part(y):
        def term_step(i, state):
            p, t, acc = state
            p = p * (s * (a + t + d2) * (b + t + d2) / (1.0 - e + t))
            t = t + 1.0
            p = p / t
            return p, t, acc + p

        acc = lax.fori_loop(1, m, term_step, (_typed(x, 1), _typed(x, 0), _typed(x, 1)))[-1]
        gc = gamma(c)
        acc = acc * (gamma(e) * gc / (gamma(a + d1) * gamma(b + d1)))
        y = y * (gc / (gamma(a + d2) * gamma(b + d2)))
        y = jnp.where((m & 1) != 0, -y, y)
        q = s ** rd
        return jnp.where(rd > 0, y * q + acc, y + acc * q)

    return jnp.where(rd == 0, y * gamma(c) / (gamma(a) * gamma(b)), finite_part(y))


def _hyp2f1_dispatch(a, b, c, x):
    """Polynomial when a or b is a non-positive integer; the log-case transformation for
    x > 0.9 when c - a - b is an integer; the Taylor series otherwise (all three are
    evaluated, one is selected, as in JAX)."""
    eps = _eps(x) * 50
    d = c - a - b
    terminating = ((a <= 0) & _near_int(a, eps)) | ((b <= 0) & _near_int(b, eps))
    which = jnp.where((x > 0.9) & ~terminating,
                      jnp.where(lax.abs(d - jnp.round(d)) >= eps, 0, 1),
                      jnp.where(terminating, 2, 0))
    return lax.select_n(which, _hyp2f1_taylor(a, b, c, x), _hyp2f1_near_one(a, b, c, x),
                        _hyp2f1_polynomial(a, b, c, x))


# Which closed form or series hyp2f1 uses, first match wins (JAX's order).
_ONE, _INF, _EULER, _POW_A, _POW_B, _GAUSS, _SERIES = range(7)


@custom_jvp
@jit
@jnp.vectorize
def hyp2f1(a, b, c, x):
    """The Gauss hypergeometric function 2F1(a, b; c; x) for real inputs (x <= 1)."""
    a, b, c, x = jnp._promote_args_inexact("hyp2f1", a, b, c, x)
    eps = _eps(x) * 50
    d = c - a - b
    s = 1 - x
    ca, cb = c - a, c - b
    c_pole = (c == 0) | ((c < 0) & (c % 1 == 0))
    euler_ok = (d <= -1) & ~((lax.abs(d - jnp.round(d)) >= eps) & (s < 0))
    rules = [
        ((x == 0) | (((a == 0) | (b == 0)) & (c != 0)), _ONE),
        (c_pole, _INF),
        (euler_ok, _EULER),
        ((d <= 0) & (x == 1), _INF),
        ((x < 1) & (b == c), _POW_A),
        ((x < 1) & (a == c), _POW_B),
        (x > 1, _INF),
        (x == 1, _GAUSS),
    ]
    which = jnp.array(_SERIES)
    for cond, case in reversed(rules):
        which = jnp.where(cond, case, which)
    return lax.select_n(which,
                        _typed(x, 1),
                        _typed(x, np.inf),
                        s ** d * _hyp2f1_dispatch(ca, cb, c, x),   # Euler's transformation
                        s ** (-a),
                        s ** (-b),
                        gamma(c) * gamma(d) / (gamma(ca) * gamma(cb)),   # Gauss's theorem
                        _hyp2f1_dispatch(a, b, c, x))


def _hyp2f1_param_series(a, b, c, x, dterm):
    # derivative of the Taylor series in a parameter: sum term_k * dterm(k)
    return _sum_series(a * b / c * x, lambda k: (a + k) * (b + k) / (c + k) / (k + 1) * x, x,
                       weight=dterm, start=0.0)


@jit
@jnp.vectorize
def _hyp2f1_da(a, b, c, x):
    return _hyp2f1_param_series(a, b, c, x, lambda k: _digamma(a + k) - _digamma(a))


@jit
@jnp.vectorize
def _hyp2f1_db(a, b, c, x):
    return _hyp2f1_param_series(a, b, c, x, lambda k: _digamma(b + k) - _digamma(b))


@jit
@jnp.vectorize
def _hyp2f1_dc(a, b, c, x):
    return _hyp2f1_param_series(a, b, c, x, lambda k: _digamma(c) - _digamma(c + k))


@jit
def _hyp2f1_dx(a, b, c, x):
    return a * b / c * hyp2f1(a + 1, b + 1, c + 1, x)


hyp2f1.defjvps(
    lambda a_dot, out, a, b, c, x: _hyp2f1_da(a, b, c, x) * a_dot,
    lambda b_dot, out, a, b, c, x: _hyp2f1_db(a, b, c, x) * b_dot,
    lambda c_dot, out, a, b, c, x: _hyp2f1_dc(a, b, c, x) * c_dot,
    lambda x_dot, out, a, b, c, x: _hyp2f1_dx(a, b, c, x) * x_dot,
)
