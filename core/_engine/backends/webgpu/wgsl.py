"""WGSL expression building blocks: types, literals, and per-primitive expressions.

Plain templates come from `core._engine.tracing.rules.wgsl_rules` (registered next to each primitive). The few
primitives whose WGSL depends on dtype or params (casts, shifts, integer_pow, bool `not`, ...)
are written here as functions `fn(out_dtype, in_dtypes, args, **params) -> expr`.
"""
from __future__ import annotations

import math
import struct

import numpy as np

from ...tracing.rules import wgsl_rules
from .runtime import WGSL_TYPE


def wtype(dtype) -> str:
    return WGSL_TYPE[np.dtype(dtype)]


def literal(value, dtype) -> str:
    dt = np.dtype(dtype)
    v = np.asarray(value, dt).item()
    if dt == np.bool_:
        return "true" if v else "false"
    if dt == np.float32:
        if np.isfinite(v) and v != 0:
            return f"f32({float(np.float32(v))!r})"
        # not a constant expression (WGSL rejects or mis-folds infinities/NaN in those, and
        # drivers fold `x * 0.0` to 0 though inf * 0 is NaN): gp_zero is a private variable
        # every kernel declares
        bits = struct.unpack("<I", struct.pack("<f", v))[0]
        return f"bitcast<f32>({bits:#x}u + gp_zero)"
    if dt == np.float16:
        return f"f16({float(v)!r})"
    if dt == np.int32:
        return f"i32({v})" if v != -2**31 else "bitcast<i32>(0x80000000u)"
    if dt == np.uint32:
        return f"{v}u"
    raise NotImplementedError(dt)


def cast(expr: str, src, dst) -> str:
    src, dst = np.dtype(src), np.dtype(dst)
    if src == dst:
        return expr
    if src == np.bool_:
        return f"select({literal(0, dst)}, {literal(1, dst)}, {expr})"
    if dst == np.bool_:
        return f"({expr} != {literal(0, src)})"
    if src.kind == "f" and dst.kind in "iu":
        # XLA truncates toward zero and saturates at the int's own min/max, NaN -> 0 (WGSL's
        # conversion stops at the largest float below 2**31 and leaves NaN undefined): helpers
        return f"gp_f2{dst.kind}({expr})"
    return f"{wtype(dst)}({expr})"


def _shift(op):
    def fn(out, ins, args):
        x, y = args
        t = wtype(out)
        sh = f"u32({y})" if ins[1] != np.uint32 else y
        if op == "<<":
            return f"select({t}(0), {x} << ({sh} & 31u), {sh} < 32u)"
        if op == ">>l":  # logical: on the unsigned bit pattern
            ux = f"bitcast<u32>({x})" if t == "i32" else x
            return f"select({t}(0), bitcast<{t}>({ux} >> ({sh} & 31u)), {sh} < 32u)"
        ix = f"bitcast<i32>({x})" if t == "u32" else x
        return f"bitcast<{t}>({ix} >> min({sh}, 31u))"
    return fn


def _integer_pow(out, ins, args, y):
    x = args[0]
    n = abs(int(y))
    if n == 0:
        return literal(1, out)
    # exponentiation by squaring, written out as nested products
    base = x
    terms = []
    while n:
        if n & 1:
            terms.append(base)
        n >>= 1
        if n:
            base = f"({base} * {base})"
    expr = " * ".join(terms)
    expr = f"({expr})"
    return f"({literal(1, out)} / {expr})" if y < 0 else expr


def _sign(out, ins, args):
    t = np.dtype(out)
    if t == np.uint32:
        return f"select(0u, 1u, {args[0]} > 0u)"
    if t.kind == "f":  # XLA's: sign(NaN) is NaN and sign(-0.) is -0. (x itself in both cases)
        x = args[0]
        return f"select(sign({x}), {x}, ({x} == 0.0) | {_isnan(x, t)})"
    return f"sign({args[0]})"


def _neg(out, ins, args):
    return f"(0u - {args[0]})" if np.dtype(out) == np.uint32 else f"(-{args[0]})"


def _abs(out, ins, args):
    return args[0] if np.dtype(out) == np.uint32 else f"abs({args[0]})"


def _not(out, ins, args):
    return f"(!{args[0]})" if np.dtype(out) == np.bool_ else f"(~{args[0]})"


def _round(out, ins, args, rounding_method=0):
    x = args[0]
    if int(rounding_method) == 1:  # to nearest even
        return f"round({x})"
    return f"(sign({x}) * floor(abs({x}) + 0.5))"  # away from zero


