"""`jax.experimental.jet`: Taylor-mode differentiation.

`jet(fun, primals, series)` pushes a truncated Taylor series through `fun`: each primal x0 comes with
its derivatives along a path, `series = ([x1, x2, ..., xK], ...)` for x(t) = x0 + x1 t + x2 t^2/2! + ...,
and the answer is `(fun(x0), [y1, ..., yK])`, the derivatives of fun(x(t)) at t = 0 (JAX's convention).

`fun` is traced to a jaxpr, and the equations are evaluated on normalized coefficient lists
(c_k = x_k / k!) with the classic recurrences: Cauchy products for mul and dot_general, the division
recurrence for div, y' = y x' for exp, x y' = x' for log, the coupled pair for sin/cos, y' = (1 - y^2) x'
for tanh, y' = y (1 - y) x' for logistic, x y' = p y x' for pow with a constant exponent; linear
primitives (add, sub, neg, reshapes, broadcasts, sums, slices, ...) apply to every coefficient.
jit and custom_jvp/custom_vjp calls are entered (their bodies are evaluated, rules are not used).
Since the work is done with jnp on the given values, jet itself runs under jit, vmap and grad.
A primitive without a rule here raises NotImplementedError naming it.
"""
from __future__ import annotations

import math

from .. import lax
from .. import numpy as jnp
from .._engine.api.api import make_jaxpr
from .._engine.tracing.jaxpr import Literal
from .._engine.tracing.tracing import bind
from .._engine.transforms.staging import literal_array
from ..tree_util import tree_flatten, tree_structure, tree_unflatten

__all__ = ["jet"]


def jet(fun, primals, series):
    """(fun(*primals), derivatives of fun along the path given by `series`) (see the module docstring)."""
    if not isinstance(primals, (tuple, list)) or not isinstance(series, (tuple, list)):
        raise TypeError(f"jet: primals and series must be tuples (one entry per argument of fun), got "
                        f"{type(primals).__name__} and {type(series).__name__}; e.g. jet(f, (x0,), ([x1, x2],))")
    if len(primals) != len(series):
        raise ValueError(f"jet: {len(primals)} primals but {len(series)} series; each argument needs its list "
                         f"of Taylor terms, e.g. jet(f, (x0, y0), ([x1, x2], [y1, y2]))")
    flat_p, p_tree = tree_flatten(tuple(primals))
    terms_per_arg = []
    order = None
    for i, (p, s) in enumerate(zip(primals, series)):
        if not isinstance(s, (tuple, list)):
            raise TypeError(f"jet: series[{i}] must be a list of Taylor terms [x1, x2, ...], got {type(s).__name__}")
        if order is None:
            order = len(s)
        elif len(s) != order:
            raise ValueError(f"jet: every series must have the same number of terms; series[0] has {order}, "
                             f"series[{i}] has {len(s)}")
        for k, term in enumerate(s):
            if tree_structure(term) != tree_structure(p):
                raise ValueError(f"jet: series[{i}][{k}] has structure {tree_structure(term)}, but primals[{i}] "
                                 f"has {tree_structure(p)}")
        terms_per_arg.append([tree_flatten(term)[0] for term in s])
    order = order or 0
    flat_terms = []  # per flat primal: its K terms
    for p, terms in zip(primals, terms_per_arg):
        n = len(tree_flatten(p)[0])
        for j in range(n):
            flat_terms.append([t[j] for t in terms])

    out_tree = []

    def flat_fun(*xs):
        out = fun(*tree_unflatten(p_tree, list(xs)))
        leaves, tree = tree_flatten(out)
        out_tree.append(tree)
        return leaves
    closed = make_jaxpr(flat_fun)(*flat_p)
    ins = []
    for p, terms in zip(flat_p, flat_terms):
        p = jnp.asarray(p)
        ins.append([p] + [jnp.asarray(t) / math.factorial(k + 1) for k, t in enumerate(terms)])
    outs = _eval(closed.jaxpr, closed.consts, ins, order)
    primal_out, series_out = [], []
    for c in outs:
        primal_out.append(c[0])
        series_out.append([jnp.zeros_like(c[0]) if t is None else t * math.factorial(k + 1)
                           for k, t in enumerate(_terms(c, order))])
    tree = out_tree[0]
    if tree.num_leaves == 1 and tree_structure(0) == tree:
        return primal_out[0], series_out[0]
    return tree_unflatten(tree, primal_out), tree_unflatten(tree, series_out)


def _terms(c, order):
    return c[1:] if len(c) > 1 else [None] * order


def _const(x):
    return [x]


def _eval(jaxpr, consts, ins, order):
    """Evaluate `jaxpr` on coefficient lists ([c0] for a constant, [c0, c1, ..., cK] otherwise)."""
    env = {}

    def read(v):
        return [literal_array(v)] if isinstance(v, Literal) else env[v]
    for v, c in zip(jaxpr.constvars, consts):
        env[v] = _const(c)
    for v, c in zip(jaxpr.invars, ins):
        env[v] = c
    for eqn in jaxpr.eqns:
        vals = [read(v) for v in eqn.invars]
        if all(len(c) == 1 for c in vals):
            outs = bind(eqn.primitive, *[c[0] for c in vals], **eqn.params)
            outs = [_const(o) for o in (outs if eqn.primitive.multiple_results else [outs])]
        else:
            outs = _rule(eqn, vals, order)
        for v, o in zip(eqn.outvars, outs):
            env[v] = o
    return [read(v) for v in jaxpr.outvars]


