"""jaxpr -> a plan of GPU kernels (and host steps for what has no WGSL).

Planning: nested jit calls are inlined; every variable that must live in memory (jaxpr inputs
and outputs, results of reductions/matmuls/host steps, operands of matmuls/host steps) is
"materialized"; everything else is fused into the kernels that read it. Materialized fusable
values of the same shape are written by one multi-output kernel. A kernel that would need more
than 8 storage buffers (WebGPU's default limit) gets some operand materialized and is re-planned.
"""
from __future__ import annotations

import numpy as np

from ...base import dtypes
from ...tracing.jaxpr import ClosedJaxpr, Literal, Var
from ...tracing.rules import impl_rules
from . import kernels
from .fusion import INDEX_OPS, RANDOM_OPS, fusable
from .runtime import WGSL_TYPE, debug_level, log, runtime

MAX_BUFFERS = 8
REDUCTIONS = set(kernels.REDUCERS)


class Unsupported(Exception):
    """The jaxpr uses dtypes the GPU cannot hold (float64, int8, ...): run it on the CPU."""


def gpu_dtype_ok(dtype) -> bool:
    dt = np.dtype(dtype)
    if dt == np.float16:
        return runtime().f16
    return dt in WGSL_TYPE


# ---- steps -----------------------------------------------------------------------------------

class Kernel:
    def __init__(self, wgsl, ins, outs, groups, label, covered, temps=()):
        self.wgsl, self.ins, self.outs, self.groups, self.label = wgsl, ins, outs, groups, label
        self.covered = covered

    def run(self, rt, env):
        bufs = [env[v] for v in self.ins]
        for v in self.outs:
            env[v] = rt.alloc(_stored_bytes(v.aval))
        if all(v.aval.size for v in self.outs):
            rt.launch(self.wgsl, bufs + [env[v] for v in self.outs], self.groups, self.label)


class TwoPassReduce:
    def __init__(self, first: Kernel, second: Kernel, partial_var):
        self.first, self.second, self.partial = first, second, partial_var

    def run(self, rt, env):
        self.first.run(rt, env)
        self.second.run(rt, env)
        env.pop(self.partial, None)


class HostStep:
    """A primitive with no WGSL: read its inputs back, run the numpy impl, upload the results."""

    def __init__(self, eqn):
        self.eqn = eqn
        self.label = f"host:{eqn.primitive.name}"

    def run(self, rt, env):
        eqn = self.eqn
        if debug_level() >= 1:
            log(f"host step {eqn.primitive.name} (no WGSL kernel; data goes through the CPU)")
        vals = []
        for v in eqn.invars:
            if isinstance(v, Literal):
                vals.append(np.asarray(v.val, v.aval.dtype))
            else:
                vals.append(rt.read(env[v], v.aval.dtype, v.aval.shape))
        out = impl_rules[eqn.primitive](*vals, **eqn.params)
        outs = out if eqn.primitive.multiple_results else [out]
        for v, o in zip(eqn.outvars, outs):
            env[v] = rt.upload(np.asarray(o, v.aval.dtype))


class ControlStep:
    """cond / while driven from the host over compiled bodies: the predicate (a scalar) is read
    back each step, the chosen branch or the loop body runs as its own cached GPU plan."""

    def __init__(self, eqn):
        self.eqn = eqn
        p = eqn.params
        if eqn.primitive.name == "cond":
            self.branches = [Plan(b) for b in p["branches"]]
            self.label = "cond"
        else:
            self.cond, self.body = Plan(p["cond_jaxpr"]), Plan(p["body_jaxpr"])
            self.label = "while"

    def run(self, rt, env):
        eqn = self.eqn
        vals = [_operand(rt, env, v) for v in eqn.invars]
        if eqn.primitive.name == "cond":
            i = int(rt.read(vals[0], eqn.invars[0].aval.dtype, ()))
            outs = self.branches[min(max(i, 0), len(self.branches) - 1)].run(rt, vals[1:])
        else:
            nc, nb = eqn.params["cond_nconsts"], eqn.params["body_nconsts"]
            cc, bc, carry = vals[:nc], vals[nc:nc + nb], vals[nc + nb:]
            while bool(rt.read(self.cond.run(rt, [*cc, *carry])[0], np.bool_, ())):
                carry = self.body.run(rt, [*bc, *carry])
            outs = carry
        if debug_level() >= 1:
            log(f"{self.label} driven from the host")
        for v, b in zip(eqn.outvars, outs):
            env[v] = b


