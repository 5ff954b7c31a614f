"""jax.numpy's elementwise functions (NumPy's ufuncs): arithmetic, comparisons, bitwise and
logical operations, exponentials and trigonometry, rounding, classification, clip, isclose."""
from __future__ import annotations

import functools as _functools
import operator

import numpy as _np

from ...base import dtypes as _dt
from ...lax import lax
from ...tracing.array import Array
from ...tracing.tracing import Tracer, get_aval
from ._util import (_check_arraylike, _check_shapes_broadcast, _eager_binary_args, _promote_args,
                    _promote_args_inexact, _promote_dtypes, _promote_dtypes_inexact, _promote_shapes,
                    _staged, _traced_binary_args)
from ._dtypes import pi


def _unary(name, lax_fn, inexact=False):
    def fn(x, /):
        if type(x) is Array:
            if not inexact or x._value.dtype.kind in "fc":
                return lax_fn(x)  # already of the promoted type
        elif isinstance(x, Tracer) and (not inexact or x.aval.dtype.kind in "fc"):
            return lax_fn(x)  # already of the promoted type (what the general path returns)
        _check_arraylike(name, x)
        (x,) = _promote_dtypes_inexact(x) if inexact else _promote_dtypes(x)
        return lax_fn(x)
    fn.__name__ = name
    return fn


def _binary(name, lax_fn, inexact=False):
    promote_dtypes = _promote_dtypes_inexact if inexact else _promote_dtypes

    def fn(x1, x2, /):
        fast = _eager_binary_args(x1, x2, inexact) or _traced_binary_args(x1, x2, inexact)
        if fast is not None:
            return lax_fn(*fast)
        _check_arraylike(name, x1, x2)
        _check_shapes_broadcast(name, x1, x2)
        a, b = _promote_shapes(name, *promote_dtypes(x1, x2))  # = _promote_args[_inexact]
        return lax_fn(a, b)
    fn.__name__ = name
    return fn


def _compare(name, lax_fn):
    def fn(x1, x2, /):
        fast = _eager_binary_args(x1, x2, False) or _traced_binary_args(x1, x2, False)
        if fast is not None:
            return lax_fn(*fast)
        _check_arraylike(name, x1, x2)
        _check_shapes_broadcast(name, x1, x2)
        a, b = _promote_shapes(name, *_promote_dtypes(x1, x2))  # = _promote_args
        return lax_fn(a, b)
    fn.__name__ = name
    return fn


# ---- elementwise --------------------------------------------------------------------------

def _or_for_bool(lax_fn, bool_fn):
    """JAX's jnp.add / jnp.multiply on booleans are logical or / and (lax.add refuses bool)."""
    def fn(x, y):
        return bool_fn(x, y) if get_aval(x).dtype == _np.bool_ else lax_fn(x, y)
    return fn


add = _binary("add", _or_for_bool(lax.add, lax.bitwise_or))
subtract = _binary("subtract", lax.sub)
multiply = _binary("multiply", _or_for_bool(lax.mul, lax.bitwise_and))
maximum = _binary("maximum", lax.max)
minimum = _binary("minimum", lax.min)
equal = _compare("equal", lax.eq)
not_equal = _compare("not_equal", lax.ne)
less = _compare("less", lax.lt)
less_equal = _compare("less_equal", lax.le)
greater = _compare("greater", lax.gt)
greater_equal = _compare("greater_equal", lax.ge)
arctan2 = _binary("arctan2", lax.atan2, inexact=True)
atan2 = arctan2
nextafter = _binary("nextafter", lax.nextafter, inexact=True)


def _bitwise(name, lax_fn):
    def fn(x1, x2, /):
        a, b = _promote_args(name, x1, x2)
        k = get_aval(a).dtype.kind
        if k not in "biu":
            raise TypeError(f"{name} does not accept dtype {get_aval(a).dtype.name}. Accepted dtypes are "
                            "subtypes of bool, integer.")
        return lax_fn(a, b)
    fn.__name__ = name
    return fn