def _full(c, order):
    """All K+1 coefficients, zeros for a constant."""
    if len(c) > 1:
        return c
    z = jnp.zeros_like(c[0])
    return [c[0]] + [z] * order


def _cauchy(a, b, k, prod):
    """Coefficient k of the product of series a and b (prod: the elementwise/bilinear product)."""
    total = prod(a[0], b[k])
    for i in range(1, k + 1):
        total = total + prod(a[i], b[k - i])
    return total


def _deriv_rec(x, k, g):
    """(1/k) sum_{j=1..k} j x_j g_{k-j}: coefficient k of y where y' = g x'."""
    total = x[1] * g[k - 1]
    for j in range(2, k + 1):
        total = total + j * x[j] * g[k - j]
    return total / k


_LINEAR = {"neg", "reshape", "broadcast_in_dim", "transpose", "squeeze", "expand_dims", "reduce_sum",
           "convert_element_type", "copy", "copy_p", "slice", "rev", "real", "imag", "conj", "cumsum",
           "reduce_precision", "dynamic_slice", "gather", "concatenate", "pad", "add", "sub", "add_any",
           "select_n", "dynamic_update_slice", "squeeze", "reduce_window_sum"}
# the operands each linear primitive is linear in (the others must be constants: indices, predicates)
_LINEAR_ARGS = {"dynamic_slice": (0,), "gather": (0,), "pad": (0,), "select_n": None,
                "dynamic_update_slice": (0, 1)}


def _linear(eqn, vals, order):
    prim, params = eqn.primitive, eqn.params
    name = prim.name
    lin = _LINEAR_ARGS.get(name, tuple(range(len(vals))))
    if name == "select_n":
        lin = tuple(range(1, len(vals)))
    for i, c in enumerate(vals):
        if i not in lin and len(c) > 1:
            raise NotImplementedError(f"jet: '{name}' is not linear in operand {i}, which carries a series here "
                                      f"(an index, a predicate or a padding value that depends on the input)")
    c0 = bind(prim, *[c[0] for c in vals], **params)
    out = [c0]
    for k in range(1, order + 1):
        args = [(c[k] if len(c) > 1 else jnp.zeros_like(c[0])) if i in lin else c[0] for i, c in enumerate(vals)]
        out.append(bind(prim, *args, **params))
    return [out]


def _bilinear(eqn, vals, order):
    prim, params = eqn.primitive, eqn.params
    a, b = (_full(c, order) for c in vals)

    def prod(x, y):
        return bind(prim, x, y, **params)
    return [[_cauchy(a, b, k, prod) for k in range(order + 1)]]


def _div(eqn, vals, order):
    a, b = (_full(c, order) for c in vals)
    q = [a[0] / b[0]]
    for k in range(1, order + 1):
        acc = a[k]
        for i in range(1, k + 1):
            acc = acc - b[i] * q[k - i]
        q.append(acc / b[0])
    return [q]


def _exp_like(x, y0, order):
    y = [y0]
    for k in range(1, order + 1):
        y.append(_deriv_rec(x, k, y))
    return y


def _exp(eqn, vals, order):
    x = _full(vals[0], order)
    return [_exp_like(x, jnp.exp(x[0]), order)]


def _expm1(eqn, vals, order):
    x = _full(vals[0], order)
    y = _exp_like(x, jnp.exp(x[0]), order)
    return [[jnp.expm1(x[0])] + y[1:]]


def _log_of(x, y0, order):
    y = [y0]
    for k in range(1, order + 1):
        acc = x[k]
        for j in range(1, k):
            acc = acc - (j / k) * y[j] * x[k - j]
        y.append(acc / x[0])
    return y


def _log(eqn, vals, order):
    x = _full(vals[0], order)
    return [_log_of(x, jnp.log(x[0]), order)]


def _log1p(eqn, vals, order):
    x = _full(vals[0], order)
    return [_log_of([1 + x[0]] + x[1:], jnp.log1p(x[0]), order)]


def _sin_cos(x, order):
    s, c = [jnp.sin(x[0])], [jnp.cos(x[0])]
    for k in range(1, order + 1):
        s.append(_deriv_rec(x, k, c))
        c.append(-_deriv_rec(x, k, s))
    return s, c


def _sin(eqn, vals, order):
    return [_sin_cos(_full(vals[0], order), order)[0]]


def _cos(eqn, vals, order):
    return [_sin_cos(_full(vals[0], order), order)[1]]


def _with_factor(x, y0, order, factor_coeff):
    """y' = g x', with g_m = factor_coeff(y, m) computed from y_0..y_m."""
    y, g = [y0], []
    for k in range(1, order + 1):
        g.append(factor_coeff(y, k - 1))
        y.append(_deriv_rec(x, k, g))
    return y


