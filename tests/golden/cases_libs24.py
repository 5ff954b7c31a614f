"""Case definitions for libs24_cases.json: what the second ring of JAX libraries (numpyro, blackjax,
diffrax/equinox/optimistix/lineax, distrax, jaxopt, haiku) needs of the engine beyond imports:
array operators that give foreign types back to Python (NotImplemented), JAX's old five-argument
lax.cond, PyTreeDef.compose, ShapeDtypeStruct as a tracing argument, CustomVJPPrimal as a leaf."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


FOREIGN = """
class W:
    def __rpow__(self, o): return "rpow"
    def __radd__(self, o): return "radd"
    def __rmul__(self, o): return "rmul"
    def __rmatmul__(self, o): return "rmatmul"
    def __rsub__(self, o): return "rsub"
    def __rtruediv__(self, o): return "rtruediv"
    def __eq__(self, o): return "weq"
    def __gt__(self, o): return "wgt"
x = jnp.arange(3.0)
"""

C("libs24_binop_foreign_reflected", "array", FOREIGN + """
out = (x ** W(), x + W(), x * W(), x @ W(), x - W(), x / W(), x == W(), x < W())
""")
C("libs24_binop_foreign_under_jit", "array", FOREIGN + """
out = jax.jit(lambda a: (a * 2.0) ** 2 if (a ** W()) == "rpow" else a)(x)
""")
C("libs24_binop_eq_none", "array", "x = jnp.arange(3.0)\nout = (x == None, x != None)\n")
C("libs24_binop_add_none_raises", "array", "x = jnp.arange(3.0)\nout = x + None\n", raises=True, msg_prefix=36)
C("libs24_binop_lt_none_raises", "array", "x = jnp.arange(3.0)\nout = x < None\n", raises=True, msg_prefix=25)
C("libs24_binop_add_list_raises", "array", "x = jnp.arange(3.0)\nout = x + [1.0, 2.0, 3.0]\n", raises=True)
C("libs24_binop_radd_tuple_raises", "array", "x = jnp.arange(3.0)\nout = (1.0, 2.0, 3.0) * x\n", raises=True)
C("libs24_binop_add_dict_raises", "array", "x = jnp.arange(3.0)\nout = x - {}\n", raises=True, msg_prefix=36)
C("libs24_binop_numpy_and_scalars_still_work", "array", """
x = jnp.arange(3.0)
out = (x + np.float32(2), x * np.arange(3), 2 ** x, x + True, np.float64(1.5) - x)
""")

C("libs24_cond_five_arguments", "lax", """
out = (lax.cond(True, 1.0, lambda a: a + 1, 2.0, lambda b: b - 1),
       lax.cond(False, 1.0, lambda a: a + 1, 2.0, lambda b: b - 1))
""")
C("libs24_cond_five_arguments_jaxpr", "jaxpr", """
out = str(jax.make_jaxpr(lambda p, u, v: lax.cond(p, u, lambda a: a * 2.0, v, lambda b: jnp.sin(b)))(True, 1.0, 2.0))
""")
C("libs24_cond_five_arguments_grad", "grad", """
out = jax.grad(lambda u, v: lax.cond(u > 0, u, lambda a: a ** 3, v, lambda b: jnp.sin(b)), argnums=(0, 1))(2.0, 0.5)
""")
C("libs24_cond_noncallable_raises", "lax", "out = lax.cond(True, 1.0, 2.0)\n", raises=True)

C("libs24_treedef_compose", "tree", """
o = jax.tree_util.tree_structure((1, 2))
i = jax.tree_util.tree_structure([1, {"a": 1}])
c = o.compose(i)
out = (str(c), c.num_leaves, c.num_nodes, str(jax.tree_util.tree_structure(None).compose(i)),
       str(jax.tree_util.tree_structure(1).compose(i)), str(o.compose(jax.tree_util.tree_structure(None))),
       c == jax.tree_util.tree_structure(([1, {"a": 1}], [1, {"a": 1}])))
