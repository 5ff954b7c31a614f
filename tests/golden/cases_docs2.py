"""Case definitions for docs2_cases.json: functions whose JAX docstring examples gradpad failed
(tools/doc_examples.py), each recorded from real JAX 0.10.2 with the docstring's call and a
neighbour or two (area "docs2")."""
from casebook import recorder

CASES, C, E = recorder()

# ---------------------------------------------------------------- nan-reductions: where= / initial=
NANX = "x = jnp.array([[1, 3, 4, 2], [5, 2, jnp.nan, 1], [jnp.nan, 8, 3, -2]])\n"
W = "w = jnp.array([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]], dtype=bool)\n"
# jnp.nansum(x, axis=1, keepdims=True, where=where) and its siblings, as in JAX's docstrings
C("docs2_nansum_nanprod_where", "docs2", NANX + W +
  "out = (jnp.nansum(x, axis=1, keepdims=True, where=w), jnp.nanprod(x, axis=1, keepdims=True, where=w), "
  "jnp.nansum(x, axis=0, keepdims=True, where=jnp.zeros((3, 1), bool)), jnp.nanprod(x, where=w), "
  "jnp.nansum(x, initial=10.0), jnp.nanprod(x, axis=0, initial=2.0, where=w))")
C("docs2_nanmax_nanmin_initial_where", "docs2", NANX + W +
  "out = (jnp.nanmax(x, axis=1, keepdims=True, initial=0, where=w), jnp.nanmin(x, axis=1, keepdims=True, initial=0, where=w), "
  "jnp.nanmax(x, axis=0, keepdims=True, initial=0, where=jnp.array([[True], [False], [False]])), "
  "jnp.nanmin(jnp.array([jnp.nan, jnp.nan]), initial=3.0), jnp.nanmax(jnp.array([jnp.nan, jnp.nan])), "
  "jnp.nanmax(x, axis=1, initial=4.5))")
C("docs2_nanmean_where", "docs2", NANX + W +
  "out = (jnp.nanmean(x, axis=1, keepdims=True, where=w), jnp.nanmean(x, axis=0, keepdims=True, where=jnp.zeros((3, 1), bool)), "
  "jnp.nanmean(jnp.arange(6).reshape(2, 3), axis=1, where=jnp.array([True, False, True])), jnp.nanmean(x, where=w))")
C("docs2_nan_reductions_int_where", "docs2", W +
  "i = jnp.arange(12).reshape(3, 4)\n"
  "out = (jnp.nansum(i, axis=1, where=w), jnp.nanmax(i, axis=0, initial=5, where=w), jnp.nanprod(i + 1, where=w))")
C("docs2_nan_reductions_jit_grad", "docs2", NANX + W +
  "f = jax.jit(lambda x, w: jnp.nansum(x * x, where=w) + jnp.nanmax(x, initial=0.0, where=w) + jnp.nanmean(x, where=w))\n"
  "out = (f(x, w), jax.grad(f)(x, w))")