def _is_finite(out, ins, args):
    return f"((bitcast<u32>({args[0]}) & 0x7f800000u) != 0x7f800000u)"


def _isnan(x, dtype) -> str:
    # from the bits: shader compilers may fold `x != x` to false
    if np.dtype(dtype) == np.float32:
        return f"((bitcast<u32>({x}) & 0x7fffffffu) > 0x7f800000u)"
    return f"({x} != {x})"


def _eq(out, ins, args):
    x, y = args
    if np.dtype(ins[0]).kind != "f":
        return f"({x} == {y})"
    return f"(({x} == {y}) & !{_isnan(x, ins[0])} & !{_isnan(y, ins[1])})"


def _ne(out, ins, args):
    x, y = args
    if np.dtype(ins[0]).kind != "f":
        return f"({x} != {y})"
    return f"(({x} != {y}) | {_isnan(x, ins[0])} | {_isnan(y, ins[1])})"


def _rem(out, ins, args):
    x, y = args
    if np.dtype(out).kind == "f":
        return f"({x} - {y} * trunc({x} / {y}))"
    return f"select({x} % {y}, {x}, {y} == {literal(0, out)})"  # XLA: x % 0 = x (WGSL gives 0)


def _div(out, ins, args):
    x, y = args
    if np.dtype(out).kind in "iu":  # XLA: x / 0 has every bit set (-1; 0xffffffff), WGSL gives x
        return f"select({x} / {y}, {literal(-1 if np.dtype(out).kind == 'i' else 0xFFFFFFFF, out)}, {y} == {literal(0, out)})"
    return f"({x} / {y})"


LOG1P_TAYLOR = [(-1.0) ** (k + 1) / k for k in range(1, 13)]  # x - x^2/2 + x^3/3 ... to x^12


def _log1p(out, ins, args):
    """log(1+x) loses x's low bits; the correction (Goldberg) keeps small arguments accurate where
    log is accurate near 1, which software drivers' is not (log1p(-1e-6) was 2.6% off on lavapipe):
    for |x| < 1/8 the series (to x^12: < 1e-12 relative there)."""
    x = args[0]
    horner = f"{LOG1P_TAYLOR[-1]!r}"
    for c in reversed(LOG1P_TAYLOR[:-1]):
        horner = f"({c!r} + {x} * {horner})"
    goldberg = f"select(log(1.0 + {x}) * {x} / ((1.0 + {x}) - 1.0), {x}, (1.0 + {x}) == 1.0)"
    return f"select({goldberg}, {x} * {horner}, abs({x}) < 0.125)"


EXP_MAX_F32 = 88.72283  # the largest float32 whose exp is finite (the next one, 88.72284, overflows)


def _via_f32(fn):
    """`fn` written for float32, used for float16 too: computed in float32, rounded once (as XLA
    computes float16 functions)."""
    def typed(out, ins, args):
        if np.dtype(out) == np.float16:
            return f"f16({fn(np.dtype(np.float32), ins, [f'f32({a})' for a in args])})"
        return fn(out, ins, args)
    return typed


def _exp(out, ins, args):
    """exp that overflows to inf: WGSL leaves an overflowing exp's result undefined."""
    x = args[0]
    return f"select(exp({x}), {literal(np.inf, out)}, {x} > {EXP_MAX_F32!r})"


EXPM1_TAYLOR = [1.0 / math.factorial(k) for k in range(1, 11)]  # x, x^2/2!, ... x^10/10!


def _expm1(out, ins, args):
    """exp(x) - 1 cancels for small |x| (relative error ~1e-4 near 1e-5 with WGSL's exp): there
    the Taylor series (to x^10: < 1e-10 relative on |x| < 0.5), elsewhere exp(x) - 1."""
    x = args[0]
    horner = f"{EXPM1_TAYLOR[-1]!r}"
    for c in reversed(EXPM1_TAYLOR[:-1]):
        horner = f"({c!r} + {x} * {horner})"
    return f"select({_exp(out, ins, args)} - 1.0, {x} * {horner}, abs({x}) < 0.5)"


ZERO_F32 = {f"bitcast<f32>({bits:#x}u + gp_zero)": bits for bits in (0, 0x80000000)}  # literal()'s +-0.0


