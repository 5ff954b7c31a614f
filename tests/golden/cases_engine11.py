"""Case definitions for engine11_cases.json (stop 39, issue 24): engine differences found by running
numpyro's, jaxopt's and diffrax's own test suites."""
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

E("engine11_logsumexp_axis_range_raises", "numpy", "out = jax.nn.logsumexp(jnp.ones((2, 3)), axis=range(1, 2))")
E("engine11_reduction_axis_list_duplicate_raises", "numpy", "out = jnp.max(jnp.ones((2, 3)), axis=[0, -2])")
