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

# ---------------------------------------------------------------- jax.checkpoint and its policies
CK = """
def g(W, x):
    y = jnp.dot(W, x)
    return jnp.sin(y)
def f(W1, W2, W3, x):
    x = g(W1, x)
    x = g(W2, x)
    x = g(W3, x)
    return x
W1 = jnp.linspace(0.1, 1.0, 20).reshape(5, 4); W2 = jnp.linspace(-1.0, 1.0, 30).reshape(6, 5)
W3 = jnp.linspace(0.5, -0.5, 42).reshape(7, 6); x = jnp.linspace(0.2, 0.8, 4)
P = jax.checkpoint_policies
"""
C("checkpoint_policies_namespace", "checkpoint", """
P = jax.checkpoint_policies
out = (sorted(vars(P)), str(P.dots_saveable), str(P.checkpoint_dots_with_no_batch_dims),
       str(P.save_only_these_names('a')), str(P.save_any_names_but_these('b')),
       P.dots_saveable is P.checkpoint_dots, P.everything_saveable(), P.nothing_saveable())
""")
C("checkpoint_every_policy_same_grads", "checkpoint", CK + """
loss = lambda *a: jnp.sum(f(*a) ** 2)
policies = [None, P.everything_saveable, P.nothing_saveable, P.dots_saveable, P.checkpoint_dots,
            P.dots_with_no_batch_dims_saveable, P.checkpoint_dots_with_no_batch_dims,
            P.offload_dot_with_no_batch_dims('device', 'pinned_host'), P.save_anything_except_these_names('a'),
            P.save_any_names_but_these('a'), P.save_only_these_names('a'),
            P.save_from_both_policies(P.dots_saveable, P.nothing_saveable),
            P.save_and_offload_only_these_names(names_which_can_be_saved=['a'], names_which_can_be_offloaded=['b'],
                                                offload_src='device', offload_dst='pinned_host')]
out = [jax.grad(jax.checkpoint(loss, policy=p), argnums=(0, 3))(W1, W2, W3, x) for p in policies]
""", rtol=1e-4)
C("checkpoint_values_and_transforms", "checkpoint", """
h = jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)))
out = (h(2.0), jax.grad(h)(2.0), jax.vmap(jax.grad(h))(jnp.arange(3.0)), jax.jit(jax.grad(h))(2.0),
       jax.grad(jax.jit(h))(2.0), jax.jvp(h, (2.0,), (1.0,)), jax.hessian(h)(2.0),
       jax.remat(lambda x, n: x ** n, static_argnums=1)(3.0, 2), jax.grad(jax.remat(lambda x, n: x ** n, static_argnums=(1,)))(3.0, 3))
""", rtol=1e-5)
C("checkpoint_scan_body", "checkpoint", """
def step(c, x):
    return jnp.sin(c * x), c
body = jax.checkpoint(step, policy=jax.checkpoint_policies.nothing_saveable)
loss = lambda c: lax.scan(body, c, jnp.linspace(0.5, 1.5, 5))[0]
out = (loss(0.3), jax.grad(loss)(0.3))
""")
C("checkpoint_save_only_names_values", "checkpoint", """
h = jax.checkpoint(lambda x: jnp.sum(jnp.cos(jnp.sin(x) * 2.0)),
                   policy=jax.checkpoint_policies.save_only_these_names('s'))
out = (h(jnp.arange(3.0)), jax.grad(h)(jnp.arange(3.0)))
""")
C("jaxpr_checkpoint_plain", "checkpoint", "out = str(jax.make_jaxpr(jax.checkpoint(jnp.sin))(1.0))")
C("jaxpr_checkpoint_grad", "checkpoint", "out = str(jax.make_jaxpr(jax.grad(jax.checkpoint(jnp.sin)))(1.0))")
C("jaxpr_checkpoint_grad_recomputes", "checkpoint", "out = str(jax.make_jaxpr(jax.grad(jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)))))(1.0))")
C("jaxpr_checkpoint_linearize", "checkpoint", "out = str(jax.make_jaxpr(jax.linearize(jax.checkpoint(lambda x: jnp.sin(jnp.sin(x))), 1.0)[1])(1.0))")
C("jaxpr_checkpoint_remat_alias_vmap", "checkpoint", "out = str(jax.make_jaxpr(jax.vmap(jax.remat(lambda x: jnp.sin(x) * 2.0)))(jnp.ones(3)))")
C("jaxpr_checkpoint_dots_saveable_body", "checkpoint", """
f = lambda W, x: jnp.sum(jnp.sin(jnp.dot(W, jnp.sin(x))))
j = jax.make_jaxpr(jax.grad(jax.checkpoint(f, policy=jax.checkpoint_policies.dots_saveable)))(jnp.ones((2, 2)), jnp.ones(2))
rem = j.jaxpr.eqns[-1]
out = (str(rem.params['jaxpr']), len(rem.invars), [str(v.aval) for v in rem.invars])
""")
C("jaxpr_checkpoint_everything_saveable_body", "checkpoint", """
j = jax.make_jaxpr(jax.grad(jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)), policy=jax.checkpoint_policies.everything_saveable)))(1.0)
rem = j.jaxpr.eqns[-1]
out = (str(rem.params['jaxpr']), len(rem.invars), [e.primitive.name for e in j.jaxpr.eqns])
""")
E("checkpoint_bad_prevent_cse", "checkpoint", "out = jax.checkpoint(jnp.sin, prevent_cse=1)")