""")

C("libs24_shape_dtype_struct_sharding_and_make_jaxpr", "jaxpr", """
s = jax.ShapeDtypeStruct((2, 3), jnp.float32)
out = (s.sharding is None, str(jax.make_jaxpr(lambda a, b: jnp.sin(a) * b)(s, 2.0)),
       str(jax.make_jaxpr(lambda t: t["w"] @ t["v"])({"w": s, "v": jax.ShapeDtypeStruct((3,), jnp.float32)})))
""")

C("libs24_custom_vjp_primal_is_a_leaf", "tree", """
P = jax.custom_derivatives.CustomVJPPrimal
p = P(jnp.ones(2), True)
out = (len(jax.tree_util.tree_leaves(p)), str(jax.tree_util.tree_structure(p)), repr(P(1.0, False)),
       len(jax.tree_util.tree_leaves({"a": p, "b": [P(2.0, False)]})))
""")

SIG = "x = jnp.asarray(np.cos(np.arange(12) * 0.7).astype(np.float32).reshape(3, 4))\n"
F32 = dict(rtol=2e-5, atol=2e-6)
C("libs24_scipy_fft_dct_norms_and_sizes", "scipy", SIG + """
F = jax.scipy.fft
out = (F.dct(x), F.dct(x, norm="ortho"), F.dct(x, n=2), F.dct(x, n=6, axis=0), F.dct(x[0, :1]),
       F.dct(x[:, :3], norm="ortho"), F.dct(jnp.arange(5)))
""", **F32)
C("libs24_scipy_fft_idct_inverts", "scipy", SIG + """
F = jax.scipy.fft
out = (F.idct(x), F.idct(x, norm="ortho"), F.idct(F.dct(x)), F.idct(x, n=5, axis=1), F.idct(x[:, :3]))
""", **F32)
C("libs24_scipy_fft_dctn_idctn", "scipy", SIG + """
F = jax.scipy.fft
out = (F.dctn(x), F.dctn(x, norm="ortho"), F.idctn(x), F.dctn(x, s=(2,), axes=(0,)), F.idctn(F.dctn(x, norm="ortho"), norm="ortho"))
""", **F32)
C("libs24_scipy_fft_dct_complex_grad_jit", "scipy", SIG + """
F = jax.scipy.fft
out = (F.dct(x[0] + 1j * x[1]), jax.grad(lambda v: (F.dct(v) ** 2).sum())(x[0]), jax.jit(F.idct)(x))
""", **F32)
C("libs24_scipy_fft_dct_type_raises", "scipy", "out = jax.scipy.fft.dct(jnp.ones(3), type=3)\n", raises=True)

SYS = """
A = jnp.asarray(np.array([[4., 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 2]], np.float32))
N = jnp.asarray(np.array([[4., 1, 0.5], [-1, 3, 0.2], [0.3, -0.2, 2]], np.float32))
b = jnp.asarray(np.array([1., 2, 3], np.float32))
L = jax.scipy.sparse.linalg
"""
SOLVE = dict(rtol=1e-4, atol=1e-5)
C("libs24_sparse_cg_matrix_function_pytree", "scipy", SYS + """
tree = L.cg(lambda t: {"a": 2 * t["a"], "b": 3 * t["b"]}, {"a": jnp.ones(2), "b": jnp.ones(1)})
out = (L.cg(A, b), L.cg(lambda v: A @ v, b), tree, L.cg(A, b, M=jnp.diag(1 / jnp.diag(A))), L.cg(A, b, maxiter=1))
""", **SOLVE)
C("libs24_sparse_bicgstab_gmres", "scipy", SYS + """
out = (L.bicgstab(N, b), L.gmres(N, b), L.gmres(N, b, restart=2), L.gmres(N, b, solve_method="incremental"),
       L.bicgstab(N, b, x0=jnp.ones(3)))
