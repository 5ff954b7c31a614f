"""Expression builder for fused kernels: the value of any jaxpr variable at an index.

Elementwise equations become WGSL expressions; broadcast_in_dim, reshape, squeeze, transpose,
slice, rev, pad, concatenate and iota become index math, so a whole chain of them reads each
input buffer once and writes each output once. Shared subexpressions become `let`s.
"""
from __future__ import annotations

import numpy as np

from ...tracing.jaxpr import Literal
from .wgsl import ZERO_F32, cast, elementwise_expr, has_elementwise, literal, wtype

INDEX_OPS = {"broadcast_in_dim", "reshape", "squeeze", "expand_dims", "transpose", "slice", "rev", "pad",
             "concatenate", "iota", "dynamic_slice", "dynamic_update_slice"}


RANDOM_OPS = {"random_wrap", "random_unwrap", "random_bits", "random_split", "random_fold_in", "random_seed"}


def fusable(eqn) -> bool:
    name = eqn.primitive.name
    if eqn.primitive.multiple_results:
        return False
    if name in RANDOM_OPS:
        from ...base.config import config
        if not config.read("jax_threefry_partitionable"):
            return False  # the original counter layout hashes halves of iota: left to the CPU
        if name == "random_bits":
            return eqn.params["bit_width"] == 32
        if name == "random_seed":
            return np.dtype(eqn.invars[0].aval.dtype).itemsize == 4
        return True
    if name in INDEX_OPS:
        return name != "pad" or all(lo >= 0 and hi >= 0 for lo, hi, _ in eqn.params["padding_config"])
    if not has_elementwise(eqn.primitive):
        return False
    # some expressions exist only for some dtypes: try it on placeholder operands
    return elementwise_expr(eqn.primitive, eqn.outvars[0].aval.dtype, [v.aval.dtype for v in eqn.invars],
                            ["a"] * len(eqn.invars), eqn.params) is not None


def strides_of(shape):
    out, s = [], 1
    for d in reversed(shape):
        out.append(s)
        s *= d
    return out[::-1]


class Idx:
    """An index into an array of `shape`: a linear u32 expression, coordinates, or both."""
    __slots__ = ("shape", "linear", "coords")

    def __init__(self, shape, linear=None, coords=None):
        self.shape, self.linear, self.coords = tuple(shape), linear, coords
        if not self.shape:
            self.linear, self.coords = "0u", []

    def key(self):
        return (self.shape, self.linear) if self.linear is not None else (self.shape, tuple(self.coords))


