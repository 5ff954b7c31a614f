"""Elementwise primitives: each one's shape rule, numpy impl, jvp, transpose, batching and WGSL."""
from __future__ import annotations

import math

import numpy as np

from ..base import dtypes
from ..base.fp_errors import quietly
from ..base.prng_dtype import KEY_DTYPE, unwrap_words
from ..base.avals import ShapedArray, shaped_array_unchecked
from ..tracing.rules import linearize_rules, transform_ops, transpose_rules
from ..transforms import ad
from ..transforms.batching import defbroadcasting, defvectorized
from ..tracing.tracing import get_aval
from . import define, never_weak
from ._signed_zero import xla_max, xla_min


# ---- shape/dtype rules --------------------------------------------------------------------

def broadcasting_shape(name, *avals):
    if len(avals) == 2:   # a binary op (most traced ops): equal shapes or a scalar, without lists
        s0, s1 = avals[0].shape, avals[1].shape
        if s0 == s1 or not s1:
            return s0
        if not s0:
            return s1
    shapes = [a.shape for a in avals if a.shape]
    if not shapes:
        return ()
    first = shapes[0]
    if all(s == first for s in shapes):  # the common case: one shape (scalars aside)
        return first
    if len({len(s) for s in shapes}) != 1:
        raise TypeError(f"{name}: arrays must have the same number of dimensions, got {({len(s) for s in shapes})}")
    out = []
    for ds in zip(*shapes):
        non1 = {d for d in ds if d != 1}
        if len(non1) > 1:
            raise TypeError(f"{name} got incompatible shapes for broadcasting: "
                            f"{', '.join(map(str, shapes))}.")
        out.append(non1.pop() if non1 else 1)
    return tuple(out)


# lax name -> (name in the message, the jnp function that promotes for you)
_PROMOTING_TWIN = {"sub": "subtract", "mul": "multiply", "div": "divide", "max": "maximum", "min": "minimum",
                   "pow": "power", "rem": "remainder", "eq": "equal", "ne": "not_equal", "lt": "less",
                   "le": "less_equal", "gt": "greater", "ge": "greater_equal", "and": "bitwise_and",
                   "or": "bitwise_or", "xor": "bitwise_xor", "atan2": "arctan2", "select_n": "where"}


def _same_dtypes(name, avals):
    dts = {a.dtype for a in avals}
    if len(dts) > 1:
        shown = "select" if name == "select_n" else name
        raise TypeError(f"lax.{shown} requires arguments to have the same dtypes, got "
                        f"{', '.join(a.dtype.name for a in avals)}. (Tip: jnp.{_PROMOTING_TWIN.get(name, name)} "
                        "is a similar function that does automatic type promotion on inputs).")


_FLOAT = "fc"
_INT = "iu"
_NUM = "iufc"
_BOOLINT = "biu"


_ACCEPTED = {"fc": "floating, complexfloating", "iufc": "integer, floating, complexfloating",
             "biu": "integer, bool", "iu": "integer", "f": "floating", "iuf": "integer, floating"}


def _check_kind(name, aval, kinds, position=None):
    """JAX's dtype error; n-ary ops name the operand's position."""
    if dtypes.kind(aval.dtype) not in kinds:
        accepted = _ACCEPTED.get(kinds, kinds)
        at = "" if position is None else f" at position {position}"
        raise TypeError(f"{name} does not accept dtype {aval.dtype.name}{at}. Accepted dtypes{at} are "
                        f"subtypes of {accepted}.")


def unary_abstract(name, kinds=None, out_dtype=None):
    def rule(x, **params):
        if kinds:
            _check_kind(name, x, kinds)
        if out_dtype is not None:  # a fixed dtype (comparisons, is_finite): weak as the inputs, as JAX's
            return ShapedArray(x.shape, out_dtype, x.weak_type)
        return shaped_array_unchecked(x.shape, x.dtype, x.weak_type)
    return rule


def nary_abstract(name, kinds=None, out_dtype=None):
    def rule(*avals, **params):
        if len(avals) != 2 or avals[0].dtype != avals[1].dtype:  # (two of one dtype: nothing to check)
            _same_dtypes(name, avals)
        if kinds:
            _check_kind(name, avals[0], kinds, 0)
        shape = broadcasting_shape(name, *avals)
        weak = avals[0].weak_type and avals[1].weak_type if len(avals) == 2 else all(a.weak_type for a in avals)
        if out_dtype is not None:
            return ShapedArray(shape, out_dtype, weak)
        return shaped_array_unchecked(shape, avals[0].dtype, weak)
    return rule


def _kind_checked(name, impl, kinds, position=None):
    """impl, refusing dtypes outside `kinds` as the shape rule does: eager dispatch skips the shape
    rule on same-dtype operands, and numpy would answer `sin(int32)` in float64 (JAX: TypeError)."""
    if not kinds:
        return impl

    def checked(x, *rest, **params):
        if x.dtype.kind not in kinds and dtypes.kind(x.dtype) not in kinds:
            _check_kind(name, ShapedArray(x.shape, x.dtype), kinds, position)
        return impl(x, *rest, **params)
    checked.__name__ = getattr(impl, "__name__", "impl")
    if hasattr(impl, "raw"):  # compiled code calls the ufunc itself (the shape rule ran at trace time)
        checked.raw = impl.raw
    elif isinstance(impl, np.ufunc):   # (and, or, xor, not: no floating-point errors to silence)
        checked.raw = impl
    checked.kinds = kinds   # (the eager fast path calls raw too: it checks these itself)
    return checked


def unop(name, impl, kinds=None, wgsl=None, out_dtype=None):
    p = define(name, abstract_eval=unary_abstract(name, kinds, out_dtype), impl=_kind_checked(name, impl, kinds),
               wgsl=wgsl)
    defvectorized(p)
    return p


def binop(name, impl, kinds=None, wgsl=None, out_dtype=None):
    p = define(name, abstract_eval=nary_abstract(name, kinds, out_dtype), impl=_kind_checked(name, impl, kinds, 0),
               wgsl=wgsl)
    p.same_rank_operands = True
    defbroadcasting(p)
    return p


def _np_err(fn):
    def impl(*args, **params):
        return quietly(fn, *args)
    impl.__name__ = getattr(fn, "__name__", "impl")
    if isinstance(fn, np.ufunc):
        impl.raw = fn  # compiled code calls the ufunc itself, under one errstate per call
    return impl


# Small constants shaped like x, used inside rules (stay literals in jaxprs).
def _const(x, v):
    from ..tracing.array import Array
    aval = get_aval(x)
    return Array(np.asarray(v, aval.dtype), aval.weak_type)


