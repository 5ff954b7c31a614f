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

# ---------------------------------------------------------------- complex linear algebra
# docs/complex-differentiation.md: grad(f, holomorphic=True) through a complex Cholesky. The
# jvp's first solve is against l^H (it used l^T: a wrong gradient off the real axis).
HERM = "A = jnp.array([[5., 2.+3j, 5j], [2.-3j, 7., 1.+7j], [-5j, 1.-7j, 12.]])\n"
C("conform_grad_cholesky_holomorphic", "conform", HERM +
  "def f(X):\n    L = jnp.linalg.cholesky(X)\n    return jnp.sum((L - jnp.sin(L))**2)\n"
  "out = (jax.grad(f, holomorphic=True)(A), jax.grad(lambda X: jnp.sum(jnp.linalg.cholesky(X)).real)(A))",
  rtol=1e-4, atol=1e-5)
C("conform_jvp_cholesky_complex", "conform", HERM +
  "out = jax.jvp(jnp.linalg.cholesky, (A,), (A * 0.1j + 1,))", rtol=1e-4, atol=1e-5)

# ---------------------------------------------------------------- checkpoint (docs/gradient-checkpointing.md)
# A checkpoint nested in a checkpoint is split by the outermost policy (JAX's partial evaluation
# of the inner remat): the recursive_checkpoint example saves 3 residuals, not 5 (the inner
# checkpoint made the outer body linearize equation by equation, saving what plain grad saves).
RECURSIVE = ("def recursive_checkpoint(funs):\n"
             "  if len(funs) == 1:\n    return funs[0]\n"
             "  elif len(funs) == 2:\n    f1, f2 = funs\n    return lambda x: f1(f2(x))\n"
             "  else:\n    f1 = recursive_checkpoint(funs[:len(funs)//2])\n"
             "    f2 = recursive_checkpoint(funs[len(funs)//2:])\n"
             "    return lambda x: f1(jax.checkpoint(f2)(x))\n")
RES = "res = lambda f, x: sorted(float(r) for r in jax.tree_util.tree_leaves(jax.vjp(f, x)[1]))\n"
C("conform_checkpoint_recursive_residuals", "conform", RECURSIVE + RES +
  "f = recursive_checkpoint([jnp.sin] * 8)\n"
  "out = (res(f, 3.), res(recursive_checkpoint([jnp.sin] * 16), 3.), jax.grad(f)(3.), jax.grad(jax.grad(f))(3.))")
C("conform_checkpoint_nested_policies", "conform", RES +
  "cp = jax.checkpoint_policies\n"
  "inner = lambda y: jnp.sin(y) * y\n"
  "outer_saves = jax.checkpoint(lambda x: jnp.sin(jax.checkpoint(inner)(x)), policy=cp.everything_saveable)\n"
  "inner_saves = jax.checkpoint(lambda x: jnp.sin(jax.checkpoint(inner, policy=cp.everything_saveable)(x)))\n"
  "out = (res(outer_saves, 3.), res(inner_saves, 3.), jax.grad(outer_saves)(3.), jax.grad(inner_saves)(3.))")
# Source lines name the function by its qualified name, as JAX's (print_saved_residuals too)
C("conform_source_info_qualname", "conform",
  "def chain_compose(funs):\n  def f(x):\n    for fun in funs:\n      x = fun(x)\n    return x\n  return f\n"
  "out = jax.make_jaxpr(chain_compose([jnp.sin] * 2))(3.).pretty_print(source_info=True)")

# ---------------------------------------------------------------- constants in jaxprs
# A jax Array that exists before tracing is a constvar, 0-d too (gradpad inlined a literal), and
# its conversions are staged; Python and numpy scalars, and jnp.array(scalar) made while tracing,
# stay literals. docs/jaxpr.md's func8: jnp.array([1]) inside a cond branch is an i32 constvar.
C("conform_jaxpr_closed_over_0d_array", "conform",
  "c = jnp.array(2.0)\nci = jnp.array(3)\n"
  "out = [str(jax.make_jaxpr(f)(1.0)) for f in (lambda x: x * c, lambda x: x * ci, lambda x: x * c + c, "
  "lambda x: x * jnp.array(2.0), lambda x: x * np.float32(2.0), lambda x: jax.jit(lambda y: y * c)(x), "
  "jax.grad(lambda x: x * c), lambda x: jnp.where(x > 0, x, c))]")
