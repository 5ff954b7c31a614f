"""The numpy backend's compiler: a jaxpr becomes straight-line Python over numpy.

Passes: inline nested `jit` calls, fold constants, eliminate common subexpressions, drop dead
code, then emit one Python function (`GRADPAD_DEBUG=2` prints its source). Each call runs the
generated code directly: no per-call interpretation of the jaxpr.
"""
from __future__ import annotations

import functools
import os
import sys
import weakref

import numpy as np

from ..tracing.effects import eqn_effectful
from .cpu_algebra import RULE_NAMES as _REWRITTEN, rewrite as algebra_rewrite
from .cpu_elements import (UNIFORM_OPS as _UNIFORM_OPS, dot_on_elements, element, scalar_then_broadcast,
                           scalars_into_bodies, scatter_at)
from .cpu_shapes import RULE_NAMES as _RESHAPED, rewrite as shapes_rewrite
from .cpu_special import SCALAR_READS, inline, made, special
from .cpu_ufuncs import as_ufunc, live_uses, split_division
from ..tracing.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from ..tracing.rules import impl_rules, jaxpr_compiler, specialize_rules
from ..primitives._signed_zero import xla_max, xla_min

_cache: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_cache_fma: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
stats = {"compiles": 0}


def _debug_level() -> int:
    try:
        return int(os.environ.get("GRADPAD_DEBUG", "0"))
    except ValueError:
        return 0


def compiled(cj: ClosedJaxpr, fma: bool = False):
    """The compiled callable for a closed jaxpr, cached per jaxpr object. `fma`: the jaxpr is the
    body of a jit named in FMA_CALLS, called on its own (not inlined into a caller)."""
    cache = _cache_fma if fma else _cache
    fn = cache.get(cj)
    if fn is None:
        if EMULATED_BF16 and _mentions_bf16(cj.jaxpr):
            fn = _bf16_interpreter(cj)
        elif not fma and _runs_as_traced(cj.jaxpr):
            fn = _Deferred(cj)
        else:
            fn = compile_closed_jaxpr(cj, fma)
        cache[cj] = fn
    return fn


def optimized(cj: ClosedJaxpr) -> "_Program":
    """The compiled program of a closed jaxpr (its equations folded, CSE'd, DCE'd)."""
    fn = compiled(cj)
    return fn.program if type(fn) is _Deferred else fn


# ---- the emulated bfloat16 (no ml_dtypes: the page). Its values are float32 that must be rounded
# after every primitive; the compiler's passes (folding, fused multiply-adds, `out=` buffers,
# numpy scalar operators) would skip that rounding, so a jaxpr with bfloat16 values is interpreted
# equation by equation, each result typed bfloat16 rounded to nearest even. (Nested jaxprs of
# calls, loops and conds come back here through their impls.)
from ..base.dtypes import EMULATED_BF16, bf16 as _BF16, kind as _dtype_kind  # noqa: E402


def _mentions_bf16(jaxpr: Jaxpr) -> bool:
    return any(v.aval.dtype == _BF16 for v in jaxpr.invars) or any(
        v.aval.dtype == _BF16 for e in jaxpr.eqns for v in (*e.invars, *e.outvars))


def _bf16_interpreter(cj: ClosedJaxpr):
    from ..tracing.array import to_numpy
    from ..base.bf16_emulated import round_to_bf16
    jaxpr = cj.jaxpr
    consts = [to_numpy(c) for c in cj.consts]
    steps = [(impl_rules[e.primitive], e.params, e.primitive.multiple_results,
              [v if isinstance(v, Var) else _literal_value(v) for v in e.invars],
              [(v, v.aval.dtype) for v in e.outvars]) for e in jaxpr.eqns]
    in_dtypes = [v.aval.dtype for v in jaxpr.invars]

    def run(*args):  # numpy arrays in, numpy arrays out
        env = dict(zip(jaxpr.constvars, consts))
        # (in the aval's dtype: a numpy scalar taken from a bfloat16 array, a loop's x[i], reads as float32)
        env.update((v, np.asarray(a, d)) for v, a, d in zip(jaxpr.invars, args, in_dtypes))
        with np.errstate(all="ignore"):
            for impl, params, multiple, ins, outs in steps:
                res = impl(*[env[v] if type(v) is Var else v for v in ins], **params)
                for (v, dt), r in zip(outs, res if multiple else (res,)):
                    env[v] = round_to_bf16(r) if dt == _BF16 else np.asarray(r, dt)
        return [env[v] if isinstance(v, Var) else v for v in
                [v if isinstance(v, Var) else _literal_value(v) for v in jaxpr.outvars]]
    run.out_avals = [v.aval for v in jaxpr.outvars]
    run._fn = None   # (as a _Program before its code is generated: callers run `prog._fn or prog`)
    run.source = ("# bfloat16 without ml_dtypes: this jaxpr runs equation by equation, each bfloat16\n"
                  "# result rounded to nearest even (no generated code)\n")
    return run


def _literal_value(lit):
    from ..base.bf16_emulated import round_to_bf16
    return round_to_bf16(lit.val) if lit.aval.dtype == _BF16 else np.asarray(lit.val, lit.aval.dtype)


def _inline_calls(jaxpr: Jaxpr, fma_scope: set | None = None, in_scope: bool = False) -> list:
    """Flatten nested jit calls into one equation list. Each call site gets fresh vars (the same
    inner jaxpr may be inlined more than once); `("alias", outer_var, atom)` items say that an
    outer var is another name for an inner atom; `("const", var, value)` items bind the arrays
    an inner body closes over. Outputs of equations inlined from the bodies
    named in `FMA_CALLS` are collected into `fma_scope` (see `_contract_fma`)."""
    from ..primitives.call import jit_p
    out = []
    for eqn in jaxpr.eqns:
        param = "jaxpr" if eqn.primitive is jit_p else getattr(eqn.primitive, "inline_jaxpr_param", None)
        if param is None:
            if in_scope and fma_scope is not None:
                fma_scope.update(eqn.outvars)
            out.append(eqn)
            continue
        closed = eqn.params[param]
        inner = closed.jaxpr
        sub = dict(zip(inner.invars, eqn.invars))
        for cv, c in zip(inner.constvars, closed.consts):  # arrays the body closes over
            fresh = Var(cv.aval)
            sub[cv] = fresh
            out.append(("const", fresh, c))
        inner_scope = in_scope or eqn.params.get("name") in FMA_CALLS

        def ren(v):
            return sub.get(v, v) if isinstance(v, Var) else v
        for ie in _inline_calls(inner, fma_scope, inner_scope):
            if isinstance(ie, tuple) and ie[0] == "const":  # a const of a jit nested deeper
                out.append(ie)
                continue
            if isinstance(ie, tuple):  # an alias from a jit nested deeper
                sub[ie[1]] = ren(ie[2])
                continue
            outs = [Var(v.aval) for v in ie.outvars]
            ins = [ren(v) for v in ie.invars]
            if fma_scope is not None and any(v in fma_scope for v in ie.outvars):
                fma_scope.update(outs)
            sub.update(zip(ie.outvars, outs))
            out.append(JaxprEqn(ie.primitive, ins, outs, ie.params, ie.source_info))  # (its line: the jaxpr diff)
        for ov, iv in zip(eqn.outvars, inner.outvars):
            out.append(("alias", ov, ren(iv)))
    return out