def _one(x):
    return _const(x, 1)


def _zero(x):
    return _const(x, 0)


# ---- arithmetic ---------------------------------------------------------------------------

neg_p = unop("neg", _np_err(np.negative), _NUM, wgsl="(-{0})")
ad.deflinear(neg_p, lambda ct, x: [neg(ct)])

def _sign_impl(x):
    s = np.sign(x)
    # XLA keeps the sign of a float zero (sign(-0.) is -0.); numpy gives +0
    return np.where(x == 0, x, s) if dtypes.kind(x.dtype) == "f" else s


sign_p = unop("sign", _np_err(_sign_impl), _NUM, wgsl="sign({0})")
ad.defjvp_zero(sign_p)

floor_p = unop("floor", _np_err(np.floor), "f", wgsl="floor({0})")
ad.defjvp_zero(floor_p)
ceil_p = unop("ceil", _np_err(np.ceil), "f", wgsl="ceil({0})")
ad.defjvp_zero(ceil_p)


def _round_impl(x, rounding_method=0):
    if int(rounding_method) == 1:
        return np.round(x)
    return np.where(x >= 0, np.floor(x + 0.5), np.ceil(x - 0.5)).astype(x.dtype)


round_p = define("round", abstract_eval=unary_abstract("round", "f"), impl=_round_impl, wgsl=None)
defvectorized(round_p)
ad.defjvp_zero(round_p)

is_finite_p = unop("is_finite", _np_err(np.isfinite), "f", out_dtype=dtypes.bool_)
ad.defjvp_zero(is_finite_p)

abs_p = unop("abs", _np_err(np.abs), _NUM, wgsl="abs({0})")  # complex abs (real-valued): complex_parts.py

def _xla_on_small_f32(ufunc, name):
    """`ufunc`, except on float32 arrays of up to _xla_f32.EXACT_MAX elements (4 by default), which
    take XLA's own float32 algorithm (numpy's exp differs from XLA's in the last bit on ~30% of
    inputs, and a seeded draw or an MCMC chain then drifts from JAX's). Larger arrays keep numpy's
    kernel: the emulation costs ~10x numpy's time per element."""
    from . import _xla_f32
    exact = getattr(_xla_f32, name)

    def raw(x, out=None):
        if getattr(x, "dtype", None) != _F32_DTYPE or x.size > _xla_f32.EXACT_MAX:
            return ufunc(x, out=out)
        result = exact(x)
        if out is None:
            return result
        out[...] = result
        return out
    if _xla_f32.EXACT_MAX >= 1:   # a float32 scalar in generated code: the Python-float algorithm directly
        scalar = getattr(_xla_f32, f"_{name[len('xla_'):-len('_f32')]}_scalar")
        raw.f32_scalar = lambda x: _F32_TYPE(scalar(float(x)))
        raw.f32_scalar.on_float = scalar   # (generated code calls it on float(x) itself: one call less)
    impl = _np_err(raw)
    impl.raw = raw
    return impl


_F32_DTYPE = np.dtype(np.float32)
_F32_TYPE = np.float32
exp_p = unop("exp", _xla_on_small_f32(np.exp, "xla_exp_f32"), _FLOAT, wgsl="exp({0})")
ad.defjvp2(exp_p, lambda g, ans, x: mul(g, ans))

exp2_p = unop("exp2", _np_err(np.exp2), _FLOAT, wgsl="exp2({0})")
ad.defjvp2(exp2_p, lambda g, ans, x: mul(log(_const(x, 2)), mul(g, ans)))

def _xla_on_f64(ufunc, name):
    """`ufunc`, except on float64, which takes XLA's own float64 algorithm (numpy's kernel differs
    in the last bit on some inputs). Keeps the ufunc's `out=` so compiled code can call it."""
    def raw(x, out=None):
        if getattr(x, "dtype", None) != np.float64:
            return ufunc(x, out=out)
        from . import _xla_f64
        result = getattr(_xla_f64, name)(x)
        if out is None:
            return result
        out[...] = result
        return out
    impl = _np_err(raw)
    impl.raw = raw
    return impl


def _xla_both(f32_impl, f64_impl):
    """float32 inputs through f32_impl's raw, the rest through f64_impl's raw (each passes
    what it does not handle to the ufunc)."""
    f32_raw, f64_raw = f32_impl.raw, f64_impl.raw

    def raw(x, out=None):
        return (f32_raw if getattr(x, "dtype", None) == _F32_DTYPE else f64_raw)(x, out=out)
    if hasattr(f32_raw, "f32_scalar"):
        raw.f32_scalar = f32_raw.f32_scalar
    impl = _np_err(raw)
    impl.raw = raw
    return impl


log_p = unop("log", _xla_both(_xla_on_small_f32(np.log, "xla_log_f32"), _xla_on_f64(np.log, "xla_log_f64")),
             _FLOAT, wgsl="log({0})")
ad.defjvp(log_p, lambda g, x: div(g, x))

log1p_p = unop("log1p", _xla_both(_xla_on_small_f32(np.log1p, "xla_log1p_f32"),
                                   _xla_on_f64(np.log1p, "xla_log1p_f64")), _FLOAT, wgsl=None)
ad.defjvp(log1p_p, lambda g, x: div(g, add(x, _one(x))))

expm1_p = unop("expm1", _np_err(np.expm1), _FLOAT, wgsl=None)
ad.defjvp2(expm1_p, lambda g, ans, x: mul(g, add(ans, _one(ans))))

tanh_p = unop("tanh", _xla_on_small_f32(np.tanh, "xla_tanh_f32"), _FLOAT, wgsl="tanh({0})")
ad.defjvp2(tanh_p, lambda g, ans, x: mul(add(g, mul(g, ans)), sub(_one(x), ans)))


def _logistic_impl(x):
    r = dtypes.step_rounding(x.dtype)  # (the emulated bfloat16 rounds each step, as ml_dtypes' ufuncs do)
    with np.errstate(all="ignore"):
        return r(1 / r(1 + r(np.exp(-x)))).astype(x.dtype)


logistic_p = unop("logistic", _logistic_impl, _FLOAT, wgsl="(1.0 / (1.0 + exp(-{0})))")
ad.defjvp2(logistic_p, lambda g, ans, x: mul(g, mul(ans, sub(_one(ans), ans))))

sin_p = unop("sin", _np_err(np.sin), _FLOAT, wgsl="sin({0})")
ad.defjvp(sin_p, lambda g, x: mul(g, cos(x)))

cos_p = unop("cos", _np_err(np.cos), _FLOAT, wgsl="cos({0})")
ad.defjvp(cos_p, lambda g, x: neg(mul(g, sin(x))))