class ScanStep:
    """scan driven from the host: one compiled step per iteration, whose slicing of xs[i] fuses
    into the body's kernels (the index i is a one-word buffer). Each step's outputs y are
    copied into ys[i] in place; only y sizes that are not whole 4-byte words (float16) make the
    step rewrite all of ys through dynamic_update_slice instead."""

    def __init__(self, eqn):
        from ...primitives.call import closed_call
        from ...transforms.staging import eval_jaxpr
        from ...lax import lax
        self.eqn = eqn
        p = eqn.params
        body, nc, nk = p["jaxpr"], p["num_consts"], p["num_carry"]
        self.length, self.reverse, self.nc, self.nk = p["length"], p["reverse"], nc, nk
        in_avals = [v.aval for v in eqn.invars]
        self.y_avals = [v.aval for v in eqn.outvars[nk:]]
        self.y_bytes = [_stored_bytes(a) // max(self.length, 1) for a in self.y_avals]
        self.copy_ys = all(b % 4 == 0 for b in self.y_bytes)
        n_xs = len(in_avals) - nc - nk
        copy_ys = self.copy_ys

        def step(*args):
            consts, carry = args[:nc], args[nc:nc + nk]
            xs, ys, i = args[nc + nk:nc + nk + n_xs], args[nc + nk + n_xs:-1], args[-1]
            x_i = [lax.dynamic_index_in_dim(x, i, 0, keepdims=False) for x in xs]
            outs = eval_jaxpr(body.jaxpr, body.consts, *consts, *carry, *x_i)
            if copy_ys:
                return list(outs)
            new_ys = [lax.dynamic_update_index_in_dim(Y, y, i, 0) for Y, y in zip(ys, outs[nk:])]
            return list(outs[:nk]) + new_ys
        from ...base.avals import ShapedArray
        ys_avals = [] if copy_ys else self.y_avals
        cj, consts = closed_call(step, [*in_avals, *ys_avals, ShapedArray((), np.int32)], "scan_step")
        if consts:
            raise Unsupported("scan step with constants")
        self.plan = Plan(cj)
        self.label = "scan"

    def run(self, rt, env):
        eqn = self.eqn
        vals = [_operand(rt, env, v) for v in eqn.invars]
        consts, carry, xs = vals[:self.nc], vals[self.nc:self.nc + self.nk], vals[self.nc + self.nk:]
        if self.copy_ys:
            ys = [rt.alloc(_stored_bytes(a)) for a in self.y_avals]
        else:
            ys = [rt.upload(np.zeros(a.shape, a.dtype)) for a in self.y_avals]
        order = range(self.length - 1, -1, -1) if self.reverse else range(self.length)
        for i in order:
            i_buf = rt.upload(np.asarray(i, np.int32))
            if self.copy_ys:
                outs = self.plan.run(rt, [*consts, *carry, *xs, i_buf])
                carry = outs[:self.nk]
                for Y, y, nbytes in zip(ys, outs[self.nk:], self.y_bytes):
                    if nbytes:
                        rt.copy(y, Y, i * nbytes, nbytes)
            else:
                outs = self.plan.run(rt, [*consts, *carry, *xs, *ys, i_buf])
                carry, ys = outs[:self.nk], outs[self.nk:]
        if debug_level() >= 1:
            log(f"scan of length {self.length} driven from the host")
        for v, b in zip(eqn.outvars, [*carry, *ys]):
            env[v] = b


def _stored_bytes(aval) -> int:
    """Bytes an array of this aval takes in a GPU buffer (bool is stored as u32)."""
    return aval.size * (4 if aval.dtype == np.bool_ else np.dtype(aval.dtype).itemsize)


def _operand(rt, env, v):
    if isinstance(v, Literal):
        return rt.upload(np.asarray(v.val, v.aval.dtype))
    return env[v]


# Threads of the first pass of a two-pass reduction (and of a split-K dot). Measured in
# Chromium/SwiftShader, 1M floats, calls interleaved in one page: a dot 5.5-5.9 ms per call with
# 256-512 threads, 6.4-6.9 ms with 1024-2048; a sum the same within the noise. A software adapter
# has a few CPU threads: more invocations only add scheduling; a GPU still gets 2 workgroups.
PARTIAL_THREADS = 512


def matmul_variant(B, M, K, N, dtype) -> str:
    """Which matmul kernel suits the shape (measured on SwiftShader and lavapipe):
    'splitk' for few outputs and a long K (vector dots), 'matvec' (rows per thread) for a
    matrix with many rows @ a vector, 'block' (8 x 8 outputs per thread) for
    big products, 'rows' for one to three rows (vector @ matrix), 'vec4x4' blocks otherwise; when N is not a multiple of 4, 'narrow' (thread per
    output, linear) or 'scalar' (16x16 workgroups, other dtypes)."""
    four_bytes = np.dtype(dtype) in (np.float32, np.int32, np.uint32)
    if four_bytes and B * M * N <= 256 and K >= 2048:
        return "splitk"
    if four_bytes and N == 1 and K % 4 == 0 and B * M >= MATVEC_FROM:
        return "matvec"
    if N % 4:
        return "narrow" if four_bytes else "scalar"
    if four_bytes and block_fits(M, K, N):
        return "block"
    return "rows" if four_bytes and M < 4 else "vec4x4"


MATVEC_FROM = 512  # rows, from which `matvec` (kernels.MATVEC_ROWS a thread) leaves >= 128 threads

BLOCK = dict(rows=8, cols4=2, wg=(8, 8))  # measured in Chromium/SwiftShader: tests/bench_webgpu_kernels.py
# 8 x 16 outputs a thread where N allows: 1024^2 in Chromium/SwiftShader, raw dispatches
# interleaved (load 15-18): 905 / 732 ms a product against 8 x 8's 1211 / 1447
BLOCK_WIDE_COLS4 = 4


def block_fits(M, K, N) -> bool:
    """Big products whose shape the `block` kernel tiles exactly (K by 4, N by its 4 * cols4
    columns) and that still leave work for hundreds of threads (M * N >= 128^2)."""
    return (K % 4 == 0 and N % (4 * BLOCK["cols4"]) == 0 and M >= BLOCK["rows"]
            and M * N >= 128 * 128)


def block_params(N) -> dict:
    """The `block` kernel's shape for N: 16 columns a thread when N is a multiple of 16."""
    return {**BLOCK, "cols4": BLOCK_WIDE_COLS4} if N % (4 * BLOCK_WIDE_COLS4) == 0 else BLOCK


class PartialVar:
    """A scratch variable (reduction partials)."""

    def __init__(self, shape, dtype):
        from ...base.avals import ShapedArray
        self.aval = ShapedArray(tuple(shape), np.dtype(dtype))


# ---- planning --------------------------------------------------------------------------------

def inline_calls(jaxpr):
    """(equations, outvars, {var: value} of the arrays inner bodies close over)."""
    from ..cpu import _inline_calls
    eqns, alias, inner_consts, producer = [], {}, {}, {}

    def res(v):
        while isinstance(v, Var) and v in alias:
            v = alias[v]
        return v
    from ...tracing.jaxpr import JaxprEqn
    for it in _inline_calls(jaxpr):
        if isinstance(it, tuple) and it[0] == "const":
            inner_consts[it[1]] = it[2]
        elif isinstance(it, tuple):
            alias[it[1]] = res(it[2])
        else:
            eqn = JaxprEqn(it.primitive, [res(v) for v in it.invars], it.outvars, it.params)
            eqns.append(_xla_rewrite(eqn, producer))
            producer.update((o, eqns[-1]) for o in eqn.outvars)
    return eqns, [res(v) for v in jaxpr.outvars], inner_consts


def _xla_rewrite(eqn, producer):
    """XLA's value-changing rewrites under jit (log(exp(a)) is a, as JAX's FAQ shows; see
    cpu_algebra): an equation that becomes a variable is a copy of it, so that the equations
    still correspond one to one with the jaxpr's (planning.py counts on that)."""
    from ...primitives.elementwise import copy_p
    from ...tracing.jaxpr import JaxprEqn
    from ..cpu_algebra import rewrite
    got = rewrite(eqn, producer)
    if got is None:
        return eqn
    if isinstance(got, Var):
        return JaxprEqn(copy_p, [got], eqn.outvars, {})
    return got


def _kind(eqn):
    name = eqn.primitive.name
    if not all(gpu_dtype_ok(v.aval.dtype) for v in [*eqn.invars, *eqn.outvars]):
        return "host"
    if fusable(eqn):
        return "fuse"
    if name in REDUCTIONS and eqn.outvars[0].aval.dtype == eqn.invars[0].aval.dtype:
        return "reduce"
    if name == "dot_general" and _dot_ok(eqn):
        return "dot"
    if name == "cond" or name == "while" and eqn.params["cond_jaxpr"].out_avals[0].shape == ():
        return "control"
    if name == "scan" and eqn.params["length"] > 0:
        return "scan"
    return "host"


def _dot_ok(eqn):
    x, y = eqn.invars
    out = eqn.outvars[0].aval.dtype
    return x.aval.dtype == y.aval.dtype == out and np.dtype(out).kind in "fiu" and isinstance(x, Var) \
        and isinstance(y, Var)


class Plan:
    def __init__(self, cj: ClosedJaxpr):
        jaxpr = cj.jaxpr
        self.invars = list(jaxpr.invars)
        eqns, self.outvars, inner_consts = inline_calls(jaxpr)
        # the top level's consts and those of inlined bodies are uploaded once, on first run
        self.constvars = [*jaxpr.constvars, *inner_consts]
        self.consts = [np.asarray(getattr(c, "_value", c)) for c in [*cj.consts, *inner_consts.values()]]
        self._const_bufs = None
        self.out_avals = [v.aval for v in jaxpr.outvars]
        for v in [*self.constvars, *self.invars, *self.outvars]:
            if not gpu_dtype_ok(v.aval.dtype):
                raise Unsupported(dtypes.dtype_name(v.aval.dtype))  # [dtypes] (the emulated bfloat16: 'bfloat16')
        if dtypes.EMULATED_BF16 and any(v.aval.dtype == dtypes.bf16 for e in eqns for v in (*e.invars, *e.outvars)):
            # [dtypes] the emulated bfloat16 rounds in the CPU path's eager steps; host steps here would not
            raise Unsupported("bfloat16")
        self.eqns = eqns
        forced: set = set()
        for _ in range(64):
            try:
                self.steps = self._plan(eqns, forced)
                break
            except _TooManyBuffers as e:
                forced.add(e.var)
        else:
            raise Unsupported("could not fit kernels into 8 storage buffers")

    def _plan(self, eqns, forced):
        kinds = {id(e): _kind(e) for e in eqns}
        producers = {e.outvars[0]: e for e in eqns if kinds[id(e)] == "fuse"}
        mat = set(self.invars) | set(self.constvars) | {v for v in self.outvars if isinstance(v, Var)} | set(forced)
        for e in eqns:
            k = kinds[id(e)]
            if k in ("host", "dot", "control", "scan"):
                mat.update(v for v in e.invars if isinstance(v, Var))
            if k != "fuse":
                mat.update(e.outvars)
        epilogues = self._epilogues(eqns, kinds, mat)
        for v, _ in epilogues.values():
            mat.add(v)
        done_by_reduce = {v for v, _ in epilogues.values()}
        steps, pending = [], {}

        def flush():
            # one kernel per shape group, each after the groups whose values it reads (a group
            # can read another's materialized value: x[:, None] feeding a [n, n] product)
            groups = list(pending.values())
            pending.clear()
            owner = {v: id(g) for g in groups for v in g}
            done: set = set()
            while groups:
                for g in groups:
                    if all(owner.get(s) in (None, id(g)) or s in done for s in self._sources(producers, mat, g)):
                        break
                else:  # groups that read each other: split the first into one kernel per value
                    first = groups.pop(0)
                    singles = [[v] for v in first]
                    owner.update({v: id(one) for one in singles for v in one})
                    groups[0:0] = singles
                    continue
                groups.remove(g)
                steps.extend(self._elementwise(producers, mat, g))
                done.update(g)

        for e in eqns:
            k = kinds[id(e)]
            if k == "fuse":
                v = e.outvars[0]
                if v in mat and v not in done_by_reduce:
                    pending.setdefault(v.aval.shape, []).append(v)
                continue
            flush()
            if k == "reduce":
                steps.append(self._reduce(producers, mat, e, epilogues.get(id(e))))
            elif k == "dot":
                steps.extend(self._dot(producers, mat, e))
            elif k in ("control", "scan"):
                try:
                    steps.append(ControlStep(e) if k == "control" else ScanStep(e))
                except Unsupported:
                    steps.append(HostStep(e))
            else:
                steps.append(HostStep(e))
        flush()
        return steps

    def _epilogues(self, eqns, kinds, mat):
        """For each reduction, the chain of single-use elementwise ops that consume its result
        (same shape, other operands computed earlier): the reduction kernel applies them to its
        accumulator and stores the chain's last value instead."""
        uses, pos = {}, {}
        for i, e in enumerate(eqns):
            for v in e.invars:
                if isinstance(v, Var):
                    uses.setdefault(v, []).append(e)
            for v in e.outvars:
                pos[v] = i
        outset = {v for v in self.outvars if isinstance(v, Var)}
        found = {}
        for i, e in enumerate(eqns):
            if kinds[id(e)] != "reduce":
                continue
            r = cur = e.outvars[0]
            chain = []
            while cur not in outset and (cur is r or cur not in mat):
                cons = uses.get(cur, [])
                if len(cons) != 1:
                    break
                f = cons[0]
                if kinds[id(f)] != "fuse" or f.primitive.name in INDEX_OPS or f.primitive.name in RANDOM_OPS \
                        or f.outvars[0].aval.shape != r.aval.shape:
                    break
                if any(isinstance(a, Var) and a is not cur and pos.get(a, -1) >= i for a in f.invars):
                    break  # an operand computed after the reduction
                chain.append(f)
                cur = f.outvars[0]
            if chain:
                found[id(e)] = (cur, chain)
        return found

    def _sources(self, producers, mat, roots):
        """Materialized variables the fused cones of `roots` read."""
        seen, srcs, stack = set(), [], list(roots)
        while stack:
            v = stack.pop()
            if not isinstance(v, Var) or v in seen:
                continue
            seen.add(v)
            if v in mat and v not in roots or v not in producers:
                srcs.append(v)
                continue
            stack.extend(producers[v].invars)
        return [v for v in dict.fromkeys(srcs)]

    def _check(self, producers, mat, roots, n_out):
        srcs = self._sources(producers, mat, roots)
        if len(srcs) + n_out > MAX_BUFFERS:
            raise _TooManyBuffers(self._heaviest(producers, mat, roots))
        return srcs

    def _heaviest(self, producers, mat, roots):
        best, best_n = None, -1
        for v in roots:
            if v not in producers:
                continue
            for a in producers[v].invars:
                if isinstance(a, Var) and a in producers and a not in mat:
                    n = len(self._sources(producers, mat, [a]))
                    if n > best_n:
                        best, best_n = a, n
        if best is None:
            raise Unsupported("a single operation reads more than 8 buffers")
        return best

    def _elementwise(self, producers, mat, outs):
        # split outputs into kernels that fit the buffer limit
        groups, cur = [], []
        for v in outs:
            if cur and len(self._sources(producers, mat, cur + [v])) + len(cur) + 1 > MAX_BUFFERS:
                groups.append(cur)
                cur = []
            cur.append(v)
        groups.append(cur)
        steps = []
        for g in groups:
            srcs = self._check(producers, mat, g, len(g))
            # the roots are computed, not read: drop them from the producers' "buffers"
            wgsl, grid, covered = kernels.elementwise_kernel(_without(producers, mat, g), srcs, g)
            label = "fused[" + ",".join(e.primitive.name for e in covered) + "]"
            steps.append(Kernel(wgsl, srcs, g, grid, label, covered))
        return steps

    def _reduce(self, producers, mat, e, epi=None):
        x = e.invars[0]
        axes = tuple(e.params["axes"])
        out = e.outvars[0]
        name = e.primitive.name
        roots = [x] if isinstance(x, Var) else []
        srcs = self._check(producers, mat, roots, 1) if x not in mat else [x]
        prods = _without(producers, mat, [])
        epilogue, final_ins, result = None, [], out
        if epi is not None:
            v, chain = epi
            epi_prods = _without(producers, mat, [v])
            epi_srcs = [s for s in self._sources(epi_prods, mat, [v]) if s is not out]
            if len(set(srcs) | set(epi_srcs)) + 1 <= MAX_BUFFERS:
                epilogue, final_ins, result = (v, epi_prods, out), epi_srcs, v
            else:  # no room: store the reduction, the chain becomes its own kernel
                raise _TooManyBuffers(v) if v not in self.outvars else Unsupported("epilogue too wide")
        O, R = kernels.reduction_plan(x.aval.shape, axes)
        if R >= 2048 and O <= 256:
            # two passes: P strided partials per output, then one thread per output over them
            # PARTIAL_THREADS threads in all, each over >= 256 elements
            n = min(PARTIAL_THREADS // O if O else 1, -(-R // 256))
            partial = PartialVar((O, n), out.aval.dtype)
            if kernels.vec4_reducible(x, prods, axes, out.aval.dtype):
                wgsl, grid, covered = kernels.reduce_partials_vec4_kernel(name, srcs, x, out.aval.dtype, axes, n)
            else:
                wgsl, grid, covered = kernels.reduce_partials_kernel(name, prods, srcs, x, out.aval.dtype, axes, n)
            first = Kernel(wgsl, srcs, [partial], grid, f"{name}.partials[{n}]", [*covered, e])
            ins2 = [partial, *final_ins]
            wgsl2, grid2, _ = kernels.reduce_kernel(name, {}, ins2, partial, out, (1,), epilogue)
            second = Kernel(wgsl2, ins2, [result], grid2, f"{name}.final" + _epi_label(epi, epilogue),
                            [e, *(epi[1] if epilogue else [])])
            return TwoPassReduce(first, second, partial)
        ins = list(dict.fromkeys([*srcs, *final_ins]))
        wgsl, grid, covered = kernels.reduce_kernel(name, prods, ins, x, out, axes, epilogue)
        return Kernel(wgsl, ins, [result], grid, f"{name}[" + ",".join(c.primitive.name for c in covered) + "]"
                      + _epi_label(epi, epilogue), [*covered, e, *(epi[1] if epilogue else [])])

    def _dot(self, producers, mat, e):
        from ...tracing.jaxpr import JaxprEqn  # noqa: F401
        x, y = e.invars
        (lc, rc), (lb, rb) = e.params["dimension_numbers"]
        lf = [d for d in range(x.aval.ndim) if d not in lc and d not in lb]
        rf = [d for d in range(y.aval.ndim) if d not in rc and d not in rb]
        sx, sy = x.aval.shape, y.aval.shape
        B = int(np.prod([sx[d] for d in lb], dtype=np.int64))
        M = int(np.prod([sx[d] for d in lf], dtype=np.int64))
        K = int(np.prod([sx[d] for d in lc], dtype=np.int64))
        N = int(np.prod([sy[d] for d in rf], dtype=np.int64))
        steps = []
        a = self._layout(steps, x, [*lb, *lf, *lc])
        b = self._layout(steps, y, [*rb, *rc, *rf])
        dt = e.outvars[0].aval.dtype
        name = f"dot_general[{B}x{M}x{K}x{N}"
        variant = matmul_variant(B, M, K, N, dt)
        if variant == "splitk":
            # few outputs, long K: P partial sums per output, then a reduction over them
            O = B * M * N
            n = min(PARTIAL_THREADS // O, -(-K // 256))
            partial = PartialVar((O, n), dt)
            wgsl, grid = kernels.matmul_splitk_kernel(B, M, K, N, dt, n)
            steps.append(Kernel(wgsl, [a, b], [partial], grid, f"{name},splitk[{n}]]", [e]))
            wgsl2, grid2, _ = kernels.reduce_kernel("reduce_sum", {}, [partial], partial, e.outvars[0], (1,))
            steps.append(Kernel(wgsl2, [partial], [e.outvars[0]], grid2, f"{name},splitk.final]", [e]))
            return steps
        if variant == "rows":
            wgsl, grid = kernels.matmul_rows_kernel(B, M, K, N, dt)
        elif variant == "block":
            wgsl, grid = kernels.matmul_block_kernel(B, M, K, N, dt, **block_params(N))
        elif variant == "matvec":
            wgsl, grid = kernels.matvec_rows_kernel(B, M, K, dt, kernels.MATVEC_ROWS)
        elif variant == "narrow":
            wgsl, grid = kernels.matmul_narrow_kernel(B, M, K, N, dt)
        else:
            wgsl, grid = kernels.matmul_kernel(B, M, K, N, dt)
        steps.append(Kernel(wgsl, [a, b], [e.outvars[0]], grid, f"{name},{variant}]", [e]))
        return steps

    def _layout(self, steps, v, perm):
        """`v` transposed by `perm` into a contiguous buffer (v itself when already in order)."""
        if list(perm) == sorted(perm):
            return v
        from ...base.avals import ShapedArray
        from ...tracing.jaxpr import JaxprEqn
        from ...primitives.structural import transpose_p
        t = Var(ShapedArray(tuple(v.aval.shape[d] for d in perm), v.aval.dtype))
        eqn = JaxprEqn(transpose_p, [v], [t], {"permutation": tuple(perm)})
        wgsl, grid, covered = kernels.elementwise_kernel({t: eqn}, [v], [t])
        steps.append(Kernel(wgsl, [v], [t], grid, "layout[transpose]", covered))
        return t

    # ---- running --------------------------------------------------------------------------
    def run(self, rt, args):
        env = dict(zip(self.invars, args))
        if self.constvars:
            if self._const_bufs is None:
                self._const_bufs = [rt.upload(c) for c in self.consts]
            env.update(zip(self.constvars, self._const_bufs))
        for s in self.steps:
            s.run(rt, env)
        outs = []
        for v in self.outvars:
            if isinstance(v, Literal):
                outs.append(rt.upload(np.asarray(np.broadcast_to(v.val, v.aval.shape), v.aval.dtype)))
            else:
                outs.append(env[v])
        rt.flush()
        return outs

    def describe(self) -> str:
        """The kernels with their WGSL and the equations each covers (GRADPAD_DEBUG=2)."""
        from ...base import pretty
        from ...tracing.jaxpr import PrintContext, pp_eqn
        ctx = PrintContext()
        for v in self.invars:
            ctx.name(v)

        def pp_eqn_text(e):
            return pretty._format(pp_eqn(e, ctx), 200)
        parts = []
        for s in self.steps:
            for k in ([s.first, s.second] if isinstance(s, TwoPassReduce) else [s]):
                if isinstance(k, (HostStep, ControlStep, ScanStep)):
                    parts.append(f"// {k.label}\n")
                    continue
                covered = "\n".join(f"//   {pp_eqn_text(e)}" for e in k.covered)
                parts.append(f"// kernel {k.label} covers:\n{covered}\n{k.wgsl}")
        return "\n".join(parts)


def _epi_label(epi, epilogue):
    return "+epilogue[" + ",".join(f.primitive.name for f in epi[1]) + "]" if epilogue else ""


class _TooManyBuffers(Exception):
    def __init__(self, var):
        self.var = var


def _without(producers, mat, roots):
    """Producers for fusion: materialized values are read from memory, except the roots."""
    return {v: e for v, e in producers.items() if v not in mat or v in roots}
