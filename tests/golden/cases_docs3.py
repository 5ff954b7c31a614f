"""Case definitions for docs3_cases.json: what JAX's docstring examples (tools/doc_examples.py)
still showed differing, recorded from real JAX 0.10.2 (area "docs3"). Cases named `_bits`
compare float32 results bit for bit: they record the values' uint32 views."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- linspace: XLA's fused float32 bits
# jnp.linspace(0, 15, 16) is exactly 0..15 in JAX (XLA computes i * (15/15) + 0 * (1 - i/15) with
# an FMA); the plain float32 formula gives 3.0000002 and 15.000001.
BITS = "bits = lambda x: np.asarray(x).view(np.uint32)\n"
C("docs3_linspace_bits_small", "docs3", BITS +
  "out = (bits(jnp.linspace(0, 15, 16)), bits(jnp.linspace(-3, 7, 9, endpoint=False)), "
  "bits(jnp.linspace(0.1, 2.7, 33)), bits(jnp.linspace(1, 100, 50, endpoint=False)), "
  "bits(jnp.linspace(np.float32(89.05604), np.float32(-1.095472), 33, endpoint=False)), "
  "bits(jnp.linspace(jnp.float32(-0.3203625), 9.584066, 32, endpoint=False)), "
  "bits(jnp.linspace(18., 33., 34, endpoint=False)), bits(jnp.linspace(0, 10, 7, endpoint=False)), "
  "bits(jnp.linspace(-6, -12, 21)), bits(jnp.linspace(0, 1, 2)), bits(jnp.linspace(2.5, 2.5, 5)))")
C("docs3_linspace_bits_long", "docs3", BITS +
  "out = (bits(jnp.linspace(-5.2234159, -10.294203, 1001)), bits(jnp.linspace(2, 7, 1000, endpoint=False)), "
  "bits(jnp.linspace(0.0, 1.0, 353)), bits(jnp.linspace(-13, 21, 352, endpoint=False)), "
  "bits(jnp.linspace(3., 300., 351)), bits(jnp.linspace(4, 29, 4097, endpoint=False)), "
  "bits(jnp.linspace(-1.5, 2.25, 2012)))")
C("docs3_linspace_dtypes_and_inputs", "docs3",
  "out = (jnp.linspace(0, 10, 7, dtype=jnp.int32), jnp.linspace(-3, 4, 6, dtype=int, endpoint=False), "
  "jnp.linspace(jnp.array(1.0), np.float32(2.0), 5), jnp.linspace(np.float64(0.1), 0.7, 4), "
  "jnp.linspace(True, 3, 4), jnp.linspace(0., 1., 5, axis=-1), jnp.linspace(0., 1., 1), jnp.linspace(0., 1., 0))",
  rtol=0, atol=0)
# float16: XLA rounds each op to float16 and fuses nothing (eager, up to 2048 steps)
BITS16 = "bits16 = lambda x: np.asarray(x).view(np.uint16)\n"
C("docs3_linspace_bits_float16", "docs3", BITS16 +
  "out = (bits16(jnp.linspace(0, 15, 16, dtype=jnp.float16)), bits16(jnp.linspace(-1.764, 702.46, 301, dtype=jnp.float16)), "
  "bits16(jnp.linspace(jnp.float16(4.94), jnp.float16(8.74), 1001)), bits16(jnp.linspace(3, -17, 2048, endpoint=False, dtype='float16')), "
  "bits16(jnp.linspace(0.1, 0.2, 7, endpoint=False, dtype=jnp.float16)))")
# JAX's histogram docstring: jnp.histogram(x, bins=5, range=(0, 15)) needs linspace's exact edges
C("docs3_histogram_range_edges", "docs3",
  "x = jnp.array([1, 2, 3, 5, 7, 11, 13, 9, 14, 8])\n"
  "out = (jnp.histogram(x, bins=5, range=(0, 15)), jnp.histogram_bin_edges(x, bins=15, range=(0, 15)))",
  rtol=0, atol=0)
# under jit the bounds are traced: the staged formula (JAX's jaxpr) stays
C("docs3_linspace_jit_and_jaxpr", "docs3",
  "out = (jax.jit(lambda s, e: jnp.linspace(s, e, 5))(0.0, 1.0), str(jax.make_jaxpr(lambda: jnp.linspace(0, 1, 5))()), "
  "jax.grad(lambda s: jnp.linspace(s, 4.0, 5).sum())(1.0), jnp.linspace(0., 8., 9, retstep=True))")

# ---------------------------------------------------------------- Array.delete (jnp.copy's docstring)
# x = jnp.arange(4); y = x.copy(); x.delete(): y keeps its values, x keeps only shape and dtype
C("docs3_array_delete_keeps_metadata", "docs3",
  "x = jnp.arange(4)\ny = x.copy()\nx.delete()\nx.delete()\n"
  "out = (x.is_deleted(), y.is_deleted(), y, x.shape, str(x.dtype), x.ndim, len(x), x.size)")
E("docs3_array_delete_then_print", "docs3", "x = jnp.arange(4)\nx.delete()\nout = str(x)")
E("docs3_array_delete_then_add", "docs3", "x = jnp.arange(4.0).reshape(2, 2)\nx.delete()\nout = x + 1")
E("docs3_array_delete_then_numpy", "docs3", "x = jnp.arange(3, dtype=jnp.float32)\nx.delete()\nout = np.asarray(x)")
E("docs3_array_delete_then_jit", "docs3", "x = jnp.ones(3)\nx.delete()\nout = jax.jit(jnp.sin)(x)")

# ---------------------------------------------------------------- einsum_path's report (opt_einsum's table)
# JAX's docstring: path, path_info = jnp.einsum_path("ij,jk,kl", x, y, z, optimize="optimal"); print(path_info)
EP = "ones = lambda *shapes: [jnp.ones(s) for s in shapes]\n"
C("docs3_einsum_path_report_docstring", "docs3", EP +
  "x, y, z = ones((2, 3), (3, 15), (15, 1))\n"
  "p, info = jnp.einsum_path('ij,jk,kl->il', x, y, z, optimize='optimal')\nout = (p, str(info), repr(info))")
C("docs3_einsum_path_report_kinds", "docs3", EP +
  "cases = [('ij,jk', ones((4, 5), (5, 6))), ('ij,ij->', ones((3, 4), (3, 4))), ('i,j->ij', ones((3,), (4,))), "
  "('bij,bjk->bik', ones((2, 3, 4), (2, 4, 5))), ('ii->i', ones((3, 3))), ('ij,j->i', ones((3, 4), (4,))), "
  "('ab,bc,cd,de->ae', ones((2, 3), (3, 4), (4, 5), (5, 6))), ('ijk,jkl,lm->im', ones((2, 3, 4), (3, 4, 5), (5, 6))), "
  "('ab,ab,ab->a', ones((2, 3), (2, 3), (2, 3))), ('ij, jk -> ik', ones((2, 3), (3, 4))), "
  "('ij,jk,kl->il', ones((1, 3), (3, 1), (1, 4)))]\n"
  "out = [(s, *[str(v) for v in jnp.einsum_path(s, *ops, optimize='optimal')]) for s, ops in cases]")
C("docs3_einsum_path_report_optimize_modes", "docs3", EP +
  "ops = ones((2, 3), (3, 4), (4, 5), (5, 6), (6, 2))\n"
  "out = [(str(o), *[str(v) for v in jnp.einsum_path('ab,bc,cd,de,ea->', *ops, optimize=o)]) "
  "for o in ('auto', 'greedy', False, True)]")

# ---------------------------------------------------------------- jax.checking_leaks (UnexpectedTracerError's docstring)
LEAKY = "outs = []\ndef side_effecting(x):\n    y = x + 1\n    outs.append(y)\n    return y\n"
E("docs3_checking_leaks_reports_leak", "docs3", LEAKY +
  "with jax.checking_leaks():\n    out = jax.jit(side_effecting)(1)")
C("docs3_checking_leaks_clean_programs", "docs3",
  "with jax.checking_leaks():\n"
  "    out = (jax.jit(lambda x: jnp.sin(x) * 2 + x.sum())(jnp.arange(3.)), "
  "jax.jit(lambda x: jax.jit(lambda y: y * 3)(x) + 1)(2.0), "
  "jax.jit(lambda x: lax.scan(lambda c, a: (c + a, c * a), 0., x))(jnp.arange(4.)), "
  "jax.grad(lambda x: lax.scan(lambda c, a: (c * a, None), 1., x)[0])(jnp.arange(1., 4.)), "
  "lax.while_loop(lambda v: v < 10, lambda v: v * 2, 1), jax.jit(jax.grad(lambda x: jnp.tanh(x) * x))(1.0), "
  "jax.vmap(jax.jit(lambda x: x ** 2))(jnp.arange(3.)))")

# ---------------------------------------------------------------- jit(donate_argnums=...) (jnp.copy's docstring)
# f = jax.jit(lambda x: 2 * x, donate_argnums=0); y = f(x): x is deleted, y holds [0 2 4 6]
C("docs3_donation_deletes_usable_inputs", "docs3",
  "def run(f, *args, **kw):\n"
  "    y = jax.jit(f, **kw)(*args)\n"
  "    return [a.is_deleted() for a in jax.tree.leaves(args) if hasattr(a, 'is_deleted')], y\n"
  "out = (run(lambda x: 2 * x, jnp.arange(4), donate_argnums=0), "
  "run(lambda x, y: (x + y, y), jnp.arange(4.), jnp.ones(4), donate_argnums=(0,)), "
  "run(lambda x, y: x * y, jnp.arange(4.), jnp.ones(4), donate_argnames='y'), "
  "run(lambda a, b: (a + b, a - b, a * b), jnp.arange(3.), jnp.arange(3.), donate_argnums=(0, 1)), "
  "run(lambda a: a.astype(jnp.int32), jnp.arange(3.), donate_argnums=0), "
  "run(lambda a, k: a * k, jnp.arange(3.), 2, donate_argnums=0, static_argnums=1), "
  "run(lambda a: a, jnp.arange(3.), donate_argnums=0), run(lambda a: a.reshape(2, 2), jnp.ones(4), donate_argnums=0), "
  "run(lambda a: a.astype(jnp.float16), jnp.ones(3), donate_argnums=0), "
  "run(lambda x: x * 2, np.arange(3.), donate_argnums=0))")
E("docs3_donation_then_print_raises", "docs3",
  "x = jnp.arange(4)\ny = jax.jit(lambda x: 2 * x, donate_argnums=0)(x)\nout = str(x)")
C("docs3_donation_unusable_warns", "docs3",
  "x = jnp.arange(4)\nout = (jax.jit(lambda x: x.sum(), donate_argnums=0)(x), x.is_deleted())", expect_warning=True)
C("docs3_donation_copy_keeps_input", "docs3",
  "x = jnp.arange(4)\nf = jax.jit(lambda x: 2 * x, donate_argnums=0)\ny = f(x.copy())\n"
  "out = (y, x, x.is_deleted(), jax.grad(lambda v: f(v).sum())(jnp.ones(3)))")

# ---------------------------------------------------------------- pow (XLA calls powf) and log10 (log times 1/ln 10)
# (these are XLA's CPU bits: computed on the CPU device, also when the WebGPU backend is the default)
CPU = "cpu = jax.default_device(jax.devices('cpu')[0])\n"
C("docs3_pow_float32_bits", "docs3", BITS + CPU + "with cpu:\n    " +
  "x = jnp.linspace(-3, 3, 401)\n    b = jnp.arange(1., 301.) * 0.037\n    y = (jnp.arange(300.) - 150) * 0.033\n"
  "    out = (bits(jnp.power(jnp.float32(10), x)), bits(b ** y), bits(jax.jit(jnp.power)(b, y)), bits(jnp.power(jnp.float32(0.5), x[:150])))")
# (powf is not always correctly rounded: float64 pow rounded once still differs from it by 1 ulp
# on ~0.06% of inputs, e.g. 2.0 ** x for x = linspace(-3, 3, 401)[201])
C("docs3_logspace_geomspace_bits", "docs3", BITS + CPU + "with cpu:\n    " +
  "out = (bits(jnp.logspace(0, 2, 5)), bits(jnp.logspace(-3, 3, 17)), bits(jnp.logspace(0, 4, 40, base=2.0)), "
  "bits(jnp.logspace(1, 2, 7, endpoint=False)), bits(jnp.geomspace(1, 100, 5)), bits(jnp.geomspace(1, 1000, 17)), "
  "bits(jnp.geomspace(-1, -100, 7, endpoint=False)))")
C("docs3_log10_jaxpr_and_bits", "docs3", BITS +
  "x = jnp.arange(1., 401.) * 0.25\n"
  "out = (str(jax.make_jaxpr(jnp.log10)(1.0)), str(jax.make_jaxpr(jnp.log10)(1 + 1j)), jnp.log10(100), "
  "jnp.log10(jnp.float16(3)), jnp.log10(jnp.bfloat16(3)), jax.grad(jnp.log10)(2.0), "
  "float((bits(jnp.log10(x)) == bits(jnp.log(x) * np.float32(0.4342944819032518))).mean()))")