tan_p = unop("tan", _xla_on_f64(np.tan, "xla_tan_f64"), _FLOAT, wgsl="tan({0})")
ad.defjvp2(tan_p, lambda g, ans, x: mul(g, add(_one(x), square(ans))))

asin_p = unop("asin", _np_err(np.arcsin), _FLOAT, wgsl="asin({0})")
ad.defjvp(asin_p, lambda g, x: mul(g, rsqrt(sub(_one(x), square(x)))))

acos_p = unop("acos", _np_err(np.arccos), _FLOAT, wgsl="acos({0})")
ad.defjvp(acos_p, lambda g, x: mul(g, neg(rsqrt(sub(_one(x), square(x))))))

atan_p = unop("atan", _np_err(np.arctan), _FLOAT, wgsl="atan({0})")
ad.defjvp(atan_p, lambda g, x: div(g, add(_one(x), square(x))))

sinh_p = unop("sinh", _np_err(np.sinh), _FLOAT, wgsl="sinh({0})")
ad.defjvp(sinh_p, lambda g, x: mul(g, cosh(x)))

cosh_p = unop("cosh", _np_err(np.cosh), _FLOAT, wgsl="cosh({0})")
ad.defjvp(cosh_p, lambda g, x: mul(g, sinh(x)))

asinh_p = unop("asinh", _np_err(np.arcsinh), _FLOAT, wgsl="asinh({0})")
ad.defjvp(asinh_p, lambda g, x: mul(g, rsqrt(add(square(x), _one(x)))))

acosh_p = unop("acosh", _np_err(np.arccosh), _FLOAT, wgsl="acosh({0})")
ad.defjvp(acosh_p, lambda g, x: mul(g, rsqrt(mul(sub(x, _one(x)), add(x, _one(x))))))

atanh_p = unop("atanh", _np_err(np.arctanh), _FLOAT, wgsl="atanh({0})")
ad.defjvp(atanh_p, lambda g, x: mul(reciprocal(add(_one(x), x)), div(g, sub(_one(x), x))))

sqrt_p = unop("sqrt", _np_err(np.sqrt), _FLOAT, wgsl="sqrt({0})")
ad.defjvp2(sqrt_p, lambda g, ans, x: mul(g, div(_const(x, 0.5), ans)))


def _rsqrt_impl(x):
    with np.errstate(all="ignore"):
        return (1 / np.sqrt(x)).astype(x.dtype)


rsqrt_p = unop("rsqrt", _rsqrt_impl, _FLOAT, wgsl="inverseSqrt({0})")
ad.defjvp2(rsqrt_p, lambda g, ans, x: mul(g, mul(_const(x, -0.5), div(ans, x))))

cbrt_p = unop("cbrt", _np_err(np.cbrt), "f", wgsl=None)
ad.defjvp2(cbrt_p, lambda g, ans, x: mul(g, mul(_const(x, 1 / 3), integer_pow(ans, -2))))

square_p = unop("square", _np_err(np.square), _NUM, wgsl="({0} * {0})")
ad.defjvp(square_p, lambda g, x: mul(g, mul(_const(x, 2), x)))


def _erf_impl(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x) if x.size else x.copy()


erf_p = unop("erf", _erf_impl, "f")
ad.defjvp(erf_p, lambda g, x: mul(_const(x, 2 / np.sqrt(np.pi)), mul(g, exp(neg(square(x))))))


def _erfc_impl(x):
    return np.vectorize(math.erfc, otypes=[x.dtype])(x) if x.size else x.copy()


erfc_p = unop("erfc", _erfc_impl, "f")
ad.defjvp(erfc_p, lambda g, x: mul(_const(x, -2 / np.sqrt(np.pi)), mul(g, exp(neg(square(x))))))


def _erf_inv_impl(x):
    from ._special import erf_inv
    return erf_inv(x)


erf_inv_p = unop("erf_inv", _erf_inv_impl, "f")
ad.defjvp2(erf_inv_p, lambda g, ans, x: mul(g, mul(_const(x, np.sqrt(np.pi) / 2), exp(square(ans)))))


def _lgamma_scalar(v):
    try:
        return math.lgamma(v)
    except ValueError:  # a pole (0, -1, -2, ...): +inf, as XLA
        return math.inf


def _lgamma_impl(x):
    return np.vectorize(_lgamma_scalar, otypes=[x.dtype])(x) if x.size else x.copy()


lgamma_p = unop("lgamma", _np_err(_lgamma_impl), "f")


def _digamma_impl(x):
    from ._special import digamma
    return np.asarray(digamma(x), x.dtype)


digamma_p = unop("digamma", _digamma_impl, "f")
ad.defjvp(lgamma_p, lambda g, x: mul(g, digamma(x)))


def _integer_pow_impl(x, y):
    # Exponentiation by squaring, as XLA lowers integer_pow (bit-identical products).
    if y == 0:
        return np.ones_like(x)
    neg_exp = y < 0
    y = -y if y < 0 else y
    acc = None
    base = x
    with np.errstate(all="ignore"):
        while y:
            if y & 1:
                acc = base if acc is None else acc * base
            y >>= 1
            if y:
                base = base * base
        if neg_exp:
            acc = (np.ones_like(acc) / acc).astype(x.dtype)
    return np.asarray(acc, x.dtype)


integer_pow_p = define("integer_pow", abstract_eval=unary_abstract("integer_pow", _NUM),
                       impl=_integer_pow_impl)
defvectorized(integer_pow_p)
ad.defjvp(integer_pow_p, lambda g, x, y: (ad.Zero(get_aval(g)) if y == 0 else g if y == 1 else
                                          mul(g, mul(_const(x, y), x)) if y == 2 else
                                          mul(g, mul(_const(x, y), integer_pow(x, y - 1)))))


def _add_t(ct, x, y):
    return [_unbroadcast(x.aval, ct) if ad.is_undefined(x) else None,
            _unbroadcast(y.aval, ct) if ad.is_undefined(y) else None]


def _add_jvp(primals, tangents):
    x, y = primals
    tx, ty = tangents
    out = add(x, y)
    if type(tx) is ad.Zero:
        return out, _maybe_broadcast(get_aval(out).shape, ty)
    if type(ty) is ad.Zero:
        return out, _maybe_broadcast(get_aval(out).shape, tx)
    return out, add(tx, ty)


add_p = binop("add", _np_err(np.add), "iufc", wgsl="({0} + {1})")
ad.jvp_rules[add_p] = _add_jvp
transpose_rules[add_p] = _add_t


