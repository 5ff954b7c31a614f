"""Case definitions for transforms_cases.json (issue 11): complex differentiation, checkpointing and
its policies, linear_transpose, vjp functions as pytrees, custom_vjp under jacrev(vmap), jax.nn
names; recorded from real JAX."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- complex: jvp/vjp of the parts
Z = "z = jnp.array([3.0 + 4.0j, -1.0 + 0.5j, 0j])\n"
C("complex_jvp_parts", "complex", Z + """
t = jnp.array([1.0 + 1.0j, 2.0 - 1.0j, 1.0j])
out = [jax.jvp(f, (z,), (t,)) for f in (jnp.real, jnp.imag, jnp.conj, jnp.abs, jnp.angle)]
""")
C("complex_vjp_parts", "complex", Z + """
r = jnp.array([1.0, -2.0, 0.5])
out = (jax.vjp(jnp.real, z)[1](r), jax.vjp(jnp.imag, z)[1](r), jax.vjp(jnp.abs, z)[1](r),
       jax.vjp(jnp.angle, z)[1](r), jax.vjp(jnp.conj, z)[1](z))
""")
C("complex_vjp_arith", "complex", """
a, b = jnp.array(3.0 + 4.0j), jnp.array(1.0 - 2.0j)
ct = jnp.array(1.0 + 2.0j)
out = (jax.vjp(lambda a, b: a * b, a, b)[1](ct), jax.vjp(lambda a, b: a / b, a, b)[1](ct),
       jax.vjp(jnp.exp, a)[1](ct), jax.vjp(jnp.log, a)[1](ct), jax.vjp(jnp.sin, a)[1](ct),
       jax.vjp(jnp.sqrt, a)[1](ct), jax.vjp(lambda a: a ** 3, a)[1](ct))
""")
C("complex_lax_complex_conj", "complex", """
out = (jax.jvp(lax.complex, (1.0, 2.0), (2.0, 3.0)), jax.vjp(lax.complex, 1.0, 2.0)[1](2.0 + 3.0j),
       jax.jvp(lax.conj, (1.0,), (2.0,)), jax.vjp(lax.conj, 1.0)[1](1.0 + 1.0j), lax.conj(2.0),
       lax.complex(jnp.float32(1), jnp.float32(jnp.inf)))
""")
C("complex_real_input_through_complex", "complex", """
out = (jax.grad(lambda x: jnp.real(x * (1 + 2j)))(1.0), jax.grad(lambda x: jnp.imag(x * (1 + 2j)))(1.0),
       jax.grad(lambda x: jnp.abs(x * (3 + 4j)))(2.0))
""")
C("complex_grad_abs_sum", "complex", Z + "out = (jax.grad(lambda x: jnp.sum(jnp.abs(x)))(z), jax.grad(lambda x: jnp.sum(jnp.abs(x) ** 2))(z))")
C("complex_jacrev_abs", "complex", Z + "out = jax.jacrev(jnp.abs)(z)")
C("complex_vmap_jit_grad_abs", "complex", Z + """
g = jax.grad(lambda x: jnp.abs(jnp.exp(x)) + jnp.angle(x))
out = (jax.vmap(g)(z[:2]), jax.jit(g)(z[0]))
""")
C("jaxpr_complex_grad_abs", "complex", "out = str(jax.make_jaxpr(jax.grad(jnp.abs))(3.0 + 4.0j))")
C("jaxpr_complex_grad_abs_vector", "complex", "out = str(jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.abs(x))))(jnp.ones(2, jnp.complex64)))")
C("jaxpr_complex_grad_real_complex", "complex", "out = str(jax.make_jaxpr(jax.grad(lambda x: jnp.real(lax.complex(x, 2 * x))))(1.0))")
C("jaxpr_complex_grad_conj_mul", "complex", "out = str(jax.make_jaxpr(jax.grad(lambda x: jnp.sum(jnp.real(jnp.conj(x) * x))))(jnp.ones(3, jnp.complex64)))")
C("jaxpr_complex_lax_conj_real", "complex", "out = str(jax.make_jaxpr(lax.conj)(1.0))")

# ---------------------------------------------------------------- the autodiff cookbook's complex section
C("cookbook_complex_grad_real_valued", "complex", """
def f(z):
    x, y = jnp.real(z), jnp.imag(z)
    return x**2 + y**2
z = 3. + 4j
out = jax.grad(f)(z)
""")
C("cookbook_complex_holomorphic", "complex", """
z = 3. + 4j
out = (jax.grad(jnp.sin, holomorphic=True)(z), jax.grad(jnp.conjugate, holomorphic=True)(z),
       jax.grad(lambda z: z ** 2 + 1j * z, holomorphic=True)(z))
""")
C("cookbook_complex_jvp_vjp", "complex", """
def f(z):
    return jnp.sin(z) * jnp.conj(z)
z, v = 1.0 + 2.0j, 0.5 - 1.0j
out = (jax.jvp(f, (z,), (v,)), jax.vjp(f, z)[1](v))
""")
C("cookbook_complex_u_v", "complex", """
def u(x, y): return x ** 2 - y ** 2
def f(z):
    x, y = jnp.real(z), jnp.imag(z)
    return u(x, y) + 2 * x * y * 1j
def grad_f(z):
    x, y = jnp.real(z), jnp.imag(z)
    return jax.grad(u, 0)(x, y) - jax.grad(u, 1)(x, y) * 1j