class Builder:
    """Accumulates `let` lines for one kernel body (one scope)."""

    def __init__(self, producers: dict, buffers: dict, in_dtypes: dict):
        self.producers = producers      # var -> fusable eqn producing it
        self.buffers = buffers          # var -> binding name, for values read from memory
        self.in_dtypes = in_dtypes
        self.lines: list = []
        self.memo: dict = {}
        self.n = 0
        self.covered: list = []         # equations inlined into this kernel (for GRADPAD_DEBUG=2)
        self.helpers: set = set()       # WGSL helper functions the body calls
        self.inline: dict = {}          # var -> a WGSL name already holding its value (epilogues)
        # vec4 mode (elementwise kernels): buffers are arrays of vec4 and each thread computes
        # four elements; reads at linear index `j<k>` are component k of one vec4 load per buffer
        self.vec4: dict | None = None   # linear name -> component ("x", "y", "z", "w")
        self.vec4_loads: list = []      # buffers read with one vec4 load
        self.vec4_strided = False       # some read needed another element: vec4 mode gives up

    def let(self, expr: str, prefix="t") -> str:
        name = f"{prefix}{self.n}"
        self.n += 1
        self.lines.append(f"let {name} = {expr};")
        return name

    # ---- index math ---------------------------------------------------------------------
    def coords(self, idx: Idx) -> list:
        if idx.coords is None:
            if not idx.shape:
                idx.coords = []
            else:
                st = strides_of(idx.shape)
                out = []
                for d, s in zip(idx.shape, st):
                    if d == 1:
                        out.append("0u")
                    else:
                        e = idx.linear if s == 1 else f"({idx.linear} / {s}u)"
                        e = e if s * d == int(np.prod(idx.shape)) else f"({e} % {d}u)"
                        out.append(self.let(e, "c") if e != idx.linear else e)
                idx.coords = out
        return idx.coords

    def linear(self, idx: Idx) -> str:
        if idx.linear is None:
            terms = [c if s == 1 else f"{c} * {s}u"
                     for c, s, d in zip(idx.coords, strides_of(idx.shape), idx.shape) if d != 1]
            idx.linear = " + ".join(terms) if terms else "0u"
            if len(terms) > 1:
                idx.linear = self.let(idx.linear, "l")
        return idx.linear

    # ---- values -------------------------------------------------------------------------
    def value(self, v, idx: Idx) -> str:
        if isinstance(v, Literal):
            return literal(v.val, v.aval.dtype)
        if v in self.inline:
            return self.inline[v]
        key = (v, idx.key())
        got = self.memo.get(key)
        if got is not None:
            return got
        if v in self.buffers:
            lin = self.linear(idx) if v.aval.shape else "0u"
            expr = f"{self.buffers[v]}[{lin}]" if self.vec4 is None else self._vec4_read(self.buffers[v], lin)
            if np.dtype(v.aval.dtype) == np.bool_:
                expr = f"({expr} != 0u)"
        else:
            eqn = self.producers[v]
            if eqn not in self.covered:
                self.covered.append(eqn)
            expr = self._eqn(eqn, idx)
        # a literal +-0.0 stays written out (a broadcast zero: polyval's start): mul needs to see it, or
        # the driver folds `t * x` to 0 where x is inf or NaN (XLA: NaN)
        out = self.let(expr) if not (_trivial(expr) or expr in ZERO_F32) else expr
        self.memo[key] = out
        return out

    def _vec4_read(self, buf: str, lin: str) -> str:
        comp = self.vec4.get(lin)
        if comp is not None:
            if buf not in self.vec4_loads:
                self.vec4_loads.append(buf)
            return f"v_{buf}.{comp}"
        if lin == "0u":
            return f"{buf}[0u].x"
        self.vec4_strided = True
        return f"{buf}[({lin}) / 4u][({lin}) % 4u]"

    def _eqn(self, eqn, idx: Idx) -> str:
        name, p = eqn.primitive.name, eqn.params
        out_aval = eqn.outvars[0].aval
        x = eqn.invars[0] if eqn.invars else None
        dims = p.get("dimensions") if name == "reshape" else None
        if dims is not None and tuple(dims) != tuple(range(len(dims))):
            # lax.reshape(x, shape, dimensions): x transposed by `dimensions`, then reshaped (the
            # linear index runs over the transposed array; its coordinates map back through the
            # permutation)
            tshape = [x.aval.shape[d] for d in dims]
            c = self.coords(Idx(tshape, linear=self.linear(idx) if idx.shape else "0u"))
            src = [None] * len(dims)
            for i, d in enumerate(dims):
                src[d] = c[i]
            return self.value(x, Idx(x.aval.shape, coords=src))
        if name in ("reshape", "squeeze", "expand_dims"):
            return self.value(x, Idx(x.aval.shape, linear=self.linear(idx) if idx.shape else "0u"))
        if name == "broadcast_in_dim":
            c = self.coords(idx)
            return self.value(x, Idx(x.aval.shape, coords=[
                "0u" if x.aval.shape[i] == 1 else c[d] for i, d in enumerate(p["broadcast_dimensions"])]))
        if name == "transpose":
            c = self.coords(idx)
            perm = p["permutation"]
            inv = [None] * len(perm)
            for i, d in enumerate(perm):
                inv[d] = c[i]
            return self.value(x, Idx(x.aval.shape, coords=inv))
        if name == "slice":
            c = self.coords(idx)
            strides = p.get("strides") or [1] * len(c)
            return self.value(x, Idx(x.aval.shape, coords=[
                _affine(ci, st, s0) for ci, st, s0 in zip(c, strides, p["start_indices"])]))
        if name == "rev":
            c = list(self.coords(idx))
            for d in p["dimensions"]:
                c[d] = f"({x.aval.shape[d] - 1}u - {c[d]})"
            return self.value(x, Idx(x.aval.shape, coords=c))
        if name in RANDOM_OPS:
            return self._random(eqn, idx)
        if name == "iota":
            c = self.coords(idx)
            return cast(c[p["dimension"]], np.uint32, out_aval.dtype)
        if name == "pad":
            c = self.coords(idx)
            pv = self.value(eqn.invars[1], Idx(()))
            conds, src = [], []
            for ci, (lo, hi, interior), n in zip(c, p["padding_config"], x.aval.shape):
                step = interior + 1
                rel = f"({ci} - {lo}u)" if lo else ci
                conds.append(f"({ci} >= {lo}u) && ({rel} < {(n - 1) * step + 1 if n else 0}u)")
                if step > 1:
                    conds.append(f"({rel} % {step}u == 0u)")
                    rel = f"({rel} / {step}u)"
                src.append(f"min({rel}, {max(n - 1, 0)}u)")
            inside = self.let(" && ".join(conds) or "true", "m")
            return f"select({pv}, {self.value(x, Idx(x.aval.shape, coords=src))}, {inside})"
        if name in ("dynamic_slice", "dynamic_update_slice"):
            c = self.coords(idx)
            n_lead = 1 if name == "dynamic_slice" else 2
            sizes = p["slice_sizes"] if name == "dynamic_slice" else eqn.invars[1].aval.shape
            starts = []
            for sv, dim, size in zip(eqn.invars[n_lead:], x.aval.shape, sizes):
                s = self.value(sv, Idx(()))
                starts.append(self.let(f"u32(clamp(i32({s}), 0, {dim - size}))", "s"))  # XLA clamps starts
            if name == "dynamic_slice":
                return self.value(x, Idx(x.aval.shape, coords=[f"({ci} + {s})" for ci, s in zip(c, starts)]))
            upd = eqn.invars[1]
            inside = " && ".join(f"({ci} >= {s}) && ({ci} < {s} + {u}u)" for ci, s, u in zip(c, starts, sizes)) or "true"
            uc = [f"min({ci} - {s}, {max(u - 1, 0)}u)" for ci, s, u in zip(c, starts, sizes)]
            m = self.let(inside, "m")
            return f"select({self.value(x, idx)}, {self.value(upd, Idx(upd.aval.shape, coords=uc))}, {m})"
        if name == "concatenate":
            c = self.coords(idx)
            d = p["dimension"]
            expr, off = None, 0
            for opnd in eqn.invars:
                n = opnd.aval.shape[d]
                cc = list(c)
                cc[d] = f"min(({c[d]} - {off}u), {n - 1}u)" if off else f"min({c[d]}, {n - 1}u)"
                val = self.value(opnd, Idx(opnd.aval.shape, coords=cc))
                expr = val if expr is None else f"select({expr}, {val}, {c[d]} >= {off}u)"
                off += n
            return expr
        # elementwise: operands have the output's rank (or none); like lax's binary ops they may
        # have size-1 dimensions where the output has more, which broadcast (x[:, None] * y[None])
        args = []
        for a in eqn.invars:
            sh = a.aval.shape
            if not sh:
                args.append(self.value(a, Idx(())))
            elif sh == out_aval.shape:
                args.append(self.value(a, idx))
            else:
                c = self.coords(idx)
                args.append(self.value(a, Idx(sh, coords=["0u" if d == 1 else c[k] for k, d in enumerate(sh)])))
        expr = elementwise_expr(eqn.primitive, out_aval.dtype, [a.aval.dtype for a in eqn.invars], args, p)
        if expr is None:
            raise NotImplementedError(name)
        if "gp_erf_inv(" in expr:
            self.helpers.add("erf_inv")
        if "gp_f2i(" in expr or "gp_f2u(" in expr:
            self.helpers.add("f2int")
        return expr