bitwise_and = _bitwise("bitwise_and", lax.bitwise_and)
bitwise_or = _bitwise("bitwise_or", lax.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", lax.bitwise_xor)


def logical_and(x1, x2, /): return lax.bitwise_and(*_promote_args("logical_and", *_as_bool(x1, x2)))
def logical_or(x1, x2, /): return lax.bitwise_or(*_promote_args("logical_or", *_as_bool(x1, x2)))
def logical_xor(x1, x2, /): return lax.bitwise_xor(*_promote_args("logical_xor", *_as_bool(x1, x2)))


def logical_not(x, /):
    (x,) = _as_bool(x)
    return lax.bitwise_not(x)


def _as_bool(*xs):
    out = []
    for x in xs:
        _check_arraylike("logical", x)
        out.append(x if get_aval(x).dtype == _dt.bool_ else lax.ne(*_promote_args("ne", x, 0)))
    return out


def invert(x, /):
    _check_arraylike("invert", x)
    (x,) = _promote_dtypes(x)
    return lax.bitwise_not(x)


bitwise_not = invert
bitwise_invert = invert


def bitwise_left_shift(x1, x2, /):
    return left_shift(x1, x2)


def bitwise_right_shift(x1, x2, /):
    return right_shift(x1, x2)


def unstack(x, /, *, axis=0):
    _check_arraylike("unstack", x)
    return lax.unstack(asarray(x), axis=axis)


def left_shift(x1, x2, /):
    a, b = _promote_args("left_shift", x1, x2)
    return lax.shift_left(a, b)


def right_shift(x1, x2, /):
    a, b = _promote_args("right_shift", x1, x2)
    if get_aval(a).dtype.kind == "u":
        return lax.shift_right_logical(a, b)
    return lax.shift_right_arithmetic(a, b)


def true_divide(x1, x2, /):
    fast = _eager_binary_args(x1, x2, True) or _traced_binary_args(x1, x2, True)
    if fast is not None:  # operands already of the promoted type
        return lax.div(*fast)
    a, b = _promote_args_inexact("true_divide", x1, x2)
    return lax.div(a, b)


divide = true_divide


@_staged
def floor_divide(x1, x2, /):
    a, b = _promote_args("floor_divide", x1, x2)
    dt = get_aval(a).dtype
    if dt.kind == "u":
        return lax.div(a, b)
    if dt.kind == "i":
        quotient = lax.div(a, b)
        select_ = logical_and(not_equal(lax.sign(a), lax.sign(b)), not_equal(lax.rem(a, b), 0))
        return _where(select_, subtract(quotient, 1), quotient)
    if dt == _dt.bool_:
        raise TypeError("floor_divide does not support bool dtype")
    if dt.kind == "c":
        raise TypeError("floor_divide does not support complex-valued inputs")
    return _float_divmod(a, b)[0]


def _float_divmod(x1, x2):
    # CPython's float_divmod (floatobject.c), as JAX writes it
    mod = lax.rem(x1, x2)
    x1_corrected = _where(equal(x2, 0), x1, lax.sub(x1, mod))
    div = lax.div(x1_corrected, x2)
    ind = lax.bitwise_and(not_equal(mod, 0), not_equal(lax.sign(x2), lax.sign(mod)))
    mod = lax.select(ind, add(mod, x2), mod)
    div = lax.select(ind, subtract(div, 1.0), div)
    return lax.round(div), mod


@_staged
def remainder(x1, x2, /):
    a, b = _promote_args("remainder", x1, x2)
    zero = lax._zero(a)
    if get_aval(b).dtype.kind in "iu":
        b = _where(equal(b, 0), lax._one(b), b)   # x % 0 is 0 for ints, as in JAX
    trunc_mod = lax.rem(a, b)
    trunc_mod_not_zero = lax.ne(trunc_mod, zero)
    do_plus = lax.bitwise_and(lax.ne(lax.lt(trunc_mod, zero), lax.lt(b, zero)), trunc_mod_not_zero)
    return lax.select(do_plus, lax.add(trunc_mod, b), trunc_mod)


mod = remainder


@_staged  # (a jit in JAX: jaxprs show jit[name=fmod])
def fmod(x1, x2, /):
    a, b = _promote_args("fmod", x1, x2)
    return lax.rem(a, b)


def divmod(x1, x2, /):
    return floor_divide(x1, x2), remainder(x1, x2)


def _to_numeric(a):
    """JAX's "numeric" promotion: bools become the default int (weak type kept)."""
    aval = get_aval(a)
    return lax._convert_element_type(a, _dt.default_int_dtype(), aval.weak_type) if aval.dtype.kind == "b" else a


def power(x1, x2, /):
    if type(x2) is not int:  # (integer exponents: integer_pow below)
        fast = _eager_binary_args(x1, x2, True)
        if fast is not None:  # float operands already of the promoted type
            return lax.pow(*fast)
    _check_arraylike("power", x1, x2)
    if not isinstance(x2, Tracer) and _np.ndim(x2) == 0 and _np.result_type(x2).kind in "iu":
        # a concrete integer exponent: exact binary exponentiation (x ** 2, x ** jnp.array(3))
        (a,) = _promote_dtypes(x1)
        return lax.integer_pow(_to_numeric(a), operator.index(x2))
    x1, x2 = _promote_shapes("power", asarray(x1), asarray(x2))
    a, b = (_to_numeric(v) for v in _promote_dtypes(x1, x2))
    if get_aval(a).dtype.kind in "iu":
        return _int_power(a, b)
    if get_aval(x1).dtype.kind in "fc" and get_aval(x2).dtype.kind in "iu":
        # an inexact base with integer exponents: lax.pow keeps them integers, so that the
        # derivative is exactly n x**(n-1), 0 where n == 0 (x ** jnp.arange(3) at x = 0)
        return lax.pow(x1, x2)
    return lax.pow(a, b)


pow = power


def _int_power(a, b):
    # JAX's _pow_int_int: binary exponentiation over the low 6 bits of b (more would overflow for
    # any base > 1), so 3 ** 100 and 3 ** -1 wrap exactly as JAX's do; pow(0, b) is 0 for b != 0
    zero, one = lax._zero(b), lax._one(b)
    acc = where(lax.bitwise_and(lax.eq(a, zero), lax.ne(b, zero)), zero, one)
    for _ in range(6):
        acc = where(lax.bitwise_and(b, one), lax.mul(acc, a), acc)
        a = lax.mul(a, a)
        b = lax.shift_right_logical(b, one)
    return acc


def float_power(x1, x2, /):
    # JAX's: promoted to inexact (so Python scalars stay weak), then lax.pow
    return lax.pow(*_promote_args_inexact("float_power", x1, x2))


negative = _unary("negative", lax.neg)


def positive(x, /):
    _check_arraylike("positive", x)
    return asarray(x)


def absolute(x, /):
    _check_arraylike("absolute", x)
    (x,) = _promote_dtypes(x)
    dt = get_aval(x).dtype
    if dt.kind == "u" or dt == _dt.bool_:
        return x
    return lax.abs(x)


abs = absolute


def sign(x, /):
    _check_arraylike("sign", x)
    (x,) = _promote_dtypes(x)
    return lax.sign(x)


def floor(x, /):
    _check_arraylike("floor", x)
    (x,) = _promote_dtypes(x)
    if get_aval(x).dtype.kind in "iub":
        return x
    return lax.floor(x)


def ceil(x, /):
    _check_arraylike("ceil", x)
    (x,) = _promote_dtypes(x)
    if get_aval(x).dtype.kind in "iub":
        return x
    return lax.ceil(x)


@_staged  # (a jit in JAX: jaxprs show jit[name=trunc])
def trunc(x, /):
    _check_arraylike("trunc", x)
    (x,) = _promote_dtypes(x)
    if get_aval(x).dtype.kind in "iub":
        return x
    return where(lax.lt(x, lax._zero(x)), lax.ceil(x), lax.floor(x))


fix = trunc


@_staged(static_argnames=("decimals",))
def round(a, decimals=0, out=None):
    _check_arraylike("round", a)
    (a,) = _promote_dtypes(a)
    dt = get_aval(a).dtype
    if dt.kind in "iub":
        if decimals < 0:  # JAX refuses rather than round 15 to 20
            raise NotImplementedError("integer np.round not implemented for decimals < 0")
        return a
    if dt.kind == "c":  # each part rounded, as JAX's
        parts = [round(part, decimals) for part in (lax.real(a), lax.imag(a))]
        return lax.add(lax._convert_element_type(parts[0], dt, False),
                       lax.mul(lax._convert_element_type(parts[1], dt, False), lax._const(a, 1j)))
    if decimals == 0:
        return lax.round(a, 1)
    factor = lax._const(a, 10 ** decimals)
    return lax.div(lax.round(lax.mul(a, factor), 1), factor)


@_staged(static_argnames=("decimals",))
def around(a, decimals=0, out=None):
    """JAX's: a jit of its own around the jit of round."""
    return round(a, decimals, out)


round_ = round


@_staged
def rint(x, /):
    _check_arraylike("rint", x)
    if get_aval(x).dtype.kind in "biu":  # integers and bools become (strong) floats, as JAX's
        return lax.convert_element_type(x, _dt.default_float_dtype())
    if get_aval(x).dtype.kind == "c":
        return lax.complex(rint(lax.real(x)), rint(lax.imag(x)))
    return lax.round(x, 1)


exp = _unary("exp", lax.exp, True)
exp2 = _unary("exp2", lax.exp2, True)
expm1 = _unary("expm1", lax.expm1, True)
log = _unary("log", lax.log, True)
log1p = _unary("log1p", lax.log1p, True)
sqrt = _unary("sqrt", lax.sqrt, True)
cbrt = _unary("cbrt", lax.cbrt, True)
sin = _unary("sin", lax.sin, True)
cos = _unary("cos", lax.cos, True)
tan = _unary("tan", lax.tan, True)
arcsin = _unary("arcsin", lax.asin, True)
arccos = _unary("arccos", lax.acos, True)
arctan = _unary("arctan", lax.atan, True)
sinh = _unary("sinh", lax.sinh, True)
cosh = _unary("cosh", lax.cosh, True)
tanh = _unary("tanh", lax.tanh, True)
arcsinh = _unary("arcsinh", lax.asinh, True)
arccosh = _staged(_unary("acosh", lax.acosh, True), name="arccosh")   # (a jit in JAX, named arccosh for jnp.acosh too)
arctanh = _unary("arctanh", lax.atanh, True)
asin, acos, atan, asinh, acosh, atanh = arcsin, arccos, arctan, arcsinh, arccosh, arctanh


def log2(x, /):
    (x,) = _promote_dtypes_inexact(x)
    return lax.div(lax.log(x), lax.log(lax._const(x, 2)))


def log10(x, /):
    """JAX's: log(x) times 1/ln(10) rounded to x's precision (XLA then gives the same bits)."""
    (x,) = _promote_dtypes_inexact(x)
    one_over_log10 = _np.array(0.4342944819032518, dtype=_dt.finfo(get_aval(x).dtype).dtype)
    r = lax.log(x)
    if get_aval(x).dtype.kind == "c":
        re, im = lax.real(r), lax.imag(r)
        return lax.complex(lax.mul(re, one_over_log10), lax.mul(im, one_over_log10))
    return lax.mul(r, one_over_log10)


def square(x, /):
    _check_arraylike("square", x)
    (x,) = _promote_dtypes(x)
    if get_aval(x).dtype == _np.bool_:  # JAX squares booleans as the default integer
        x = lax._convert_element_type(x, _dt.default_int_dtype(), False)
    return lax.square(x) if get_aval(x).dtype.kind in "fc" else lax.integer_pow(x, 2)


def reciprocal(x, /):
    _check_arraylike("reciprocal", x)
    (x,) = _promote_dtypes_inexact(x)
    return lax.integer_pow(x, -1)


def deg2rad(x, /):
    (x,) = _promote_dtypes_inexact(x)
    return lax.mul(x, lax._const(x, pi / 180))


def rad2deg(x, /):
    (x,) = _promote_dtypes_inexact(x)
    return lax.mul(x, lax._const(x, 180 / pi))


radians, degrees = deg2rad, rad2deg


@_staged
def hypot(x1, x2, /):
    # scaled by the larger magnitude, so large inputs do not overflow (as JAX)
    a, b = _promote_args_inexact("hypot", x1, x2)
    a, b = lax.abs(a), lax.abs(b)
    is_inf = lax.bitwise_or(isposinf(a), isposinf(b))
    a, b = maximum(a, b), minimum(a, b)
    x = _where(a == 0, a, a * lax.sqrt(1 + lax.square(lax.div(b, _where(a == 0, ones_like(a), a)))))
    # the constant takes x's weak type, so hypot of two Python floats stays weak (as in JAX)
    inf = lax._convert_element_type(_np.array(_np.inf, get_aval(x).dtype), get_aval(x).dtype, get_aval(x).weak_type)
    return _where(is_inf, inf, x)


from ...api.api import custom_jvp as _custom_jvp  # INHERENT: up to the api  # noqa: E402


def logaddexp(x1, x2, /):
    # promoted first, as JAX's: the custom_jvp sees arrays of one dtype (its weak types kept)
    return _lax_logaddexp(*_promote_args_inexact("logaddexp", x1, x2))


def _logaddexp(a, b):
    amax = lax.max(a, b)
    if _dt.kind(get_aval(a).dtype) == "c":
        # JAX's complex branch (a real |delta| would not add to a complex amax): log1p(exp(a + b -
        # 2 amax)) on amax, the imaginary part wrapped into [-pi, pi]
        out = lax.add(amax, lax.log1p(lax.exp(lax.sub(lax.add(a, b), lax.mul(amax, lax._const(amax, 2))))))
        return lax.complex(lax.real(out), _wrap_between(lax.imag(out), _np.pi))
    delta = lax.sub(a, b)
    # NaN delta: NaNs, or infinities of the same sign (then a + b is right)
    return lax.select(lax.ne(delta, delta), lax.add(a, b),
                      lax.add(amax, lax.log1p(lax.exp(lax.neg(lax.abs(delta))))))


def _wrap_between(x, a):
    """x wrapped into [-a, a] (JAX's lax.other._wrap_between)."""
    two_a = lax._const(x, 2 * a)
    rem = lax.rem(lax.add(x, lax._const(x, a)), two_a)
    rem = lax.select(lax.lt(rem, lax._const(x, 0)), lax.add(rem, two_a), rem)
    return lax.sub(rem, lax._const(x, a))


def _replace_inf(x):
    return lax.select(isposinf(real(x)), lax.full_like(x, 0), x)


_logaddexp.__name__ = "logaddexp"  # the name its custom_jvp_call shows
_lax_logaddexp = _custom_jvp(_logaddexp)


@_lax_logaddexp.defjvp
def _logaddexp_jvp(primals, tangents):
    # JAX's rule: finite everywhere, also where an input is +inf
    x1, x2 = primals
    t1, t2 = tangents
    x1, x2, t1, t2 = _promote_args_inexact("logaddexp_jvp", x1, x2, t1, t2)
    out = _lax_logaddexp(x1, x2)
    return out, lax.add(lax.mul(t1, exp(lax.sub(_replace_inf(x1), _replace_inf(out)))),
                        lax.mul(t2, exp(lax.sub(_replace_inf(x2), _replace_inf(out)))))


@_staged  # (a jit in JAX: jaxprs show jit[name=sinc])
def sinc(x, /):
    _check_arraylike("sinc", x)
    (x,) = _promote_dtypes_inexact(x)
    eq_zero = lax.eq(x, lax._zero(x))
    pi_x = lax.mul(lax._const(x, pi), x)
    safe = where(eq_zero, lax._one(x), pi_x)
    # at 0 the value comes from the Taylor series, so every derivative there is right (JAX's)
    return where(eq_zero, _sinc_maclaurin(0, pi_x), lax.div(lax.sin(safe), safe))


def _sinc_maclaurin(k, x):
    # the k-th derivative of sin(x)/x at 0: 0 for odd k, (-1)^(k/2) / (k+1) for even k
    return _sinc_maclaurin_term(k)(x)


@_functools.lru_cache(maxsize=None)
def _sinc_maclaurin_term(k):
    # one custom_jvp per order k (k is static), so that jit stages it as a custom_jvp_call and a
    # later grad of the jitted function still finds the next term
    def _sinc_maclaurin(x):
        return x * 0 if k % 2 else x * 0 + lax._const(x, (-1) ** (k // 2) / (k + 1))

    term = _custom_jvp(_sinc_maclaurin)

    @term.defjvp
    def _sinc_maclaurin_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return _sinc_maclaurin_term(k)(x), _sinc_maclaurin_term(k + 1)(x) * t

    return term


def isnan(x, /):
    _check_arraylike("isnan", x)
    (x,) = _promote_dtypes(x)
    return lax.ne(x, x)


@_staged  # (a jit in JAX: jaxprs show jit[name=isinf])
def isinf(x, /):
    _check_arraylike("isinf", x)
    (x,) = _promote_dtypes(x)
    dt = get_aval(x).dtype
    if dt.kind not in "fc":
        return lax.full_like(x, False, _dt.bool_)
    if dt.kind == "c":  # infinite if either part is
        return isinf(lax.real(x)) | isinf(lax.imag(x))
    return lax.eq(lax.abs(x), _strong_const(x, _np.inf))


def _strong_const(x, value):
    # JAX compares with a constant of x's dtype that is never weak, so the bool result is strong
    return Array(_np.array(value, get_aval(x).dtype), False)


def _isposneginf(name, infinity, x):
    _check_arraylike(name, x)
    (x,) = _promote_dtypes(x)
    kind = get_aval(x).dtype.kind
    if kind == "c":
        raise ValueError("isposinf/isneginf are not well defined for complex types")
    if kind != "f":  # integers and bools are never infinite
        return lax.full_like(x, False, _dt.bool_)
    return lax.eq(x, _strong_const(x, infinity))


def isposinf(x, /):
    return _isposneginf("isposinf", _np.inf, x)


def isneginf(x, /):
    return _isposneginf("isneginf", -_np.inf, x)


def isfinite(x, /):
    _check_arraylike("isfinite", x)
    (x,) = _promote_dtypes(x)
    kind = _dt.kind(get_aval(x).dtype)
    if kind not in "fc":
        return lax.full_like(x, True, _dt.bool_)
    if kind == "c":  # lax.is_finite takes real floats only: both parts finite, as JAX's
        return lax.bitwise_and(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    return lax.is_finite(x)


@_staged  # (a jit in JAX: jaxprs show jit[name=signbit])
def signbit(x, /):
    _check_arraylike("signbit", x)
    (x,) = _promote_dtypes(x)
    dt = get_aval(x).dtype
    if dt.kind in "iu":
        return lax.lt(x, Array(_np.zeros((), dt)))  # a strong 0 (JAX's _constant_like): never weak
    if dt.kind == "b":
        return lax.full_like(x, False, dtype=_dt.bool_)
    if _dt.kind(dt) != "f":   # [dtypes] (bfloat16 is a float: numpy's kind says 'V' for ml_dtypes')
        raise ValueError(f"jax.numpy.signbit is not well defined for {dt}")
    # the sign bit of the float's own width (float64 under x64 too): an arithmetic shift of its bits
    width = _dt.itemsize_bits(dt)
    bits = lax.bitcast_convert_type(x, _np.dtype(f"int{width}"))
    return lax.convert_element_type(lax.shift_right_arithmetic(bits, lax._const(bits, width - 1)), _dt.bool_)


@_staged  # (a jit in JAX: jaxprs show jit[name=copysign])
def copysign(x1, x2, /):
    a, b = _promote_args_inexact("copysign", x1, x2)
    return where(signbit(b), lax.neg(lax.abs(a)), lax.abs(a))


@_staged(static_argnames=("copy",))
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    (x,) = _promote_dtypes(x)
    dt = get_aval(x).dtype
    if dt.kind not in "fc":
        return x
    info = _np.finfo(dt)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    x = where(isnan(x), asarray(nan, dt), x)
    x = where(isposinf(x), asarray(posinf, dt), x)
    return where(isneginf(x), asarray(neginf, dt), x)


def clip(arr=None, /, min=None, max=None, *, a=None, a_min=None, a_max=None):
    x = arr if arr is not None else a
    if x is None:
        raise ValueError("No input was provided to the clip function.")
    _check_arraylike("clip", x)
    return _clip(x, min if min is not None else a_min, max if max is not None else a_max)


@_staged(name="clip")
def _clip(arr, min, max):
    if min is not None:
        arr = maximum(min, arr)
    if max is not None:
        arr = minimum(max, arr)
    return asarray(arr)


def conjugate(x, /):
    (x,) = _promote_dtypes(x)
    return lax.conj(x) if get_aval(x).dtype.kind == "c" else x


conj = conjugate


def real(x, /):
    (x,) = _promote_dtypes(x)
    return lax.real(x) if get_aval(x).dtype.kind == "c" else x


def imag(x, /):
    (x,) = _promote_dtypes(x)
    return lax.imag(x) if get_aval(x).dtype.kind == "c" else lax.full_like(x, 0)


@_staged  # (a jit in JAX: jaxprs show jit[name=heaviside])
def heaviside(x1, x2, /):
    a, b = _promote_args_inexact("heaviside", x1, x2)
    # JAX's 0 and 1 are weak only for a weak 0-d x1 (lax._const's rule): an array x1 gives a strong result
    const = lax._const if get_aval(a).weak_type and get_aval(a).ndim == 0 else _strong_const
    zero = const(a, 0)
    # x1 == 0 takes x2; a NaN x1 stays NaN (JAX's order: its jaxpr asks `ne x1 x1`)
    return where(lax.lt(a, zero), zero, where(lax.gt(a, zero), const(a, 1), where(lax.ne(a, a), a, b)))


# JAX's fmax/fmin pick x1 where it is strictly greater (smaller) or x2 is NaN, else x2: a tie takes x2
# (fmax(0.0, -0.0) is -0.0) and so does the gradient (grad at a tie is (0, 1), not max's (0.5, 0.5))
@_staged(name="fmax")
def fmax(x1, x2):
    return where(logical_or(greater(x1, x2), isnan(x2)), x1, x2)


@_staged(name="fmin")
def fmin(x1, x2):
    return where(logical_or(less(x1, x2), isnan(x2)), x1, x2)


@_staged(static_argnames=("equal_nan",))
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _promote_args("isclose", a, b)
    a, b = _promote_args_inexact("isclose", a, b)
    dt = get_aval(a).dtype
    if dt.kind == "c":
        dt = _np.zeros((), dt).real.dtype
    rtol = lax.convert_element_type(rtol, dt)
    atol = lax.convert_element_type(atol, dt)
    both_nan = logical_and(isnan(a), isnan(b))
    check_fin = isfinite(b)
    in_range = lax.le(lax.abs(lax.sub(a, b)), lax.add(atol, lax.mul(rtol, lax.abs(b))))
    out = logical_or(lax.eq(a, b), logical_and(check_fin, in_range))
    return logical_or(out, both_nan) if equal_nan else out


@_staged(static_argnames=("equal_nan",))
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan=False):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return Array(_np.asarray(False))
    same = equal(a1, a2)
    if equal_nan:  # NaN matches NaN (and, for complex, any NaN part matches)
        same = same | (isnan(a1) & isnan(a2))
    return all(same)


# jax.numpy's modules call one another: imported after this module's definitions, so that the
# import order of the package does not matter (these names are only used at call time)
from ._creation import asarray, ones_like  # noqa: E402
from ._reductions import all  # noqa: E402
from ._searching import _where, where  # noqa: E402
