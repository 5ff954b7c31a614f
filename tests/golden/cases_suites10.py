"""Case definitions for suites10_cases.json (issue 24, stop 38): engine behaviour that the test suites of
numpyro, diffrax, optimistix, lineax and jaxopt (exported from their sources; tools/lib_tests.py
--suite-dir) showed gradpad doing differently from real JAX 0.10.2."""
from casebook import recorder

CASES, C, E = recorder()

# `x.at[i].get/set/...(wrap_negative_indices=False)`: a negative index is out of bounds (then `mode`
# decides), not counted from the end, and no select(i < 0, i + n, i) is staged (lineax's
# tridiagonal operator: `.at[coloring, rows].get(wrap_negative_indices=False, unique_indices=True)`)
C("suites10_at_wrap_negative_indices_false", "indexing", """
x = jnp.arange(5.0)
i = jnp.array([-1, 2, 0])
out = (x.at[-1].set(99.0, wrap_negative_indices=False, mode="drop"),
       x.at[-1].get(wrap_negative_indices=False, mode="fill", fill_value=-1.0),
       x.at[-1].get(wrap_negative_indices=False), x.at[jnp.array(-2)].get(wrap_negative_indices=False),
       x.at[i].get(wrap_negative_indices=False, mode="fill"), x.at[i].get(wrap_negative_indices=False, unique_indices=True),
       x.at[i].add(10.0, wrap_negative_indices=False), x.at[i].multiply(3.0, wrap_negative_indices=False, mode="drop"),
       x.at[i].get(), x.at[-2:].get(wrap_negative_indices=False),
       jax.jit(lambda x, i: x.at[i].get(wrap_negative_indices=False, mode="fill", fill_value=7.0))(x, jnp.int32(-1)),
       str(jax.make_jaxpr(lambda x, i: x.at[i].get(wrap_negative_indices=False, unique_indices=True))(x, i)),
       str(jax.make_jaxpr(lambda x, i: x.at[i].get(wrap_negative_indices=False))(x, jnp.int32(-1))),
       str(jax.make_jaxpr(lambda x, i: x.at[i].set(1.0, wrap_negative_indices=False))(x, i)))
""")

# eq/ne of typed PRNG keys compare the key words under jit, vmap and jnp.equal too, not only eagerly
# with `==` (numpyro's test_prng_key_with_vmap: `vmap(seed(model, 0))` keys compared with `==`)
C("suites10_key_eq_ne_under_jit_vmap", "random", """
k = jax.random.split(jax.random.key(0), 3)
k0 = jax.random.key(0)
both = jnp.stack([k[1], k0])
out = (jax.jit(lambda a, b: a == b)(k, k0), jax.jit(lambda a, b: a != b)(k, k[1]), jnp.equal(k, k[0]),
       jnp.not_equal(both, k0), jax.vmap(lambda a: a == k[2])(k), jax.vmap(lambda a, b: a != b)(k, k),
       jax.jit(lambda a: jnp.all(a == a[0]))(jax.vmap(lambda i: k0)(jnp.arange(4))),
       str(jax.make_jaxpr(lambda a, b: (a == b, a != b))(k, k0)))
""")

# a primitive's parameter may be named `prim` (equinox's vprim, which lineax's solves bind under vmap,
# carries the wrapped primitive as `prim=`): gradpad's bind took it for its own first argument
C("suites10_primitive_param_named_prim", "extend", """
p = jax.extend.core.Primitive("tagged_scale")
p.def_impl(lambda x, *, prim, scale: x * scale)
p.def_abstract_eval(lambda x, *, prim, scale: x)
f = lambda x: p.bind(x, prim="mul", scale=3.0) + 1.0
out = (p.bind(jnp.float32(2.0), prim="mul", scale=3.0), str(jax.eval_shape(f, jnp.float32(2.0))),
       str(jax.make_jaxpr(f)(jnp.float32(2.0))))
""")