def _split_divisions(items: list, outvars) -> list:
    """Each division by an operand that broadcasts, or by a constant, as the two equations XLA computes
    (cpu_ufuncs.split_division): the reciprocals then fold or are shared by common subexpressions."""
    out = []
    uses = None
    for it in items:
        split = None
        if type(it) is JaxprEqn and it.primitive.name == "div" and (it.invars[1].aval.shape != it.outvars[0].aval.shape
                                                                    or type(it.invars[1]) is Literal):
            if uses is None:
                uses = live_uses(items, outvars)
            split = split_division(it, uses)
        if split is None:
            out.append(it)
        else:
            out.extend(split)
    return out


def _all_known(invars, consts) -> bool:
    for v in invars:
        if type(v) is not Literal and v not in consts:
            return False
    return True


_ONES_MAX = 1 << 16   # constants up to this size are checked for all ones


def _times_ones(eqn, invars, value_of):
    """The operand x of `x * c` where c is a constant of ones (a unit mass matrix: an MCMC step
    multiplies by it several times per leapfrog) and x has the product's shape and dtype, else
    None. XLA's algebraic simplifier drops such a multiply; the product is x exactly for real
    floats and integers (not for complex: (a + bi) * 1 computes b * 0, NaN for an infinite b)."""
    out = eqn.outvars[0].aval
    if out.dtype.kind not in "fiu":
        return None
    for x, c in ((invars[0], invars[1]), (invars[1], invars[0])):
        if type(x) is not Var or x.aval.shape != out.shape or x.aval.dtype != out.dtype:
            continue
        val = value_of(c)
        if val is not None and 0 < val.size <= _ONES_MAX and val.dtype == out.dtype and bool((val == 1).all()):
            return x
    return None


def _literal_key(v):
    # by bits, not value: 0.0 == -0.0, yet `x * 0.0` and `x * -0.0` differ in sign
    return ("lit", np.asarray(v.val, v.aval.dtype).tobytes(), v.aval.dtype)


def _scalar_const_key(v, value):
    """A 0-d constant by its value (two folded zeros as a dynamic_slice's start are one operand,
    as XLA's CSE sees them), any other constant by its var."""
    if type(value) is np.ndarray and value.ndim == 0:
        return ("const", value.dtype.str, value.tobytes(), v.aval.weak_type)
    return v


def _param_key(v):
    try:
        hash(v)
        return v
    except TypeError:
        return id(v)


def compile_closed_jaxpr(cj: ClosedJaxpr, fma: bool = False):
    from ..tracing.array import to_numpy
    jaxpr = cj.jaxpr
    fma_scope: set = set()
    items = _split_divisions(_inline_calls(jaxpr, fma_scope, fma), jaxpr.outvars)
    alias: dict = {}
    consts: dict = {v: to_numpy(c) for v, c in zip(jaxpr.constvars, cj.consts)}

    def resolve(v):
        while isinstance(v, Var) and v in alias:
            v = alias[v]
        return v

    def value_of(v):
        v = resolve(v)
        if isinstance(v, Literal):
            return np.asarray(v.val, v.aval.dtype)
        return consts.get(v)

    eqns = []
    seen: dict = {}
    producer: dict = {}
    elements: dict = {}   # (vector var, index) -> its element as a scalar atom (cpu_elements)
    queue = items[::-1]   # (a rewrite may put equations back in front)
    while queue:
        it = queue.pop()
        if isinstance(it, tuple) and it[0] == "const":
            consts[it[1]] = to_numpy(it[2])
            continue
        if isinstance(it, tuple):
            alias[it[1]] = it[2]
            continue
        if alias:
            invars = [resolve(v) for v in it.invars]
            eqn = JaxprEqn(it.primitive, invars, it.outvars, it.params, it.source_info)
        else:  # nothing renamed yet: the equation stands as it is (never mutated below)
            invars, eqn = it.invars, it
        if eqn.primitive.name in ("reshape", "squeeze") and not eqn.outvars[0].aval.shape:
            scalar = element(eqn, producer, elements)   # an element of a short vector, on scalars
            if scalar is not None:
                new, atom = scalar
                queue.append(("alias", eqn.outvars[0], atom))
                queue.extend(new[::-1])
                continue
        if eqn.primitive.name == "dot_general" and not eqn.outvars[0].aval.shape:
            chain = dot_on_elements(eqn, producer, elements, _fma_p)   # a short dot of known elements
            if chain is not None:
                queue.extend(chain[::-1])
                continue
        if eqn.primitive.name in ("cond", "while"):   # stacked scalars go in as the scalars
            passed = scalars_into_bodies(eqn, producer)
            if passed is not None:
                eqn, invars = passed, passed.invars
        if eqn.primitive.name == "scatter":   # at an index vector broadcast from a number: at the number
            at = scatter_at(eqn, producer)
            if at is not None:
                eqn, invars = at, at.invars
        if eqn.primitive.name in _RESHAPED:  # shape-only simplifications (cpu_shapes)
            new = shapes_rewrite(eqn, producer)
            if type(new) is Var:
                alias[eqn.outvars[0]] = new
                continue
            if new is not None:
                eqn, invars = new, new.invars
        if eqn.primitive.name in _REWRITTEN:  # XLA's value-changing simplifications (cpu_algebra)
            new = algebra_rewrite(eqn, producer)
            if type(new) is Var:
                alias[eqn.outvars[0]] = new
                continue
            if new is not None:
                eqn, invars = new, new.invars
        if eqn.primitive.name == "mul":   # x * ones: x (XLA's simplifier drops it; exact for real numbers)
            same = _times_ones(eqn, invars, value_of)
            if same is not None:
                alias[eqn.outvars[0]] = same
                continue
        if eqn.primitive.name in _UNIFORM_OPS and eqn.outvars[0].aval.ndim:
            split = scalar_then_broadcast(eqn, invars, value_of)   # uniform constant (op) scalar
            if split is not None:
                new, scalar_consts = split
                consts.update(scalar_consts)
                queue.extend(new[::-1])
                continue
        effectful = eqn_effectful(eqn)  # (a cond/scan/call whose body prints counts too)
        # constant folding: all inputs known at compile time
        if not effectful and _all_known(invars, consts) and _foldable(eqn):
            vals = [value_of(v) for v in invars]
            outs = impl_rules[eqn.primitive](*vals, **eqn.params)
            outs = outs if eqn.primitive.multiple_results else [outs]
            copy = eqn.primitive.name == "broadcast_in_dim"   # (its read-only stride-0 view: a small array of its own)
            for ov, o in zip(eqn.outvars, outs):
                consts[ov] = np.array(o) if copy else np.asarray(o)
            continue
        # common subexpressions
        if not effectful:
            key = (eqn.primitive, tuple([(v if v not in consts else _scalar_const_key(v, consts[v])) if type(v) is Var
                                         else _literal_key(v) for v in invars]),
                   tuple(sorted((k, _param_key(p)) for k, p in eqn.params.items())) if eqn.params else ())
            prev = seen.get(key)
            if prev is not None:
                for a, b in zip(eqn.outvars, prev.outvars):
                    alias[a] = b
                continue
            seen[key] = eqn
        eqns.append(eqn)
        if len(eqn.outvars) == 1:
            producer[eqn.outvars[0]] = eqn

    outvars = [resolve(v) for v in jaxpr.outvars]
    # dead-code elimination
    live = {v for v in outvars if isinstance(v, Var)}
    kept = []
    for eqn in reversed(eqns):
        outs = eqn.outvars
        if (outs and (outs[0] in live if len(outs) == 1 else any(v in live for v in outs))) \
                or eqn_effectful(eqn):
            kept.append(eqn)
            live.update([v for v in eqn.invars if type(v) is Var])
    kept.reverse()
    kept = _contract_fma(kept, outvars, fma_scope)
    stats["compiles"] += 1
    return _Program(jaxpr, kept, outvars, consts)


