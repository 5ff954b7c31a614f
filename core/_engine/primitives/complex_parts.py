"""Complex numbers and their derivatives: `complex` (build from real and imaginary parts), `conj`,
and the jvp/transpose rules of `real`, `imag`, `conj`, `complex` and complex `abs`.

JAX's convention (which gradpad follows): a cotangent of a complex value is transposed without
conjugation (`mul`'s transpose is `ct * y`), so `grad(f)(z)` of a real-valued f is the conjugate
of df/dz, and `grad(f, holomorphic=True)(z)` is f'(z). `real`, `imag`, `complex` and `conj` are
linear over the reals: their transposes below are the adjoints in that convention.
"""
from __future__ import annotations

import numpy as np

from ..base.avals import shaped_array_unchecked
from ..tracing.rules import abstract_eval_rules, jvp_rules, transpose_rules
from ..transforms import ad
from ..transforms.batching import defbroadcasting, defvectorized
from ..tracing.tracing import get_aval
from . import define
from . import elementwise as ew

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128),
               np.dtype(np.complex64): np.dtype(np.complex64), np.dtype(np.complex128): np.dtype(np.complex128)}
_REAL_OF = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}


def complex_dtype(dt) -> np.dtype:
    """The complex dtype whose parts have dtype `dt` (float16/bfloat16 widen to complex64, as JAX's)."""
    return _COMPLEX_OF.get(np.dtype(dt), np.dtype(np.complex64))


# ---- complex(x, y) = x + i*y ---------------------------------------------------------------

def _check_complex_parts(x, y):
    for i, a in enumerate((x, y)):
        if a.dtype not in (np.float32, np.float64):
            raise TypeError(f"complex does not accept dtype {a.dtype.name} at position {i}. Accepted dtypes at "
                            f"position {i} are subtypes of float32, float64.")


def _complex_abstract(x, y):
    _check_complex_parts(x, y)
    aval = ew.nary_abstract("complex", "f")(x, y)
    return shaped_array_unchecked(aval.shape, complex_dtype(aval.dtype), aval.weak_type)


def _complex_impl(x, y):
    _check_complex_parts(np.asarray(x), np.asarray(y))
    dt = complex_dtype(np.result_type(x, y))
    out = np.empty(np.broadcast_shapes(np.shape(x), np.shape(y)), dt)
    out.real, out.imag = x, y  # (x + 1j*y would turn inf*0 into nan)
    return out


complex_p = define("complex", abstract_eval=_complex_abstract, impl=_complex_impl)
complex_p.same_rank_operands = True
defbroadcasting(complex_p)


def complex_(x, y):
    return complex_p.bind(x, y)


def _zero_scalar_like(t):
    """A 0-d zero of t's dtype (broadcasts against t inside `complex`)."""
    from ..tracing.array import Array
    return Array(np.zeros((), get_aval(t).dtype), False)


# ---- conj, with JAX's input_dtype parameter (a real input gives a complex output) ------------

def _conj_abstract(x, input_dtype=None):
    ew._check_kind("conj", x, "fc")
    return shaped_array_unchecked(x.shape, complex_dtype(x.dtype), x.weak_type)


def _conj_impl(x, input_dtype=None):
    if x.dtype.kind != "c":  # embedding a real: its imaginary part is +0 (np.conj would make it -0)
        return x.astype(complex_dtype(x.dtype))
    return np.conj(x)


conj_p = define("conj", abstract_eval=_conj_abstract, impl=_conj_impl)
defvectorized(conj_p)


def conj(x):
    return conj_p.bind(x, input_dtype=get_aval(x).dtype)


# ---- the linear rules ------------------------------------------------------------------------

def _linear_jvp(prim):
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if all(type(t) is ad.Zero for t in tangents):
            return out, ad.Zero(get_aval(out))
        return out, prim.bind(*[ad.instantiate(t) for t in tangents], **params)
    return jvp


def _real_t(ct, x):
    return [None if type(ct) is ad.Zero else complex_(ct, _zero_scalar_like(ct))]


def _imag_t(ct, x):
    return [None if type(ct) is ad.Zero else complex_(_zero_scalar_like(ct), ew.neg(ct))]


def _complex_t(ct, x, y):
    if type(ct) is ad.Zero:
        return [None, None]
    return [ew.real_p.bind(ct) if ad.is_undefined(x) else None,
            ew.imag_p.bind(ew.neg(ct)) if ad.is_undefined(y) else None]


def _conj_t(ct, x, input_dtype=None):
    if type(ct) is ad.Zero:
        return [None]
    if np.dtype(input_dtype).kind == "c":
        return [conj_p.bind(ct, input_dtype=input_dtype)]
    return [ew.real_p.bind(ct)]  # conj of a real input only embedded it in the complex plane


for _p, _t in ((ew.real_p, _real_t), (ew.imag_p, _imag_t), (complex_p, _complex_t), (conj_p, _conj_t)):
    jvp_rules[_p] = _linear_jvp(_p)
    transpose_rules[_p] = _t


# ---- abs of a complex number is real-valued --------------------------------------------------



def _abs_abstract(x):
    ew._check_kind("abs", x, "iufc")
    return shaped_array_unchecked(x.shape, _REAL_OF.get(x.dtype, x.dtype), x.weak_type)


def _replace_zero(x):
    from ..lax import lax  # INHERENT: up to lax
    return ew.select(ew.eq(x, ew._zero(x)), lax.full_like(x, 1), x)


def _abs_jvp(primals, tangents):
    (x,), (g,) = primals, tangents
    ans = ew.abs_p.bind(x)
    if type(g) is ad.Zero:
        return ans, ad.Zero(get_aval(ans))
    if get_aval(x).dtype.kind != "c":
        return ans, ew.select(ew.ge(x, ew._zero(x)), g, ew.neg(g))
    # d|z| = Re(conj(z)/|z| * dz), with |z| = 0 replaced by 1 (JAX's choice: derivative 0 there)
    x_conj = conj(x)
    ans_c = ew.convert_element_type_p.bind(ans, new_dtype=get_aval(x).dtype, weak_type=False, sharding=None)
    return ans, ew.real_p.bind(ew.mul(g, ew.div(x_conj, _replace_zero(ans_c))))


abstract_eval_rules[ew.abs_p] = _abs_abstract
jvp_rules[ew.abs_p] = _abs_jvp
