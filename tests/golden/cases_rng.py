"""Case definitions for rng_cases.json: jax.random's fast paths (issue 15), bit for bit.

Integer results compare exactly; float cases marked `cpu_exact` must match JAX's bits on the CPU
(tests/test_random_eager_paths.py runs them with rtol = atol = 0): threefry, uniform with the
fused multiply-add XLA's CPU backend uses for `floats * (hi - lo) + lo`, and float32 normal. The
default tolerances here are for the WebGPU run of every golden case (WGSL rounds its own way). Shapes straddle the threefry paths' switch
(Python-integer lanes up to 64 hashes, numpy beyond) and keys are legacy and typed.
"""
from casebook import recorder

CASES, C, E = recorder()

EXACT = dict(cpu_exact=True)

# ---- split: 64 hashes (Python lanes) and 70 (numpy), both counter layouts
C("rng_split_64", "random", "out = random.split(random.PRNGKey(42), 64)")
C("rng_split_70_typed", "random", "out = random.key_data(random.split(random.key(42), 70))")
C("rng_split_shape_original_layout", "random", """
jax.config.update('jax_threefry_partitionable', False)
out = random.split(random.PRNGKey(3), (4, 9))
""")
C("rng_split_of_split", "random", "out = random.split(random.split(random.PRNGKey(0))[1], 3)")

# ---- uniform: bounds whose product and sum round differently unfused (eager, array bounds, vmap, jit)
C("rng_uniform_bounds", "random", "out = random.uniform(random.PRNGKey(0), (200,), minval=-7.7, maxval=2.2)", **EXACT)
C("rng_uniform_bounds_scalar", "random", "out = random.uniform(random.PRNGKey(0), (), minval=0.1, maxval=0.7)", **EXACT)
C("rng_uniform_array_bounds", "random",
  "out = random.uniform(random.PRNGKey(1), (200,), minval=jnp.array(0.3), maxval=jnp.array(0.9))", **EXACT)
C("rng_uniform_vmap_bounds", "random",
  "out = jax.vmap(lambda k: random.uniform(k, (50,), minval=-1e30, maxval=1e30))(random.split(random.PRNGKey(2), 3))",
  **EXACT)
C("rng_uniform_jit_bounds", "random",
  "out = jax.jit(lambda k: random.uniform(k, (200,), minval=-2.0, maxval=3.0))(random.PRNGKey(5))", **EXACT)
C("rng_uniform_typed_original_layout", "random", """
jax.config.update('jax_threefry_partitionable', False)
out = random.uniform(random.key(9), (3, 70), minval=0.1, maxval=0.7)
""", **EXACT)
C("rng_uniform_empty_range", "random", "out = random.uniform(random.PRNGKey(0), (20,), minval=3.0, maxval=-1.0)", **EXACT)

# ---- randint: full int32 range, spans past 2**16 (the multiplier wraps), empty ranges, int16
C("rng_randint_small", "random", "out = random.randint(random.PRNGKey(0), (200,), 0, 10)")
C("rng_randint_full_range", "random", "out = random.randint(random.PRNGKey(1), (100,), -2**31, 2**31 - 1)")
C("rng_randint_wide_span", "random", "out = random.randint(random.key(2), (100,), -1000, 2**30 + 12345)")
C("rng_randint_span_65537", "random", "out = random.randint(random.PRNGKey(3), (100,), 1, 65537)")
C("rng_randint_empty", "random", "out = random.randint(random.PRNGKey(4), (5,), 9, 3)")
C("rng_randint_scalar_original_layout", "random", """
jax.config.update('jax_threefry_partitionable', False)
out = random.randint(random.PRNGKey(6), (), -5, 5)
""")
C("rng_randint_int16", "random", "out = random.randint(random.PRNGKey(7), (50,), -300, 300, jnp.int16)")

# ---- normal float32: exact bits (the exact path; the table path is proven equal on all inputs)
C("rng_normal_1000", "random", "out = random.normal(random.PRNGKey(1), (1000,))", **EXACT)
C("rng_normal_typed_2d", "random", "out = random.normal(random.key(11), (7, 9))", **EXACT)
C("rng_normal_scalar", "random", "out = random.normal(random.PRNGKey(123), ())", **EXACT)
C("rng_normal_original_layout", "random", """
jax.config.update('jax_threefry_partitionable', False)
out = random.normal(random.PRNGKey(0), (65,))
""", **EXACT)

# ---- bernoulli (dropout's call): uniform(0, 1) < p
C("rng_bernoulli_dropout", "random", "out = random.bernoulli(random.PRNGKey(0), 0.9, (200,))")
C("rng_bernoulli_scalar_typed", "random", "out = random.bernoulli(random.key(1), 0.3)")
C("rng_bernoulli_original_layout", "random", """
jax.config.update('jax_threefry_partitionable', False)
out = random.bernoulli(random.PRNGKey(2), 0.5, (3, 70))
""")