z = 3.0 + 4.0j
out = (grad_f(z), jax.grad(f, holomorphic=True)(z))
""")
C("complex_jacobians_holomorphic", "complex", """
z = jnp.array([1.0 + 2.0j, 3.0j])
f = lambda z: jnp.sin(z) * z
out = (jax.jacfwd(f, holomorphic=True)(z), jax.jacrev(f, holomorphic=True)(z),
       jax.hessian(lambda z: jnp.sum(z ** 3), holomorphic=True)(z))
""")
E("complex_grad_needs_holomorphic", "complex", "out = jax.grad(jnp.sin)(1.0 + 2.0j)")
E("complex_grad_complex_output_of_real", "complex", "out = jax.grad(lambda x: x * 1j)(1.0)")
E("complex_holomorphic_real_input", "complex", "out = jax.grad(jnp.sin, holomorphic=True)(1.0)")
E("complex_holomorphic_real_output", "complex", "out = jax.grad(jnp.abs, holomorphic=True)(1.0 + 1.0j)")
E("complex_jacfwd_complex_input", "complex", "out = jax.jacfwd(jnp.sin)(jnp.array([1.0 + 2.0j]))")
E("complex_jacfwd_holomorphic_real_output", "complex", "out = jax.jacfwd(jnp.abs, holomorphic=True)(jnp.array([1.0 + 2.0j]))")
E("complex_jacrev_complex_output", "complex", "out = jax.jacrev(jnp.sin)(jnp.array([1.0 + 2.0j]))")
E("complex_hessian_complex_input", "complex", "out = jax.hessian(lambda z: jnp.abs(z) ** 2)(jnp.array(1.0 + 2.0j))")
E("complex_vjp_real_cotangent", "complex", "out = jax.vjp(jnp.sin, 1.0 + 1.0j)[1](1.0)")
E("vjp_int_cotangent_for_float", "complex", "out = jax.vjp(jnp.sin, 1.0)[1](1)")
E("vjp_cotangent_wrong_shape", "complex", "out = jax.vjp(jnp.sin, 1.0)[1](jnp.ones(1))")
E("grad_int_output", "complex", "out = jax.grad(lambda x: (x * 2).astype(int))(1.0)")
C("vjp_int_output_takes_any_int_cotangent", "complex", "out = jax.vjp(lambda x: (x * 2).astype(int), 1.0)[1](1)")

# ---------------------------------------------------------------- custom rules survive a vmap under autodiff
CV = """
@jax.custom_vjp
def f(x):
    return jnp.sin(x)
f.defvjp(lambda x: (jnp.sin(x), x), lambda x, g: (10.0 * g,))
x = jnp.array([0.1, 0.2])
"""
C("custom_vjp_jacrev_vmap_eager", "custom", CV + """
out = (jax.jacrev(jax.vmap(f))(x), jax.jacrev(jax.jit(jax.vmap(f)))(x), jax.grad(lambda x: jnp.sum(jax.vmap(f)(x)))(x),
       jax.jacrev(jax.vmap(jax.vmap(f)))(x[None]), jax.vjp(jax.vmap(f), x)[1](jnp.ones(2)))
""")
C("custom_vjp_vmap_unbatched_arg", "custom", """
@jax.custom_vjp
def f(x, y):
    return jnp.sin(x) * y
f.defvjp(lambda x, y: (f(x, y), (x, y)), lambda r, g: (10.0 * g * r[1], None))
x = jnp.array([0.1, 0.2])
out = (jax.jacrev(jax.vmap(f, in_axes=(0, None)), argnums=(0, 1))(x, 3.0),
       jax.grad(lambda y: jnp.sum(jax.vmap(f, in_axes=(None, 0))(0.5, y)))(x))
""")
C("custom_vjp_nondiff_vmap_and_jit", "custom", """
@partial(jax.custom_vjp, nondiff_argnums=(0,))
def h(k, x):
    return jnp.sin(x) * k
h.defvjp(lambda k, x: (h(k, x), x), lambda k, x, g: (10.0 * g * k,))
x = jnp.array([0.1, 0.2])
out = (jax.jacrev(jax.vmap(partial(h, 2.0)))(x), jax.grad(jax.jit(partial(h, 2.0)))(1.0),
       str(jax.make_jaxpr(partial(h, 2.0))(1.0)))
""")
E("custom_vjp_nondiff_tracer", "custom", """
@partial(jax.custom_vjp, nondiff_argnums=(0,))
def h(k, x):
    return jnp.sin(x) * k
h.defvjp(lambda k, x: (h(k, x), x), lambda k, x, g: (10.0 * g * k,))
out = jax.make_jaxpr(h)(2.0, 1.0)
""")
C("custom_jvp_jacrev_vmap_eager", "custom", """
@jax.custom_jvp
def g(x):
    return jnp.sin(x)
g.defjvp(lambda p, t: (jnp.sin(p[0]), 10.0 * t[0]))
x = jnp.array([0.1, 0.2])
out = (jax.jacrev(jax.vmap(g))(x), jax.jacfwd(jax.vmap(g))(x))
""")
E("custom_vjp_jvp_of_vmap", "custom", """
@jax.custom_vjp
def f(x):
    return jnp.sin(x)
f.defvjp(lambda x: (jnp.sin(x), x), lambda x, g: (10.0 * g,))
out = jax.jvp(jax.vmap(f), (jnp.ones(2),), (jnp.ones(2),))
""")
