"""Case definitions for bf16_cases.json: bfloat16 (and float16) where the engine's own bfloat16
(no ml_dtypes: the page) must round as JAX 0.10.2 does: cumulative ops in XLA's blocked order,
scatter-add with repeated indices, nn functions with numpy-scalar constants, PRNG samplers that
take finfo values, loops carrying bfloat16, printing, scalars. Every name holds `bf16` or `f16`,
so tests/test_dtypes_fallback.py also runs these against the emulated bfloat16.

Each snippet runs with jax, jnp, lax, random, np, partial, NamedTuple predefined and sets `out`.
"""
from casebook import recorder

CASES, C, E = recorder()

X = "x = jnp.array([1.1, 2.2, -3.3, 0.5, -0.0, 7.7], jnp.bfloat16)\n"
R = "r = (jnp.arange(40.0) * 0.37 - 5.1).astype(jnp.bfloat16)\n"
K = "k = random.PRNGKey(42)\n"

# ---- cumulative ops: XLA's reduce_window, rewritten into blocks of 16 (rounding every combine)
C("bf16_lax_cumsum_short", "bf16", X + "out = (lax.cumsum(x), lax.cumprod(1 + x / 10), lax.cummax(x))")
C("bf16_jnp_cumsum_no_upcast", "bf16", X + "out = (jnp.cumsum(x), jnp.cumprod(x / 4))")
C("bf16_cumsum_jaxpr", "bf16", X + "out = str(jax.make_jaxpr(jnp.cumsum)(x))")
C("f16_cumsum_jaxpr", "bf16", "out = str(jax.make_jaxpr(jnp.cumsum)(jnp.ones(3, jnp.float16)))")
C("bf16_cumsum_blocked_long", "bf16", R + "out = (lax.cumsum(r), jnp.cumsum(jnp.arange(100.0, dtype=jnp.bfloat16)))")
C("bf16_cumsum_2d_axes", "bf16", R + "m = r.reshape(5, 8)\nout = (jnp.cumsum(m, axis=0), jnp.cumsum(m, axis=1))")
C("bf16_cumsum_reverse_short", "bf16", X + "out = lax.cumsum(x, reverse=True)")
C("f16_cumsum_blocked_long", "bf16", R + "out = lax.cumsum(r.astype(jnp.float16))")

# ---- scatter with repeated indices accumulates in bfloat16, update after update
C("bf16_scatter_add_repeated", "bf16", X + "out = (x.at[jnp.array([0, 0, 2])].add(0.35), "
  "jax.ops.segment_sum(x, jnp.array([0, 1, 0, 1, 2, 2]), 3))")
C("bf16_scatter_add_rows", "bf16", "m = jnp.ones((3, 4), jnp.bfloat16)\n"
  "out = (m.at[jnp.array([0, 0, 1])].add(jnp.full((3, 4), 0.35, jnp.bfloat16)), m.at[:, jnp.array([1, 1])].add(0.35))")

# ---- nn and samplers that build constants from numpy scalars or finfo
C("bf16_gelu", "bf16", X + "out = (jax.nn.gelu(x), jax.nn.gelu(x, approximate=False))")
C("bf16_random_samplers", "bf16", K + "bf = jnp.bfloat16\n"
  "out = (random.truncated_normal(k, -1, 1, (4,), bf), random.gumbel(k, (3,), bf), "
  "random.exponential(k, (3,), bf), random.laplace(k, (3,), bf), random.logistic(k, (3,), bf), "
  "random.bernoulli(k, jnp.array(0.3, bf), (4,)), random.rademacher(k, (3,), bf))")

# ---- loops carrying bfloat16 (a scan's x[i] must stay bfloat16), eager and jitted
C("bf16_loops", "bf16", X + "out = (lax.fori_loop(0, 5, lambda i, c: c * 1.1 + 0.01, x), "
  "lax.scan(lambda c, e: (c + e * 0.3, c * e), jnp.array(0.0, jnp.bfloat16), x), "
  "lax.while_loop(lambda c: c[0] < 10, lambda c: c * 1.37, x))")