# XLA's CPU compiler contracts a float32 multiply that feeds an add/sub into one fused
# multiply-add when the product has no other use (measured with JAX 0.10.2: jit(lambda a, b, c:
# a*b + c) equals fma(a, b, c) on 100% of random inputs, the two-rounding result on 77%).
# Emulating that in numpy needs a float64 pass, which made jitted float32 code about 2x slower
# than eager (selu on 1M floats: 10 ms jit vs 4.4 ms eager) and would invert the playground's
# jit-vs-eager lesson. So we contract only inside jax.random's samplers, whose bits are
# promised identical to JAX's (uniform(k, minval=-2., maxval=3.) needs it); elsewhere jitted
# float32 results may differ from XLA's in the last place.
FMA_CALLS = frozenset({"_uniform"})


def _fma_impl(a, b, c, *, negate_product, negate_addend):
    prod = np.multiply(np.asarray(a, np.float64), b)  # exact for float32 inputs
    if negate_product:
        prod = np.negative(prod, out=prod if type(prod) is np.ndarray else None)
    combine = np.subtract if negate_addend else np.add
    if type(prod) is np.ndarray and prod.shape == np.broadcast_shapes(prod.shape, np.shape(c)):
        combine(prod, c, out=prod)  # in place: one float64 temporary for the whole op
        return prod.astype(np.float32)
    return np.asarray(combine(prod, c), np.float64).astype(np.float32)


def _fma_primitive():
    from ..tracing.tracing import Primitive
    p = Primitive("fma")  # backend-only: never appears in a jaxpr
    impl_rules[p] = _fma_impl
    return p


_fma_p = _fma_primitive()


def _contract_fma(eqns, outvars, scope):
    if not scope:  # nothing inlined from a FMA_CALLS body: nothing may be contracted
        return eqns
    uses: dict = {}
    for v in outvars:
        uses[v] = uses.get(v, 0) + 2  # an output must stay materialized
    for e in eqns:
        for v in e.invars:
            if isinstance(v, Var):
                uses[v] = uses.get(v, 0) + 1
    f32 = np.dtype(np.float32)
    products = {e.outvars[0]: e for e in eqns if e.primitive.name == "mul" and e.outvars[0].aval.dtype == f32
                and uses.get(e.outvars[0], 0) == 1 and e.outvars[0] in scope}
    fused: dict = {}
    for e in eqns:
        if e.primitive.name not in ("add", "sub") or e.outvars[0].aval.dtype != f32 or e.outvars[0] not in scope:
            continue
        for i, v in enumerate(e.invars):
            m = products.get(v) if isinstance(v, Var) else None
            if m is None or id(m) in fused:
                continue
            is_sub = e.primitive.name == "sub"
            params = {"negate_product": is_sub and i == 1, "negate_addend": is_sub and i == 0}
            fused[id(m)] = m
            fused[id(e)] = JaxprEqn(_fma_p, [m.invars[0], m.invars[1], e.invars[1 - i]], e.outvars, params)
            break
    return [fused.get(id(e), e) for e in eqns if not (e.primitive.name == "mul" and fused.get(id(e)) is e)]


_UNFOLDABLE = {"iota", "pure_callback"}  # a callback runs when the program does

# broadcasts of constants fold up to this many elements (a real array's zero imaginary part in
# optax's global norm, a mean's cotangent: what the ops after them read then folds too); larger
# materialisations stay runtime ops (folding would bake big arrays into the code)
_FOLDED_BROADCAST_MAX = 4096


