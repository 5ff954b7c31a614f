"""WGSL kernel generators: fused elementwise maps, reductions (with a fused prologue) and the
register-blocked matmul. Each returns WGSL source plus its dispatch size; sizes are baked in
as constants (pipelines are cached by source)."""
from __future__ import annotations

import numpy as np

from .fusion import Builder, Idx, binding, store
from .wgsl import literal, wtype

WG = 256  # WebGPU's default maxComputeInvocationsPerWorkgroup


def groups_for(n_groups: int):
    if n_groups <= 65535:
        return (max(n_groups, 1), 1, 1)
    return (65535, -(-n_groups // 65535), 1)


def _helpers(*builders) -> str:
    from .wgsl import ERF_INV_WGSL, F2I_WGSL, threefry_wgsl
    names = set().union(*(b.helpers for b in builders))
    return ((threefry_wgsl() if "threefry" in names else "") + (ERF_INV_WGSL if "erf_inv" in names else "")
            + (F2I_WGSL if "f2int" in names else ""))


def _header(dtypes) -> str:
    f16 = "enable f16;\n" if any(np.dtype(d) == np.float16 for d in dtypes) else ""
    return f16 + "var<private> gp_zero: u32 = 0u;  // makes inf/NaN literals runtime values\n"


def linear_entry(index: str, n_threads: int, wg_max: int = WG):
    """The entry point of a kernel run by invocations 0 <= `index` < n_threads, and its dispatch
    size. The grid is known here, so a 2-D grid's row length is a constant: reading it from
    `@builtin(num_workgroups)` makes Dawn bind an extra uniform buffer for every dispatch
    (measured in Chromium/SwiftShader: ~2 ms more per call of a tiny kernel). Fewer threads than
    WG get a workgroup of their size (a power of two): software adapters run every invocation of
    a workgroup, even those that return at once (measured: a 1-thread reduction ~0.6 ms faster
    per call in a workgroup of 1 than of 256). `wg_max` caps the workgroup: software adapters
    give each workgroup to one CPU thread, so a few hundred threads want several workgroups."""
    wg = min(wg_max, 1 << max(n_threads - 1, 0).bit_length())
    groups = groups_for(-(-n_threads // wg))
    row = "" if groups[1] == 1 else f" + gid.y * {groups[0] * wg}u"
    return (f"@compute @workgroup_size({wg})\nfn main(@builtin(global_invocation_id) gid: vec3<u32>) {{\n"
            f"  let {index} = gid.x{row};\n  if ({index} >= {n_threads}u) {{ return; }}\n"), groups


VEC4_DTYPES = {np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.uint32), np.dtype(np.bool_)}


def elementwise_kernel(producers, in_vars, out_vars):
    """Every output has the same shape. Four elements per thread through vec4 loads and stores
    when all reads are aligned with the output (2x faster on SwiftShader and lavapipe than one
    scalar element per thread); otherwise one thread per element."""
    shape = out_vars[0].aval.shape
    n = int(np.prod(shape, dtype=np.int64))
    if n >= 4 and n % 4 == 0 and all(np.dtype(v.aval.dtype) in VEC4_DTYPES for v in [*in_vars, *out_vars]):
        got = _elementwise_vec4(producers, in_vars, out_vars, n)
        if got is not None:
            return got
    names = {v: f"in{k}" for k, v in enumerate(in_vars)}
    b = Builder(producers, names, {})
    idx = Idx(shape, linear="i")
    stores = []
    for j, v in enumerate(out_vars):
        stores.append(store(v.aval.dtype, f"out{j}", "i", b.value(v, idx)))
    decl = [binding(k, names[v], v.aval.dtype, False) for k, v in enumerate(in_vars)]
    decl += [binding(len(in_vars) + j, f"out{j}", v.aval.dtype, True) for j, v in enumerate(out_vars)]
    entry, groups = linear_entry("i", n)
    src = (_header([v.aval.dtype for v in [*in_vars, *out_vars]]) + "\n".join(decl) + "\n" + _helpers(b) + "\n"
           + entry + "".join(f"  {ln}\n" for ln in b.lines + stores) + "}\n")
    return src, groups, b.covered


def _elementwise_vec4(producers, in_vars, out_vars, n):
    names = {v: f"in{k}" for k, v in enumerate(in_vars)}
    shape = out_vars[0].aval.shape
    b = Builder(producers, names, {})
    comps = "xyzw"
    b.vec4 = {f"j{k}": comps[k] for k in range(4)}
    vals = [[b.value(v, Idx(shape, linear=f"j{k}")) for k in range(4)] for v in out_vars]
    if b.vec4_strided:
        return None
    stores = []
    for j, (v, val) in enumerate(zip(out_vars, vals)):
        if np.dtype(v.aval.dtype) == np.bool_:
            stores.append(f"out{j}[i] = vec4<u32>({', '.join(f'select(0u, 1u, {x})' for x in val)});")
        else:
            stores.append(f"out{j}[i] = vec4<{wtype(v.aval.dtype)}>({', '.join(val)});")
    loads = [f"let v_{buf} = {buf}[i];" for buf in b.vec4_loads]
    decl = [binding(k, names[v], v.aval.dtype, False, vec4=True) for k, v in enumerate(in_vars)]
    decl += [binding(len(in_vars) + j, f"out{j}", v.aval.dtype, True, vec4=True) for j, v in enumerate(out_vars)]
    m = n // 4
    entry, groups = linear_entry("i", m)
    src = (_header([v.aval.dtype for v in [*in_vars, *out_vars]]) + "\n".join(decl) + "\n" + _helpers(b) + "\n"
           + entry + "  let j0 = i * 4u;\n  let j1 = j0 + 1u;\n  let j2 = j0 + 2u;\n  let j3 = j0 + 3u;\n"
           + "".join(f"  {ln}\n" for ln in loads + b.lines + stores) + "}\n")
    return src, groups, b.covered


REDUCERS = {
    "reduce_sum": ("{a} + {x}", lambda dt: 0),
    "reduce_prod": ("{a} * {x}", lambda dt: 1),
    "reduce_max": ("max({a}, {x})", lambda dt: -np.inf if dt.kind == "f" else np.iinfo(dt).min),
    "reduce_min": ("min({a}, {x})", lambda dt: np.inf if dt.kind == "f" else np.iinfo(dt).max),
    "reduce_and": ("({a} && {x})", lambda dt: True),
    "reduce_or": ("({a} || {x})", lambda dt: False),
}


def combine(op, dtype, a, x, vec4=False) -> str:
    """WGSL folding `x` into the accumulator `a`. Float max/min propagate NaN, as XLA does (WGSL's
    max/min may return the other operand); NaN is read from the bits, which compilers cannot
    fold away."""
    expr = REDUCERS[op][0].format(a=a, x=x)
    if op in ("reduce_max", "reduce_min") and np.dtype(dtype) == np.float32:
        u = "vec4<u32>" if vec4 else "u32"
        mask, inf = (f"vec4<u32>({c})" if vec4 else c for c in ("0x7fffffffu", "0x7f800000u"))
        nan = f"(((bitcast<{u}>({a}) & {mask}) > {inf}) | ((bitcast<{u}>({x}) & {mask}) > {inf}))"
        return f"select({expr}, {a} + {x}, {nan})"
    return expr


def _acc_init(op, dtype, body, val, first, n):
    """Declare `acc`. max/min start from the first element rather than an infinity: WGSL treats
    infinities in constant expressions as errors, and some compilers (Tint) mis-fold them."""
    if op in ("reduce_max", "reduce_min") and n > 0:
        t = "bool" if np.dtype(dtype) == np.bool_ else wtype(dtype)
        return f"  var acc: {t};\n  {{\n    let r = {first};\n{body}    acc = {val};\n  }}\n"
    return f"  var acc = {literal(REDUCERS[op][1](np.dtype(dtype)), dtype)};\n"


def reduction_plan(x_shape, axes):
    kept = [d for i, d in enumerate(x_shape) if i not in axes]
    red = [x_shape[i] for i in axes]
    return int(np.prod(kept, dtype=np.int64)), int(np.prod(red, dtype=np.int64))


def _reduced_idx(b_outer, b_inner, x_shape, axes, out_linear, r_linear):
    """Coordinates of x for output element `out_linear` and reduction step `r_linear`."""
    kept_shape = tuple(d for i, d in enumerate(x_shape) if i not in axes)
    red_shape = tuple(x_shape[i] for i in axes)
    kc = iter(b_outer.coords(Idx(kept_shape, linear=out_linear)))
    rc = b_inner.coords(Idx(red_shape, linear=r_linear))
    pos = {a: k for k, a in enumerate(axes)}
    return Idx(x_shape, coords=[rc[pos[i]] if i in pos else next(kc) for i in range(len(x_shape))])


UNROLL = 8  # loads in flight per loop trip: SwiftShader runs a rolled strided loop ~2x slower


def _reduce_loop(op, producers, names, x, axes, outer, start, step, R):
    """WGSL declaring `acc` and combining x's elements start, start + step, ... (< R) of output
    `o` into it: an unrolled main loop (UNROLL index streams), then a rolled tail.
    Returns (code, builders)."""
    def value_at(r_name, n0):
        b = Builder(producers, names, {})
        b.n = n0
        val = b.value(x, _reduced_idx(outer, b, x.aval.shape, axes, "o", r_name))
        return b, val
    dt = x.aval.dtype
    first, val = value_at("r", 1000)
    body = "".join(f"    {ln}\n" for ln in first.lines)
    code = _acc_init(op, dt, body, val, start, R)
    builders = [first]
    # a long prologue (say a threefry cone) is copied UNROLL times: keep compile times sane
    unroll = UNROLL if len(first.lines) <= 24 else 2
    if R >= 2 * unroll * step:
        span = unroll * step
        lines = []
        for u in range(unroll):
            bu, vu = value_at(f"r{u}", 10000 * (u + 1))
            builders.append(bu)
            lines.append(f"let r{u} = r + {u * step}u;")
            lines += bu.lines
            lines.append(f"acc = {combine(op, dt, 'acc', vu)};")
        # every thread's main loop covers the first (R // span) * span elements, then the tail
        main_end = R // span * span
        code += (f"  var r = {start};\n  for (; r < {main_end}u; r = r + {span}u) {{\n"
                 + "".join(f"    {ln}\n" for ln in lines) + "  }\n")
        start = "r"
    else:
        code += f"  var r = {start};\n"
    code += (f"  for (; r < {R}u; r = r + {step}u) {{\n{body}"
             f"    acc = {combine(op, dt, 'acc', val)};\n  }}\n")
    return code, builders


def reduce_kernel(op, producers, in_vars, x, out_var, axes, epilogue=None):
    """Thread-per-output loop over the reduced elements, with the elementwise prologue (x's
    cone) and epilogue fused: `epilogue = (v, producers, r)` stores v, computed from acc (= r)."""
    names = {v: f"in{k}" for k, v in enumerate(in_vars)}
    O, R = reduction_plan(x.aval.shape, axes)
    dt = out_var.aval.dtype
    outer = Builder(producers, names, {})
    loop, inner = _reduce_loop(op, producers, names, x, axes, outer, "0u", 1, R)
    decl = [binding(k, names[v], v.aval.dtype, False) for k, v in enumerate(in_vars)]
    decl.append(binding(len(in_vars), "out0", epilogue[0].aval.dtype if epilogue else dt, True))
    # every buffer's dtype counts: a float16 input summed in float32 still needs `enable f16`
    buffers = [dt, *(v.aval.dtype for v in in_vars)] + ([epilogue[0].aval.dtype] if epilogue else [])
    entry, groups = linear_entry("o", O)
    src = (_header(buffers) + "\n".join(decl) + "\n" + _helpers(outer, *inner) + "\n" + entry
           + "".join(f"  {ln}\n" for ln in outer.lines)
           + loop + _epilogue(epilogue, names, dt) + "}\n")
    return src, groups, _covered(inner)


def _covered(builders):
    return list(dict.fromkeys(e for b in builders for e in b.covered))


def _epilogue(epilogue, names, dt) -> str:
    if epilogue is None:
        return f"  {store(dt, 'out0', 'o', 'acc')}\n"
    v, producers, r = epilogue
    b = Builder(producers, names, {})
    b.inline = {r: "acc"}
    b.n = 2000
    expr = b.value(v, Idx(r.aval.shape, linear="o"))
    return "".join(f"  {ln}\n" for ln in b.lines) + f"  {store(v.aval.dtype, 'out0', 'o', expr)}\n"


def reduce_partials_kernel(op, producers, in_vars, x, out_dtype, axes, n_parts):
    """First pass of a long reduction: thread (o, p) combines elements p, p + P, p + 2P, ... of
    output o (adjacent threads read adjacent memory) into partial[o * P + p]; a second pass
    reduces the P partials. No shared memory or barriers: on software adapters (SwiftShader,
    lavapipe) a barrier costs more than the loads it saves (measured: a 256-wide shared-memory
    tree per workgroup was slower than strided registers at every workgroup count tried)."""
    names = {v: f"in{k}" for k, v in enumerate(in_vars)}
    O, R = reduction_plan(x.aval.shape, axes)
    P = n_parts
    dt = np.dtype(out_dtype)
    outer = Builder(producers, names, {})
    loop, inner = _reduce_loop(op, producers, names, x, axes, outer, "p", P, R)
    decl = [binding(k, names[v], v.aval.dtype, False) for k, v in enumerate(in_vars)]
    decl.append(binding(len(in_vars), "out0", dt, True))
    entry, groups = linear_entry("w", O * P)
    src = (_header([dt, *(v.aval.dtype for v in in_vars)]) + "\n".join(decl) + "\n" + _helpers(outer, *inner) + "\n" + entry
           + f"  let o = w / {P}u;\n  let p = w % {P}u;\n"
           + "".join(f"  {ln}\n" for ln in outer.lines)
           + loop + f"  {store(dt, 'out0', 'w', 'acc')}\n}}\n")
    return src, groups, _covered(inner)


def vec4_reducible(x, producers, axes, dtype) -> bool:
    """Whether the first pass can read x as vec4s: x comes straight from a buffer (no fused
    prologue), the reduced axes are its trailing ones and their size is a multiple of 4."""
    nd = x.aval.ndim
    O, R = reduction_plan(x.aval.shape, axes)
    return (x not in producers and tuple(sorted(axes)) == tuple(range(nd - len(axes), nd)) and R % 4 == 0
            and np.dtype(x.aval.dtype) == np.dtype(dtype) and np.dtype(dtype) in (np.float32, np.int32, np.uint32))


def reduce_partials_vec4_kernel(op, in_vars, x, out_dtype, axes, n_parts):
    """`reduce_partials_kernel` for a plain buffer: thread (o, p) combines the vec4s p, p + P, ...
    of row o, UNROLL loads per loop trip, then folds its four lanes. Measured on SwiftShader:
    ~20% faster than the scalar loop, which needs four times the trips."""
    O, R = reduction_plan(x.aval.shape, axes)
    P, R4 = n_parts, R // 4
    dt = np.dtype(out_dtype)
    t = wtype(dt)
    name = f"in{in_vars.index(x)}"
    decl = [binding(k, f"in{k}", v.aval.dtype, False, vec4=v is x) for k, v in enumerate(in_vars)]
    decl.append(binding(len(in_vars), "out0", dt, True))
    def comb(a, x, vec4=True):
        return combine(op, dt, a, x, vec4)
    init = (f"{name}[base + p]" if op in ("reduce_max", "reduce_min")
            else f"vec4<{t}>({literal(REDUCERS[op][1](dt), dt)})")
    span = UNROLL * P
    main = "".join(f"    acc = {comb('acc', f'{name}[base + r + {u * P}u]')};\n" for u in range(UNROLL))
    lanes = comb(comb(comb("acc.x", "acc.y", False), "acc.z", False), "acc.w", False)
    entry, groups = linear_entry("w", O * P)
    src = (_header([dt]) + "\n".join(decl) + "\n\n" + entry
           + f"  let o = w / {P}u;\n  let p = w % {P}u;\n  let base = o * {R4}u;\n"
           + f"  var acc = {init};\n  var r = p;\n"
           + f"  for (; r < {R4 // span * span}u; r = r + {span}u) {{\n{main}  }}\n"
           + f"  for (; r < {R4}u; r = r + {P}u) {{\n    acc = {comb('acc', f'{name}[base + r]')};\n  }}\n"
           + f"  {store(dt, 'out0', 'w', lanes)}\n}}\n")
    return src, groups, []


def matmul_kernel(B, M, K, N, dtype, rows=4):
    """C[b] = A[b] @ B[b], A: [B,M,K], B: [B,K,N] row-major. Each thread computes a `rows` x 4
    block with vec4 loads/stores and no shared memory (measured faster than tiling on software
    adapters; in Chromium rows=4 beat 2 and 8 at 128^2, 256^2 and 512^2)."""
    t = wtype(dtype)
    hdr = _header([dtype])
    RB = rows
    if N % 4 == 0:
        N4 = N // 4
        rws = "".join(f"  let r{i} = min(m0 + {i}u, {M - 1}u) * {K}u + abase;\n" for i in range(RB))
        if K % 4 == 0:
            a_decl = binding(0, "A", dtype, False, vec4=True)
            loop = (f"  for (var k = 0u; k < {K // 4}u; k = k + 1u) {{\n"
                    + "".join(f"    let b{j} = Bm[bbase + (k * 4u + {j}u) * {N4}u + n4];\n" for j in range(4))
                    + "".join(f"    let a{i} = A[r{i} / 4u + k];\n"
                              f"    acc{i} = acc{i} + a{i}.x * b0 + a{i}.y * b1 + a{i}.z * b2 + a{i}.w * b3;\n"
                              for i in range(RB))
                    + "  }\n")
        else:
            a_decl = binding(0, "A", dtype, False)
            loop = (f"  for (var k = 0u; k < {K}u; k = k + 1u) {{\n"
                    f"    let bv = Bm[bbase + k * {N4}u + n4];\n"
                    + "".join(f"    acc{i} = acc{i} + A[r{i} + k] * bv;\n" for i in range(RB)) + "  }\n")
        src = (hdr + a_decl + "\n" + binding(1, "Bm", dtype, False, vec4=True) + "\n"
               + binding(2, "C", dtype, True, vec4=True) + "\n\n"
               + "@compute @workgroup_size(16, 16, 1)\nfn main(@builtin(global_invocation_id) g: vec3<u32>) {\n"
               + f"  let n4 = g.x;\n  let m0 = g.y * {RB}u;\n  let b = g.z;\n"
               + f"  if (n4 >= {N4}u || m0 >= {M}u) {{ return; }}\n"
               + f"  let abase = b * {M * K}u;\n  let bbase = b * {K * N4}u;\n" + rws
               + "".join(f"  var acc{i} = vec4<{t}>();\n" for i in range(RB)) + loop
               + "".join(f"  if (m0 + {i}u < {M}u) {{ C[b * {M * N4}u + (m0 + {i}u) * {N4}u + n4] = acc{i}; }}\n"
                         for i in range(RB)) + "}\n")
        return src, (-(-N4 // 16), -(-(-(-M // RB)) // 16), B)
    src = (hdr + binding(0, "A", dtype, False) + "\n" + binding(1, "Bm", dtype, False) + "\n"
           + binding(2, "C", dtype, True) + "\n\n"
           + "@compute @workgroup_size(16, 16, 1)\nfn main(@builtin(global_invocation_id) g: vec3<u32>) {\n"
           + f"  let n = g.x;\n  let m = g.y;\n  let b = g.z;\n  if (n >= {N}u || m >= {M}u) {{ return; }}\n"
           + f"  var acc = {t}(0);\n  for (var k = 0u; k < {K}u; k = k + 1u) {{\n"
           + f"    acc = acc + A[b * {M * K}u + m * {K}u + k] * Bm[b * {K * N}u + k * {N}u + n];\n  }}\n"
           + f"  C[b * {M * N}u + m * {N}u + n] = acc;\n}}\n")
    return src, (-(-N // 16), -(-M // 16), B)


def matmul_splitk_kernel(B, M, K, N, dtype, n_parts):
    """First pass of a dot with few outputs and a long K (a vector dot, a skinny product): thread
    (output, p) sums A[b,m,k] * B[b,k,n] over k = p, p + P, ... into partial[output * P + p];
    `reduce_kernel` then sums the P partials per output. A thread-per-output matmul would run
    all of K on a handful of threads."""
    if N == 1 and K % 4 == 0:  # both operands contiguous along K: vec4 loads
        return _splitk_vec4(B, M, K, dtype, n_parts)
    return _strided_dot(B, M, K, N, dtype, n_parts, UNROLL)


def _strided_dot(B, M, K, N, dtype, P, unroll):
    """Thread (output, p) sums A[b,m,k] * B[b,k,n] over k = p, p + P, ..., `unroll` terms per
    loop trip; P = 1 is one thread per output."""
    O = B * M * N
    t = wtype(dtype)

    def term(k):
        return f"A[abase + {k}] * Bm[bbase + ({k}) * {N}u]"
    main = [f"    acc = acc + {term(f'k + {u * P}u')};\n" for u in range(unroll)]
    span = unroll * P
    entry, groups = linear_entry("w", O * P)
    src = (_header([dtype]) + binding(0, "A", dtype, False) + "\n" + binding(1, "Bm", dtype, False) + "\n"
           + binding(2, "C", dtype, True) + "\n\n" + entry
           + f"  let o = w / {P}u;\n  let p = w % {P}u;\n"
           + f"  let b = o / {M * N}u;\n  let m = (o / {N}u) % {M}u;\n  let n = o % {N}u;\n"
           + f"  let abase = b * {M * K}u + m * {K}u;\n  let bbase = b * {K * N}u + n;\n"
           + f"  var acc = {t}(0);\n  var k = p;\n"
           + f"  for (; k < {K // span * span}u; k = k + {span}u) {{\n" + "".join(main) + "  }\n"
           + f"  for (; k < {K}u; k = k + {P}u) {{\n    acc = acc + {term('k')};\n  }}\n"
           + "  C[w] = acc;\n}\n")
    return src, groups


def _wide(dtype, n) -> int:
    """Floats per load for a plain contiguous read of n elements: 16 (a mat4x4<f32>, float32 only,
    n % 16 == 0) or 4 (a vec4). Measured in Chromium/SwiftShader (a 1M-float dot): the first pass
    alone ~25% faster with mat4x4 loads, the whole jitted call in the page ~5-20% (fewer, wider
    loads; each load is bounds-checked on software adapters). A sum read the same either way."""
    return 16 if np.dtype(dtype) == np.float32 and n % 16 == 0 else 4


def _wide_decl(k, name, dtype, width) -> str:
    if width == 16:
        return f"@group(0) @binding({k}) var<storage, read> {name}: array<mat4x4<f32>>;"
    return binding(k, name, dtype, False, vec4=True)


def _splitk_vec4(B, M, K, dtype, P):
    """`matmul_splitk_kernel` for N == 1 and K % 4 == 0 (a vector dot): vec4 loads of both rows,
    mat4x4 loads where `_wide` allows (a mat4x4 product is its four column products summed).
    With P = 1 it is the whole product (matrix @ vector, thread per output)."""
    t = wtype(dtype)
    W = _wide(dtype, K)
    O, KW = B * M, K // W
    unroll = UNROLL if W == 4 else max(1, UNROLL // 4)
    span = unroll * P

    def term(i):
        return (f"A[abase + {i}] * Bm[bbase + {i}]" if W == 4
                else f"gp_dot16(A[abase + {i}], Bm[bbase + {i}])")
    helper = ("" if W == 4 else "fn gp_dot16(a: mat4x4<f32>, b: mat4x4<f32>) -> vec4<f32> {\n"
              "  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];\n}\n\n")
    main = "".join(f"    acc = acc + {term(f'k + {u * P}u')};\n" for u in range(unroll))
    entry, groups = linear_entry("w", O * P)
    src = (_header([dtype]) + _wide_decl(0, "A", dtype, W) + "\n" + _wide_decl(1, "Bm", dtype, W) + "\n"
           + binding(2, "C", dtype, True) + "\n\n" + helper
           + entry
           + f"  let o = w / {P}u;\n  let p = w % {P}u;\n"
           + f"  let abase = o * {KW}u;\n  let bbase = (o / {M}u) * {KW}u;\n"
           + f"  var acc = vec4<{t}>();\n  var k = p;\n"
           + f"  for (; k < {KW // span * span}u; k = k + {span}u) {{\n" + main + "  }\n"
           + f"  for (; k < {KW}u; k = k + {P}u) {{\n    acc = acc + {term('k')};\n  }}\n"
           + "  C[w] = acc.x + acc.y + acc.z + acc.w;\n}\n")
    return src, groups


def matmul_rows_kernel(B, M, K, N, dtype):
    """C = A @ B for few rows (M < 4, say a vector-matrix product): each thread one row and four
    columns (vec4 over N, and over K when K % 4 == 0), so no thread repeats a row as the 4x4
    blocks would."""
    t = wtype(dtype)
    N4 = N // 4
    if K % 4 == 0:
        a_decl = binding(0, "A", dtype, False, vec4=True)
        loop = (f"  for (var k = 0u; k < {K // 4}u; k = k + 1u) {{\n"
                f"    let a = A[abase / 4u + k];\n    let kb = bbase + k * {4 * N4}u;\n"
                f"    acc = acc + a.x * Bm[kb] + a.y * Bm[kb + {N4}u] + a.z * Bm[kb + {2 * N4}u]"
                f" + a.w * Bm[kb + {3 * N4}u];\n  }}\n")
    else:
        a_decl = binding(0, "A", dtype, False)
        loop = (f"  for (var k = 0u; k < {K}u; k = k + 1u) {{\n"
                f"    acc = acc + A[abase + k] * Bm[bbase + k * {N4}u];\n  }}\n")
    entry, groups = linear_entry("w", B * M * N4)
    src = (_header([dtype]) + a_decl + "\n" + binding(1, "Bm", dtype, False, vec4=True) + "\n"
           + binding(2, "C", dtype, True, vec4=True) + "\n\n" + entry
           + f"  let b = w / {M * N4}u;\n  let m = (w / {N4}u) % {M}u;\n  let n4 = w % {N4}u;\n"
           + f"  let abase = b * {M * K}u + m * {K}u;\n  let bbase = b * {K * N4}u + n4;\n"
           + f"  var acc = vec4<{t}>();\n" + loop + "  C[w] = acc;\n}\n")
    return src, groups


def matmul_narrow_kernel(B, M, K, N, dtype):
    """C = A @ B when N is not a multiple of 4 (a matrix-vector product, say): one thread per
    output element, numbered linearly so that every invocation of a workgroup has work (a 16x16
    workgroup over (n, m) leaves 15 of 16 idle when N = 1), unrolled by 4 over K. (Matrix @
    vector with many rows: `matvec_rows_kernel`.)"""
    if N == 1 and K % 4 == 0:  # matrix @ vector: rows and vector contiguous along K
        return _splitk_vec4(B, M, K, dtype, 1)
    return _strided_dot(B, M, K, N, dtype, 1, 4)


# Matrix @ vector: rows per thread. Measured in Chromium/SwiftShader (1024 x 1024 @ 1024, raw
# dispatches interleaved, median of 3): one row a thread 5.6 ms, 2 rows 4.0, 4 rows 3.7, 8 rows
# 4.3; workgroups of 64 threads (so that 256 threads make 4 workgroups, for 4 CPU threads).
MATVEC_ROWS, MATVEC_WG = 4, 64


def matvec_rows_kernel(B, M, K, dtype, R):
    """C[b, m] = A[b, m, :] . x[b, :] for K % 4 == 0: each thread R rows of one batch, reading each
    load of x once for its R rows (a thread per row reads all of x per row: as many loads of x as
    of A). Loads are mat4x4s where `_wide` allows, vec4s otherwise; rows past M are clamped to the
    last for loading and not stored."""
    t = wtype(dtype)
    W = _wide(dtype, K)
    KW, MR = K // W, -(-M // R)

    def term(i):
        return f"A[a{i} + k] * xk" if W == 4 else f"gp_dot16(A[a{i} + k], xk)"
    helper = ("" if W == 4 else "fn gp_dot16(a: mat4x4<f32>, b: mat4x4<f32>) -> vec4<f32> {\n"
              "  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];\n}\n\n")
    entry, groups = linear_entry("w", B * MR, MATVEC_WG)
    src = (_header([dtype]) + _wide_decl(0, "A", dtype, W) + "\n" + _wide_decl(1, "Bm", dtype, W) + "\n"
           + binding(2, "C", dtype, True) + "\n\n" + helper + entry
           + f"  let b = w / {MR}u;\n  let m0 = (w % {MR}u) * {R}u;\n  let bbase = b * {KW}u;\n"
           + "".join(f"  let a{i} = (b * {M}u + min(m0 + {i}u, {M - 1}u)) * {KW}u;\n"
                     f"  var acc{i} = vec4<{t}>();\n" for i in range(R))
           + f"  for (var k = 0u; k < {KW}u; k = k + 1u) {{\n    let xk = Bm[bbase + k];\n"
           + "".join(f"    acc{i} = acc{i} + {term(i)};\n" for i in range(R)) + "  }\n"
           + "".join(f"  if (m0 + {i}u < {M}u) {{ C[b * {M}u + m0 + {i}u] = acc{i}.x + acc{i}.y + acc{i}.z + acc{i}.w; }}\n"
                     for i in range(R)) + "}\n")
    return src, groups


def matmul_block_kernel(B, M, K, N, dtype, rows=4, cols4=2, wg=(16, 16)):
    """C[b] = A[b] @ B[b] for K % 4 == 0 and N % (4 * cols4) == 0: each thread a `rows` x
    (4 * cols4) block, in registers, no shared memory. Per step of 4 along K a thread loads
    rows + 4 * cols4 vec4s for 16 * rows * cols4 multiply-adds: the larger the block, the fewer
    loads (each bounds-checked on software adapters) per flop."""
    t = wtype(dtype)
    N4 = N // 4
    NC = N4 // cols4
    rws = "".join(f"  let r{i} = (min(m0 + {i}u, {M - 1}u) * {K}u + abase) / 4u;\n" for i in range(rows))
    bl = "".join(f"    let b{j}_{c} = Bm[kb + {j * N4 + c}u];\n" for j in range(4) for c in range(cols4))
    body = ""
    for i in range(rows):
        body += f"    let a{i} = A[r{i} + k];\n"
        for c in range(cols4):
            body += (f"    acc{i}_{c} = acc{i}_{c} + a{i}.x * b0_{c} + a{i}.y * b1_{c} + a{i}.z * b2_{c}"
                     f" + a{i}.w * b3_{c};\n")
    stores = "".join(f"  if (m0 + {i}u < {M}u) {{\n"
                     + "".join(f"    C[cbase + {i * N4}u + {c}u] = acc{i}_{c};\n" for c in range(cols4)) + "  }\n"
                     for i in range(rows))
    src = (_header([dtype]) + binding(0, "A", dtype, False, vec4=True) + "\n"
           + binding(1, "Bm", dtype, False, vec4=True) + "\n" + binding(2, "C", dtype, True, vec4=True) + "\n\n"
           + f"@compute @workgroup_size({wg[0]}, {wg[1]}, 1)\nfn main(@builtin(global_invocation_id) g: vec3<u32>) {{\n"
           + f"  let n4 = g.x * {cols4}u;\n  let m0 = g.y * {rows}u;\n  let b = g.z;\n"
           + f"  if (n4 >= {N4}u || m0 >= {M}u) {{ return; }}\n"
           + f"  let abase = b * {M * K}u;\n  let bbase = b * {K * N4}u + n4;\n" + rws
           + "".join(f"  var acc{i}_{c} = vec4<{t}>();\n" for i in range(rows) for c in range(cols4))
           + f"  for (var k = 0u; k < {K // 4}u; k = k + 1u) {{\n    let kb = bbase + k * {4 * N4}u;\n" + bl + body
           + "  }\n  let cbase = b * " + f"{M * N4}u + m0 * {N4}u + n4;\n" + stores + "}\n")
    return src, (-(-NC // wg[0]), -(-(-(-M // rows)) // wg[1]), B)
