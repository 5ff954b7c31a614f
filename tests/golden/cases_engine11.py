"""Case definitions for engine11_cases.json (stop 39, issue 24): engine differences found by running
numpyro's, jaxopt's and diffrax's own test suites, and JAX's float0 tangents and cotangents of
integer and bool values (jvp, linearize, vjp, and float0 values leaving jit and vmap)."""
from casebook import recorder

CASES, C, E = recorder()

# ---- reductions take any iterable of axes (numpyro's CirculantNormal: `.sum(range(-1, 0))`)
C("engine11_reduction_axis_iterable", "numpy", """
x = jnp.arange(24.0).reshape(2, 3, 4)
out = (jnp.sum(x, axis=range(-1, 0)), x.sum(range(1, 3)), jnp.mean(x, axis=range(0, 2)),
       jnp.max(x, axis=np.array([0, 2])), jnp.var(x, axis=range(2)), jnp.prod(x[:, :2, :2], axis=range(0, 3)),
       jax.nn.logsumexp(x, axis=np.array([1, 2])), jnp.any(x > 5, axis=range(0, 1)),
       jax.jit(lambda v: v.sum(range(-2, 0)))(x), jnp.sum(x, axis=range(0, 0)), jnp.sum(x, axis=np.int64(1)))
""")
E("engine11_reduction_axis_float_raises", "numpy", "out = jnp.sum(jnp.ones((2, 3)), axis=1.5)")
E("engine11_reduction_axis_iterable_duplicate_raises", "numpy",
  "out = jnp.sum(jnp.ones((2, 3)), axis=np.array([1, -1]))")

# ---- float0: integer and bool values' tangents and cotangents
_F0 = """
def f0(t):  # a float0 leaf holds no values: what it is, its dtype and shape
    if getattr(t, 'dtype', None) == jax.dtypes.float0:
        return ('float0', isinstance(t, np.ndarray), str(t.dtype), t.shape)
    return t
def show(tree):
    return jax.tree_util.tree_map(f0, tree)
f = lambda x: (x * 2, jnp.floor(x).astype(jnp.int32), jnp.argmax(x), x > 2)
x = jnp.array([1.5, 2.5])
"""

C("engine11_jvp_integer_outputs_float0", "transforms", _F0 + """
out = (show(jax.jvp(f, (x,), (jnp.ones(2),))),
       show(jax.jvp(jax.jit(f), (x,), (jnp.ones(2),))),
       show(jax.jit(lambda v: jax.jvp(f, (v,), (jnp.ones(2),)))(x)),
       show(jax.vmap(lambda v: jax.jvp(f, (v,), (1.0,)))(x)),
       show(jax.jvp(lambda v: (v, 3, jnp.int32(3), True, 3.0), (x,), (jnp.ones(2),))),
       show(jax.jvp(lambda v: v.astype(jnp.uint8), (x,), (jnp.ones(2),))))
""")

C("engine11_jvp_integer_primal_float0_tangent", "transforms", _F0 + """
n = jnp.arange(3)
out = (show(jax.jvp(lambda n: n * 2, (n,), (np.zeros(3, jax.dtypes.float0),))),
       show(jax.jvp(lambda v, n: (v * n, n + 1), (x[:1] * jnp.ones(3), n), (jnp.ones(3), np.zeros(3, jax.dtypes.float0)))),
       show(jax.jvp(lambda b, v: jnp.where(b, v, -v), (jnp.array([True, False]), x), (np.zeros(2, jax.dtypes.float0), jnp.ones(2)))))
""")

E("engine11_jvp_integer_primal_integer_tangent_raises", "transforms",
  "out = jax.jvp(lambda n: n * 2, (jnp.arange(3),), (jnp.arange(3),))")
E("engine11_jvp_integer_primal_float_tangent_raises", "transforms",
  "out = jax.jvp(lambda n: n * 2, (jnp.arange(3),), (jnp.zeros(3),))")
E("engine11_jvp_bool_primal_bool_tangent_raises", "transforms",
  "out = jax.jvp(lambda b: b, (jnp.array([True]),), (jnp.array([False]),))")

