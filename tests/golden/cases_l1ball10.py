"""Case definitions for l1ball10_cases.json (stop 38): `jax.scipy.stats.truncnorm`, which numpyro's
test_distributions.py imports at collection (logpdf, pdf, logcdf, cdf, logsf, sf): values across
both tails, the straddling middle, infinite bounds, points outside the support, empty intervals
(a >= b: nan) and the far tails (|x| ~ 40, where only log space holds the mass), their gradients
(with JAX's nan/zero pattern where a branch's gradient is lost), x64, broadcasting and weak types."""
from casebook import recorder

CASES, C, E = recorder()

_POINTS = """
x = jnp.array([-40., -9., -3., -1., -0.3, 0., 0.5, 1.2, 2.9, 3., 8., 39.5, -2., 0.7, 4.])
a = jnp.array([-50., -10., -3.5, -2., -1., -0.5, 0.2, 1., 2.8, -jnp.inf, 7.5, 38., -1., 1., -1.])
b = jnp.array([-39., -8.5, -2., 1., 0., 2., 3., 5., 3.1, jnp.inf, 9., 40., 1., 1., jnp.inf])
"""

C("l1ball10_truncnorm_values", "scipy", _POINTS + """
tn = jax.scipy.stats.truncnorm
fs = (tn.logpdf, tn.pdf, tn.logcdf, tn.cdf, tn.logsf, tn.sf)
out = (tuple(f(x, a, b) for f in fs), tuple(f(x, a, b, 0.3, 1.7) for f in fs),
       tuple(jax.jit(f)(x * 2.0 - 1.0, a, b, -1.0, 2.0) for f in fs))
""")

C("l1ball10_truncnorm_grads", "scipy", _POINTS + """
tn = jax.scipy.stats.truncnorm
fs = (tn.logpdf, tn.pdf, tn.logcdf, tn.cdf, tn.logsf, tn.sf)
out = tuple(jax.vmap(jax.grad(lambda *v, f=f: f(*v), argnums=(0, 1, 2, 3, 4)))(x, a, b, 0.3 + 0 * x, 1.7 + 0 * x)
            for f in fs)
""")

C("l1ball10_truncnorm_x64", "scipy", """
jax.config.update("jax_enable_x64", True)
tn = jax.scipy.stats.truncnorm
x = jnp.array([-38.5, -7.9, -0.2, 0.4, 2.95, 12.0, 37.0])
a = jnp.array([-39.0, -8.0, -1.5, -jnp.inf, 2.9, 11.5, 36.0])
b = jnp.array([-38.0, -7.5, 0.5, 3.0, 3.0, 13.0, jnp.inf])
fs = (tn.logpdf, tn.pdf, tn.logcdf, tn.cdf, tn.logsf, tn.sf)
out = (tuple(f(x, a, b) for f in fs),
       tuple(jax.vmap(jax.grad(f, argnums=(0, 1, 2)))(x, a, b) for f in (tn.logpdf, tn.logcdf, tn.logsf)),
       tn.logpdf(jnp.float32(0.5), jnp.float32(-1.0), jnp.float32(2.0)))
""")

C("l1ball10_truncnorm_shapes_and_types", "scipy", """
tn = jax.scipy.stats.truncnorm
xs = jnp.linspace(-2.0, 2.0, 5)
out = (tn.logpdf(0.5, -1.0, 1.0), tn.cdf(0.5, -1, 1), tn.sf(1, 0, 2), tn.pdf(jnp.arange(3), 0, 2),
       tn.logcdf(xs[:, None], jnp.array([-1.0, 0.0, -3.0]), 1.5, loc=0.2, scale=jnp.array([1.0, 2.0, 0.5])),
       tn.logsf(xs, -1.5, 1.5, scale=3.0), tn.cdf(xs, a=-1.0, b=1.0, loc=0.0, scale=1.0),
       tn.logpdf(jnp.array([0.0, 0.5]), 1.0, 1.0), tn.cdf(jnp.array([0.0, 2.5]), 2.0, 1.0),
       jax.vmap(tn.logpdf, in_axes=(0, None, None))(xs, -1.0, 1.0))
""")

