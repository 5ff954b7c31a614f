"""One element of a short vector read back as a scalar, computed on scalars (value-preserving).

A sampler's leapfrog step stacks its two scalar momenta into an f32[2], scales it by the inverse
mass (`0.5 * p + 0.5 * p` once the unit mass matrix's multiplies are gone), then slices each
element out again and reshapes it to a scalar for the position update. In numpy that is an array
creation, two ufunc calls, two slices and two reshapes (~5 us), and the 0-d arrays the reshapes
give make every scalar operator after them go through the ufunc machinery too.

`element(eqn, producer, memo)`: for `reshape`/`squeeze` of a one-element `slice` of a short
vector to a scalar, where the vector comes from `stack_scalars` through elementwise
add/sub/mul/div/max/min with scalar (0-d) operands, the same arithmetic written on the scalars
(each element of an elementwise op is that op on the operands' elements: the same IEEE operation,
rounded the same way). Returns (new equations, the scalar atom the output is) or None.
"""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.jaxpr import JaxprEqn, Var

_SHORT = 16   # vectors up to this length (a model's parameter vector)
# (float32/float64: numpy's scalar arithmetic is the array loops' IEEE operation, rounded alike)
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_ELEMENTWISE = frozenset({"add", "sub", "mul", "div", "max", "min", "add_any", "neg"})


def _index_of_one_element_slice(eqn):
    """The index a size-1 `slice` of a 1-D operand reads, or None."""
    x = eqn.invars[0]
    if type(x) is not Var or x.aval.ndim != 1 or x.aval.shape[0] > _SHORT:
        return None
    (lo,), (hi,) = eqn.params["start_indices"], eqn.params["limit_indices"]
    return lo if hi - lo == 1 else None


def element(eqn, producer, memo):
    """(new equations, atom) when `eqn` (a reshape or squeeze to a scalar) reads one element of a
    short vector that can be computed on scalars; else None."""
    out = eqn.outvars[0]
    if out.aval.shape != () or type(eqn.invars[0]) is not Var:
        return None
    if eqn.primitive.name == "reshape" and eqn.params.get("dimensions") is not None:
        return None
    src = producer.get(eqn.invars[0])
    if src is None or src.primitive.name != "slice" or (src.params.get("strides") or (1,)) != (1,):
        return None
    i = _index_of_one_element_slice(src)
    if i is None:
        return None
    new: list = []
    atom = _element_of(src.invars[0], i, producer, memo, new, depth=0)
    if atom is None or atom.aval.dtype != out.aval.dtype:
        return None
    return new, atom


def _element_of(v, i, producer, memo, new, depth):
    if v.aval.shape == ():
        return v   # a scalar operand of a broadcasting op: the same value at every index
    if type(v) is not Var or v.aval.ndim != 1 or v.aval.shape[0] > _SHORT:
        return None
    key = (v, i)
    if key in memo:
        return memo[key]
    src = producer.get(v) if depth <= 8 else None
    name = src.primitive.name if src is not None and len(src.outvars) == 1 else None
    atom = None
    if name == "stack_scalars" or (name == "stack" and src.params.get("axis") == 0
                                   and all(o.aval.shape == () for o in src.invars)):
        atom = src.invars[i]
    elif name in _ELEMENTWISE and src.outvars[0].aval.dtype in _FLOATS:
        ins = []
        for o in src.invars:
            e = _element_of(o, i, producer, memo, new, depth + 1) if o.aval.shape in ((), v.aval.shape) else None
            if e is None:
                break
            ins.append(e)
        else:
            atom = _scalar_var(v.aval)
            new.append(JaxprEqn(src.primitive, ins, [atom], src.params, src.source_info))
    elif name == "dot_general" and _scaling(src):   # a scalar times a vector: each element's product
        from ..primitives.elementwise import mul_p
        ins = [_element_of(o, i, producer, memo, new, depth + 1) for o in src.invars]
        if None not in ins:
            atom = _scalar_var(v.aval)
            new.append(JaxprEqn(mul_p, ins, [atom], {}, src.source_info))
    elif name in ("reshape", "squeeze"):
        atom = _row_element(src, i, producer, new)
    if atom is None:   # any other vector (an input, a carry, a loop's or a gather's result): x[i]
        atom = _scalar_var(v.aval)
        new.append(JaxprEqn(vector_element_p, [v], [atom], {"index": i}, None))
    memo[key] = atom
    return atom


