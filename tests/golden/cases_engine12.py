"""Case definitions for engine12_cases.json (stop 40, issue 24): leftovers of the library suites:
jnp.fft's eager and jitted bits, the float0 literal in jaxprs, and numpy's RuntimeWarnings."""
from casebook import recorder

CASES, C, E = recorder()

# ---- jnp.fft: the same bits eager and under jit (numpyro's CirculantNormal rebuilt under jit)
_FFTS = """
x = jnp.array([0.9, 0.2, 0.1, 0.1, 0.2])
y = jnp.linspace(-1.0, 2.0, 21).reshape(3, 7)
z = (y + 1j * y[::-1]).astype(jnp.complex64)
fs = [(jnp.fft.rfft, x), (jnp.fft.fft, x), (jnp.fft.ifft, x), (lambda v: jnp.fft.irfft(v, n=9), x),
      (lambda v: jnp.fft.rfft(v, axis=0, norm='ortho'), y), (lambda v: jnp.fft.rfft(v, n=11), y),
      (lambda v: jnp.fft.fft(v, n=4, norm='forward'), z), (lambda v: jnp.fft.ifft(v, axis=0, norm='ortho'), z),
      (lambda v: jnp.fft.irfft(v, norm='forward'), z), (jnp.fft.rfft2, y), (jnp.fft.irfftn, z),
      (lambda v: jnp.fft.hfft(v, n=5), z), (jnp.fft.ihfft, y)]
"""
C("engine12_fft_eager_equals_jit_bits", "numpy", _FFTS + """
out = [bool(jnp.array_equal(f(v), jax.jit(f)(v))) for f, v in fs]
""")
C("engine12_fft_values", "numpy", _FFTS + """
out = [f(v) for f, v in fs]
""")
C("engine12_fft_transforms", "numpy", """
x = jnp.linspace(-1.0, 2.0, 7)
loss = lambda v: jnp.sum(jnp.abs(jnp.fft.rfft(v * v)) ** 2) + jnp.real(jnp.fft.fft(v)[2])
out = (jax.grad(loss)(x), jax.jit(jax.grad(loss))(x), jax.vmap(jnp.fft.rfft)(x.reshape(1, 7) * jnp.ones((3, 1))),
       jax.jvp(jnp.fft.irfft, (x[:4] + 0j,), (jnp.ones(4, jnp.complex64),)))
""")
C("engine12_fft_jaxpr_one_primitive", "jaxpr", """
x = jnp.ones((2, 5))
out = (str(jax.make_jaxpr(lambda v: jnp.fft.rfft(v, norm='ortho'))(jnp.ones(5))),
       str(jax.make_jaxpr(lambda v: jnp.fft.rfft(v, axis=0))(x)),
       str(jax.make_jaxpr(lambda v: jnp.fft.irfft(v, n=7, norm='ortho'))(x)),
       str(jax.make_jaxpr(lambda v: jnp.fft.fft(v, n=3, norm='forward'))(x)))
""")

# ---- float0 in jaxprs: a broadcast of the float0 literal, as JAX prints it
_F0 = """
f = lambda x: (x * 2, jnp.floor(x).astype(jnp.int32))
x = jnp.array([1.5, 2.5])
"""
C("engine12_jaxpr_float0_broadcast", "jaxpr", _F0 + """
out = str(jax.make_jaxpr(lambda v: jax.jvp(f, (v,), (jnp.ones(2),)))(x))
""")
C("engine12_jaxpr_float0_literals", "jaxpr", _F0 + """
out = (str(jax.make_jaxpr(lambda v: jax.jvp(lambda v: (v, 3, v > 1), (v,), (jnp.ones(2),)))(x)),
       str(jax.make_jaxpr(lambda v: jax.jvp(lambda v: jnp.argmax(v), (v,), (jnp.ones(2),)))(x)),
       str(jax.make_jaxpr(jax.grad(lambda v, n: v * n, argnums=(0, 1), allow_int=True))(1.0, 3)))
""")
C("engine12_float0_jvp_under_jit_comes_out_numpy", "transforms", _F0 + """
t = jax.jit(lambda v: jax.jvp(f, (v,), (jnp.ones(2),)))(x)[1][1]
out = (isinstance(t, np.ndarray), isinstance(t, jax.Array), str(t.dtype), t.shape)
""")

# ---- Hurwitz zeta at a large negative q: a closed form, not ceil(-q) loop steps (hung at -3e38),
# and XLA's values at its poles (q = 0, -1, ...): inf for an even s, nan for an odd one
C("engine12_zeta_polygamma_negative_q", "special", """
q = jnp.array([-3e38, -1e6, -16777216.0, -4.0, 0.0, 2.5])
out = (jax.vmap(jax.grad(jax.scipy.special.digamma))(q), jax.jit(jax.grad(jax.scipy.special.digamma))(-1e30),
       [jax.scipy.special.polygamma(m, q) for m in (1, 2, 3)],
       [jax.scipy.special.zeta(s, q) for s in (1.0, 2.0, 3.0, 4.0, 5.0, 2.5)],
       jax.scipy.special.polygamma(1, jnp.array([-0.5, -1.5])))
""")

# ---- no numpy RuntimeWarning where JAX is silent: under np.errstate(over/invalid/divide='raise') a
# leaking numpy warning would raise FloatingPointError (XLA's float32 overflows to inf without a word)
C("engine12_special_overflow_silent", "special", """
x = jnp.array([-3e38, -1e6, -4.0, 0.0, 1e-45, 2.5, 40.0, 1e30, 3e38])
with np.errstate(over='raise', invalid='raise', divide='raise'):
    out = (jax.scipy.special.digamma(x), jax.scipy.special.zeta(2.0, x), jax.scipy.special.polygamma(1, x),
           jax.vmap(jax.grad(jax.scipy.special.gammaln))(x), jax.vmap(jax.grad(jax.scipy.special.gamma))(x),
           jax.vmap(jax.grad(jax.scipy.special.betaln))(x[:7], x[:7]), jax.vmap(jax.grad(jax.scipy.special.digamma))(x))
""")
C("engine12_digamma_poles_nan", "special", """
x = jnp.array([-4.0, -1.0, 0.0, -0.0, 1e-45, -2.5, 0.5])
out = (jax.scipy.special.digamma(x), jax.jit(jax.scipy.special.digamma)(x))
""")

# ---- random.binomial of a clipped probability: clip(-0.0, 0, 1) is -0.0 on gradpad (+0.0 on XLA),
# and a -0.0 probability kept the inversion sampler's loop running forever
C("engine12_binomial_clipped_zero_probability", "random", """
p = jnp.clip(jnp.array([-0.0, -1.0, 0.0, 1.0, 0.5, 2.0]), 0, 1)
out = (random.binomial(random.key(0), 10.0, p), jax.jit(lambda k, q: random.binomial(k, 5.0, q))(random.key(1), p))
""")

# ---- a triangular solve with a zero pivot: nan/inf without numpy's "invalid value in matmul"
C("engine12_triangular_solve_zero_pivot_silent", "linalg", """
a = jnp.array([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [3.0, 1.0, 0.0]])
with np.errstate(over='raise', invalid='raise', divide='raise'):
    out = (jax.scipy.linalg.solve_triangular(a, jnp.ones(3), lower=True),
           jax.scipy.linalg.cho_solve((jnp.zeros((3, 3)), True), jnp.ones(3)),
           jax.vmap(lambda m: jax.scipy.linalg.solve_triangular(m, jnp.ones(3), lower=True))(jnp.stack([a, a.T.T])))
""")
