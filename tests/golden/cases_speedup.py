"""Case definitions for speedup_cases.json (issue 15, speed): results the vectorised fast paths
must keep bit for bit, recorded from real JAX. Samples are compared as their bit patterns
(`bitcast_convert_type` to unsigned ints), so any changed last bit fails. Bit-exactness is the
CPU backend's promise (WebGPU's float32 transcendentals are not XLA's), so each case runs on the
CPU device, also when the golden suite reruns everything with WebGPU as the default."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()


def _bits(expr, uint="jnp.uint32"):
    return f"lax.bitcast_convert_type({expr}, {uint})"


CPU = on_cpu(C)


# ---------------------------------------------------------------- random.normal, bit patterns
# Keys, sizes (a scalar, odd, 2-d, and 1000 = the benchmark's), dtypes and both threefry modes.
for seed, shape in ((0, "(1000,)"), (1, "(1000,)"), (42, "(7,)"), (2**31 - 1, "(3, 5)"), (3, "()")):
    name = f"normal_bits_seed{seed}_{shape.strip('()').replace(', ', 'x').replace(',', '') or 'scalar'}"
    CPU(name, "random", f"out = {_bits(f'random.normal(random.PRNGKey({seed}), {shape})')}")
    CPU(name + "_legacy_threefry", "random", "jax.config.update('jax_threefry_partitionable', False)\n"
      f"out = {_bits(f'random.normal(random.PRNGKey({seed}), {shape})')}")
# Above 4096 elements each branch of the emulation runs on its own elements (masks) instead of
# the whole array: a 5000-sample draw takes that path.
CPU("normal_bits_seed9_5000_masked_path", "random", f"out = {_bits('random.normal(random.PRNGKey(9), (5000,))')}")
CPU("normal_bits_float16", "random",
  f"out = {_bits('random.normal(random.PRNGKey(5), (500,), jnp.float16)', 'jnp.uint16')}")
CPU("normal_bits_float32_under_x64", "random", "jax.config.update('jax_enable_x64', True)\n"
  f"out = {_bits('random.normal(random.PRNGKey(6), (1000,), jnp.float32)')}")
CPU("normal_bits_typed_key_split", "random",
  f"k1, k2 = random.split(random.key(7))\nout = ({_bits('random.normal(k1, (300,))')}, {_bits('random.normal(k2, (2, 50))')})")
CPU("normal_bits_jit_vmap", "random",
  f"ks = random.split(random.PRNGKey(8), 4)\n"
  f"out = {_bits('jax.jit(jax.vmap(lambda k: random.normal(k, (250,))))(ks)')}")

# ---------------------------------------------------------------- erf_inv itself, all its branches
CPU("erf_inv_bits_branches", "lax", "x = jnp.array([0.0, -0.0, 1e-30, 0.25, -0.5, 0.64, 0.65, 0.9, -0.99, 0.9999, "
  "0.99999994, -0.99999994, 1.0, -1.0], jnp.float32)\n"
  f"out = {_bits('lax.erf_inv(x)')}")
C("erf_inv_out_of_domain", "lax", "out = lax.erf_inv(jnp.array([1.5, -2.0, jnp.nan, jnp.inf], jnp.float32))")
CPU("erf_inv_bits_grid", "lax", "x = jnp.asarray(np.linspace(-1.0, 1.0, 4001).astype(np.float32))\n"
  f"out = {_bits('lax.erf_inv(x)')}")

# ---------------------------------------------------------------- the CPU compiler's fast kernels
# jit's column sums of big float arrays (a BLAS product with ones) and small unbatched matmuls
# (np.dot): every layout the specialisations take apart, against JAX's values. `steady` calls the
# jitted function twice and returns the second result: a first call interprets the jaxpr, later
# calls run the generated code, where the specialised kernels live.
S = "def steady(f, *args):\n    f(*args)\n    return f(*args)\n"
G = S + "g = jnp.asarray((np.arange({n}, dtype=np.float64) % 17 - 8.25).astype(np.{dt}).reshape({shape}))\n"
C("jit_sum_leading_axis_f32", "jit", G.format(n=256 * 64, dt="float32", shape="256, 64") +
  "out = (steady(jax.jit(lambda a: jnp.sum(a, axis=0)), g), steady(jax.jit(lambda a: a.sum(0, keepdims=True)), g))")
C("jit_sum_leading_axes_3d", "jit", G.format(n=8 * 64 * 20, dt="float32", shape="8, 64, 20") +
  "out = (steady(jax.jit(lambda a: jnp.sum(a, axis=(0, 1))), g), steady(jax.jit(lambda a: jnp.sum(a, axis=(1, 0))), g), "
  "steady(jax.jit(lambda a: jnp.sum(a, axis=(0, 2))), g), steady(jax.jit(lambda a: jnp.mean(a, axis=0)), g))")
C("jit_sum_leading_axis_transposed_input", "jit", G.format(n=64 * 256, dt="float32", shape="64, 256") +
  "out = steady(jax.jit(lambda a: jnp.sum(a.T * 2.0, axis=0)), g)")
C("jit_sum_leading_axis_f64", "jit", "jax.config.update('jax_enable_x64', True)\n" +
  G.format(n=300 * 20, dt="float64", shape="300, 20") + "out = steady(jax.jit(lambda a: jnp.sum(a, axis=0)), g)")
C("jit_sum_leading_axis_nan_inf", "jit", G.format(n=512 * 16, dt="float32", shape="512, 16") +
  "g = g.at[3, 2].set(jnp.nan).at[7, 5].set(jnp.inf).at[9, 6].set(jnp.inf).at[10, 6].set(-jnp.inf)\n"
  "out = steady(jax.jit(lambda a: jnp.sum(a, axis=0)), g)")
C("jit_grad_column_sum_bias", "jit", G.format(n=256 * 64, dt="float32", shape="256, 64") +
  "out = steady(jax.jit(jax.grad(lambda b, a: jnp.sum(jnp.tanh(a * 0.01 + b) ** 2))), jnp.zeros(64), g)")
M = S + ("a = jnp.asarray((np.arange(64) % 7 - 3).astype(np.float32).reshape(8, 8) / 4)\n"
         "v = jnp.asarray((np.arange(8) % 5 - 2).astype(np.float32) / 3)\n")
C("jit_small_matmuls", "jit", M +
  "out = steady(jax.jit(lambda a, v: (v @ a, a @ v, v @ v, a @ a, a.T @ v, v @ a.T, a.T @ a.T, a @ a.T, "
  "jnp.dot(v[None], a), lax.dot_general(a, a, (((0,), (0,)), ((), ()))), "
  "lax.dot_general(a, a, (((0,), (1,)), ((), ()))))), a, v)")
C("jit_small_matmuls_int_and_complex", "jit", S +
  "i = jnp.arange(12, dtype=jnp.int32).reshape(3, 4)\nc = (jnp.arange(12.0) + 1j).reshape(4, 3).astype(jnp.complex64)\n"
  "out = steady(jax.jit(lambda i, c: (i @ i.T, c @ c.T, i.astype(jnp.float32) @ c.real)), i, c)")
C("jit_loop_small_matmul_literal", "jit", M +
  "out = steady(jax.jit(lambda a, v: lax.fori_loop(0, 50, lambda k, h: jnp.tanh(h @ a) + 0.25, v)), a, v)")