def _scalar_var(aval):
    return Var(ShapedArray((), aval.dtype, getattr(aval, "weak_type", False)))


def _row_element(reshape, i, producer, new):
    """Element i of a row (k,) read out of an (n, k) array by a dynamic_slice of size (1, k)
    reshaped to (k,) (a tree builder's checkpoint read), as one `row_element`, else None."""
    src = reshape.invars[0]
    if type(src) is not Var or src.aval.ndim != 2 or src.aval.shape[0] != 1:
        return None
    if reshape.primitive.name == "reshape" and reshape.params.get("dimensions") is not None:
        return None
    ds = producer.get(src)
    if ds is None or ds.primitive.name != "dynamic_slice" or len(ds.invars) != 3:
        return None
    x, start = ds.invars[0], ds.invars[1]
    if x.aval.ndim != 2 or tuple(ds.params["slice_sizes"]) != (1, x.aval.shape[1]) or start.aval.shape != ():
        return None
    row = Var(ShapedArray((), start.aval.dtype))   # (the rows of one start share it: common subexpressions)
    new.append(JaxprEqn(row_index_p, [start], [row], {"last": x.aval.shape[0] - 1}, ds.source_info))
    atom = _scalar_var(reshape.outvars[0].aval)
    new.append(JaxprEqn(row_element_p, [x, row], [atom], {"column": i}, ds.source_info))
    return atom


def _element_primitives():
    """Backend-only primitives (never in a jaxpr a user sees) for the elements read above: x[i] of
    a vector; a row start clamped into [0, last] as dynamic_slice clamps it, as a Python int
    (row_index); x[r, j] of a matrix at such a row (cpu_special writes each as an expression)."""
    from ..tracing.rules import impl_rules
    from ..tracing.tracing import Primitive
    read, index, row = Primitive("vector_element"), Primitive("row_index"), Primitive("row_element")
    impl_rules[read] = lambda x, *, index: np.asarray(x)[index]
    impl_rules[index] = lambda r, *, last: min(max(int(r), 0), last)
    impl_rules[row] = lambda x, r, *, column: np.asarray(x)[int(r), column]
    return read, index, row


vector_element_p, row_index_p, row_element_p = _element_primitives()


# ---- a scatter at an index vector broadcast from one number (x.at[i].set(v) in a loop): the
# scatter at that number, without making the vector (cpu_special writes a row's as out[i] = v)

def _scatter_at_impl(x, i, upd, *, params):
    from ..tracing.rules import impl_rules
    from ..primitives.indexing import scatter_p
    return impl_rules[scatter_p](x, np.reshape(np.asarray(i), (1,)), upd, **params)


def _scatter_at_primitive():
    from ..tracing.rules import impl_rules
    from ..tracing.tracing import Primitive
    p = Primitive("scatter_at")   # backend-only, as above
    impl_rules[p] = _scatter_at_impl
    return p


scatter_at_p = _scatter_at_primitive()


def scatter_at(eqn, producer):
    """`eqn` (a scatter) as a scatter_at of the number its one-element index vector was broadcast
    from, or None."""
    idx = eqn.invars[1]
    if type(idx) is not Var or idx.aval.shape != (1,):
        return None
    src = producer.get(idx)
    if src is None or src.primitive.name != "broadcast_in_dim" or src.invars[0].aval.shape != ():
        return None
    if src.invars[0].aval.dtype != idx.aval.dtype:
        return None
    return JaxprEqn(scatter_at_p, [eqn.invars[0], src.invars[0], eqn.invars[2]], eqn.outvars,
                    {"params": eqn.params}, eqn.source_info)