def _sub_jvp(primals, tangents):
    x, y = primals
    tx, ty = tangents
    out = sub(x, y)
    shape = get_aval(out).shape
    if type(tx) is ad.Zero:
        return out, _maybe_broadcast(shape, neg(ty))
    if type(ty) is ad.Zero:
        return out, _maybe_broadcast(shape, tx)
    return out, sub(tx, ty)


sub_p = binop("sub", _np_err(np.subtract), "iufc", wgsl="({0} - {1})")
ad.jvp_rules[sub_p] = _sub_jvp
transpose_rules[sub_p] = lambda ct, x, y: [
    _unbroadcast(x.aval, ct) if ad.is_undefined(x) else None,
    _unbroadcast(y.aval, neg(ct)) if ad.is_undefined(y) else None]

add_any_p = binop("add_any", _np_err(np.add), wgsl="({0} + {1})")
ad.deflinear(add_any_p, lambda ct, x, y: [ct, ct])
transform_ops["add_any_p"] = add_any_p   # ad adds tangents with it (core/_engine/tracing/rules.py)


def _add_any_batch(axis_data, vals, dims, **params):
    # JAX's add_jaxvals batcher: an unbatched operand is broadcast along the other's batch axis (a
    # broadcast_in_dim in the jaxpr: vmap(grad(lambda s: 3 * s ** 3 - 2 * s))), never left to
    # implicit broadcasting; two batched ones meet at the second's axis
    from ..transforms.batching import broadcast_batched as spread, moveaxis as _moveaxis
    (x, y), (dx, dy) = vals, dims
    if dx == dy:
        return add_any_p.bind(x, y), dx
    if dx is None:
        return add_any_p.bind(spread(x, get_aval(y).shape[dy], dy), y), dy
    if dy is None:
        return add_any_p.bind(x, spread(y, get_aval(x).shape[dx], dx)), dx
    return add_any_p.bind(_moveaxis(x, dx, dy), y), dy


def _mul_t(ct, x, y):
    if ad.is_undefined(x):
        return [None if type(ct) is ad.Zero else _unbroadcast(x.aval, mul(ct, y)), None]
    return [None, None if type(ct) is ad.Zero else _unbroadcast(y.aval, mul(x, ct))]


mul_p = binop("mul", _np_err(np.multiply), "iufc", wgsl="({0} * {1})")
ad.defjvp(mul_p, lambda xdot, x, y: mul(xdot, y), lambda ydot, x, y: mul(x, ydot))
transpose_rules[mul_p] = _mul_t


def _div_impl(x, y):
    if x.shape == y.shape and dtypes.kind(x.dtype) in "fc":  # the common case, kept cheap
        return quietly(np.divide, x, y)
    with np.errstate(all="ignore"):
        if dtypes.kind(x.dtype) in "iu":
            q = np.floor_divide(x, np.where(y == 0, 1, y))
            fix = (np.remainder(x, np.where(y == 0, 1, y)) != 0) & ((x < 0) != (y < 0))
            return np.where(y == 0, -1, q + fix).astype(x.dtype)
        if np.shape(y) != np.broadcast_shapes(np.shape(x), np.shape(y)):
            # XLA rewrites A / broadcast(B) as A * broadcast(1 / B); same bits as JAX on CPU
            # (float16/bfloat16: in float32, the product rounded once, as XLA's CPU backend does)
            acc = dtypes.reduction_computation_dtype(x.dtype)
            if acc != x.dtype:
                return np.multiply(x.astype(acc), np.divide(np.ones((), acc), y.astype(acc))).astype(x.dtype)
            return np.multiply(x, np.divide(np.ones((), y.dtype), y))
        return np.divide(x, y)


div_p = binop("div", _div_impl, wgsl="({0} / {1})")


def _true_quotient(x, y):
    """x / y, never as x * (1 / y): on concrete floats whose divisor broadcasts, the divisor is
    broadcast first (the impl then divides). Traced operands bind as they are (the compiled
    program decides, as XLA does, from the divisor's other uses: backends/cpu.py)."""
    from ..tracing.tracing import Tracer  # INHERENT: the check is on the operand's kind
    from ..base.config import config
    if isinstance(x, Tracer) or isinstance(y, Tracer) or config.read("jax_disable_jit"):  # (op by op: no jit)
        return div(x, y)
    ax, ay = get_aval(x), get_aval(y)
    if dtypes.kind(ax.dtype) not in "fc" or ay.shape == ax.shape or not ax.shape:
        return div(x, y)
    # only a divisor that broadcasts to the dividend's shape (a scalar, or size-1 axes of the same
    # rank): where the dividend is the one broadcast (x of shape (1,) over y of shape (2,)), divide as is
    if ay.shape and (len(ay.shape) != len(ax.shape)
                     or any(b != a and b != 1 for a, b in zip(ax.shape, ay.shape))):
        return div(x, y)
    return div(x, _maybe_broadcast(ax.shape, y))


def _div_jvp(primals, tangents, *, divisor_only=False):
    # Real JAX runs an eager jnp division under AD as one compiled jit holding its tangent (jvp)
    # or residual (vjp: 1/y**2 when the divisor is differentiated) work too; there the divisor has
    # other uses and XLA keeps the true quotient, where on its own (op by op, or undifferentiated)
    # A / broadcast(B) becomes A * (1 / B) (_div_impl). numpyro's Normal.log_prob
    # (value - loc) / scale with a scalar scale over a plate: the first value its NUTS left JAX at.
    x, y = primals
    tx, ty = tangents
    differentiated = type(ty) is not ad.Zero if divisor_only else True
    out = _true_quotient(x, y) if differentiated else div(x, y)
    acc = None
    if type(tx) is not ad.Zero:
        acc = _true_quotient(tx, y) if not divisor_only else div(tx, y)
    if type(ty) is not ad.Zero:
        contrib = mul(mul(neg(ty), x), integer_pow(y, -2))
        acc = contrib if acc is None else ad.add_tangents(acc, contrib)
    return out, (ad.Zero(get_aval(out)) if acc is None else acc)


def _div_linearize(trace, tracers, **params):
    out, tangent = _div_jvp([t.primal for t in tracers], [t.tangent for t in tracers], divisor_only=True)
    return trace.tracer_type(trace, out, tangent)


ad.jvp_rules[div_p] = _div_jvp
linearize_rules[div_p] = _div_linearize
transpose_rules[div_p] = lambda ct, x, y: [
    None if type(ct) is ad.Zero else _unbroadcast(x.aval, div(ct, y)), None]


def _rem_impl(x, y):
    with np.errstate(all="ignore"):
        if dtypes.kind(x.dtype) in "iu":
            return np.where(y == 0, x, np.fmod(x, np.where(y == 0, 1, y))).astype(x.dtype)
        return np.fmod(x, y)