C("engine11_linearize_integer_float0", "transforms", _F0 + """
y, lin = jax.linearize(f, x)
y2, lin2 = jax.linearize(lambda v, n: (v * n, n), 1.0, 3)
out = (show(y), show(lin(jnp.ones(2))), show(lin2(2.0, np.zeros((), jax.dtypes.float0))),
       show(jax.jit(lin)(jnp.full(2, 3.0))))
""")

E("engine11_linearize_integer_tangent_raises", "transforms", """
y, lin = jax.linearize(lambda v, n: (v * n, n), 1.0, 3)
out = lin(1.0, 0)
""")
E("engine11_linearize_tangent_shape_raises", "transforms", """
y, lin = jax.linearize(lambda v: v * 2, jnp.ones(3))
out = lin(jnp.ones(2))
""")

C("engine11_vjp_integer_cotangents", "transforms", _F0 + """
y, pull = jax.vjp(lambda v: (v * 3, v.astype(int)), x)
y2, pull2 = jax.vjp(lambda n: (n * 2, n.astype(float)), jnp.arange(3))
y3, pull3 = jax.vjp(lambda v, n: v * n, x, 3)
out = (show(pull((jnp.ones(2), np.zeros(2, jax.dtypes.float0)))), show(pull((jnp.ones(2), jnp.zeros(2, int)))),
       show(pull2((np.zeros(3, jax.dtypes.float0), jnp.ones(3)))), show(pull3(jnp.ones(2))))
""")

C("engine11_float0_leaves_jit_and_vmap", "transforms", _F0 + """
g = jax.grad(lambda v, n: v * n, argnums=(0, 1), allow_int=True)
out = (show(jax.jit(g)(2.0, 3)), show(jax.vmap(g)(x, jnp.arange(2))),
       show(jax.jit(lambda v: np.zeros((), jax.dtypes.float0))(1.0)),
       show(jax.vmap(lambda v: np.zeros((), jax.dtypes.float0))(x)),
       show(jax.jit(jax.vmap(lambda v: jax.jvp(f, (v,), (1.0,))))(x)))
""")

C("engine11_jacfwd_integer_output_stays_integer", "transforms", """
out = jax.jacfwd(lambda v: (v * 2, jnp.floor(v).astype(jnp.int32), jnp.argmax(v)))(jnp.array([1.5, 2.5]))
""")

E("engine11_logsumexp_axis_range_raises", "numpy", "out = jax.nn.logsumexp(jnp.ones((2, 3)), axis=range(1, 2))")
E("engine11_reduction_axis_list_duplicate_raises", "numpy", "out = jnp.max(jnp.ones((2, 3)), axis=[0, -2])")

# ---- eigh's derivative over a batch of matrices (numpyro MultivariateNormal/Wishart/CAR
# test_sample_gradient: the positive-definite check's eigh under grad; the rule's eye did not broadcast)
C("engine11_eigh_jvp_batched", "linalg", """
a = jnp.array([[[2.0, 0.5, 0.1], [0.5, 1.0, 0.3], [0.1, 0.3, 3.0]], [[1.0, 0.2, 0.0], [0.2, 4.0, 0.7], [0.0, 0.7, 2.5]]])
da = jnp.array([[[0.3, 0.1, 0.0], [0.1, -0.2, 0.4], [0.0, 0.4, 0.5]], [[1.0, 0.0, 0.2], [0.0, 0.1, 0.3], [0.2, 0.3, -0.6]]])
out = (jax.jvp(lambda m: jnp.linalg.eigh(m)[0], (a,), (da,))[1],
       jax.jvp(lambda m: jnp.abs(jnp.linalg.eigh(m)[1]), (a,), (da,))[1],
       jax.grad(lambda m: jnp.sum(jnp.linalg.eigvalsh(m) ** 2))(a),
       jax.grad(lambda m: jnp.linalg.eigh(m)[0][..., 0].sum())(a[:, None]),
       jax.jit(jax.vmap(jax.grad(lambda m: jnp.linalg.eigvalsh(m)[-1])))(a))
""", rtol=1e-5, atol=1e-6)