def _foldable(eqn) -> bool:
    if eqn.primitive.name == "broadcast_in_dim" and eqn.outvars[0].aval.size > _FOLDED_BROADCAST_MAX:
        return False
    return eqn.primitive.name not in _UNFOLDABLE and not any(
        isinstance(p, (Jaxpr, ClosedJaxpr)) for p in eqn.params.values())


def _emit(jaxpr, eqns, outvars, consts):
    """Write the equations as one Python function. Elementwise primitives call their numpy ufunc
    directly (one errstate for the whole body, not one per op) and, when an operand is a
    temporary of this function that nothing reads afterwards, write into its buffer (`out=`),
    so elementwise chains reuse memory instead of allocating per op. Loops (scan, while) are
    written out as Python loops around their inlined bodies (cpu_loops.py)."""
    em = Emitter(consts)
    args = [em.name(v) for v in jaxpr.invars]
    from ..base.fp_errors import _ERR_VAR
    # floating-point errors ignored for the whole body (numpy's errstate, minus its overhead)
    em.lines = [f"def _compiled({', '.join(args)}):",
                "  _tok = _ERR_VAR.set(_IGNORE)" if _ERR_VAR is not None else "  with _errstate(all='ignore'):",
                "  try:" if _ERR_VAR is not None else "  if True:"]
    for v in _scalar_only_inputs(jaxpr.invars, eqns, outvars):   # (an optimizer's step count)
        em.lines.append(f"    {em.name(v)} = {em.name(v)}[()]")
    owned = em.block(eqns, outvars, "    ")
    em.lines[3:3] = [f"    {b} = np.empty((), {dt})" for b, dt in em.buffers]
    em.lines.append(f"    return [{', '.join(em.name(v) for v in outvars)}]")
    if _ERR_VAR is not None:
        em.lines += ["  finally:", "    _ERR_VAR.reset(_tok)"]
    src = "\n".join([line for line in em.lines if line is not None])
    if _debug_level() >= 2:
        print(f"# gradpad cpu kernel ({len(eqns)} ops)\n{src}")
    g = em.g
    exec(compile(src, "<gradpad-jit>", "exec"), g)
    inner = g["_compiled"]
    out_avals = [v.aval for v in jaxpr.outvars]

    dts = [a.dtype for a in out_avals]
    if all(isinstance(v, Var) and v in owned for v in outvars):
        run = inner  # every output is a fresh array of the right dtype already
    else:
        def run(*args):  # numpy arrays in, numpy arrays out
            return [np.asarray(o, d) for o, d in zip(inner(*args), dts)]
    run.source = src
    run.out_avals = out_avals
    return run