# ---------------------------------------------------------------- vjp/linearize functions are pytrees; linear_transpose
C("vjp_function_leaves_are_residuals", "pytree_fns", """
a, b = jnp.array(2.), jnp.array(3.)
L = jax.tree_util.tree_leaves
out = (L(jax.vjp(lambda x, y: x * y, a, b)[1]), L(jax.vjp(lambda x, y: jnp.sin(x) * y, a, b)[1]),
       L(jax.vjp(lambda x, y: jnp.sin(x) * y, 2., 3.)[1]), L(jax.vjp(lambda x: x @ x, jnp.ones((2, 2)))[1]),
       L(jax.linearize(lambda x, y: jnp.sin(x) * y, a, b)[1]), L(jax.linearize(lambda x, y: x * y, a, b)[1]))
""")
C("vjp_function_through_jit_and_tree_map", "pytree_fns", """
a, b = jnp.array(2.), jnp.array(3.)
_, fv = jax.vjp(lambda x, y: jnp.sin(x) * y, a, b)
_, fl = jax.linearize(lambda x, y: jnp.sin(x) * y, a, b)
leaves, tree = jax.tree_util.tree_flatten(fv)
out = (jax.jit(lambda f, c: f(c))(fv, 1.0), jax.tree_util.tree_map(lambda r: r * 2, fv)(1.0),
       jax.tree_util.tree_unflatten(tree, leaves)(2.0), jax.jit(lambda f, t: f(t, t))(fl, 1.0))
""")
C("linear_transpose_values", "pytree_fns", """
out = (jax.linear_transpose(lambda x: 2 * x, 1.0)(3.0),
       jax.linear_transpose(lambda x: jnp.sum(x * jnp.arange(3.)), jnp.ones(3))(2.0),
       jax.linear_transpose(jnp.cumsum, jnp.ones(3))(jnp.array([1., 2., 3.])),
       jax.linear_transpose(lambda z: jnp.real(z) + 2 * jnp.imag(z), 1j)(1.0),
       jax.linear_transpose(lambda x: x[::2], jnp.ones(5))(jnp.array([1., 2., 3.])),
       jax.linear_transpose(lambda x: {'a': x.T}, jnp.ones((2, 3)))({'a': jnp.arange(6.).reshape(3, 2)}),
       jax.linear_transpose(lambda x: 3 * x, 1)(2), jax.linear_transpose(lambda x, y: 2 * x, 1.0, 2.0)(1.0),
       jax.jit(lambda f, c: f(c))(jax.linear_transpose(lambda x: x * jnp.arange(3.), jnp.ones(3)), jnp.ones(3)))
""")
E("linear_transpose_nonlinear", "pytree_fns", "out = jax.linear_transpose(jnp.sin, 1.0)(1.0)")
E("linear_transpose_int_output", "pytree_fns", "out = jax.linear_transpose(lambda x: x.astype(int), 1.0)")
E("linear_transpose_ct_tree", "pytree_fns", "out = jax.linear_transpose(lambda x: 2*x, 1.0)((1.0, 2.0))")
E("linear_transpose_ct_type", "pytree_fns", "out = jax.linear_transpose(lambda x: 2*x, 1.0)(jnp.ones(2))")
C("custom_gradient_docs", "pytree_fns", """
@jax.custom_gradient
def f(x):
    return x ** 2, lambda g: (g * x,)
@jax.custom_gradient
def h(x, y):
    return x * y, lambda g: (g * y, g * x * 10)
def clip_gradient(lo, hi, x):
    @jax.custom_gradient
    def f(x):
        return x, lambda g: (jnp.clip(g, lo, hi),)
    return f(x)
out = (f(3.), jax.grad(f)(3.), jax.vmap(jax.grad(f))(jnp.arange(3.)), jax.grad(h, argnums=(0, 1))(3., 2.),
       jax.grad(lambda x: clip_gradient(-0.5, 0.5, x * 3.))(2.), jax.jit(jax.grad(f))(4.0))
""")
E("custom_gradient_jvp_refused", "pytree_fns", """
@jax.custom_gradient
def f(x):
    return x ** 2, lambda g: (g * x,)
out = jax.jvp(f, (3.,), (1.,))
""")

