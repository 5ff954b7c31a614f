"""Case definitions for libtests_cases.json: what optax 0.2.8's and chex 0.1.92's own test suites
(tools/lib_tests.py) showed gradpad doing differently, recorded from real JAX 0.10.2 (area "libtests")."""
from casebook import recorder

CASES, C, E = recorder()

# chex fake_test: pmap mapping a Python scalar along axis 0 is a ValueError in JAX (a sharding rank
# error there; gradpad names the argument and the fix), not an IndexError from inside pmap.
E("libtests_pmap_scalar_on_mapped_axis", "libtests",
  "out = jax.pmap(lambda x, m: x * m)(jnp.ones((1, 2)), 100)", msg_prefix=0)
E("libtests_pmap_axis_beyond_rank", "libtests",
  "out = jax.pmap(lambda x, y: x * y, in_axes=(0, 1))(jnp.ones((1, 2)), jnp.ones((3,)))", msg_prefix=0)
C("libtests_pmap_scalar_unmapped", "libtests",
  "out = (jax.pmap(lambda x, m: x * m, in_axes=(0, None))(jnp.ones((1, 2)), 100), "
  "jax.pmap(lambda x: x * 2, in_axes=-1)(jnp.ones((2, 1))))")

# optax MultiSteps (alias_test gradient_accumulation) casts every state leaf back to its dtype,
# typed PRNG keys included: jnp.astype(key, key.dtype) is a no-op; other conversions are errors.
KEYS = "k, k2 = jax.random.key(0), jax.random.key(1)\n"
C("libtests_astype_key_to_its_dtype", "libtests", KEYS +
  "out = (jax.random.key_data(jax.jit(lambda e, a, b: jnp.astype(jnp.where(e, a, b), a.dtype))(False, k, k2)), "
  "jax.random.key_data(jnp.astype(k, k.dtype)), jnp.astype(k, k.dtype).dtype == k.dtype)")
E("libtests_astype_float_to_key", "libtests", KEYS + "out = jnp.astype(jnp.ones(2), k.dtype)")
E("libtests_astype_key_to_uint32", "libtests", KEYS + "out = jnp.astype(k, 'uint32')")

# optax's _reject_complex runs jnp.iscomplexobj over abstract params (jax.ShapeDtypeStruct):
# JAX reads `.dtype` when there is one instead of making an array (sharding_test init_with_abstract_input).
C("libtests_iscomplexobj_reads_dtype", "libtests",
  "c, f = jax.ShapeDtypeStruct((2, 4), jnp.complex64), jax.ShapeDtypeStruct((3,), jnp.float32)\n"
  "out = (jnp.iscomplexobj(c), jnp.iscomplexobj(f), jnp.isrealobj(c), jnp.isrealobj(f), jnp.iscomplexobj(None), "
  "jnp.isrealobj(None), jnp.iscomplexobj(jnp.complex64), jnp.iscomplexobj([1, 2j]), jnp.iscomplexobj(jax.random.key(0)), "
  "jnp.iscomplexobj(jnp.ones(2)))")

# optax's lbfgs preconditioning calls `x.dot(y, precision=...)` (alias_test LBFGSTest)
C("libtests_array_dot_method_keywords", "libtests",
  "a, b = jnp.arange(6.0).reshape(2, 3), jnp.arange(3, dtype=jnp.int8)\n"
  "out = (a.dot(a.T, precision=jax.lax.Precision.HIGHEST), b.dot(b, preferred_element_type=jnp.int32), "
  "jax.jit(lambda x: x.dot(x.T, precision='highest'))(a))")

# Key arrays that come out of jit, jnp.where or tree maps have dtype key<fry> too (optax's
# tree_unwrap_random_key_data tests `jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)`).
C("libtests_key_dtype_of_every_key_array", "libtests", KEYS +
  "outs = (jax.jit(lambda k: k)(k), jnp.where(True, k, k2), jax.jit(lambda k: jax.random.split(k))(k))\n"
  "out = tuple((str(x.dtype), x.dtype == k.dtype, jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key), "
  "jax.random.key_data(x)) for x in outs)")

# chex's is_traceable (and assert_max_traces' wrapper-order check) spots jitted functions by type name
C("libtests_jit_type_name", "libtests", "out = (type(jax.jit(lambda x: x)).__name__, type(jax.jit(jnp.sin)).__name__)")