class Emitter:
    """Writes equations as Python lines: `name(v)` names vars, literals and constants (held in
    the globals `g` of the generated code), `block` writes a list of equations."""

    def __init__(self, consts):
        from ..base.fp_errors import _ERR_VAR, _IGNORE_ERRORS
        self.g: dict = {"np": np, "_errstate": np.errstate, "_ERR_VAR": _ERR_VAR,
                        "_IGNORE": _IGNORE_ERRORS if _ERR_VAR else None}
        self.names: dict = {}
        self.consts = dict(consts)
        self.lines: list = []
        self.counter = 0
        self.loop_depth = 0   # (inside a loop's body: scalar_in_buffer)
        self.buffers: list = []   # (0-d buffer name, its dtype's global name), made on entry
        self.scalar_valued: set = set()   # vars of a shape whose value is a number (broadcast by numpy)

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def name(self, v):
        g = self.g
        if isinstance(v, Literal):
            key = f"_l{len(g)}"
            val = np.asarray(v.val, v.aval.dtype)
            # a scalar literal as a numpy scalar: scalar-with-scalar ops (loop counters, bounds)
            # then take numpy's scalar arithmetic instead of the ufunc machinery
            g[key] = val[()] if val.ndim == 0 else val
            return key
        n = self.names.get(v)
        if n is None:
            if v in self.consts:
                n = self.names[v] = f"_c{len(self.names)}"
                g[n] = self.consts[v]
            else:
                n = self.names[v] = f"v{len(self.names)}"
        return n

    def constant(self, value) -> str:
        """A global name of the generated code holding `value`."""
        key = f"_g{len(self.g)}"
        self.g[key] = value
        return key

    def array_operand(self, v):
        """`name(v)` for an operand of a ufunc with an array result: a scalar literal there is a
        0-d array (same dtype, same result), which numpy's ufuncs take ~0.3 us faster than a
        numpy scalar; a loop body pays that on every step."""
        if not isinstance(v, Literal) or np.ndim(v.val) != 0:
            return self.name(v)
        key = f"_a{len(self.g)}"
        self.g[key] = np.asarray(v.val, v.aval.dtype)
        return key

    def scalar_in_buffer(self, v, out_aval, ind):
        """`array_operand(v)`, except for a number (a 0-d var, or one broadcast implicitly from
        it) read by an array ufunc of its own dtype in a loop: there it is written into a 0-d
        array of the function's (`_bN[()] = x`, ~0.02 us) and the ufunc reads that, ~0.2 us
        faster than a numpy scalar, which numpy turns into an array on every call. The buffers are
        locals made on entry, so no other call (a thread, a recursion) writes into them."""
        if (not self.loop_depth or type(v) is not Var or v in self.consts or v.aval.dtype != out_aval.dtype
                or out_aval.dtype.kind not in "fiu" or not (v.aval.shape == () or v in self.scalar_valued)):
            return self.array_operand(v)
        buf = self.fresh("_b")
        self.buffers.append((buf, self.constant(np.dtype(out_aval.dtype))))
        self.lines.append(f"{ind}{buf}[()] = {self.name(v)}")
        return buf

    def scalar_operand(self, v):
        """`name(v)` for an operand of a scalar operator line: a 0-d constant as a numpy scalar
        (numpy's scalar math then takes it; with a 0-d array it goes through the ufunc, ~7x slower)."""
        if type(v) is Var and v in self.consts and type(self.consts[v]) is np.ndarray and self.consts[v].ndim == 0:
            key = f"_s{len(self.g)}"
            self.g[key] = self.consts[v][()]
            return key
        return self.name(v)

    def block(self, eqns, outvars, ind) -> set:
        """Write eqns at indentation `ind`; returns the vars whose buffers they allocated."""
        from . import cpu_loops
        g, name, lines = self.g, self.name, self.lines
        last_use = {}
        for i, eqn in enumerate(eqns):
            for v in eqn.invars:
                if isinstance(v, Var):
                    last_use[v] = i
        returned = {v for v in outvars if isinstance(v, Var)}
        _extend_through_views(eqns, last_use, returned)
        owned: set = set()  # vars whose buffer this block allocated (safe to overwrite when dead)

        def reusable(v, i, aval):
            return (isinstance(v, Var) and v in owned and last_use.get(v) == i and v not in returned
                    and v.aval.shape == aval.shape and v.aval.dtype == aval.dtype)

        implicit = _implicit_broadcasts(eqns, returned)
        uses: dict = {}   # var -> how many operands of this block (and its outputs) read it
        for eqn in eqns:
            for v in eqn.invars:
                if type(v) is Var:
                    uses[v] = uses.get(v, 0) + 1
        for v in outvars:
            if type(v) is Var:
                uses[v] = uses.get(v, 0) + 1
        as_int: dict = {}   # var -> (its value as a Python int expression, the index of its line)
        for i, eqn in enumerate(eqns):
            fn = self.fresh("_f")
            impl = impl_rules[eqn.primitive]
            raw, operands = _raw_form(eqn)
            ins = ", ".join(name(v) for v in operands)
            if eqn.primitive.multiple_results:
                loop = cpu_loops.EMITTERS.get(eqn.primitive.name)
                if loop is not None and loop(self, eqn, ind):
                    continue
                g[fn] = functools.partial(impl, **eqn.params) if eqn.params else impl
                outs = ", ".join(name(v) for v in eqn.outvars)
                lines.append(f"{ind}{outs}{',' if len(eqn.outvars) == 1 else ''} = {fn}({ins})" if eqn.outvars
                             else f"{ind}{fn}({ins})")
                continue
            out = eqn.outvars[0]
            if raw is not None and out.aval.ndim:
                g[fn] = raw
                target = next((v for v in operands if reusable(v, i, out.aval)), None)
                # (a ufunc's `out` by position where it takes it there: ~0.05 us less per call)
                positional = type(raw) is np.ufunc and raw.nin == len(operands)
                into = "" if target is None else f", {name(target)}" if positional else f", out={name(target)}"
                ins = ", ".join(self.scalar_in_buffer(v, out.aval, ind) if type(raw) is np.ufunc
                                else self.array_operand(v) for v in operands)
                lines.append(f"{ind}{name(out)} = {fn}({ins}{into})  # {eqn.primitive.name}")
                owned.add(out)
                continue
            if raw is not None:  # a scalar: the ufunc's numpy scalar (made an array if returned)
                form = _BOOL_FORMS.get((raw, len(operands))) if operands[0].aval.dtype == np.bool_ else None
                if form is not None:   # numpy's bool scalars compare and invert through the ufunc (~1-5 us)
                    g["_TRUE"] = np.True_
                    lines.append(f"{ind}{name(out)} = {form.format(*(self.scalar_operand(v) for v in operands))}"
                                 f"  # {eqn.primitive.name}")
                    continue
                op = _SCALAR_OPERATORS.get(raw)
                if op is not None and len(operands) == 2:  # numpy's scalar math: same result, ~30x cheaper
                    a, b = (self.scalar_operand(v) for v in operands)
                    lines.append(f"{ind}{name(out)} = {a} {op} {b}  # {eqn.primitive.name}")
                    continue
                pick = _SCALAR_PICKS.get(raw) if out.aval.dtype.kind in "iuf" else None
                if pick is not None and len(operands) == 2:   # max/min: numpy's choice, no ufunc call
                    a, b = (self.scalar_operand(v) for v in operands)
                    if out.aval.dtype.kind == "f":   # (a NaN `a` is taken; a NaN `b` is != a: taken)
                        tie = _ZERO_TIES[raw].format(a=a, b=b)
                        lines.append(f"{ind}{name(out)} = {a} if {a} {pick} {b} or {a} != {a} else "
                                     f"({b} if {a} != {b} or {b} else {tie})  # {eqn.primitive.name}")
                    else:
                        lines.append(f"{ind}{name(out)} = {a} if {a} {pick} {b} else {b}  # {eqn.primitive.name}")
                    continue
                unary = _SCALAR_UNARY.get(raw)
                if raw is np.square and out.aval.dtype.kind == "f":   # (a float's x * x: the ufunc's own)
                    unary = "({0} * {0})"
                if unary is not None:   # (numpy's scalar negation, inversion, abs: the same bits)
                    lines.append(f"{ind}{name(out)} = {unary.format(self.scalar_operand(operands[0]))}"
                                 f"  # {eqn.primitive.name}")
                    continue
                f32_scalar = getattr(raw, "f32_scalar", None)   # (XLA's float32 exp/log/log1p/tanh)
                on_float = getattr(f32_scalar, "on_float", None)
                if on_float is not None and out.aval.dtype == np.float32 and len(operands) == 1:
                    g[fn] = on_float   # np.float32(scalar(float(x))), as f32_scalar
                    value = made(np.float32, f"{fn}(float({self.scalar_operand(operands[0])}))", self.constant)
                    lines.append(f"{ind}{name(out)} = {value}  # {eqn.primitive.name}")
                    continue
                g[fn] = f32_scalar if f32_scalar is not None and out.aval.dtype == np.float32 else raw
                lines.append(f"{ind}{name(out)} = {fn}({ins})  # {eqn.primitive.name}")
                continue
            if eqn in implicit and eqn.invars[0].aval.shape == ():   # a scalar: numpy broadcasts it as it is
                self.scalar_valued.add(out)
                lines.append(f"{ind}{name(out)} = {ins}  # {eqn.primitive.name} (left to numpy)")
                continue
            if eqn in implicit:  # numpy's own broadcasting in the consumers does the rest
                g[fn] = _reshape_to(implicit[eqn])
                lines.append(f"{ind}{name(out)} = {fn}({ins})  # {eqn.primitive.name} (left to numpy)")
                continue
            form = inline(eqn, self.constant)
            if form is not None:   # (one expression: no call)
                read = self.scalar_operand if eqn.primitive.name in SCALAR_READS else name
                form = _fuse_int_reads(form, eqn.invars, uses, as_int, lines)
                made_int = _made_int(form, g) if out.aval.dtype.kind in "iu" else None
                if made_int is not None and uses.get(out) == 1:
                    as_int[out] = (made_int.format(*[read(v) for v in eqn.invars]), len(lines))
                lines.append(f"{ind}{name(out)} = {form.format(*[read(v) for v in eqn.invars])}"
                             f"  # {eqn.primitive.name}")
                continue
            g[fn] = special(eqn) or _specialized(eqn) or (functools.partial(impl, **eqn.params) if eqn.params else impl)
            lines.append(f"{ind}{name(out)} = {fn}({ins})  # {eqn.primitive.name}")
            if eqn.primitive.name in _FRESH_OUTPUTS and out.aval.ndim:
                owned.add(out)   # (a layer's `x @ w + b` then adds the bias in the product's buffer)
        return owned