rem_p = binop("rem", _rem_impl, wgsl=None)
ad.defjvp(rem_p, lambda g, x, y: _maybe_broadcast(broadcasting_shape("rem", get_aval(x), get_aval(y)), g),
          lambda g, x, y: mul(neg(g), mul(sign(div(x, y)), floor(abs(div(x, y))))))

def _pow_abstract(x, y):
    # JAX's rule: an inexact base with an integer exponent (jnp.power(x, n) keeps n's ints), or
    # two inexact operands of one dtype
    if dtypes.kind(x.dtype) not in "fc" or not (dtypes.kind(y.dtype) in "iu" or y.dtype == x.dtype):
        raise TypeError("the first argument to pow must have an inexact dtype (float or complex), and the second "
                        "argument must have an inexact or integer dtype, and two inexact dtypes must match, but got "
                        f"{x.dtype.name} and {y.dtype.name} respectively.")
    return ShapedArray(broadcasting_shape("pow", x, y), x.dtype, x.weak_type and y.weak_type)


def _pow_impl(x, y):
    with np.errstate(all="ignore"):
        if x.dtype == np.float32 and y.dtype == np.float32:
            # (docs3) XLA on CPU calls the C library's powf, which is all but correctly rounded;
            # numpy's float32 power is a SIMD approximation (1 ulp off for ~20% of inputs).
            # float64 pow rounded once to float32 matches powf for 99.9% of inputs.
            return np.power(x, y, dtype=np.float64).astype(np.float32)
        return np.power(x, y.astype(x.dtype) if y.dtype != x.dtype else y)


def _pow_jvp_lhs(g, ans, x, y):
    # JAX's rule: y in x's dtype; for an integer exponent the derivative is exactly 0 where y == 0
    dt = get_aval(x).dtype
    y_int = get_aval(y).dtype.kind in "iu"
    # both strongly typed in x's dtype (lax.convert_element_type), so the derivative is never weak
    x, y = (v if get_aval(v).dtype == dt and not get_aval(v).weak_type else
            convert_element_type_p.bind(v, new_dtype=dt, weak_type=False, sharding=None) for v in (x, y))
    from ..lax.lax import full_like  # INHERENT: up to lax
    if y_int:
        shape = broadcasting_shape("pow", get_aval(x), get_aval(y))
        x, y = _maybe_broadcast(shape, x), _maybe_broadcast(shape, y)
        jac = select(eq(y, _zero(y)), full_like(y, 0), mul(_replace_zero(y), pow(x, sub(y, full_like(y, 1)))))
    else:   # (JAX's ones are full_like(y, 1): a broadcast_in_dim for an array y)
        jac = mul(y, pow(x, sub(y, full_like(y, 1))))
    return mul(g, jac)


def _pow_jvp_rhs(g, ans, x, y):
    if get_aval(y).dtype.kind in "iu":  # an integer exponent has no tangent
        from ..lax.lax import full_like  # INHERENT: up to lax
        return full_like(ans, 0)
    # JAX's rule casts the tangent to y's dtype, strongly typed (a weak one gets a convert_element_type)
    out = mul(g, mul(log(_replace_zero(x)), ans))
    aval, dt = get_aval(out), get_aval(y).dtype
    if aval.weak_type or aval.dtype != dt:
        out = convert_element_type_p.bind(out, new_dtype=dt, weak_type=False, sharding=None)
    return out


pow_p = define("pow", abstract_eval=_pow_abstract, impl=_pow_impl, wgsl="pow({0}, {1})")
pow_p.same_rank_operands = True
defbroadcasting(pow_p)
ad.defjvp2(pow_p, _pow_jvp_lhs, _pow_jvp_rhs)


def _replace_zero(x):
    from ..lax.lax import full_like  # INHERENT: up to lax
    return select(eq(x, _zero(x)), full_like(x, 1), x)  # (JAX's _replace_zero: full ones)


def _balanced_eq(x, z, y):
    # JAX's rule: ties split the gradient; the constants are full arrays like `z`
    from ..lax.lax import full_like  # INHERENT: up to lax
    return div(select(eq(x, z), full_like(z, 1), full_like(z, 0)),
               select(eq(y, z), full_like(z, 2), full_like(z, 1)))


def _np_err_raw(fn):
    impl = _np_err(fn)
    impl.raw = fn   # (takes `out=` as a ufunc does: compiled code and the eager fast path call it)
    return impl


max_p = binop("max", _np_err_raw(xla_max), wgsl="max({0}, {1})")   # (XLA's: -0.0 below +0.0, _signed_zero)
ad.defjvp2(max_p, lambda g, ans, x, y: mul(g, _balanced_eq(x, ans, y)),
           lambda g, ans, x, y: mul(g, _balanced_eq(y, ans, x)))

min_p = binop("min", _np_err_raw(xla_min), wgsl="min({0}, {1})")
ad.defjvp2(min_p, lambda g, ans, x, y: mul(g, _balanced_eq(x, ans, y)),
           lambda g, ans, x, y: mul(g, _balanced_eq(y, ans, x)))

# WGSL leaves atan2(0, 0) undefined (lavapipe gives 3*pi/4); numpy's is +-0 or +-pi by the zeros' signs
_ATAN2_WGSL = ("select(atan2({0}, {1}), select(select(0.0, 3.14159265358979, (bitcast<u32>({1}) >> 31u) == 1u), "
               "-select(0.0, 3.14159265358979, (bitcast<u32>({1}) >> 31u) == 1u), (bitcast<u32>({0}) >> 31u) == 1u), "
               "{0} == 0.0 && {1} == 0.0)")
atan2_p = binop("atan2", _np_err(np.arctan2), _FLOAT, wgsl=_ATAN2_WGSL)
ad.defjvp(atan2_p, lambda g, x, y: mul(g, div(y, add(square(x), square(y)))),
          lambda g, x, y: mul(g, div(neg(x), add(square(x), square(y)))))

def _nextafter_impl(x, y):
    if dtypes.is_bfloat16_dtype(x.dtype):   # numpy steps in float32 (the emulation) or wrongly (ml_dtypes)
        return dtypes.host_array(dtypes.bf16_nextafter(x, y), x.dtype)
    return _np_err(np.nextafter)(x, y)


nextafter_p = binop("nextafter", _nextafter_impl, "f")

# ---- comparisons and logic ----------------------------------------------------------------