def _scaling(eqn) -> bool:
    """A dot_general without contracting or batch dimensions of a scalar and a vector of one
    float dtype (np.multiply, rounded once per element as a scalar multiply is)."""
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    if lc or rc or lb or rb:
        return False
    x, y = eqn.invars
    dt = eqn.outvars[0].aval.dtype
    pet = eqn.params.get("preferred_element_type")
    return (x.aval.dtype == y.aval.dtype == dt and dt in _FLOATS and (pet is None or pet == dt)
            and sorted((x.aval.ndim, y.aval.ndim)) == [0, 1])


# ---- an elementwise op whose array operands are constants holding one value throughout (a folded
# `broadcast(1.0) / -2`, the cotangent of a sum) with a scalar: the op on scalars, then broadcast.
# Every element is the same op on the same two numbers; numpy's broadcasting in the consumers then
# spreads it (Emitter: an implicit broadcast), and one full-length ufunc call per step goes.

UNIFORM_OPS = frozenset({"add", "sub", "mul", "div", "max", "min"})
_UNIFORM_MAX = 1 << 16   # constants up to this size are checked


def _uniform_value(val):
    """The one value of a constant array whose elements are all the same bits, else None."""
    if type(val) is not np.ndarray or not 1 < val.size <= _UNIFORM_MAX or val.dtype not in _FLOATS:
        return None
    flat = val.reshape(-1)
    bits = flat.view(np.dtype(f"u{flat.dtype.itemsize}"))
    return flat[0] if (bits == bits[0]).all() else None


def scalar_then_broadcast(eqn, invars, value_of):
    """(new equations, {new constant var: value}) computing `eqn` on scalars and broadcasting the
    result, when its operands are uniform constants of the result's shape and scalars (at least one
    of each kind); else None."""
    from ..primitives.structural import broadcast_in_dim_p
    out = eqn.outvars[0].aval
    if not out.ndim or len(invars) != 2 or out.dtype not in _FLOATS:
        return None
    ins, consts, uniform = [], {}, False
    for v in invars:
        if v.aval.shape == ():
            ins.append(v)
            continue
        c = _uniform_value(value_of(v)) if v.aval.shape == out.shape else None
        if c is None:
            return None
        s = Var(ShapedArray((), v.aval.dtype, v.aval.weak_type))
        consts[s] = np.asarray(c)
        ins.append(s)
        uniform = True
    if not uniform or any(type(v) is Var and v not in consts and v.aval.shape != () for v in ins):
        return None
    scalar = Var(ShapedArray((), out.dtype, out.weak_type))
    return [JaxprEqn(eqn.primitive, ins, [scalar], eqn.params, eqn.source_info),
            JaxprEqn(broadcast_in_dim_p, [scalar], eqn.outvars,
                     {"shape": out.shape, "broadcast_dimensions": (), "sharding": None}, eqn.source_info)], consts


# ---- a short float32 dot of two vectors whose elements are known as scalars: XLA's chain of fused
# multiply-adds (_xla_dot: acc = x0 * y0; acc = fma(xi, yi, acc)) written on those scalars, so the
# vectors need not be made (a sampler's kinetic energy and U-turn checks on a 2-vector momentum)

_DOT_MAX = 8


def dot_on_elements(eqn, producer, memo, fma_p):
    """(new equations) computing `eqn`, a float32 vector . vector of length 2.._DOT_MAX, as the fma
    chain on its operands' elements (`fma_p`: cpu.py's backend fma), or None."""
    from ..primitives._xla_dot import small_dot, _vector_dot, _vector_dot2
    x, y = eqn.invars
    out = eqn.outvars[0]
    p = eqn.params
    if x.aval.ndim != 1 or y.aval.ndim != 1 or out.aval.shape != () or x.aval.shape != y.aval.shape:
        return None
    k = x.aval.shape[0]
    if not 2 <= k <= _DOT_MAX or out.aval.dtype != np.float32:
        return None
    if small_dot(x.aval.shape, y.aval.shape, x.aval.dtype, y.aval.dtype, p["dimension_numbers"],
                 p.get("preferred_element_type")) not in (_vector_dot, _vector_dot2):
        return None
    new: list = []
    xs = [_element_of(x, i, producer, memo, new, 0) for i in range(k)]
    ys = [_element_of(y, i, producer, memo, new, 0) for i in range(k)]
    if None in xs or None in ys or any(a.aval.dtype != np.float32 for a in xs + ys):
        return None
    from ..primitives.elementwise import mul_p
    acc = Var(ShapedArray((), np.float32))
    new.append(JaxprEqn(mul_p, [xs[0], ys[0]], [acc], {}, eqn.source_info))
    for i in range(1, k):
        nxt = out if i == k - 1 else Var(ShapedArray((), np.float32))
        new.append(JaxprEqn(fma_p, [xs[i], ys[i], acc], [nxt],
                            {"negate_product": False, "negate_addend": False}, eqn.source_info))
        acc = nxt
    return new