def _made_int(form: str, g: dict):
    """The Python int expression of an integer form written by cpu_special.made as
    `(_gN | EXPR)` (_gN a numpy integer zero, EXPR an int in the dtype's range), else None."""
    if not (form.startswith("(_g") and form.endswith(")")):
        return None
    head, sep, expr = form[1:-1].partition(" | ")
    zero = g.get(head)
    if not sep or not isinstance(zero, np.integer) or zero != 0:
        return None
    depth = 0
    for ch in expr:   # EXPR must be one whole expression: `(_g1 | a) + (_g2 | b)` is not this form
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return None
    return expr if depth == 0 else None


def _fuse_int_reads(form: str, invars, uses: dict, as_int: dict, lines: list) -> str:
    """`form` with each `int({k})` of an operand that only this form reads, and that an earlier
    line of this block made from a Python int expression (`_made_int`), reading that expression
    instead: `int(np.int32(x))` is x, without making the numpy scalar and converting it back
    (a bit trick's chain of converts, a loop counter's cast for fold_in). The earlier line goes."""
    for k, v in enumerate(invars):
        got = as_int.get(v) if type(v) is Var and uses.get(v) == 1 else None
        if got is None:
            continue
        read = "int({%d})" % k
        if form.count(read) != 1 or form.count("{%d}" % k) != 1:
            continue
        expr, at = got
        form = form.replace(read, "(%s)" % expr.replace("{", "{{").replace("}", "}}"))
        lines[at] = None   # (dropped when the source is joined)
        del as_int[v]
    return form


def _scalar_operator_line(eqn) -> bool:
    """Whether Emitter.block writes `eqn` as a Python operator on numpy scalars."""
    if eqn.primitive.multiple_results or len(eqn.outvars) != 1 or eqn.outvars[0].aval.ndim:
        return False
    raw, operands = _raw_form(eqn)
    return ((raw in _SCALAR_OPERATORS and len(operands) == 2) or (raw in _SCALAR_UNARY and len(operands) == 1)
            or (raw in _SCALAR_PICKS and len(operands) == 2 and eqn.outvars[0].aval.dtype.kind in "iuf")
            or (operands[0].aval.dtype == np.bool_ and (raw, len(operands)) in _BOOL_FORMS))


def _ufunc_of(eqn):
    """The impl's own ufunc (`raw`), unless the operands' dtype kind is one the impl keeps for itself
    (its `kinds`: eq/ne of typed PRNG keys, a structured dtype that numpy's ufuncs refuse)."""
    impl = impl_rules[eqn.primitive]
    raw = getattr(impl, "raw", None)
    kinds = getattr(impl, "kinds", None)
    if raw is not None and kinds and eqn.invars and _dtype_kind(eqn.invars[0].aval.dtype) not in kinds:
        return None
    return raw


def _raw_form(eqn):
    """(ufunc or None, operands) as Emitter.block writes `eqn`: its impl's own ufunc (`raw`), else
    the ufunc its impl ends in (cpu_ufuncs.as_ufunc: a division, a square as x * x)."""
    raw = _ufunc_of(eqn)
    if raw is None:
        form = as_ufunc(eqn)
        if form is not None:
            return form
    return raw, eqn.invars


def _scalar_only_inputs(invars, eqns, outvars) -> list:
    """The 0-d inputs that only scalar operator lines read: taken as numpy scalars on entry (one
    index, ~0.1 us) so that those lines run numpy's scalar math."""
    cands = {v for v in invars if v.aval.ndim == 0}
    if not cands:
        return []
    cands.difference_update(v for v in outvars if type(v) is Var)
    for eqn in eqns:
        if not _scalar_operator_line(eqn):
            cands.difference_update(v for v in eqn.invars if type(v) is Var)
    return [v for v in invars if v in cands]


def _extend_through_views(eqns, last_use: dict, returned: set) -> None:
    """A result that may share its operand's buffer (a reshape or transpose is a numpy view; any
    impl but a ufunc's or a matmul's may return one) keeps that operand alive while it lives, so
    that no op in between writes into the operand's buffer (`out=`) under the view: without this,
    `s = t.reshape(...); u = t + 1; s * 3` read u's values through s. Returned values live on."""
    end = len(eqns)
    for v in returned:
        last_use[v] = end
    for i in range(end - 1, -1, -1):   # backwards: a view of a view keeps the first operand alive too
        eqn = eqns[i]
        if not eqn.primitive.multiple_results and (
                eqn.primitive.name in _FRESH_OUTPUTS
                or getattr(impl_rules[eqn.primitive], "raw", None) is not None):
            continue   # a new array (or a numpy scalar): shares nothing
        live = max((last_use.get(o, -1) for o in eqn.outvars), default=-1)
        for v in eqn.invars:
            if type(v) is Var and last_use.get(v, -1) < live:
                last_use[v] = live


# primitives whose impl always returns a new array of its aval's dtype and shape (matmul's result,
# at most reshaped or cast), which later ufuncs may overwrite once nothing reads it
_FRESH_OUTPUTS = frozenset({"dot_general", "vector_element", "row_index", "row_element"})


# ufuncs whose Python operator on numpy scalars (or 0-d arrays) computes the same thing
_SCALAR_OPERATORS = {np.add: "+", np.subtract: "-", np.multiply: "*", np.divide: "/", np.less: "<", np.less_equal: "<=",
                     np.greater: ">", np.greater_equal: ">=", np.equal: "==", np.not_equal: "!=",
                     np.bitwise_and: "&", np.bitwise_or: "|", np.bitwise_xor: "^"}
