"""Case definitions for loopops_cases.json (issue 24): the small ops an MCMC kernel's while_loop
runs thousands of times (blackjax's NUTS: population_count for its tree checkpoints, a one-row
`.at[i].set`, dtype conversions), which got fast paths of their own; recorded from real JAX."""
from casebook import recorder

CASES, C, E = recorder()

X64 = "jax.config.update('jax_enable_x64', True)\n"

C("population_count_signed_and_unsigned", "lax",
  "vals = [0, 1, -1, -128, 127, 85, -86, 3]\n"
  "out = [lax.population_count(jnp.array(vals, dt)) for dt in (jnp.int8, jnp.int16, jnp.int32)] + "
  "[lax.population_count(jnp.array([0, 1, 255, 170], dt)) for dt in (jnp.uint8, jnp.uint16, jnp.uint32)] + "
  "[jax.jit(lax.population_count)(jnp.int32(-7)), lax.population_count(jnp.array([[5, -5]], jnp.int32))]")
C("population_count_int64_x64", "lax", X64 +
  "out = lax.population_count(jnp.array([-1, 2**40 + 3, -(2**62)], jnp.int64))")
C("at_set_one_row_in_and_out_of_bounds", "indexing",
  "x = jnp.zeros((4, 3))\n"
  "f = jax.jit(lambda x, i: x.at[i].set(jnp.arange(3.0) + i))\n"
  "out = (x.at[2].set(jnp.arange(3.0)), x.at[-1].set(5.0), x.at[7].set(1.0), f(x, 1), f(x, 9), f(x, -2), "
  "x.at[9].set(2.0, mode='clip'), x.at[1, 2].set(4.0), x.at[3].add(1.0), "
  "jax.jit(lambda x, i, j: x.at[i, j].set(8.0))(x, 3, 5), jnp.zeros(5, jnp.int32).at[4].set(7))")
C("at_set_in_a_while_loop", "control_flow",
  "def body(c):\n"
  "    i, buf = c\n"
  "    return i + 1, buf.at[i % 4].set(buf[i % 4] + i)\n"
  "out = lax.while_loop(lambda c: c[0] < 10, body, (0, jnp.zeros(4, jnp.float32)))")
C("convert_element_type_loop_dtypes", "lax",
  "x = jnp.array([1.5, -2.25, 3e38], jnp.float32)\n"
  "out = (lax.convert_element_type(jnp.array([1, -2, 3], jnp.int32), jnp.float32), "
  "lax.convert_element_type(jnp.array([True, False]), jnp.int32), "
  "lax.convert_element_type(jnp.array([1, 300], jnp.int32), jnp.uint8), "
  "lax.convert_element_type(x, jnp.float32), lax.convert_element_type(x, jnp.float16), "
  "lax.convert_element_type(jnp.array([1.5, 7e4], jnp.float16), jnp.float32), "
  "lax.convert_element_type(x, jnp.int32), jax.jit(lambda v: v.astype(jnp.int8))(x), "
  "lax.convert_element_type(jnp.array([2**31 - 1], jnp.int32), jnp.float32))")
C("convert_element_type_widening_x64", "lax", X64 +
  "out = (jnp.array([0.1, 1e-40], jnp.float32).astype(jnp.float64), jnp.array([2**53 + 1]).astype(jnp.float64), "
  "jnp.array([1e300]).astype(jnp.float32), jnp.array([7], jnp.uint64).astype(jnp.float64))")
