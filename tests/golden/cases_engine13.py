"""Case definitions for engine13_cases.json (stop 41, issues 24 and 26 item 6): the sign of zero in
max/min (XLA orders -0.0 below +0.0), jnp.fmax/fmin as JAX writes them, numpy RuntimeWarnings JAX
does not give, and jvp/grad jaxpr text."""
from casebook import recorder

CASES, C, E = recorder()

# ---- signed zeros: XLA's max(0.0, -0.0) is 0.0 and min(0.0, -0.0) is -0.0 in either order (numpy
# takes the second operand on a tie); bits shown as strings, since 0.0 == -0.0 compares equal
_SZ = """
bits = lambda v: [str(e) for e in np.ravel(np.asarray(v))]
p, n = jnp.float32(0.0), jnp.float32(-0.0)
a = jnp.array([0.0, -0.0, -0.0, 3.0, -0.0, 0.0])
b = jnp.array([-0.0, 0.0, -0.0, -0.0, -2.0, -2.0])
"""
C("engine13_max_min_signed_zero_eager", "numpy", _SZ + """
out = [bits(f(x, y)) for f in (jnp.maximum, jnp.minimum, lax.max, lax.min)
       for x, y in ((p, n), (n, p), (0.0, -0.0), (-0.0, 0.0), (a, b), (b, a))]
""")
C("engine13_max_min_signed_zero_jit", "numpy", _SZ + """
g = jax.jit(lambda x, y: (jnp.maximum(x, y), jnp.minimum(x, y), jnp.maximum(x * 1.0, y * 1.0) + 0.0 * x,
                          jnp.minimum(x - 0.0, y - 0.0)))
out = [bits(r) for x, y in ((p, n), (n, p), (n, n), (p, p), (a, b), (b, a)) for r in g(x, y)]
""")
C("engine13_max_min_reductions_signed_zero", "numpy", _SZ + """
m = jnp.array([[0.0, -0.0, -0.0], [-0.0, -0.0, -0.0], [-0.0, -1.0, 0.0], [0.0, 0.0, 0.0]])
fs = [jnp.max, jnp.min, lambda v: jnp.max(v, axis=0), lambda v: jnp.max(v, axis=1), lambda v: jnp.min(v, axis=1),
      jnp.nanmax, lambda v: jnp.nanmin(v, axis=0), jnp.amax]
out = ([bits(f(m)) for f in fs], [bits(jax.jit(f)(m)) for f in fs],
       [bits(f(jnp.array([-0.0, -0.0, 0.0, -0.0]))) for f in (jnp.max, jnp.min)])
""")
C("engine13_cummax_clip_relu_signed_zero", "numpy", _SZ + """
c = jnp.array([-0.0, 0.0, -0.0, -1.0, 0.0])
out = (bits(lax.cummax(c)), bits(lax.cummin(c)), bits(lax.cummax(c, reverse=True)), bits(lax.cummin(-c, reverse=True)),
       bits(jax.jit(lax.cummax)(c)), bits(jnp.clip(c, 0.0, 1.0)), bits(jnp.clip(-c, -1.0, -0.0)),
       bits(jax.nn.relu(c)), bits(jax.jit(jax.nn.relu)(c)), bits(jax.vmap(jnp.maximum)(a, b)),
       bits(jnp.clip(jnp.float32(-0.0), 0.0)))
""")
C("engine13_max_grad_ties", "numpy", _SZ + """
out = [jax.grad(f, argnums=(0, 1))(x, y) for f in (jnp.maximum, jnp.minimum, lax.max)
       for x, y in ((0.0, -0.0), (-0.0, 0.0), (1.0, 1.0), (2.0, 1.0))]
""")
C("engine13_fmax_fmin_ties_and_nans", "numpy", _SZ + """
q = jnp.array([jnp.nan, 1.0, jnp.nan, -0.0, 0.0, 2.0])
r = jnp.array([1.0, jnp.nan, jnp.nan, 0.0, -0.0, 2.0])
out = ([bits(f(x, y)) for f in (jnp.fmax, jnp.fmin) for x, y in ((p, n), (n, p), (q, r), (r, q))],
       [jax.grad(f, argnums=(0, 1))(x, y) for f in (jnp.fmax, jnp.fmin) for x, y in ((0.0, -0.0), (1.0, 1.0), (1.0, 2.0))],
       jnp.fmax(3, 7), jnp.fmax(5, jnp.array([1, 7, 9, 4])), jnp.fmin(jnp.array([1, 7]), 2.5),
       bits(jax.jit(jnp.fmax)(q, r)))
""")
C("engine13_fmax_fmin_jaxpr", "jaxpr", """
out = (str(jax.make_jaxpr(jnp.fmax)(1.0, 2.0)), str(jax.make_jaxpr(jnp.fmin)(jnp.ones(3), 2)))
""")