def _mul(out, ins, args):
    """x * 0.0 for a literal zero from the bits: drivers fold it to 0 even through gp_zero,
    though inf * 0 and NaN * 0 are NaN (exp(100.) * 0.0 is NaN in JAX). The zero's sign is the
    sign bits' xor, as in IEEE multiplication."""
    x, y = args
    if np.dtype(out) != np.float32 or (x not in ZERO_F32 and y not in ZERO_F32):
        return f"({x} * {y})"
    other, zero_bits = (x, ZERO_F32[y]) if y in ZERO_F32 else (y, ZERO_F32[x])
    bits = f"bitcast<u32>({other})"
    zero = f"bitcast<f32>(({bits} & 0x80000000u) ^ {zero_bits:#x}u)"
    # inf * 0 is x86's default NaN (sign bit set, as JAX's CPU results show); a NaN propagates
    nan = f"select(bitcast<f32>(0xffc00000u + gp_zero), {other}, {_isnan(other, out)})"
    return f"select({zero}, {nan}, ({bits} & 0x7fffffffu) >= 0x7f800000u)"


def _max(out, ins, args):
    x, y = args
    if np.dtype(out).kind == "f":  # NaN propagates, as in XLA
        return f"select(max({x}, {y}), {x} + {y}, {_isnan(x, out)} | {_isnan(y, out)})"
    return f"max({x}, {y})"


def _min(out, ins, args):
    x, y = args
    if np.dtype(out).kind == "f":
        return f"select(min({x}, {y}), {x} + {y}, {_isnan(x, out)} | {_isnan(y, out)})"
    return f"min({x}, {y})"


def _select_n(out, ins, args):
    which, *cases = args
    if np.dtype(ins[0]) == np.bool_:
        return f"select({cases[0]}, {cases[1]}, {which})" if len(cases) == 2 else cases[0]
    expr = cases[0]
    for i, c in enumerate(cases[1:], 1):
        expr = f"select({expr}, {c}, {which} == {literal(i, ins[0])})"
    return expr


def _copy(out, ins, args, **params):
    return args[0]


def _convert(out, ins, args, new_dtype=None, weak_type=False, sharding=None):
    return cast(args[0], ins[0], out)


def _clamp(out, ins, args):
    lo, x, hi = args
    return f"min(max({x}, {lo}), {hi})"


def _pow(out, ins, args):
    """C's pow (XLA's) from WGSL's, which is undefined for x < 0, for a zero base with a negative
    exponent (software drivers gave 0 where XLA gives inf) and for NaN (pow(NaN, 1.0) gave 0).
    Written for float32 (float16 goes through it: `_via_f32`)."""
    x, y = args
    if np.dtype(ins[1]).kind in "iu":  # an integer exponent (jnp.power(x, n)): pow takes floats
        y = f"f32({y})"
    inf = literal(np.inf, out)
    negative = f"((bitcast<u32>({x}) & 0x80000000u) != 0u)"  # -0.0 and -inf included
    odd = f"(({y} - 2.0 * floor({y} * 0.5)) == 1.0)"
    # a negative base: |x| ** y with the sign of an odd integral exponent; -inf ** y (y not
    # integral) is inf ** y
    value = (f"select(pow({x}, {y}), select(1.0, -1.0, {negative} & {odd}) * pow(abs({x}), {y}), "
             f"({negative} & ({y} == floor({y}))) | ({x} == -{inf}))")
    # a zero base and a negative exponent: inf, -inf for -0.0 and an odd integral exponent
    # (pareto's ppf at q = 1 is inf in JAX)
    signed_inf = f"select({inf}, -{inf}, {negative} & {odd})"
    value = f"select({value}, {signed_inf}, ({x} == 0.0) & ({y} < 0.0))"
    nan = _isnan(x, out)
    if np.dtype(ins[1]).kind == "f":
        nan = f"{nan} | {_isnan(y, out)}"
    value = f"select({value}, {x} + {y}, {nan})"  # a NaN propagates
    # ... except that x ** 0 and 1 ** y are 1 for every x and y, and (-1) ** +-inf is 1
    one = f"({y} == 0.0) | ({x} == 1.0) | (({x} == -1.0) & (abs({y}) == {inf}))"
    return f"select({value}, 1.0, {one})"


def _asin(out, ins, args):
    # through atan2: software adapters' asin/acos are off by ~3e-4
    x = args[0]
    return f"atan2({x}, sqrt((1.0 - {x}) * (1.0 + {x})))"


def _acos(out, ins, args):
    x = args[0]
    return f"atan2(sqrt((1.0 - {x}) * (1.0 + {x})), {x})"


def _xor(out, ins, args):
    return f"({args[0]} != {args[1]})" if np.dtype(out) == np.bool_ else f"({args[0]} ^ {args[1]})"


