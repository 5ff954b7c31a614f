"""Case definitions for libs24b_cases.json: engine behaviour the second ring of libraries needs once
installed and run (tests/test_ecosystem_ring2.py): lax.linalg.ormqr (lineax's QR), avals'
to_tangent_aval, custom_vjp/custom_jvp with symbolic_zeros (equinox, optimistix), custom_jvp with
nondiff_argnums under jit then differentiated, non-array custom_vjp residuals, integer tangents
across jit, the trace-state API (haiku, numpyro), jax.experimental.sparse.BCOO (numpyro), the
registries TFP's JAX substrate reads."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


QR = """
a = jnp.asarray((np.cos(np.arange(15) * 0.9).reshape(5, 3) + 2 * np.eye(5, 3)).astype(np.float32))
h, tau = jnp.linalg.qr(a, mode="raw")
c = jnp.asarray(np.sin(np.arange(10) * 0.4).astype(np.float32).reshape(5, 2))
d = c.T
orm = jax.lax.linalg.ormqr
"""
C("libs24b_ormqr_four_ways", "linalg", QR + """
out = (orm(h.mT, tau, c), orm(h.mT, tau, c, transpose=True), orm(h.mT, tau, d, left=False),
       orm(h.mT, tau, d, left=False, transpose=True), orm(h.mT, tau, jnp.eye(5))[:, :3] @ jnp.triu(h.mT[:3]))
""", rtol=2e-5, atol=2e-6)
C("libs24b_ormqr_jaxpr_vmap_jit", "linalg", QR + """
out = (str(jax.make_jaxpr(lambda h, t, c: orm(h, t, c))(h.mT, tau, c)),
       jax.vmap(lambda h, t, c: orm(h, t, c, transpose=True))(jnp.stack([h.mT, h.mT]), jnp.stack([tau, tau]),
                                                              jnp.stack([c, 2 * c])),
       jax.jit(orm, static_argnames=("left", "transpose"))(h.mT, tau, d, left=False))
""", rtol=2e-5, atol=2e-6)
C("libs24b_ormqr_shape_error", "linalg", QR + "out = orm(h.mT, tau, d)\n", raises=True)

C("libs24b_aval_to_tangent_aval", "core", """
f = jax.core.ShapedArray((2,), jnp.float32)
i = jax.core.ShapedArray((3,), jnp.int32)
out = (str(f.to_tangent_aval()), str(i.to_tangent_aval()), str(i.at_least_vspace()),
       str(jax.core.ShapedArray((), jnp.float32, weak_type=True).to_tangent_aval()))
""")

SZ = """
seen = []
@jax.custom_vjp
def f(x, y):
    return x * y, jnp.sin(y)
def f_fwd(x, y):
    seen.append(("fwd", type(x).__name__, x.perturbed, type(y).__name__, y.perturbed))
    return f(x.value, y.value), (x.value, y.value)
def f_bwd(res, ct):
    seen.append(("bwd",) + tuple(type(c).__name__ for c in ct))
    x, y = res
    c0, c1 = (0.0 if isinstance(c, jax.custom_derivatives.SymbolicZero) else c for c in ct)
    return c0 * y, c0 * x + c1 * jnp.cos(y)
f.defvjp(f_fwd, f_bwd, symbolic_zeros=True)
"""
C("libs24b_custom_vjp_symbolic_zeros_eager", "grad", SZ + """
g = jax.grad(lambda x: f(x, 2.0)[0])(3.0)
out = (g, str(seen))
""")
C("libs24b_custom_vjp_symbolic_zeros_grad_of_jit", "grad", SZ + """
g = jax.grad(jax.jit(lambda x: f(x, 2.0)[0]))(3.0)
out = (g, str(seen))
""")
C("libs24b_custom_vjp_symbolic_zeros_both_perturbed", "grad", SZ + """
g = jax.grad(lambda x, y: f(x, y)[0] + f(x, y)[1], argnums=(0, 1))(3.0, 2.0)
out = (g, str(seen))
""")

C("libs24b_custom_vjp_python_scalar_residuals", "grad", """
@jax.custom_vjp
def f(x):
    return jnp.sin(x)
def f_fwd(x):
    return jnp.sin(x), (jnp.cos(x), True, 2, None)