""", **SOLVE)
C("libs24_sparse_solvers_grad_and_jit", "scipy", SYS + """
out = (jax.grad(lambda v: L.cg(A, v)[0].sum())(b), jax.grad(lambda v: L.gmres(N, v)[0].sum())(b),
       jax.grad(lambda v: L.bicgstab(N, v)[0].sum())(b), jax.jit(lambda v: L.cg(A, v)[0])(b))
""", **SOLVE)

C("libs24_random_gamma_grad_wrt_shape", "random", """
k = jax.random.PRNGKey(0)
out = (jax.grad(lambda a: jax.random.gamma(k, a))(2.0),
       jax.grad(lambda a: jax.random.gamma(k, a, (3,)).sum())(jnp.array(0.5)),
       jax.grad(lambda a: jax.random.loggamma(k, a, (3,)).sum())(jnp.array(0.3)),
       jax.grad(lambda a, b: jax.random.beta(k, a, b, (3,)).sum(), argnums=(0, 1))(2.0, 3.0),
       jax.grad(lambda a: jax.random.dirichlet(k, a)[0])(jnp.array([1.0, 2.0, 3.0])),
       jax.jit(jax.vmap(jax.grad(lambda a: jax.random.gamma(k, a))))(jnp.array([0.5, 1.0, 4.0])))
""", rtol=2e-5, atol=1e-6)

C("libs24_qr_mode_raw", "linalg", """
a = jnp.array([[1., 2, 3], [4, 5, 6.5], [7, 8, 10], [1, 0, 1]])
h, tau = jnp.linalg.qr(a, mode="raw")
out = (h, tau, jnp.linalg.qr(a.T, mode="raw"), jax.vmap(lambda m: jnp.linalg.qr(m, mode="raw"))(jnp.stack([a, 2 * a])),
       str(jax.make_jaxpr(lambda m: jnp.linalg.qr(m, mode="raw"))(a)), type(jnp.linalg.qr(a, mode="raw")).__name__)
""", rtol=2e-5, atol=2e-6)

TRI = """
dl = jnp.array([0., 1, 2, 1]); d = jnp.array([4., 5, 6, 3]); du = jnp.array([1., 2, 1, 0])
b = jnp.arange(8.).reshape(4, 2)
ts = jax.lax.linalg.tridiagonal_solve
"""
C("libs24_tridiagonal_solve", "linalg", TRI + """
out = (ts(dl, d, du, b), ts(jnp.array([0., 3, 1]), jnp.array([1e-4, 1., 2]), jnp.array([2., 1, 0]), jnp.ones((3, 1))),
       jax.vmap(ts, in_axes=(None, None, None, 0))(dl, d, du, jnp.stack([b, 2 * b])), str(jax.make_jaxpr(ts)(dl, d, du, b)))
""", rtol=1e-5, atol=1e-6)
C("libs24_tridiagonal_solve_derivatives", "grad", TRI + """
out = (jax.grad(lambda d: ts(dl, d, du, b).sum())(d),
       jax.grad(lambda dl, du, b: (ts(dl, d, du, b) ** 2).sum(), argnums=(0, 1, 2))(dl, du, b),
       jax.jvp(lambda d: ts(dl, d, du, b), (d,), (jnp.ones(4),))[1])
""", rtol=2e-5, atol=1e-6)
C("libs24_tridiagonal_solve_rank_raises", "linalg", TRI + "out = ts(dl, d, du, jnp.arange(4.))\n", raises=True)

C("libs24_eigh_eigenvector_signs_as_jaxlib", "linalg", """
mats = []
for n in (5, 10, 16):
    m = jnp.asarray(np.cos(np.arange(n * n) * 1.3 + 0.2 * n).astype(np.float32).reshape(n, n))
    mats.append(m + m.T)
out = [jnp.linalg.eigh(m) for m in mats] + [jax.vmap(jnp.linalg.eigh)(jnp.stack([mats[0], 2 * mats[0]]))]
""", rtol=2e-4, atol=2e-5)