# ---- vectors stacked from scalars, passed into a cond's branches or a while loop's bodies as
# constants: the scalars passed instead, each body stacking them again first. The bodies are
# compiled on their own (cpu_loops), where a vector operand is an input with no known producer:
# there its elements are index reads, and the stack is made on every step whether or not a body
# needs the vector itself. With the stack inside, a body reads the scalars (a tree builder's U-turn
# checks) and makes the vector only where it uses it (the checkpoint write, in one branch).

def _stacked(v, producer):
    src = producer.get(v) if type(v) is Var else None
    if src is None or not (src.primitive.name == "stack_scalars" or (
            src.primitive.name == "stack" and src.params.get("axis") == 0 and all(o.aval.shape == () for o in src.invars))):
        return None
    return src


def _restacked(cj, positions: dict):
    """`cj` with its invars at `positions` (index -> the stack_scalars eqn that made the operand)
    replaced by scalar inputs, stacked again by its first equations."""
    from ..tracing.jaxpr import ClosedJaxpr, Jaxpr
    j = cj.jaxpr
    invars, first = [], []
    for i, v in enumerate(j.invars):
        st = positions.get(i)
        if st is None:
            invars.append(v)
            continue
        scalars = [Var(a.aval) for a in st.invars]
        invars.extend(scalars)
        first.append(JaxprEqn(st.primitive, scalars, [v], st.params, st.source_info))
    return ClosedJaxpr(Jaxpr(j.constvars, invars, j.outvars, first + list(j.eqns)), cj.consts)


def _spread(ops, positions):
    out = []
    for i, v in enumerate(ops):
        st = positions.get(i)
        out.extend(st.invars if st is not None else [v])
    return out


def scalars_into_bodies(eqn, producer):
    """`eqn` (a cond or while) with its stacked-scalar operands (a cond's) or constants (a
    while's) passed as their scalars, or None."""
    if eqn.primitive.name == "cond":
        ops = eqn.invars[1:]
        positions = {i: st for i, v in enumerate(ops) if (st := _stacked(v, producer)) is not None}
        if not positions:
            return None
        branches = tuple(_restacked(b, positions) for b in eqn.params["branches"])
        return JaxprEqn(eqn.primitive, [eqn.invars[0]] + _spread(ops, positions), eqn.outvars,
                        dict(eqn.params, branches=branches), eqn.source_info)
    if eqn.primitive.name != "while":
        return None
    p = eqn.params
    ncc, nbc = p["cond_nconsts"], p["body_nconsts"]
    cc, bc, carry = eqn.invars[:ncc], eqn.invars[ncc:ncc + nbc], eqn.invars[ncc + nbc:]
    cpos = {i: st for i, v in enumerate(cc) if (st := _stacked(v, producer)) is not None}
    bpos = {i: st for i, v in enumerate(bc) if (st := _stacked(v, producer)) is not None}
    if not cpos and not bpos:
        return None
    cc2, bc2 = _spread(cc, cpos), _spread(bc, bpos)
    params = dict(p, cond_jaxpr=_restacked(p["cond_jaxpr"], cpos) if cpos else p["cond_jaxpr"],
                  body_jaxpr=_restacked(p["body_jaxpr"], bpos) if bpos else p["body_jaxpr"],
                  cond_nconsts=len(cc2), body_nconsts=len(bc2))
    return JaxprEqn(eqn.primitive, cc2 + bc2 + list(carry), eqn.outvars, params, eqn.source_info)