def _key_aware(ufunc, across_words):
    """eq/ne: typed PRNG keys (a structured dtype numpy's ufuncs refuse) compare their key words, as
    JAX's `k == k0` inside jit/vmap and `jnp.equal(k, k0)` do (numpyro: `vmap(seed(model))` keys)."""
    def impl(x, y):
        if x.dtype == KEY_DTYPE or y.dtype == KEY_DTYPE:
            return across_words(ufunc(unwrap_words(x), unwrap_words(y)), axis=-1)
        return quietly(ufunc, x, y)
    impl.__name__ = ufunc.__name__
    impl.raw = ufunc          # compiled code and the eager fast path call the ufunc itself ...
    impl.kinds = "biufc"      # ... on these dtype kinds only; a key (kind "V") takes impl
    return impl


eq_p = binop("eq", _key_aware(np.equal, np.all), out_dtype=dtypes.bool_, wgsl="({0} == {1})")
ne_p = binop("ne", _key_aware(np.not_equal, np.any), out_dtype=dtypes.bool_, wgsl="({0} != {1})")
lt_p = binop("lt", _np_err(np.less), out_dtype=dtypes.bool_, wgsl="({0} < {1})")
le_p = binop("le", _np_err(np.less_equal), out_dtype=dtypes.bool_, wgsl="({0} <= {1})")
gt_p = binop("gt", _np_err(np.greater), out_dtype=dtypes.bool_, wgsl="({0} > {1})")
ge_p = binop("ge", _np_err(np.greater_equal), out_dtype=dtypes.bool_, wgsl="({0} >= {1})")
for _p in (eq_p, ne_p, lt_p, le_p, gt_p, ge_p):
    ad.defjvp_zero(_p)

and_p = binop("and", np.bitwise_and, _BOOLINT, wgsl="({0} & {1})")
or_p = binop("or", np.bitwise_or, _BOOLINT, wgsl="({0} | {1})")
xor_p = binop("xor", np.bitwise_xor, _BOOLINT, wgsl="({0} ^ {1})")
not_p = unop("not", np.invert, _BOOLINT, wgsl="(~{0})")
for _p in (and_p, or_p, xor_p, not_p):
    ad.defjvp_zero(_p)


def _shift_impl(fn):
    def impl(x, y):
        bits = x.dtype.itemsize * 8
        if np.ndim(y) == 0:   # one shift for all (the samplers' mantissa shift): no masks
            s = int(y)
            return fn(x, x.dtype.type(s)) if 0 <= s < bits else np.zeros_like(x)
        big = (y >= bits) | (y < 0)
        with np.errstate(all="ignore"):
            out = fn(x, np.where(big, 0, y).astype(x.dtype))
        return np.where(big, np.zeros_like(x), out).astype(x.dtype)
    return impl


def _shift_right_arith(x, y):
    bits = x.dtype.itemsize * 8
    yy = np.where((y >= bits) | (y < 0), bits - 1, y).astype(x.dtype)
    return np.right_shift(x, yy)


shift_left_p = binop("shift_left", _shift_impl(np.left_shift), _INT, wgsl="({0} << {1})")


def _shift_right_logical(x, y):
    # logical: shift the unsigned bit pattern (numpy's >> on signed ints is arithmetic)
    u = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    return _shift_impl(np.right_shift)(u, y).view(x.dtype)


shift_right_logical_p = binop("shift_right_logical", _shift_right_logical, _INT, wgsl="({0} >> {1})")
shift_right_arithmetic_p = binop("shift_right_arithmetic", _shift_right_arith, _INT)
for _p in (shift_left_p, shift_right_logical_p, shift_right_arithmetic_p):
    ad.defjvp_zero(_p)


_POPCOUNT_BYTE = np.array([bin(i).count("1") for i in range(256)], np.uint8)


def _popcount_impl(x):
    x = np.asarray(x)
    u = x.view(np.dtype(f"u{x.dtype.itemsize}"))   # two's complement bits, as XLA counts them
    if hasattr(np, "bitwise_count"):                 # numpy >= 2.0: one pass
        return np.bitwise_count(u).astype(x.dtype)
    per_byte = _POPCOUNT_BYTE[np.ascontiguousarray(u).view(np.uint8)].reshape(x.shape + (x.dtype.itemsize,))
    return per_byte.sum(axis=-1, dtype=np.int64).astype(x.dtype)


population_count_p = unop("population_count", _popcount_impl, _INT, wgsl="countOneBits({0})")
ad.defjvp_zero(population_count_p)


# ---- select, clamp, conversions -----------------------------------------------------------

def _select_n_abstract(which, *cases):
    # JAX's order and words: the shape rule (cases, then `which`), then the dtype rule
    if not cases:
        raise TypeError("select must have at least one case")
    if len({c.shape for c in cases}) > 1:
        raise TypeError("select cases must have the same shapes, got "
                        f"[{', '.join(str(c.shape) for c in cases)}].")
    if which.shape and which.shape != cases[0].shape:
        raise TypeError("select `which` must be scalar or have the same shape as cases, got `which` shape "
                        f"{which.shape} but case shape {cases[0].shape}.")
    _same_dtypes("select_n", cases)
    if which.dtype.kind not in "biu":
        raise TypeError(f"select `which` must be boolean or integer type, got {which.dtype.name}.")
    if which.dtype.kind == "b" and len(cases) > 2:
        raise TypeError("select with boolean `which` cannot have > 2 cases.")
    return ShapedArray(cases[0].shape, cases[0].dtype, all(c.weak_type for c in cases))


_UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _blend(which, a, b):
    """where(which, b, a) by bit arithmetic, bit-exact: numpy's masked select branches per
    element and is ~5x slower on large unpredictable masks."""
    it = _UINT_OF_SIZE[a.dtype.itemsize]
    ai, bi = a.view(it), b.view(it)
    m = which.view(np.uint8).astype(it)
    np.negative(m, out=m)  # 0 -> 0, 1 -> all ones
    r = np.bitwise_xor(ai, bi)
    r &= m
    r ^= ai
    return r.view(a.dtype)


def _select_n_impl(which, *cases):
    if len(cases) == 1:
        return cases[0]
    if which.dtype == np.bool_:
        a, b = cases
        if (which.size >= 4096 and a.shape == b.shape == which.shape and a.dtype == b.dtype
                and a.dtype.itemsize in _UINT_OF_SIZE):
            return _blend(which, a, b)
        return np.where(which, cases[1], cases[0])
    return np.choose(which.astype(np.intp), cases)  # intp: int32 on wasm32 (Pyodide), where int64 fails