def f_bwd(res, ct):
    c, flag, n, nothing = res
    return ((ct * c * n) if (flag is True and n == 2 and nothing is None) else ct,)
f.defvjp(f_fwd, f_bwd)
out = (jax.grad(f)(0.5), jax.grad(jax.jit(f))(0.5), jax.jit(jax.grad(f))(0.5))
""")
C("libs24b_custom_vjp_string_residual_raises", "grad", """
@jax.custom_vjp
def f(x):
    return jnp.sin(x)
f.defvjp(lambda x: (jnp.sin(x), (jnp.cos(x), "note")), lambda res, ct: (ct * res[0],))
out = jax.grad(f)(0.5)
""", raises=True)

CJ = """
seen = []
@jax.custom_jvp
def rec(d):
    return d
def rec_jvp(p, t):
    (p,), (t,) = p, t
    seen.append(tuple(isinstance(x, jax.custom_derivatives.SymbolicZero) for x in t))
    return p, t
rec.defjvp(rec_jvp, symbolic_zeros=True)
"""
C("libs24b_custom_jvp_symbolic_zeros_tangent_types", "grad", CJ + """
jax.jvp(lambda a, b: rec((a * 2.0, b)), (1.0, 2.0), (1.0, 0.0))
jax.linearize(lambda a: rec((a, 3.0, jax.lax.stop_gradient(a))), 1.0)
out = (str(seen), jax.grad(lambda a: rec((a * 2.0, 5.0))[0])(1.0))
""")

C("libs24b_custom_jvp_nondiff_argnums_staged_in_jit", "grad", """
@partial(jax.custom_jvp, nondiff_argnums=(0,))
def app(fn, x):
    return fn(x)
def app_jvp(fn, primals, tangents):
    (x,), (t,) = primals, tangents
    return fn(x), 100.0 * t  # not fn's derivative: shows that the rule is used
app.defjvp(app_jvp)
g = lambda x: app(jnp.sin, x)
out = (jax.grad(jax.jit(g))(0.3), jax.grad(g)(0.3), jax.jit(jax.grad(g))(0.3),
       str(jax.make_jaxpr(g)(0.3)).count("custom_jvp_call"))
""")

C("libs24b_trace_state_api", "core", """
c = jax.extend.core
states = []
states.append(jax._src.core.trace_state_clean())
jax.jit(lambda x: states.append(jax._src.core.trace_state_clean()) or x)(1.0)
jax.vmap(lambda x: states.append(jax._src.core.trace_state_clean()) or x)(jnp.ones(2))
def f(x):
    with c.take_current_trace() as t:
        with c.set_current_trace(t):
            y = jnp.sin(x) * 2.0
    return y
out = (str(states), f(1.0), str(jax.make_jaxpr(f)(1.0)), jax.grad(f)(1.0))
""")

SP = """
S = jax.experimental.sparse
M = jnp.array([[0., 1., 0.], [2., 0., 3.]])
b = S.BCOO.fromdense(M)
"""
C("libs24b_sparse_bcoo_basics", "sparse", SP + """
out = (repr(b), b.data, b.indices, b.nse, b.shape, b.ndim, b.todense(), b @ jnp.arange(3.0), jnp.ones(2) @ b,
       b.sum(), b.sum(axis=-1).todense(), b.T.todense(), (b * 2).todense(), len(jax.tree_util.tree_leaves(b)))
""")
C("libs24b_sparse_bcoo_grad_jit", "sparse", SP + """
out = (jax.grad(lambda d: (S.BCOO((d, b.indices), shape=b.shape) @ jnp.arange(3.0)).sum())(b.data),
       jax.jit(lambda m, v: m @ v)(b, jnp.arange(3.0)),
       S.BCOO((jnp.array([1.0, 2.0]), jnp.array([[0, 0], [0, 0]])), shape=(2, 2)).todense())
""")

C("libs24b_xla_and_core_registries", "core", """
x = np.ones((2, 3))
h = jax.interpreters.xla.canonicalize_dtype_handlers
out = (str(jax.core.pytype_aval_mappings[np.ndarray](x)), h[np.ndarray](x).dtype.name, h[float](1.5),
       str(jax.core.pytype_aval_mappings[np.float32](np.float32(1))))
""")