# ---------------------------------------------------------------- jax.nn additions
X9 = "x = jnp.linspace(-2.0, 2.0, 9)\n"
C("nn_activations_more", "nn", X9 + """
fns = [jax.nn.mish, jax.nn.squareplus, jax.nn.sparse_plus, jax.nn.sparse_sigmoid]
out = ([f(x) for f in fns], [jax.vmap(jax.grad(f))(x) for f in fns], jax.nn.squareplus(x, 1.0), jax.nn.mish(1),
       jax.nn.sparse_plus(jnp.float16(0.5)), jax.nn.sparse_sigmoid(jnp.arange(3)))
""")
C("nn_log1mexp", "nn", """
x = jnp.array([0.05, 0.5, 0.7, 3.0, 30.0])
out = (jax.nn.log1mexp(x), jax.vmap(jax.grad(jax.nn.log1mexp))(x), jax.jvp(jax.nn.log1mexp, (x,), (jnp.ones(5),)))
""")
C("nn_logmeanexp", "nn", """
m = jnp.arange(6.).reshape(2, 3)
out = (jax.nn.logmeanexp(m), jax.nn.logmeanexp(m, axis=1), jax.nn.logmeanexp(m, axis=0, keepdims=True),
       jax.nn.logmeanexp(m, axis=1, where=m > 1), jax.grad(lambda m: jax.nn.logmeanexp(m))(m))
""")
C("nn_scaled_dot_general_plain", "nn", "out = jax.nn.scaled_dot_general(jnp.ones((2, 3)), jnp.arange(12.).reshape(3, 4), (((1,), (0,)), ((), ())))")
E("nn_scaled_matmul_cpu", "nn", "out = jax.nn.scaled_matmul(jnp.ones((1, 4, 32)), jnp.ones((1, 2, 32)), jnp.ones((1, 4, 1)), jnp.ones((1, 2, 1)))")
E("nn_scaled_config_bad_mode", "nn", "out = jax.nn.get_scaled_dot_general_config('fp16')")
QKV = """
q = jnp.sin(jnp.arange(2 * 3 * 4 * 2.).reshape(2, 3, 4, 2))
k = jnp.cos(jnp.arange(2 * 5 * 2 * 2.).reshape(2, 5, 2, 2))
v = jnp.tanh(jnp.arange(2 * 5 * 2 * 2.).reshape(2, 5, 2, 2) / 7)
"""
C("nn_dot_product_attention", "nn", QKV + """
out = (jax.nn.dot_product_attention(q, k, v), jax.nn.dot_product_attention(q, k, v, is_causal=True, scale=0.3),
       jax.nn.dot_product_attention(q, k, v, bias=jnp.ones((1, 4, 3, 5)) * jnp.arange(5.), mask=jnp.arange(5) < 4),
       jax.nn.dot_product_attention(q[0], k[0], v[0], implementation='xla'))
""")
C("nn_dot_product_attention_padding_window_residual", "nn", QKV + """
out = jax.nn.dot_product_attention(q, k, v, local_window_size=1, query_seq_lengths=jnp.array([2, 3], jnp.int32),
                                   key_value_seq_lengths=jnp.array([5, 3], jnp.int32), return_residual=True)
""", rtol=1e-5, atol=1e-5)
C("nn_dot_product_attention_grad_jit", "nn", QKV + """
loss = lambda q: jnp.sum(jax.nn.dot_product_attention(q, k, v, is_causal=True) ** 2)
out = (jax.grad(loss)(q), jax.jit(jax.grad(loss))(q))
""", atol=1e-5)
E("nn_dot_product_attention_bad_impl", "nn", QKV + "out = jax.nn.dot_product_attention(q, k, v, implementation='bad')")
E("nn_dot_product_attention_heads", "nn", QKV + "out = jax.nn.dot_product_attention(q[:, :, :3], k, v)")
E("nn_dot_product_attention_mask_dtype", "nn", QKV + "out = jax.nn.dot_product_attention(q, k, v, mask=jnp.ones((1, 1, 3, 5)))")
E("nn_dot_product_attention_value_shape", "nn", QKV + "out = jax.nn.dot_product_attention(q, k, v[..., :1])")