def _random(self, eqn, idx):
    """Typed-key primitives (partitionable threefry): keys are vec2<u32> values."""
    name, p = eqn.primitive.name, eqn.params
    x = eqn.invars[0]
    c = self.coords(idx)
    if name == "random_wrap":
        w = [self.value(x, Idx(x.aval.shape, coords=[*c, j])) for j in ("0u", "1u")]
        return f"vec2<u32>({w[0]}, {w[1]})"
    if name == "random_unwrap":
        k = self.value(x, Idx(x.aval.shape, coords=c[:-1]))
        return f"select({k}.x, {k}.y, {c[-1]} == 1u)"
    if name == "random_seed":
        s = self.value(x, idx)
        return f"vec2<u32>(0u, bitcast<u32>({s}))"
    self.helpers.add("threefry")
    if name == "random_fold_in":
        k = self.value(x, idx)
        m = self.value(eqn.invars[1], idx)
        return f"gp_threefry({k}, vec2<u32>(0u, {m}))"
    nk = x.aval.ndim
    k = self.value(x, Idx(x.aval.shape, coords=c[:nk]))
    counter = self.linear(Idx(tuple(p["shape"]), coords=c[nk:]))
    h = self.let(f"gp_threefry({k}, vec2<u32>(0u, {counter}))", "h")
    return f"({h}.x ^ {h}.y)" if name == "random_bits" else h


Builder._random = _random


def _affine(c, stride, start):
    e = c if stride == 1 else f"{c} * {stride}u"
    return e if not start else f"({e} + {start}u)"


def _trivial(expr: str) -> bool:
    return expr.replace("_", "").isalnum() or expr.endswith("u") and expr[:-1].isdigit()


def store(dtype, buf: str, index: str, expr: str) -> str:
    if np.dtype(dtype) == np.bool_:
        expr = f"select(0u, 1u, {expr})"
    return f"{buf}[{index}] = {expr};"


def binding(i: int, name: str, dtype, write: bool, vec4=False) -> str:
    t = "u32" if np.dtype(dtype) == np.bool_ else wtype(dtype)
    if vec4:
        t = f"vec4<{t}>"
    mode = "read_write" if write else "read"
    return f"@group(0) @binding({i}) var<storage, {mode}> {name}: array<{t}>;"
