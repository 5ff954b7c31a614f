"""Case definitions for docs_cases.json: functions whose docstring examples (tools/doc_examples.py)
differed from real JAX 0.10.2, each with the docstring's call and a neighbour case or two."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- sinc
# JAX evaluates sinc at 0 through a custom_jvp Taylor series: every derivative there is exact.
C("docs_sinc_higher_grads_at_zero", "docs", """
    f, out = jnp.sinc, []
    for i in range(5):
        f = jax.grad(f)
        out.append(f(0.0))
    out = tuple(out)
""")
C("docs_sinc_values_and_grad", "docs",
  "out = (jnp.sinc(jnp.array([0., .5, 1., -2.5])), jax.grad(jnp.sinc)(0.5), jnp.sinc(3), jnp.sinc(jnp.array([0, 1], jnp.int32)))")
C("docs_sinc_jit_vmap_hessian", "docs",
  "out = (jax.jit(jax.grad(jax.grad(jnp.sinc)))(0.0), jax.vmap(jax.grad(jax.grad(jnp.sinc)))(jnp.array([0., 0.5, -1.])))")
# grad of an already-jitted sinc: the Taylor term must survive staging (a custom_jvp_call)
C("docs_sinc_grads_of_jit", "docs", """
    g, out = jax.jit(jnp.sinc), []
    for i in range(4):
        g = jax.grad(g)
        out.append(g(0.0))
    out = tuple(out)
""")