# ---------------------------------------------------------------- jax top level, profiler annotations, export constants
C("top_level_processes", "top_level", "out = (jax.host_count(), jax.host_id(), jax.host_ids(), jax.process_indices())",
  expect_warning=True)
C("top_level_fwd_and_bwd", "top_level", """
f, b = jax.fwd_and_bwd(lambda x, y: jnp.sin(x) * y, argnums=(0, 1))
y, fv = f(1., 2.)
f2, b2 = jax.fwd_and_bwd(lambda x: jnp.sum(x ** 2), argnums=0, jitted=False)
y2, fv2 = f2(jnp.arange(3.))
out = (y, b(fv, 1.0), y2, b2(fv2, 1.0))
""")
C("top_level_make_array", "top_level", """
s = jax.sharding.SingleDeviceSharding(jax.devices()[0])
out = (jax.make_array_from_callback((2, 3), s, lambda idx: jnp.arange(6.).reshape(2, 3)[idx]),
       jax.make_array_from_single_device_arrays((3,), s, [jnp.arange(3)]),
       jax.make_array_from_process_local_data(s, jnp.arange(4.)),
       jax.copy_to_host_async({'a': jnp.ones(2), 'b': 3}))
""")
C("top_level_memory_caches", "top_level", """
x = jnp.arange(3.0) * 2
n = len(jax.live_arrays())
jax.clear_caches()
out = ([m.name for m in jax.memory.Space], n >= 1, any(a is x for a in jax.live_arrays()),
       jax.jit(lambda v: v + 1)(x))
""")
C("profiler_annotations_work", "profiler", """
with jax.profiler.TraceAnnotation('x', a=1):
    a = jnp.sin(1.0)
with jax.profiler.StepTraceAnnotation('train', step_num=3):
    b = jnp.cos(1.0)
@jax.profiler.annotate_function
def f(x):
    return x + 1
g = jax.profiler.annotate_function(f, name='g')
out = (a, b, f(1), f.__name__, g(2.0), jax.jit(f)(3.0))
""")
C("export_constants", "export", """
out = (jax.export.is_symbolic_dim(3), jax.export.minimum_supported_calling_convention_version,
       jax.export.maximum_supported_calling_convention_version, jax.export.default_export_platform())
""")

# ---------------------------------------------------------------- jax.debug.log and the format check
C("jaxpr_debug_log", "debug", "out = str(jax.make_jaxpr(lambda x: jax.debug.log('hello {}', x))(1.0))")
C("debug_effect_classes", "debug", "out = (jax.debug.DebugEffect.__name__, jax.debug.OrderedDebugEffect.__name__, isinstance(jax.debug.DebugEffect, type))")
E("debug_print_unused_positional", "debug", "out = jax.debug.print('plain', 3)")
E("debug_print_unused_keyword", "debug", "out = jax.debug.print('{x}', x=1, y=2)")
E("debug_log_unused_positional", "debug", "out = jax.jit(lambda v: jax.debug.log('v', v))(1.0)")