C("bf16_loops_jit", "bf16", X + "f = jax.jit(lambda x: lax.scan(lambda c, e: (c + e * 0.3, c * e), x[0], x))\n"
  "out = (f(x), f(x))")
C("bf16_jit_called_twice", "bf16", X + "f = jax.jit(lambda a: a / 3 + 1)\nout = (f(x), f(x), f(x))")

# ---- sorting in bfloat16 (signed zeros, NaN last)
C("bf16_sort", "bf16", "v = jnp.array([2.0, -1.0, 0.5, -0.0, float('nan'), -3.0, 0.0], jnp.bfloat16)\n"
  "out = (jnp.sort(v), jnp.argsort(v), lax.top_k(v[:4], 2))")

# ---- printing and the scalar type
C("bf16_print_2d", "bf16", "m = (jnp.arange(12.0, dtype=jnp.bfloat16).reshape(3, 4) - 5) / 3\nout = (repr(m), str(m))")
C("bf16_print_extremes", "bf16", "out = repr(jnp.array([1e20, 1e-20, jnp.inf, -jnp.inf, jnp.nan, -0.0], jnp.bfloat16))")
C("bf16_print_summarized", "bf16", "out = repr(jnp.arange(2000, dtype=jnp.bfloat16))")
C("bf16_dtype_attributes", "bf16", "d = jnp.ones(3, jnp.bfloat16).dtype\n"
  "out = (repr(d), str(d), d.name, d.itemsize, jnp.ones(3, jnp.bfloat16).nbytes, d == jnp.bfloat16, "
  "d == jnp.float32, jnp.issubdtype(d, jnp.floating), repr(jnp.dtype(jnp.bfloat16)))")
C("bf16_scalar_values", "bf16", "s = jax.dtypes.bfloat16(1.1)\nout = (repr(s), float(s), jnp.asarray(s), jnp.sin(s))")
C("bf16_finfo_scalars", "bf16", "fi = jnp.finfo(jnp.bfloat16)\n"
  "out = (repr(fi.eps), repr(fi.max), repr(fi.smallest_subnormal), str(fi.eps.dtype))")
C("bf16_bitcast", "bf16", X + "out = (lax.bitcast_convert_type(x, jnp.uint16), "
  "lax.bitcast_convert_type(jnp.array([16256, 49152], jnp.uint16), jnp.bfloat16))")
C("bf16_eval_shape", "bf16", X + "out = repr(jax.eval_shape(jnp.sin, x))")

# ---- bits: nextafter steps bfloat16's own 16 bits; signbit reads them
C("bf16_nextafter", "bf16", "x = jnp.array([1.1, 2.2, -3.3, 0.5, -0.0, 7.7, 0.0, 1.0, jnp.nan], jnp.bfloat16)\n"
  "y = jnp.array([9, 9, 9, 0, 1, -9, -1, 1, 0], jnp.bfloat16)\n"
  "out = (jnp.nextafter(x, jnp.inf), jnp.nextafter(x, y), jax.jit(jnp.nextafter)(x, y))")
C("bf16_signbit_copysign", "bf16", X + "out = (jnp.signbit(x), jnp.copysign(x, -1.0), jnp.copysign(jnp.ones(6, jnp.bfloat16), x))")

# ---- linear algebra: JAX's CPU kernels have no bfloat16 (a 2x2 det is closed-form and works)
C("bf16_linalg_inv_unsupported", "bf16", "out = jnp.linalg.inv(jnp.eye(2, dtype=jnp.bfloat16) * 2)", raises=True)
C("bf16_linalg_det_2x2", "bf16", "out = jnp.linalg.det(jnp.eye(2, dtype=jnp.bfloat16) * 2)")
C("bf16_reduce_precision", "bf16", X + "out = lax.reduce_precision(x, 5, 2)")