def _tanh(eqn, vals, order):
    x = _full(vals[0], order)

    def one_minus_sq(y, m):  # (1 - y^2)_m
        sq = _cauchy(y, y, m, lambda p, q: p * q)
        return 1 - sq if m == 0 else -sq
    return [_with_factor(x, jnp.tanh(x[0]), order, one_minus_sq)]


def _logistic(eqn, vals, order):
    x = _full(vals[0], order)

    def y_minus_sq(y, m):  # (y - y^2)_m
        return y[m] - _cauchy(y, y, m, lambda p, q: p * q)
    return [_with_factor(x, lax.logistic(x[0]), order, y_minus_sq)]


def _power(x, p, y0, order):
    """y = x^p for a constant p: k x0 y_k = sum_{j=1..k} ((p + 1) j - k) x_j y_{k-j}."""
    y = [y0]
    for k in range(1, order + 1):
        acc = ((p + 1) * 1 - k) * x[1] * y[k - 1]
        for j in range(2, k + 1):
            acc = acc + ((p + 1) * j - k) * x[j] * y[k - j]
        y.append(acc / (k * x[0]))
    return y


def _integer_pow(eqn, vals, order):
    n = eqn.params["y"]
    x = _full(vals[0], order)
    if n == 0:
        return [[jnp.ones_like(x[0])] + [jnp.zeros_like(x[0])] * order]
    result = None
    base, e = x, abs(n)
    while e:  # binary powering with Cauchy products: exact at x0 = 0 too
        if e & 1:
            result = base if result is None else [_cauchy(result, base, k, lambda p, q: p * q) for k in range(order + 1)]
        e >>= 1
        if e:
            base = [_cauchy(base, base, k, lambda p, q: p * q) for k in range(order + 1)]
    if n < 0:
        one = [jnp.ones_like(x[0])] + [jnp.zeros_like(x[0])] * order
        return _div(None, [one, result], order)
    return [result]


def _square(eqn, vals, order):
    x = _full(vals[0], order)
    return [[_cauchy(x, x, k, lambda p, q: p * q) for k in range(order + 1)]]


def _sqrt(eqn, vals, order):
    x = _full(vals[0], order)
    return [_power(x, 0.5, jnp.sqrt(x[0]), order)]


def _rsqrt(eqn, vals, order):
    x = _full(vals[0], order)
    return [_power(x, -0.5, lax.rsqrt(x[0]), order)]


def _pow(eqn, vals, order):
    if len(vals[1]) > 1:  # x^y = exp(y log x)
        x, y = (_full(c, order) for c in vals)
        lx = _log_of(x, jnp.log(x[0]), order)
        e = [_cauchy(y, lx, k, lambda p, q: p * q) for k in range(order + 1)]
        return [_exp_like(e, jnp.power(x[0], y[0]), order)]
    x = _full(vals[0], order)
    return [_power(x, vals[1][0], jnp.power(x[0], vals[1][0]), order)]


def _abs(eqn, vals, order):
    x = _full(vals[0], order)
    s = jnp.sign(x[0])
    return [[jnp.abs(x[0])] + [s * t for t in x[1:]]]


def _max_min(pick_first):
    def rule(eqn, vals, order):
        a, b = (_full(c, order) for c in vals)
        first = pick_first(a[0], b[0])
        return [[jnp.where(first, p, q) for p, q in zip(a, b)]]
    return rule


def _call(jaxpr_param):
    def rule(eqn, vals, order):
        cj = eqn.params[jaxpr_param]
        outs = _eval(cj.jaxpr, cj.consts, vals, order)
        return outs
    return rule


_RULES = {"mul": _bilinear, "dot_general": _bilinear, "div": _div, "exp": _exp, "expm1": _expm1,
          "log": _log, "log1p": _log1p, "sin": _sin, "cos": _cos, "tanh": _tanh, "logistic": _logistic,
          "integer_pow": _integer_pow, "square": _square, "sqrt": _sqrt, "rsqrt": _rsqrt, "pow": _pow,
          "abs": _abs, "max": _max_min(lambda a, b: a > b), "min": _max_min(lambda a, b: a < b),
          "jit": _call("jaxpr"), "pjit": _call("jaxpr"), "custom_jvp_call": _call("call_jaxpr"),
          "custom_vjp_call": _call("call_jaxpr")}


def _rule(eqn, vals, order):
    name = eqn.primitive.name
    if name in _LINEAR:
        return _linear(eqn, vals, order)
    rule = _RULES.get(name)
    if rule is None:
        raise NotImplementedError(
            f"jet: no Taylor rule for the primitive '{name}' here (gradpad's jet covers add, sub, neg, mul, div, "
            f"dot_general, exp, expm1, log, log1p, sin, cos, tanh, logistic, sqrt, rsqrt, pow, integer_pow, square, "
            f"abs, max, min, jit and custom_jvp/custom_vjp calls, and the linear reshaping, slicing and summing "
            f"primitives)")
    return rule(eqn, vals, order)
