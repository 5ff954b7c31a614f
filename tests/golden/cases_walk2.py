"""Case definitions for walk2_cases.json: engine differences found by pasting JAX's documentation
into the page (issue 14, round 2), recorded from real JAX 0.10.2 (area "walk2")."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- jnp.dot with a 0-d operand
# docs/debugging/print_breakpoint.md's `logits = w.dot(x) + b` on scalars: JAX writes a dot_general
# contracting nothing on the operands as given (no convert of a weak scalar first), then the
# result's weak type; gradpad wrote `mul` after promoting the operands.
C("walk2_dot_scalar_jaxprs", "walk2", """
out = (str(jax.make_jaxpr(jnp.dot)(1.0, jnp.ones(3))),
       str(jax.make_jaxpr(jnp.dot)(jnp.ones((2, 3)), 2.0)),
       str(jax.make_jaxpr(lambda w, x: w.dot(x))(jnp.int32(1), 2.0)),
       str(jax.make_jaxpr(jnp.dot)(1.0, 2.0)),
       str(jax.make_jaxpr(lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32))(jnp.int32(2), jnp.arange(3))))
""")
C("walk2_dot_scalar_values", "walk2", """
out = (jnp.dot(1.5, jnp.arange(3.)), jnp.dot(jnp.ones((2, 3)), 2.0), jnp.int32(2).dot(2.0), jnp.dot(1.0, 2.0),
       jnp.dot(jnp.int32(2), jnp.arange(3)), jnp.dot(jnp.ones(2, jnp.bfloat16), 3.0),
       jnp.dot(jnp.int32(2), jnp.arange(3), preferred_element_type=jnp.float32))
""")
C("walk2_dot_scalar_transforms", "walk2", """
f = lambda a, b: jnp.dot(a, b).sum()
out = (jax.grad(f, argnums=(0, 1))(2.0, jnp.arange(3.)),
       jax.vmap(jnp.dot, in_axes=(0, None))(jnp.arange(2.), jnp.arange(3.)),
       jax.jit(jnp.dot)(3.0, jnp.arange(3.)),
       str(jax.make_jaxpr(jax.grad(f))(2.0, jnp.arange(3.))))
""")