# log_ndtr takes float32 and float64 only: a half-precision x is JAX's TypeError
E("l1ball10_truncnorm_bfloat16_raises", "scipy", """
out = jax.scipy.stats.truncnorm.pdf(jnp.array([0.1], jnp.bfloat16), -1.0, 1.0)
""")
E("l1ball10_truncnorm_float16_raises", "scipy", """
out = jax.scipy.stats.truncnorm.logcdf(jnp.array([0.1], jnp.float16), -1.0, 1.0)
""")

# log_ndtr (truncnorm's building block) as JAX 0.10.2's: segments by dtype (float32: series below
# -10, -ndtr(-x) above 5; float64: -20 and 8), and the derivative phi(x) / Phi(x) from a custom JVP.
# gradpad's took -8 and 6 for both and differentiated its branches: the gradient at a cut point
# (x = -8, x = 6) came out half of JAX's, and float32 log_ndtr(6) was 0 instead of -9.87e-10
C("l1ball10_log_ndtr_segments_and_grads", "special", """
sp = jax.scipy.special
xs = [-40.0, -20.0, -10.0, -9.0, -8.0, -7.9, -5.0, -1.0, 0.0, 0.3, 1.0, 5.0, 6.0, 7.0, 8.0, 9.0]
x32 = jnp.array(xs)
g = jax.vmap(jax.grad(sp.log_ndtr))
out = (sp.log_ndtr(x32), g(x32), jax.grad(sp.log_ndtr)(-8.0), jax.grad(sp.log_ndtr)(6.0), sp.log_ndtr(x32, series_order=0),
       sp.log_ndtr(x32, series_order=1), sp.log_ndtr(x32, series_order=6), sp.log_ndtr(-12.0).weak_type)
""")
C("l1ball10_log_ndtr_float64", "special", """
jax.config.update("jax_enable_x64", True)
sp = jax.scipy.special
x = jnp.array([-45.0, -20.0, -19.5, -10.0, -8.0, -1.0, 0.0, 2.0, 7.5, 8.0, 8.5, 30.0])
out = (sp.log_ndtr(x), jax.vmap(jax.grad(sp.log_ndtr))(x), sp.log_ndtr(x, series_order=4),
       jax.grad(lambda v: sp.log_ndtr(v, 2))(jnp.float64(-25.0)))
""")
# the second derivative differentiates the custom JVP's exp(log phi - log Phi): far left it is a float32
# difference of terms ~x^2 (1e-4 relative apart from XLA's rounding; the old rule was off by 2x at -8)
C("l1ball10_log_ndtr_second_derivative", "special", """
x32 = jnp.array([-40.0, -20.0, -10.0, -9.0, -8.0, -7.9, -5.0, -1.0, 0.0, 0.3, 1.0, 5.0, 6.0, 7.0, 8.0, 9.0])
out = jax.jit(jax.vmap(jax.grad(jax.grad(jax.scipy.special.log_ndtr))))(x32)
""", rtol=5e-4)  # (WebGPU's float32 exp/log land 3e-4 apart at -40 and -9: the same cancellation)
E("l1ball10_log_ndtr_int_raises", "special", "out = jax.scipy.special.log_ndtr(jnp.arange(3))\n")
E("l1ball10_log_ndtr_series_order_negative", "special", "out = jax.scipy.special.log_ndtr(1.0, series_order=-1)\n")
E("l1ball10_log_ndtr_series_order_large", "special", "out = jax.scipy.special.log_ndtr(1.0, series_order=31)\n")
E("l1ball10_log_ndtr_series_order_float", "special", "out = jax.scipy.special.log_ndtr(1.0, series_order=2.0)\n")