C("conform_jaxpr_docs_func8", "conform",
  "def func8(arg1, arg2):\n"
  "  return lax.cond(arg1 >= 0., lambda xtrue: xtrue[0], lambda xfalse: jnp.array([1]) + xfalse[1], arg2)\n"
  "out = str(jax.make_jaxpr(func8)(5., (jnp.zeros(1), 2.)))")
C("conform_closed_over_0d_values", "conform",
  "c = jnp.array(2.0)\nci = jnp.array(3)\n"
  "out = (jax.jit(lambda x: x * c + ci)(1.5), jax.grad(lambda x: x * c * ci)(1.0), jax.vmap(lambda x: x * c)(jnp.arange(3.0)))")

# ---------------------------------------------------------------- jax.random under transforms
# flax.nnx passes out_sharding= to the samplers and checks a traced key's dtype under nnx.vmap
C("conform_random_out_sharding", "conform",
  "k = jax.random.key(0)\n"
  "out = (jax.random.bernoulli(k, 0.5, (3,), out_sharding=None), jax.random.normal(k, (2,), out_sharding=None), "
  "jax.random.uniform(k, (2,), out_sharding=None), jax.random.randint(k, (2,), 0, 9, out_sharding=None))")
C("conform_traced_key_dtype", "conform",
  "ks = jax.random.split(jax.random.key(0), 3)\n"
  "out = (jax.vmap(lambda k: jnp.zeros(()) + jnp.issubdtype(k.dtype, jax.dtypes.prng_key))(ks), "
  "jax.jit(lambda k: jnp.issubdtype(k.dtype, jax.dtypes.prng_key))(ks[0]), "
  "jax.vmap(lambda k: jax.random.normal(k, (2,)) if str(k.dtype) == 'key<fry>' else jnp.zeros(2))(ks))")

# ---------------------------------------------------------------- name stacks
# `pretty_print(name_stack=True)`: named_scope entries, wrapped by the transformations applied
# around them (jvp for grad's primal half, transpose for its cotangents, vmap), as JAX prints
NS = ("def f(x):\n    with jax.named_scope('foo'):\n        y = jnp.sin(x) * 2\n    return y + 1\n"
      "P = lambda fn, *a: jax.make_jaxpr(fn)(*a).pretty_print(name_stack=True)\n")
C("conform_name_stack_grad", "conform", NS + "out = (P(f, 1.), P(jax.grad(f), 1.), P(lambda x: jax.jvp(f, (x,), (x,)), 1.))")
C("conform_name_stack_vmap_value_and_grad", "conform", NS +
  "out = (P(jax.vmap(f), jnp.ones(2)), P(jax.value_and_grad(lambda x: jnp.sum(jnp.tanh(x))), jnp.ones(2)))")
C("conform_name_stack_decorator_and_inner_jaxprs", "conform", NS +
  "@jax.named_scope('deco')\ndef h(x):\n    return jnp.exp(x)\n"
  "def g(x):\n    with jax.named_scope('outer'):\n"
  "        y = lax.cond(x > 0, lambda v: jnp.sin(v), lambda v: jnp.cos(v), x)\n"
  "        return jax.jit(lambda v: v * 2)(y)\n"
  "out = (P(lambda x: h(h(x)), 1.), P(g, 1.), P(jax.vmap(g), jnp.ones(2)))")
# the `# ...` column sits one past the widest line of the whole text (a nested jaxpr's header too)
C("conform_annotation_column", "conform", NS +
  "def g(x):\n    return jax.jit(f)(x) * 3\n"
  "out = (P(jax.grad(g), 1.), P(lambda a, b, c, d, e, f, g: jnp.sin(a) + 1, 1., 2., 3., 4., 5., 6., 7.))")
# linearize records its equations' stacks from where it began: hessian's cotangents say
# vmap(jvp(vmap(transpose(jvp())))), not the outer transformations twice
C("conform_name_stack_nested_transforms", "conform", NS +
  "out = (P(jax.jacfwd(jnp.sin), 1.), P(jax.hessian(jnp.sin), 1.), P(jax.grad(jax.grad(f)), 1.))")