select_n_p = define("select_n", abstract_eval=_select_n_abstract, impl=_select_n_impl,
                    weak_type_rule=lambda w, **p: all(w[1:]), wgsl="select({1}, {2}, {0})")


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    out = select_n(which, *cases)
    ts = tangents[1:]
    if all(type(t) is ad.Zero for t in ts):
        return out, ad.Zero(get_aval(out))
    # JAX's rule: one full_like(0) of the first nonzero tangent, made even when no case needs it
    # (its jaxprs show that unused broadcast_in_dim 0.0), standing in for each zero tangent
    from ..lax.lax import full_like  # INHERENT: up to lax
    first = next(t for t in ts if type(t) is not ad.Zero)
    zero = ad.zeros_like_aval(get_aval(first)) if get_aval(first).shape == () else full_like(first, 0)
    return out, select_n(which, *[zero if type(t) is ad.Zero else t for t in ts])


def _select_n_t(ct, which, *cases):
    assert not ad.is_undefined(which)
    if type(ct) is ad.Zero:
        return [None] + [None] * len(cases)
    zeros = ad.zeros_like_aval(get_aval(ct))
    outs = [None]
    for i, c in enumerate(cases):
        if ad.is_undefined(c):
            args = [zeros] * len(cases)
            args[i] = ct
            outs.append(select_n(which, *args))
        else:
            outs.append(None)
    return outs


def _select_n_batch(axis_data, vals, dims):
    """JAX's rule, case by case (its jaxprs show which operand is broadcast or moved, and in what
    order): mapped axes that agree stay in place; otherwise `which` (unless 0-d) and then the cases
    get their mapped axis in front, a 0-d `which` or case broadcast last."""
    from ..transforms.batching import bdim_at_front, moveaxis
    from ..lax import lax  # INHERENT: up to lax
    which, *cases = vals
    wd, *cds = dims
    size = axis_data.size
    shape = lambda x: get_aval(x).shape
    if all(d is None for d in dims):
        return select_n(which, *cases), None
    if all(wd == d for d in cds):
        if shape(which) != shape(cases[0]):   # a per-example scalar `which` with array cases
            which = lax.broadcast_in_dim(which, shape(cases[0]), (wd,))
        return select_n(which, *cases), wd
    if not shape(which) and all(d is not None for d in cds):
        if all(cds[0] == d for d in cds[1:]):
            return select_n(which, *cases), cds[0]
        if all(shape(cases[0]) == shape(c) for c in cases):
            return select_n(which, cases[0], *[moveaxis(c, d, cds[0]) for c, d in zip(cases[1:], cds[1:])]), cds[0]
    if shape(which):
        which = bdim_at_front(which, wd, size)
    if not all(shape(c) == () for c in cases):
        cases = [bdim_at_front(c, d, size) for c, d in zip(cases, cds)]
    if 0 < len(shape(which)) < len(shape(cases[0])):
        which = lax.broadcast_in_dim(which, shape(cases[0]), (0,))
    if len(shape(which)) > len(shape(cases[0])):
        cases = [lax.broadcast_in_dim(c, shape(which), ()) for c in cases]
    return select_n(which, *cases), 0


ad.jvp_rules[select_n_p] = _select_n_jvp
transpose_rules[select_n_p] = _select_n_t
from ..tracing.rules import batch_rules  # noqa: E402
batch_rules[add_any_p] = _add_any_batch
batch_rules[select_n_p] = _select_n_batch


def _clamp_abstract(lo, x, hi):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


clamp_p = define("clamp", abstract_eval=_clamp_abstract, impl=lambda lo, x, hi: np.clip(x, lo, hi),
                 weak_type_rule=lambda w, **p: w[1], wgsl="clamp({1}, {0}, {2})")
ad.defjvp(clamp_p,
          lambda g, lo, x, hi: select(bitwise_and(gt(lo, x), lt(lo, hi)), g, _zeros_like(lo)),
          lambda g, lo, x, hi: select(bitwise_and(gt(x, lo), lt(x, hi)), g, _zeros_like(x)),
          lambda g, lo, x, hi: select(lt(hi, x), g, _zeros_like(hi)))
defbroadcasting(clamp_p)


def _zeros_like(x):
    from ..lax import lax  # INHERENT: up to lax
    return lax.full_like(x, 0)


def _convert_abstract(x, new_dtype, weak_type, sharding=None):
    return ShapedArray(x.shape, new_dtype, weak_type)


_IINFO: dict = {}
_WIDE_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))   # (native: the emulated bfloat16 is not)


def plain_astype(src, nd) -> bool:
    """Whether converting `src` to `nd` is numpy's astype alone: the common cases in loops, none
    can overflow (no errstate, no kind lookups)."""
    return (src.kind in "biu" and (nd.kind in "biu" or nd in _WIDE_FLOATS)) or src == nd \
        or (nd in _WIDE_FLOATS and src.kind == "f" and src.isnative and src.itemsize <= nd.itemsize)


def _convert_impl(x, new_dtype, weak_type, sharding=None):
    nd = np.dtype(new_dtype)
    src = x.dtype
    if plain_astype(src, nd):
        return x.astype(nd)
    if dtypes.kind(src) == "f" and dtypes.kind(nd) in "iu":
        # saturating, as XLA: out-of-range values become the int's min/max, NaN becomes 0. The
        # bounds are compared as powers of two (exact in any float); clipping to info.max in
        # float32 would round 2**31 - 1 up to 2**31 and wrap to the minimum
        with np.errstate(all="ignore"):
            info = _IINFO.get(nd) or _IINFO.setdefault(nd, np.iinfo(nd))
            t = np.trunc(x)
            big, small = t >= float(info.max) + 1.0, t < float(info.min)
            y = np.where(big | small | np.isnan(t), 0, t).astype(nd)
            return np.where(big, info.max, np.where(small, info.min, y)).astype(nd)
    if dtypes.kind(x.dtype) == "c" and dtypes.kind(nd) != "c":
        x = x.real
    with np.errstate(over="ignore"):  # a float too big for a narrower float becomes inf, silently, as in XLA
        return x.astype(nd)


convert_element_type_p = define(
    "convert_element_type", abstract_eval=_convert_abstract, impl=_convert_impl,
    weak_type_rule=lambda w, **p: p["weak_type"])
defvectorized(convert_element_type_p)
# JAX's printer drops sharding (implied by the binder type)
convert_element_type_p.pp_params = lambda params: [(k, params[k]) for k in sorted(params) if k != "sharding"]


def _convert_jvp(primals, tangents, new_dtype, weak_type, sharding=None):
    (x,), (t,) = primals, tangents
    out = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type, sharding=sharding)
    if dtypes.kind(np.dtype(new_dtype)) not in "fc" or dtypes.kind(get_aval(x).dtype) not in "fc":
        return out, ad.Zero(get_aval(out))
    return out, convert_element_type_p.bind(t, new_dtype=new_dtype, weak_type=weak_type, sharding=sharding)