# ---------------------------------------------------------------- jax.custom_derivatives.linear_call and the primitives
C("linear_call_rules", "custom", """
linear_call = jax.custom_derivatives.linear_call
def f(x, y):
    return linear_call(lambda r, t: r * t, lambda r, t: 3. * r * t, x, y)
g = lambda x, y: linear_call(lambda r, t: (r[0] * t[0], t[1]), lambda r, ct: (r[0] * 10 * ct[0], ct[1]), (x,), (y, y))
out = (f(2., 3.), jax.grad(f, 1)(2., 3.), jax.jvp(lambda y: f(2., y), (3.,), (1.,)),
       jax.linear_transpose(lambda y: f(2., y), 1.0)(1.0),
       jax.linear_transpose(jax.linear_transpose(lambda y: f(2., y), 1.0), 1.0)((1.0,)),
       g(2., 3.)[0], jax.grad(lambda y: sum(g(2., y)))(3.), jax.jit(jax.grad(f, 1))(2., 3.),
       str(jax.custom_derivatives.custom_vjp_call_p), str(jax.custom_derivatives.remat_opt_p))
""")
E("linear_call_no_batching", "custom", """
f = lambda x, y: jax.custom_derivatives.linear_call(lambda r, t: r * t, lambda r, t: 3. * r * t, x, y)
out = jax.vmap(f)(jnp.arange(3.), jnp.ones(3))
""")

# ---------------------------------------------------------------- grad through jit/checkpoint around control flow
C("grad_jit_or_checkpoint_around_loops", "checkpoint", """
f = lambda x: lax.scan(lambda c, _: (jnp.sin(c), None), x, None, length=3)[0]
g = lambda x: lax.fori_loop(0, 3, lambda i, c: jnp.sin(c) * x, x)
h = lambda x: lax.cond(x > 0, jnp.sin, jnp.cos, x) * lax.switch(1, [jnp.cos, lambda v: v * v], x)
out = (jax.grad(jax.jit(f))(1.0), jax.grad(jax.checkpoint(f))(1.0), jax.grad(jax.jit(g))(0.7),
       jax.grad(jax.checkpoint(g, policy=jax.checkpoint_policies.nothing_saveable))(0.7), jax.grad(jax.jit(h))(0.5),
       jax.jit(jax.grad(jax.jit(f)))(1.0), jax.vmap(jax.grad(jax.checkpoint(g)))(jnp.array([0.2, 0.7])))
""")
C("checkpoint_policy_answers", "checkpoint", """
P = jax.checkpoint_policies
dn = (((1,), (0,)), ((), ()))
bdn = (((2,), (1,)), ((0,), (0,)))
off = P.offload_dot_with_no_batch_dims('device', 'pinned_host')
both = P.save_and_offload_only_these_names(names_which_can_be_saved=['a'], names_which_can_be_offloaded=['b'],
                                           offload_src='device', offload_dst='pinned_host')
out = (off(lax.dot_general_p, dimension_numbers=dn), type(off(lax.dot_general_p, dimension_numbers=bdn)).__name__,
       type(off(lax.sin_p)).__name__, P.dots_saveable(lax.dot_general_p, dimension_numbers=bdn),
       P.dots_with_no_batch_dims_saveable(lax.dot_general_p, dimension_numbers=bdn),
       P.dots_with_no_batch_dims_saveable(lax.dot_general_p, dimension_numbers=dn), P.dots_saveable(lax.sin_p),
       P.save_only_these_names('a')(lax.sin_p), type(both(lax.sin_p)).__name__)
""")
E("checkpoint_policy_both_overlap", "checkpoint", """
out = jax.checkpoint_policies.save_and_offload_only_these_names(names_which_can_be_saved=['a'],
    names_which_can_be_offloaded=['a'], offload_src='device', offload_dst='pinned_host')
""")
E("vjp_function_called_with_splatted_cotangents", "pytree_fns", """
def f(x):
    return (x, x)
_, f_vjp = jax.vjp(f, 1.0)
out = f_vjp(2.0, 2.0)
""")
C("vjp_function_tuple_cotangent", "pytree_fns", """
def f(x):
    return (x, x * 3)
_, f_vjp = jax.vjp(f, 1.0)
out = f_vjp((2.0, 2.0))
""")
E("checkpoint_static_argnames_keyword_is_traced", "checkpoint", """
def f(x, n=1):
    for _ in range(n):
        x = jnp.sin(x)
    return x
out = jax.checkpoint(f, static_argnames=('n',))(1.0, n=3)
""")
