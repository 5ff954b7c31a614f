"""Case definitions for normal2_cases.json: jax.random.normal bit for bit (issue 15, session 7).

Float32 normals come from the eager exact path (core/_engine/libraries/random_normal_exact.py) or the table
(core/_engine/libraries/normal_table.py); these cases pin many keys, sizes past its switches (64 threefry
lanes, 4096 samples), every float dtype (float16, bfloat16, float64 under x64, complex),
traced calls (jit, vmap) and the samplers built on the same pieces (truncated_normal, uniform,
fold_in). Cases marked `cpu_exact` must equal JAX's bits on the CPU
(tests/test_random_eager_paths.py runs them with rtol = atol = 0); the default tolerances are for
the WebGPU run of every golden case.
"""
from casebook import recorder

CASES, C, E = recorder()

EXACT = dict(cpu_exact=True)

# ---- float32: many keys, sizes around the switches
C("n2_normal_many_keys", "random",
  "out = jnp.stack([random.normal(random.PRNGKey(s), (33,)) for s in range(16)])", **EXACT)
C("n2_normal_many_typed_keys", "random",
  "out = jnp.stack([random.normal(k, (17,)) for k in random.split(random.key(2026), 16)])", **EXACT)
C("n2_normal_4097", "random", "out = random.normal(random.PRNGKey(4097), (4097,))", **EXACT)
C("n2_normal_3d", "random", "out = random.normal(random.PRNGKey(7), (3, 5, 11))", **EXACT)
C("n2_normal_empty", "random", "out = random.normal(random.PRNGKey(7), (0, 3))", **EXACT)
C("n2_normal_big_key_words", "random",
  "out = random.normal(jnp.array([0xFFFFFFFF, 0x80000000], jnp.uint32), (100,))", **EXACT)
C("n2_normal_original_layout", "random", """
jax.config.update('jax_threefry_partitionable', False)
out = random.normal(random.PRNGKey(5), (301,))
""", **EXACT)
C("n2_normal_jit", "random", "out = jax.jit(lambda k: random.normal(k, (100,)))(random.PRNGKey(8))", **EXACT)
C("n2_normal_vmap", "random",
  "out = jax.vmap(lambda k: random.normal(k, (40,)))(random.split(random.PRNGKey(9), 5))", **EXACT)

# ---- other dtypes
C("n2_normal_float16", "random", "out = random.normal(random.PRNGKey(10), (200,), jnp.float16)", **EXACT)
C("n2_normal_bfloat16", "random", "out = random.normal(random.PRNGKey(11), (200,), jnp.bfloat16)", **EXACT)
C("n2_normal_float64", "random", """
jax.config.update('jax_enable_x64', True)
out = random.normal(random.PRNGKey(12), (200,), jnp.float64)
""", **EXACT)
C("n2_normal_x64_default", "random", """
jax.config.update('jax_enable_x64', True)
out = random.normal(random.PRNGKey(13), (50,))
""", **EXACT)
C("n2_normal_complex64", "random", "out = random.normal(random.PRNGKey(14), (100,), jnp.complex64)")

# ---- samplers on the same pieces
C("n2_truncated_normal", "random", "out = random.truncated_normal(random.PRNGKey(15), -1.5, 2.0, (200,))")
C("n2_uniform_float16", "random", "out = random.uniform(random.PRNGKey(16), (100,), jnp.float16)", **EXACT)
C("n2_uniform_bfloat16", "random", "out = random.uniform(random.PRNGKey(17), (100,), jnp.bfloat16, -2.0, 3.0)",
  **EXACT)
C("n2_fold_in_many", "random", "out = jnp.stack([random.fold_in(random.PRNGKey(18), d) for d in (0, 1, 7, 2**31, 2**32 - 1)])")
C("n2_fold_in_typed", "random", "out = random.key_data(random.fold_in(random.key(19), 12345))")
C("n2_fold_in_then_normal", "random",
  "out = random.normal(random.fold_in(random.PRNGKey(20), 3), (257,))", **EXACT)