def _convert_t(ct, x, new_dtype, weak_type, sharding=None):
    a = x.aval
    if type(ct) is ad.Zero:
        return [None]
    from ..tracing.tracing import Tracer  # INHERENT: a constant cotangent is folded, a traced one staged
    if not isinstance(ct, Tracer) and not get_aval(ct).shape:
        # a constant scalar cotangent (grad's 1.0): JAX folds its conversion into the literal
        from ..lax import lax  # INHERENT: up to lax
        return [lax._convert_element_type(ct, a.dtype, a.weak_type)]
    return [convert_element_type_p.bind(ct, new_dtype=a.dtype, weak_type=a.weak_type, sharding=sharding)]


ad.jvp_rules[convert_element_type_p] = _convert_jvp
transpose_rules[convert_element_type_p] = _convert_t

def _bitcast_shape(shape, old, new) -> tuple:
    """JAX's lax.bitcast_convert_type between widths: to a narrower dtype a trailing axis of the
    ratio is added (int16 (2, 3) -> int8 (2, 3, 2)); to a wider one the trailing axis, which must
    hold exactly one new element's bytes, is consumed."""
    a, b = dtypes.itemsize_bits(old), dtypes.itemsize_bits(new)
    if a == b:
        return tuple(shape)
    if a > b:
        return (*shape, a // b)
    if not shape or shape[-1] * a != b:
        last = shape[-1] if shape else 1
        raise ValueError(f"Attempting to convert array of shape {tuple(shape)} from {np.dtype(old).name} of size "
                         f"{a} bits to {np.dtype(new).name} of size {b}, bits but {last} * {a} != {b}")
    return tuple(shape[:-1])


def _bitcast_impl(x, new_dtype):
    nd = np.dtype(new_dtype)
    shape = _bitcast_shape(x.shape, x.dtype, nd)
    if dtypes.itemsize_bits(x.dtype) == dtypes.itemsize_bits(nd):
        return dtypes.bitcast(x, nd)
    # numpy's view between widths resizes the last axis in place (and needs it contiguous): the
    # bytes are the same, the shape is JAX's (a silent (2, 6) for JAX's (2, 3, 2) before)
    return np.ascontiguousarray(x).view(nd).reshape(shape)


bitcast_convert_type_p = define(
    "bitcast_convert_type",
    abstract_eval=lambda x, new_dtype: ShapedArray(_bitcast_shape(x.shape, x.dtype, new_dtype), new_dtype, False),
    impl=_bitcast_impl, weak_type_rule=never_weak)
defvectorized(bitcast_convert_type_p)
ad.defjvp_zero(bitcast_convert_type_p)

stop_gradient_p = define("stop_gradient", abstract_eval=unary_abstract("stop_gradient"),
                         impl=lambda x: x)
defvectorized(stop_gradient_p)
ad.defjvp_zero(stop_gradient_p)

copy_p = define("copy_p", abstract_eval=unary_abstract("copy_p"), impl=lambda x: x.copy())
defvectorized(copy_p)
ad.deflinear(copy_p, lambda ct, x: [copy_p.bind(ct)])

def _complex_part_abstract(name):
    """real / imag of complex64 are float32 (of complex128, float64): the aval must say so."""
    def rule(x, **params):
        _check_kind(name, x, "c")
        part = np.dtype(np.float64) if x.dtype == np.complex128 else np.dtype(np.float32)
        return shaped_array_unchecked(x.shape, part, x.weak_type)
    return rule


real_p = define("real", abstract_eval=_complex_part_abstract("real"), impl=lambda x: np.real(x))
defvectorized(real_p)
imag_p = define("imag", abstract_eval=_complex_part_abstract("imag"), impl=lambda x: np.imag(x))
defvectorized(imag_p)
# conj and complex, and the derivatives of real/imag/conj/abs on complex numbers: complex_parts.py


# ---- tiny wrappers used by the rules above (the public ones live in core._engine.lax.lax) --------------

def neg(x): return neg_p.bind(x)
def sign(x): return sign_p.bind(x)
def floor(x): return floor_p.bind(x)
def abs_(x): return abs_p.bind(x)
def exp(x): return exp_p.bind(x)
def log(x): return log_p.bind(x)
def sin(x): return sin_p.bind(x)
def cos(x): return cos_p.bind(x)
def cosh(x): return cosh_p.bind(x)
def sinh(x): return sinh_p.bind(x)
def sqrt(x): return sqrt_p.bind(x)
def rsqrt(x): return rsqrt_p.bind(x)
def square(x): return square_p.bind(x)
def digamma(x): return digamma_p.bind(x)
def integer_pow(x, y): return integer_pow_p.bind(x, y=y)
def add(x, y): return add_p.bind(x, y)
def sub(x, y): return sub_p.bind(x, y)
def mul(x, y): return mul_p.bind(x, y)
def div(x, y): return div_p.bind(x, y)
def pow(x, y): return pow_p.bind(x, y)
def eq(x, y): return eq_p.bind(x, y)
def gt(x, y): return gt_p.bind(x, y)
def lt(x, y): return lt_p.bind(x, y)
def ge(x, y): return ge_p.bind(x, y)
def bitwise_and(x, y): return and_p.bind(x, y)
def select_n(which, *cases): return select_n_p.bind(which, *cases)
def select(pred, on_true, on_false): return select_n_p.bind(pred, on_false, on_true)
def reciprocal(x): return integer_pow(x, -1)


abs = abs_


def _maybe_broadcast(shape, x):
    from ..lax import lax  # INHERENT: up to lax
    xs = get_aval(x).shape
    if xs == tuple(shape):
        return x
    if not xs:
        return lax.broadcast_in_dim(x, tuple(shape), ())
    # size-1 dims broadcast against `shape`
    keep = [i for i, (a, b) in enumerate(zip(xs, shape)) if a == b]
    sq = lax.reshape(x, tuple(xs[i] for i in keep)) if len(keep) != len(xs) else x
    return lax.broadcast_in_dim(sq, tuple(shape), tuple(keep))


def _unbroadcast(aval, x):
    from ..lax import lax  # INHERENT: up to lax
    xs = get_aval(x).shape
    if xs == aval.shape:
        return x
    if not aval.shape:
        return lax.reduce_sum(x, tuple(range(len(xs))))
    dims = tuple(i for i, (a, b) in enumerate(zip(xs, aval.shape)) if a != b)
    return lax.reshape(lax.reduce_sum(x, dims), aval.shape)