# ---- BCOO @ a stack of matrices is matmul's (numpyro CAR with is_sparse=True: `adj @ phi[..., None]`
# over sample and batch axes gave a (4, 2, 4, 1) array of wrong values for (3, 2, 4, 1))
_SP = """
S = jax.experimental.sparse
A = jnp.array([[0., 1., 1., 0.], [1., 0., 0., 1.], [1., 0., 0., 1.], [0., 2., 1., 0.]])
b = S.BCOO.fromdense(A)
x = jnp.arange(24.0).reshape(3, 2, 4, 1)
"""
C("engine11_bcoo_matmul_stacked_rhs", "sparse", _SP + """
out = (b @ x, b @ x[0], b @ x[0, 0], b @ x[0, 0, :, 0], x[..., 0] @ b, x[0, ..., 0] @ b,
       S.BCSR.fromdense(A) @ x, jax.jit(lambda v: b @ v)(x),
       jax.grad(lambda d: (S.BCOO((d, b.indices), shape=b.shape) @ x).sum())(b.data),
       S.bcoo_dot_general(b, jnp.ones((4, 2, 3)), dimension_numbers=(([1], [0]), ([], []))))
""")

# ---- triangular solves keep the triangle's zeros to the bit (numpyro InverseWishartCholesky.sample:
# solve_triangular(latent, I) had -4e-18 above the diagonal, so its own sample was out of support and
# log_prob was -inf)
C("engine11_triangular_solve_exact_zeros", "linalg", """
solve_triangular = jax.scipy.linalg.solve_triangular
L = jnp.array([[1.769225001335144, 0.0], [-2.442455768585205, 1.4270713329315186]])
M = jnp.array([[1.3, 0.0, 0.0, 0.0], [0.7, 0.9, 0.0, 0.0], [-0.4, 1.1, 2.2, 0.0], [0.5, -0.3, 0.8, 1.7]])
inv2, inv4 = solve_triangular(L, jnp.eye(2), lower=True), solve_triangular(M, jnp.eye(4), lower=True)
up4 = solve_triangular(M.T, jnp.eye(4), lower=False)
right = jax.lax.linalg.triangular_solve(M, jnp.eye(4), left_side=False, lower=True)
trans = solve_triangular(M, jnp.eye(4), lower=True, trans=1)
batched = solve_triangular(jnp.stack([M, 2 * M]), jnp.broadcast_to(jnp.eye(4), (2, 4, 4)), lower=True)
zeros = lambda a, k: [bool(v) for v in (jnp.triu(a, k) == 0).all(axis=(-2, -1)).ravel()]
out = (zeros(inv2, 1), zeros(inv4, 1), zeros(up4.T, 1), zeros(right, 1), zeros(trans.T, 1), zeros(batched, 1),
       inv2, inv4, up4, right, trans, batched,
       solve_triangular(M, jnp.arange(8.0).reshape(4, 2), lower=True),
       jax.grad(lambda m: solve_triangular(m, jnp.ones(4), lower=True).sum())(M))
""", rtol=2e-6, atol=1e-6)

# ---- jnp.reshape forwards to a numpy argument's own reshape, as JAX's: the result stays numpy, under
# jit too (numpyro's vector support checks reshape numpy samples inside jit and warn on out-of-support
# values only when the mask is concrete: 125 test_distribution_constraints failures)
C("engine11_reshape_numpy_stays_numpy", "numpy", """
a = np.arange(6.0).reshape(2, 3)
def kinds():
    r = jnp.reshape(a, (3, 2))
    return (type(r).__name__, str(r.dtype), r.tolist(), type(jnp.reshape(np.bool_(True), (1,))).__name__,
            jnp.reshape(a, (3, 2), order="F").tolist(), type(jnp.reshape(a, -1).all(-1)).__name__,
            type(jnp.reshape(jnp.asarray(a), (6,))).__name__)
seen = []
jax.jit(lambda: seen.append(kinds()) or 0)()
out = (kinds(), seen[0], str(jax.make_jaxpr(lambda: jnp.reshape(a, (3, 2)))()), jnp.reshape(3.0, (1,)))
""")
E("engine11_reshape_numpy_bad_shape_raises", "numpy", "out = jnp.reshape(np.arange(6.0), (4,))")