# ... max / min on scalars (primitives/_signed_zero): the first operand where it is strictly
# greater (smaller) or NaN, else the second; on floats a tie of two zeros gives XLA's sign, the
# sum of the zeros for max (-0.0 only when both are), -(-a - b) for min (-0.0 when either is)
_SCALAR_PICKS = {xla_max: ">", xla_min: "<"}
_ZERO_TIES = {xla_max: "{a} + {b}", xla_min: "-(-{a} - {b})"}
# ... and on numpy bools, whose `&`, `|`, `^` are fast scalar math but whose comparisons and `~`
# go through the ufunc machinery: the same results in xor/and/or (_TRUE: np.True_)
_BOOL_FORMS = {(np.not_equal, 2): "{} ^ {}", (np.equal, 2): "{} ^ {} ^ _TRUE", (np.less, 2): "({} ^ _TRUE) & {}",
               (np.greater, 2): "{} & ({} ^ _TRUE)", (np.less_equal, 2): "({} ^ _TRUE) | {}",
               (np.greater_equal, 2): "{} | ({} ^ _TRUE)", (xla_max, 2): "{} | {}", (xla_min, 2): "{} & {}",
               (np.invert, 1): "{} ^ _TRUE", (np.logical_not, 1): "{} ^ _TRUE"}
# ... and unary ones (on a numpy bool, `~` is numpy's logical not, as np.invert)
_SCALAR_UNARY = {np.negative: "-{}", np.invert: "~{}", np.absolute: "abs({})"}


def _implicit_broadcasts(eqns, returned) -> dict:
    """broadcast_in_dim equations whose result only feeds elementwise ufuncs of the broadcast
    shape: those need just the size-1 axes (a free reshape), numpy broadcasts the rest, which is
    cheaper than materialising the view (and than ufuncs reading stride-0 views).
    eqn -> the reshaped operand's shape."""
    cands = {}
    for e in eqns:
        if e.primitive.name == "broadcast_in_dim" and e.outvars[0] not in returned:
            shape, bd = e.params["shape"], e.params["broadcast_dimensions"]
            expanded = [1] * len(shape)
            for i, d in enumerate(bd):
                expanded[d] = e.invars[0].aval.shape[i]
            cands[e.outvars[0]] = (e, tuple(expanded))
    if not cands:
        return {}
    consumers = []
    for e in eqns:
        elementwise = getattr(impl_rules[e.primitive], "raw", None) is not None
        for v in e.invars:
            if type(v) is Var and v in cands and not (elementwise and e.outvars[0].aval.shape == v.aval.shape):
                del cands[v]
        if elementwise:
            consumers.append(e)
    for e in consumers:  # some operand must still carry the full shape
        shape = e.outvars[0].aval.shape
        if not any(v.aval.shape == shape and not (type(v) is Var and v in cands) for v in e.invars):
            for v in e.invars:
                cands.pop(v, None) if type(v) is Var else None
    return {e: expanded for e, expanded in cands.values()}


def _reshape_to(shape):
    def reshape(x):
        return x.reshape(shape)
    return reshape


def _specialized(eqn):
    """The primitive's impl specialised to this equation's shapes, or None (see rules.py)."""
    rule = specialize_rules.get(eqn.primitive)
    if rule is None:
        return None
    return rule([v.aval for v in eqn.invars], **eqn.params)


# primitives whose specialization (rules.py) may add in another order than the impl (reduce_sum's
# BLAS column sums): the interpreted first call runs it too, or a jitted function's first result
# would differ in the last place from every later one
_ORDER_CHANGING = frozenset({"reduce_sum"})


class _TwoTier:
    """A callable in two tiers: the first call runs `_first_call` (no code generation: a first
    call costs tracing plus a little), later calls run the generated Python (`_emit`), built on
    the second call. `GRADPAD_DEBUG=2` generates it up front. Subclasses supply `_build` (which
    sets `_fn`) and `_first_call`."""

    _fn = None
    _called = False

    def _maybe_build_now(self):
        if _debug_level() >= 2:
            self._build()

    @property
    def source(self) -> str:
        return (self._fn or self._build()).source

    def __call__(self, *args):
        fn = self._fn
        if fn is not None:
            return fn(*args)
        if self._called:
            return self._build()(*args)
        self._called = True
        return self._first_call(args)


class _Program(_TwoTier):
    """A compiled jaxpr: the first call interprets the optimized equations, later calls run the
    generated code."""

    def __init__(self, jaxpr, eqns, outvars, consts):
        self.jaxpr, self.eqns, self.outvars, self.consts = jaxpr, eqns, outvars, consts
        self.out_avals = [v.aval for v in jaxpr.outvars]
        self._maybe_build_now()

    def _build(self):
        self._fn = _emit(self.jaxpr, self.eqns, self.outvars, self.consts)
        return self._fn

    def _first_call(self, args):
        return interpret(self.jaxpr.invars, self.eqns, self.outvars, self.out_avals, self.consts, args)


# ---- the first call of a jaxpr whose compiler passes change no value: run it as traced -------

def _sum_of_size_one_axes(eqn) -> bool:
    return all(eqn.invars[0].aval.shape[a] == 1 for a in eqn.params["axes"])


# equations the compiler may compute differently (by bits) from their impl: XLA's algebraic
# rewrites (log(exp(x)), sqrt(x * x): cpu_algebra)
def _divides_by_broadcast_var(eqn) -> bool:
    # the compiled program divides truly when the divisor has other uses (cpu_ufuncs.split_division);
    # the impl, which sees one equation, always takes the reciprocal
    # (and by a constant of its own shape it multiplies by the reciprocal, where the impl divides)
    y, out = eqn.invars[1], eqn.outvars[0].aval
    if type(y) is Literal:
        return y.aval.shape == out.shape and out.dtype.kind == "f"
    return y.aval.shape != out.shape and out.dtype.kind in "fc"


_COMPILED_DIFFERENTLY = {"log": lambda eqn: True, "sqrt": lambda eqn: True, "div": _divides_by_broadcast_var}


def _sum_as_reshape(eqn, ins):
    """A sum over size-1 axes of a var, as the compiler makes it (cpu_shapes): a reshape, which
    keeps -0.0 (the impl's sum gives 0.0); None for any other sum."""
    if type(eqn.invars[0]) is Var and _sum_of_size_one_axes(eqn):
        return ins[0].reshape(eqn.outvars[0].aval.shape)
    return None


