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
