"""Case definitions for conform_cases.json: what learners paste from JAX's docs and libraries'
READMEs, where gradpad differed from real JAX 0.10.2 (issue 11, area "conform"). Each case is
the JAX call whose recorded result the fix must reproduce."""
from casebook import recorder

CASES, C, E = recorder()

I8 = "a = jnp.array([[100, 100], [100, 100]], dtype=jnp.int8)\n"

# ---------------------------------------------------------------- lax's dtype rules, eagerly too
# Eager dispatch on one operand (or same-dtype operands) skipped the shape rule, so numpy
# answered sin(int32) in float64 where JAX raises.
E("conform_lax_sin_python_int", "conform", "out = lax.sin(1)")
E("conform_lax_exp_int_array", "conform", "out = lax.exp(jnp.arange(3))")
E("conform_lax_atan2_ints", "conform", "out = lax.atan2(jnp.arange(3), jnp.arange(3))")
E("conform_lax_is_finite_complex", "conform", "out = lax.is_finite(jnp.array([1 + 2j]))")
C("conform_lax_sin_float_ok", "conform", "out = (lax.sin(1.0), lax.add(1, 2), lax.exp(jnp.float32(0.5)))")
# jnp.isfinite splits a complex into its parts (lax.is_finite takes real floats only)
C("conform_isfinite_complex", "conform",
  "x = jnp.array([1 + 2j, jnp.inf + 0j, 1 + jnp.nan * 1j])\n"
  "out = (jnp.isfinite(x), jax.jit(jnp.isfinite)(x), jnp.allclose(x[:1], x[:1]), str(jax.make_jaxpr(jnp.isfinite)(x)))")

# ---------------------------------------------------------------- preferred_element_type
# int8 products accumulate in the preferred type (they wrapped in int8 before the cast)
C("conform_dot_int8_preferred_int32", "conform", I8 + "out = (lax.dot(a, a, preferred_element_type=jnp.int32), "
  "lax.dot(a, a, preferred_element_type=jnp.float32), lax.dot(a, a, preferred_element_type=jnp.int16), lax.dot(a, a))")
C("conform_dot_uint8_preferred_int32", "conform", I8 + "u = a.astype(jnp.uint8)\n"
  "out = lax.dot_general(u, u, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32)")
C("conform_jnp_products_int8_preferred", "conform", I8 + "out = (jnp.dot(a, a, preferred_element_type=jnp.int32), "
  "jnp.matmul(a, a, preferred_element_type=jnp.int32), jnp.einsum('ij,jk->ik', a, a, preferred_element_type=jnp.int32), "
  "jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.int32))(a))")
C("conform_jaxpr_dot_int8_preferred", "conform", I8 + "out = str(jax.make_jaxpr(lambda a: jnp.dot(a, a, preferred_element_type=jnp.int32))(a))")
C("conform_dot_float_preferred_int", "conform", "out = lax.dot(jnp.ones((2, 2)), jnp.ones((2, 2)), preferred_element_type=jnp.int32)")
E("conform_dot_int8_preferred_bool_narrower", "conform", I8 + "out = lax.dot(a, a, preferred_element_type=jnp.bool_)")

# ---------------------------------------------------------------- jnp.asarray's errors
E("conform_asarray_none", "conform", "out = jnp.asarray(None)")
E("conform_array_list_with_none", "conform", "out = jnp.array([1.0, None])")
E("conform_asarray_dict", "conform", "out = jnp.asarray({'a': 1})")
E("conform_convolve_bad_mode", "conform", "out = jnp.convolve(jnp.ones(3), jnp.ones(2), mode='bad')")
E("conform_correlate_bad_mode", "conform", "out = jnp.correlate(jnp.ones(3), jnp.ones(2), mode='FULL')")