# jnp.asarray of an array already of the dtype asked for is that array (lineax's inexact_asarray:
# `inexact_asarray(x) is x`, under vmap too); copy=True is a new array; jnp.array/copy keep a weak type
C("suites10_asarray_identity_and_weak_type", "numpy", """
x = jnp.array([1.0]); w = jnp.asarray(2.0); i = jnp.arange(3); y = jnp.array([1.0, 2.0])
out = (jnp.asarray(x, dtype=x.dtype) is x, jnp.asarray(x, "float32") is x, jnp.asarray(i, jnp.int32) is i,
       jnp.asarray(x, jnp.float32, copy=False) is x, jnp.asarray(x, copy=True) is x, jnp.asarray(x, jnp.float32, copy=True) is x,
       jnp.asarray(w, jnp.float32) is w, jnp.asarray(w, jnp.float32).weak_type, jnp.asarray(w) is w,
       jnp.array(x, copy=False) is x, jnp.array(x) is x, jnp.array(w).weak_type, jnp.copy(w).weak_type,
       jnp.array(w, copy=False) is w, jnp.array(w, jnp.float32).weak_type, jnp.asarray(x, jnp.int32),
       jax.vmap(lambda a: jnp.asarray(a, a.dtype))(y) is y, jnp.array(w) + jnp.int8(3))
""")

# forward mode reaching a custom_vjp function through a vmap (jacfwd of a jitted custom_vjp function,
# lineax's JacobianLinearOperator(jac="fwd")) is JAX's TypeError, not a missing batching rule
E("suites10_jacfwd_of_jitted_custom_vjp_raises", "custom", """
f = jax.custom_vjp(lambda x: x * 2.0)
f.defvjp(lambda x: (f(x), None), lambda r, g: (g * 3.0,))
out = jax.jacfwd(jax.jit(f))(jnp.arange(2.0))
""")
C("suites10_jacrev_of_jitted_custom_vjp", "custom", """
f = jax.custom_vjp(lambda x: x * 2.0)
f.defvjp(lambda x: (f(x), None), lambda r, g: (g * 3.0,))
out = (jax.jacrev(jax.jit(f))(jnp.arange(2.0)), jax.vmap(jax.grad(lambda x: f(x).sum()))(jnp.ones((3, 2))))
""")

# jnp.outer gives both operands their axis (no rank promotion): it works under
# jax_numpy_rank_promotion='raise' (optimistix's BFGS Hessian updates, its tests' config)
C("suites10_outer_under_rank_promotion_raise", "numpy", """
jaxpr = str(jax.make_jaxpr(jnp.outer)(jnp.arange(3.0), jnp.arange(2)))
jaxpr2 = str(jax.make_jaxpr(jnp.outer)(jnp.ones((2, 2)), 3.0))
jax.config.update("jax_numpy_rank_promotion", "raise")
try:
    out = (jnp.outer(jnp.arange(3.0), jnp.arange(1.0, 3.0)), jax.jit(jnp.outer)(jnp.ones((2, 2)), jnp.arange(3)), jaxpr, jaxpr2)
finally:
    jax.config.update("jax_numpy_rank_promotion", "allow")
""")

# complex logaddexp (softplus of a complex MLP's activations: optimistix's complex fixed-point tests)
# takes JAX's complex branch; it added a real |delta| to a complex maximum (a dtype error)
C("suites10_complex_logaddexp", "numpy", """
jax.config.update("jax_enable_x64", True)
x = jnp.array([1 + 2j, -0.5 + 0.1j, 3 - 4j, -2 + 3.5j])
out = (jax.nn.softplus(x), jnp.logaddexp(x, 0), jnp.logaddexp(x, x[::-1]),
       jnp.logaddexp(x.astype(jnp.complex64), jnp.complex64(1j)),
       jax.jvp(lambda z: jnp.logaddexp(z, 0.5), (x,), (jnp.ones_like(x),)), jnp.logaddexp(jnp.arange(3.0), 1.0))
""", rtol=1e-6)
