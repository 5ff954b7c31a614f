"""Case definitions for teachui_cases.json: where each jaxpr equation came from in the user's code
(`pretty_print(source_info=True)`: file:line:column (function)), recorded from real JAX. The case
code runs from a file named `<golden:NAME>` in both engines, so the text compares exactly."""
from casebook import recorder

CASES, C, E = recorder()

F = """
def f(x):
    y = jnp.sin(x)
    return jnp.sum(y * jnp.cos(x)) + 1.0
"""
C("source_info_make_jaxpr", "source_info", F + "out = jax.make_jaxpr(f)(jnp.ones(3)).pretty_print(source_info=True)")
# each cotangent equation points at the line whose primal made it (the transpose of y * cos(x) at 4:19)
C("source_info_grad", "source_info", F + "out = jax.make_jaxpr(jax.grad(f))(jnp.ones(3)).pretty_print(source_info=True)")
C("source_info_vmap", "source_info", F + "out = jax.make_jaxpr(jax.vmap(f))(jnp.ones((2, 3))).pretty_print(source_info=True)")
C("source_info_name_stack_flag", "source_info", F + "out = jax.make_jaxpr(f)(2.0).pretty_print(source_info=True, name_stack=True)")
# a jit at the top has no user frame inside make_jaxpr's trace; relu's inner jit is JAX's own code
C("source_info_jit_and_library_code", "source_info", F + """
out = (jax.make_jaxpr(jax.jit(f))(2.0).pretty_print(source_info=True),
       jax.make_jaxpr(lambda x: jax.nn.relu(x) * 2)(2.0).pretty_print(source_info=True))
""")
# cond branches given as jnp functions and jnp.where's inner jit carry no user line
C("source_info_cond_where", "source_info", """
def g(x):
    return jnp.sin(x) * 2
def f(x):
    y = jax.jit(g)(x)
    z = jax.lax.cond(x > 0, jnp.sin, jnp.cos, y)
    return jnp.where(z > 0, z, 0.0)
out = jax.make_jaxpr(f)(2.0).pretty_print(source_info=True)
""")
C("source_info_off_by_default", "source_info", F + "out = (str(jax.make_jaxpr(f)(2.0)), jax.make_jaxpr(f)(2.0).pretty_print())")
C("source_info_scan_body", "source_info", """
def step(c, x):
    c = c * 0.9 + x
    return c, jnp.tanh(c)
def f(xs):
    return jax.lax.scan(step, 0.0, xs)[1].sum()
out = jax.make_jaxpr(jax.grad(f))(jnp.ones(4)).pretty_print(source_info=True)
""")
# a jaxpr short enough for one line: each equation's note on a line of its own, aligned
C("source_info_one_line", "source_info", """
def f(x):
    return jnp.sin(x) * 2.0
out = jax.make_jaxpr(f)(1.0).pretty_print(source_info=True)
""")