# equations an interpreted first call runs as the compiled code does, not by their impl
_AS_COMPILED = {"reduce_sum": _sum_as_reshape}


def _runs_as_traced(jaxpr: Jaxpr) -> bool:
    """Whether interpreting the jaxpr as traced gives the compiled code's bits: no equation the
    compiler computes differently, no loop or branch (written out by cpu_loops), no body it fuses
    (FMA_CALLS), and no sum it folds at compile time (folded, a sum adds in the impl's order,
    not the generated code's). Nested jit and custom-derivative calls, which the compiler
    inlines, are checked the same way. The other passes (reshape merging, folding, common
    subexpressions, dead code) keep every value."""
    return _known_when_compiled(jaxpr, set(jaxpr.constvars)) is not None


def _inlined_body(eqn):
    """The closed jaxpr the compiler inlines for this equation (as `_inline_calls`), else None."""
    param = "jaxpr" if eqn.primitive is _jit_p() else getattr(eqn.primitive, "inline_jaxpr_param", None)
    return None if param is None else eqn.params[param]


@functools.lru_cache(maxsize=None)
def _jit_p():
    from ..primitives.call import jit_p
    return jit_p


def _holds_jaxpr(params) -> bool:
    for p in params.values():
        if isinstance(p, _JAXPRS) or (isinstance(p, (tuple, list)) and any(isinstance(q, _JAXPRS) for q in p)):
            return True
    return False


_JAXPRS = (Jaxpr, ClosedJaxpr)


def _known_when_compiled(jaxpr: Jaxpr, known: set):
    """The vars the compiler may know before the program runs (a superset: every value computed
    from constants and literals alone), or None when the jaxpr must not run as traced. Runs on
    every first call: kept to a few dict and set lookups per equation."""
    differently = _COMPILED_DIFFERENTLY
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if name in differently and differently[name](eqn):
            return None
        all_known = True
        for v in eqn.invars:
            if type(v) is not Literal and v not in known:
                all_known = False
                break
        if all_known and name in _ORDER_CHANGING:
            return None
        if eqn.params and _holds_jaxpr(eqn.params):
            body = _inlined_body(eqn)
            if body is None or eqn.params.get("name") in FMA_CALLS:
                return None   # a loop, a branch, a fused body
            inner = body.jaxpr
            inner_known = set(inner.constvars)
            inner_known.update(iv for iv, v in zip(inner.invars, eqn.invars) if type(v) is Literal or v in known)
            inner_known = _known_when_compiled(inner, inner_known)
            if inner_known is None:
                return None
            known.update(ov for ov, iv in zip(eqn.outvars, inner.outvars) if type(iv) is Literal or iv in inner_known)
        elif all_known:
            known.update(eqn.outvars)
    return known


class _Deferred(_TwoTier):
    """A jaxpr that runs as traced on its first call (no compiler passes: a first call costs
    tracing plus the arithmetic) and is compiled on its second, into generated code (`_emit`)
    that every later call runs. Same face as `_Program`: `_fn` (None until generated), `source`,
    `out_avals`."""

    def __init__(self, cj: ClosedJaxpr):
        self.cj = cj
        self.out_avals = [v.aval for v in cj.jaxpr.outvars]
        self._maybe_build_now()

    @functools.cached_property
    def program(self) -> "_Program":
        """The optimized equations (what a loop's generated code inlines)."""
        return compile_closed_jaxpr(self.cj)

    def _build(self):
        self._fn = self.program._build()
        return self._fn

    def _first_call(self, args):
        from ..tracing.array import to_numpy
        jaxpr = self.cj.jaxpr
        consts = {v: to_numpy(c) for v, c in zip(jaxpr.constvars, self.cj.consts)}
        return interpret(jaxpr.invars, jaxpr.eqns, jaxpr.outvars, self.out_avals, consts, args)


def interpret(invars, eqns, outvars, out_avals, consts: dict, args) -> list:
    """Run equations one by one: numpy arrays in, numpy arrays out. Equations whose results
    nothing needs are skipped (dead code), and each value is dropped after its last use: a chain
    then reuses a few warm buffers instead of touching fresh memory per op (which made an
    interpreted first call ~3x slower than the same numpy code)."""
    # backwards: an equation runs if an output is needed or it has effects; the first time a
    # value shows up as an operand, from the end, is its last use
    needed = {v for v in outvars if type(v) is Var}
    plan = []
    for eqn in reversed(eqns):
        outs = eqn.outvars
        if not (len(outs) == 1 and outs[0] in needed or len(outs) != 1 and any(v in needed for v in outs)
                or eqn_effectful(eqn)):
            continue
        last = []
        for v in eqn.invars:
            if type(v) is Var and v not in needed:
                needed.add(v)
                last.append(v)
        plan.append((eqn, last))
    plan.reverse()
    env = dict(consts)
    env.update(zip(invars, args))

    def read(v):
        return np.asarray(v.val, v.aval.dtype) if isinstance(v, Literal) else env[v]
    with np.errstate(all="ignore"):
        for eqn, dead in plan:
            impl = impl_rules[eqn.primitive]
            raw = _ufunc_of(eqn)  # a ufunc: skip the per-op errstate wrapper
            ins = [env[v] if type(v) is Var else read(v) for v in eqn.invars]
            name = eqn.primitive.name
            outs = _AS_COMPILED[name](eqn, ins) if name in _AS_COMPILED else None
            if outs is None:
                own = name in _ORDER_CHANGING and _specialized(eqn)
                if own:   # the generated code's summation order: the first call's bits are the later calls'
                    outs = own(*ins)
                else:
                    outs = raw(*ins) if raw is not None else impl(*ins, **eqn.params)
            if eqn.primitive.multiple_results:
                env.update(zip(eqn.outvars, outs))
            else:
                env[eqn.outvars[0]] = outs
            for v in dead:
                del env[v]
    return [np.asarray(read(v), a.dtype) for v, a in zip(outvars, out_avals)]


# the primitives and the api below run sub-jaxprs through this module (core/_engine/tracing/rules.py: jaxpr_compiler)
jaxpr_compiler[0] = sys.modules[__name__]