TYPED = {
    "xor": _xor,
    "asin": _asin, "acos": _acos,
    "shift_left": _shift("<<"), "shift_right_logical": _shift(">>l"), "shift_right_arithmetic": _shift(">>a"),
    "integer_pow": _integer_pow, "sign": _sign, "neg": _neg, "abs": _abs, "not": _not, "round": _round,
    "is_finite": _is_finite, "rem": _rem, "div": _div, "log1p": _log1p, "exp": _via_f32(_exp), "expm1": _via_f32(_expm1), "select_n": _select_n,
    "copy_p": _copy, "copy": _copy, "stop_gradient": _copy, "convert_element_type": _convert, "clamp": _clamp,
    "mul": _mul, "max": _max, "min": _min, "pow": _via_f32(_pow), "real": _copy, "conj": _copy, "eq": _eq, "ne": _ne,
}


F2I_WGSL = """fn gp_f2i(x: f32) -> i32 {
  if ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u) { return 0; }  // NaN (x != x may fold away)
  if (x >= 2147483648.0) { return 2147483647; }
  return i32(trunc(x));
}
fn gp_f2u(x: f32) -> u32 {
  if ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u) { return 0u; }
  if (x >= 4294967296.0) { return 4294967295u; }
  return u32(max(trunc(x), 0.0));
}
"""


ERF_INV_WGSL = """fn gp_erf_inv(x: f32) -> f32 {
  // Giles' single-precision approximation (what XLA uses for f32 erf_inv)
  var w = -log((1.0 - x) * (1.0 + x));
  var p: f32;
  if (w < 5.0) {
    w = w - 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w; p = -0.00125372503 + p * w; p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w; p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w; p = 0.00134934322 + p * w; p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w; p = -0.0076224613 + p * w; p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w; p = 2.83297682 + p * w;
  }
  let inf = bitcast<f32>(0x7f800000u + gp_zero);
  return select(p * x, select(-inf, inf, x > 0.0), abs(x) == 1.0);
}
"""


def _erf_inv(out, ins, args):
    return f"gp_erf_inv({args[0]})" if np.dtype(out) == np.float32 else None


def _bitcast(out, ins, args, new_dtype=None):
    if np.dtype(out).itemsize != 4 or np.dtype(ins[0]).itemsize != 4:
        return None
    return f"bitcast<{wtype(out)}>({args[0]})"


TYPED.update({"erf_inv": _erf_inv, "bitcast_convert_type": _bitcast})


def threefry_wgsl() -> str:
    """Threefry-2x32, 20 rounds, unrolled: bit-exact with the numpy backend (and XLA)."""
    rot = ((13, 15, 26, 6), (17, 29, 16, 24))
    ks = ["k.x", "k.y", "ks2"]
    lines = ["fn gp_threefry(k: vec2<u32>, x: vec2<u32>) -> vec2<u32> {",
             "  let ks2 = k.x ^ k.y ^ 0x1BD11BDAu;", "  var x0 = x.x + k.x;", "  var x1 = x.y + k.y;"]
    for i in range(5):
        for r in rot[i % 2]:
            lines += ["  x0 = x0 + x1;", f"  x1 = ((x1 << {r}u) | (x1 >> {32 - r}u)) ^ x0;"]
        lines += [f"  x0 = x0 + {ks[(i + 1) % 3]};", f"  x1 = x1 + {ks[(i + 2) % 3]} + {i + 1}u;"]
    lines += ["  return vec2<u32>(x0, x1);", "}"]
    return "\n".join(lines) + "\n"


def elementwise_expr(prim, out_dtype, in_dtypes, args, params):
    """WGSL for one elementwise equation, or None when the primitive has no WGSL."""
    fn = TYPED.get(prim.name)
    if fn is not None:
        return fn(out_dtype, in_dtypes, args, **params)
    tmpl = wgsl_rules.get(prim)
    if tmpl is None:
        return None
    if len(args) == 1 and np.dtype(out_dtype) == np.float16 and np.dtype(in_dtypes[0]) == np.float16:
        # XLA computes float16 functions in float32 and rounds once; WGSL's f16 exp/sin/... are less
        # exact (+ - * are correctly rounded in f16 already)
        return "f16(" + tmpl.format(*[f"f32({a})" for a in args]) + ")"
    return tmpl.format(*args)


def has_elementwise(prim) -> bool:
    return prim.name in TYPED or prim in wgsl_rules