# norm.logcdf/logsf are log_ndtr (and its mirror), as JAX's: log(cdf) was -inf once the float32 cdf
# underflowed (numpyro's TruncatedNormal.log_prob in a far tail came out +inf)
C("l1ball10_norm_logcdf_logsf_tails", "scipy", """
st = jax.scipy.stats
x = jnp.array([-60.0, -40.0, -15.0, -3.0, 0.0, 2.0, 6.0, 15.0, 40.0])
out = (st.norm.logcdf(x), st.norm.logsf(x), st.norm.logcdf(x, 1.35, 0.01), st.norm.logsf(x, -2.0, 3.0),
       jax.vmap(jax.grad(st.norm.logcdf))(x), jax.vmap(jax.grad(st.norm.logsf))(x),
       jax.grad(st.norm.logcdf, argnums=(1, 2))(-20.0, 1.35, 0.5), st.norm.logcdf(3), st.norm.logsf(-1))
""")
E("l1ball10_norm_logcdf_float16_raises", "scipy", """
out = jax.scipy.stats.norm.logcdf(jnp.array([0.5], jnp.float16))
""")

# ndtri by Cephes' rational approximations, as JAX's: sqrt(2) erf_inv(2p - 1) was -inf below p ~ 3e-8
# in float32 (numpyro's TruncatedNormal(low=-16, high=-15) sampled only -inf); norm.ppf/isf use it
C("l1ball10_ndtri_tails", "special", """
sp = jax.scipy.special
t = jnp.finfo(jnp.float32).tiny
p = jnp.array([0.0, t, 1e-37, 1e-30, 1e-10, 3e-8, 1e-4, 0.1, 0.135, 0.14, 0.3, 0.5, 0.7, 0.86, 0.9, 0.999, 1 - 1e-7, 1.0])
out = (sp.ndtri(p), jax.vmap(jax.grad(sp.ndtri))(p[1:-1]), jax.scipy.stats.norm.ppf(p, 1.35, 0.5),
       jax.scipy.stats.norm.isf(p), jax.jit(sp.ndtri)(jnp.float32(1e-20)), sp.ndtri(jnp.array([-0.5, 1.5])))
""")
C("l1ball10_ndtri_float64", "special", """
jax.config.update("jax_enable_x64", True)
sp = jax.scipy.special
p = jnp.array([0.0, 1e-300, 1e-100, 1e-20, 1e-10, 0.01, 0.2, 0.5, 0.8, 0.99, 1 - 1e-12, 1.0])
out = (sp.ndtri(p), jax.vmap(jax.grad(sp.ndtri))(p[1:-1]), jax.scipy.stats.norm.ppf(jnp.float32(0.25)),
       jax.scipy.stats.norm.ppf(p, -1.0, 2.0))
""")

# the gradient of a division whose dividend is the broadcast operand (x of shape (1,) over y of shape
# (2,)): gradpad's eager true-quotient path broadcast the divisor to the dividend's shape and failed
# (a ValueError from reshape; numpyro TruncatedNormal(loc, scale=[1, 2]) grad wrt scale)
C("l1ball10_grad_of_division_by_broader_divisor", "grad", """
s = jnp.array([1.0, 2.0])
f1 = lambda s: jnp.sum(jnp.array([3.0]) / s)
f2 = lambda s: jnp.sum(jnp.array([[3.0], [4.0]]) / s)
f3 = lambda s: jnp.sum(jnp.array([[3.0, 5.0]]) / s[:, None])
f4 = lambda s: jnp.sum(jnp.array([[3.0, 5.0]]) / s)
out = (jax.grad(f1)(s), jax.value_and_grad(f2)(s), jax.grad(f3)(s), jax.grad(f4)(s),
       jax.jacrev(lambda s: jnp.array([3.0]) / s)(s), jax.jacfwd(lambda s: jnp.array([[2.0]]) / s)(s))
""")
