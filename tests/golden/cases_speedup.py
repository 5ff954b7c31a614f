"""Case definitions for speedup_cases.json (issue 15, speed): results the vectorised fast paths
must keep bit for bit, recorded from real JAX. Samples are compared as their bit patterns
(`bitcast_convert_type` to unsigned ints), so any changed last bit fails. Bit-exactness is the
CPU backend's promise (WebGPU's float32 transcendentals are not XLA's), so each case runs on the
CPU device, also when the golden suite reruns everything with WebGPU as the default."""
from casebook import recorder

CASES, C, E = recorder()


def _bits(expr, uint="jnp.uint32"):
    return f"lax.bitcast_convert_type({expr}, {uint})"


def CPU(name, area, code, **kw):
    """A case whose code runs under `jax.default_device(cpu)`."""
    body = "\n".join("    " + line for line in code.strip().splitlines())
    C(name, area, "with jax.default_device(jax.devices('cpu')[0]):\n" + body, **kw)


# ---------------------------------------------------------------- random.normal, bit patterns
# Keys, sizes (a scalar, odd, 2-d, and 1000 = the benchmark's), dtypes and both threefry modes.
for seed, shape in ((0, "(1000,)"), (1, "(1000,)"), (42, "(7,)"), (2**31 - 1, "(3, 5)"), (3, "()")):
    name = f"normal_bits_seed{seed}_{shape.strip('()').replace(', ', 'x').replace(',', '') or 'scalar'}"
    CPU(name, "random", f"out = {_bits(f'random.normal(random.PRNGKey({seed}), {shape})')}")
    CPU(name + "_legacy_threefry", "random", "jax.config.update('jax_threefry_partitionable', False)\n"
      f"out = {_bits(f'random.normal(random.PRNGKey({seed}), {shape})')}")
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
