"""Case definitions for bcoo_cases.json (issue 24): 2-d BCSR, and jax.experimental.sparse.BCOO with batch and dense
dimensions (n_batch, n_dense): fromdense's data, indices and padding (zeros at the out-of-range
index sparse_shape), todense, and products with dense arrays, jitted and differentiated."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


SP = """
S = jax.experimental.sparse
X = jnp.array([[[0., 1., 0.], [2., 0., 0.]], [[0., 0., 0.], [3., 4., 0.]]])
def parts(m):
    return (m.data, m.indices, m.n_batch, m.n_sparse, m.n_dense, m.nse, m.shape, m.todense())
"""
C("bcoo_fromdense_batch_and_dense_dims", "sparse", SP + """
out = [parts(S.BCOO.fromdense(X, **kw)) for kw in (dict(n_batch=1), dict(n_dense=1), dict(n_batch=1, n_dense=1),
                                                     dict(n_batch=2), dict(n_batch=1, nse=3), dict(nse=6))]
""")
C("bcoo_batched_products_jit_grad", "sparse", SP + """
m = S.BCOO.fromdense(X, n_batch=1)
v = jnp.array([1., 2., 3.])
w = jnp.arange(6.0).reshape(3, 2)
out = (m @ v, m @ w, jax.jit(lambda m, v: m @ v)(m, v), jnp.ones(2) @ m,
       jax.grad(lambda d: (S.BCOO((d, m.indices), shape=m.shape) @ v).sum())(m.data),
       len(jax.tree_util.tree_leaves(m)),
       jax.tree_util.tree_map(lambda x: x * 2, m).todense())
""")
C("bcoo_padded_plain_products", "sparse", SP + """
m = S.BCOO.fromdense(X[1], nse=4)
out = (m.indices, m @ jnp.array([1., 2., 3.]), jnp.ones(2) @ m, m.sum(), (m * 2).todense(), m.T.todense())
""")
C("bcoo_product_over_a_dense_dimension_raises", "sparse", SP + """
out = S.BCOO.fromdense(X, n_dense=1) @ jnp.array([1., 2., 3.])
""", raises=True)
C("bcsr_basics", "sparse", """
S = jax.experimental.sparse
M = jnp.array([[0., 1., 0.], [2., 0., 3.], [0., 0., 0.]])
b = S.BCSR.fromdense(M)
p = S.BCSR.fromdense(M, nse=5)
out = (repr(b), b.data, b.indices, b.indptr, b.nse, b.shape, b.todense(), b @ jnp.arange(3.0),
       b @ jnp.ones((3, 2)), p.data, p.indices, p.indptr, p.todense(), p @ jnp.arange(3.0),
       b.to_bcoo().indices, S.BCSR.from_bcoo(S.BCOO.fromdense(M)).indptr, len(jax.tree_util.tree_leaves(b)),
       jax.jit(lambda m, v: m @ v)(b, jnp.ones(3)), jax.grad(lambda d: (S.BCSR((d, b.indices, b.indptr), shape=b.shape) @ jnp.arange(3.0)).sum())(b.data),
       S.todense(b))
""")
C("bcsr_dense_times_bcsr_raises", "sparse", """
S = jax.experimental.sparse
out = jnp.ones(3) @ S.BCSR.fromdense(jnp.eye(3))
""", raises=True)
