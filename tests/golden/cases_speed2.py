"""Case definitions for speed2_cases.json: jnp.var and jnp.std on their eager fast path, recorded
from real JAX. Bit for bit (rtol = atol = 0) where no sum's order matters; elsewhere numpy's
pairwise sums and XLA's differ in the last place (as our compiled path did before the fast path:
tests/test_fast_paths.py holds the fast path to that path bit for bit)."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


EXACT = dict(rtol=0.0, atol=0.0)
# inputs made by real numpy on both sides (no jnp arithmetic that could round differently)
V8 = "v = jnp.asarray(np.cos(np.arange(8) * 0.7).astype(np.float32))\n"
M = "m = jnp.asarray(np.cos(np.arange(20) * 1.3).astype(np.float32).reshape(4, 5))\n"
W = "w = lax.add(jnp.asarray(0.5), 1.0) * jnp.ones(3)\n"   # a weakly typed f32[3]

C("var_std_f32_vector", "eager", V8 + "out = (jnp.var(v), jnp.std(v), jnp.var(v, ddof=1), jnp.std(v, correction=2.5))")
C("var_std_f32_axes", "eager", M + """
out = (jnp.var(m, axis=0), jnp.var(m, axis=1), jnp.var(m, axis=-1, keepdims=True), jnp.std(m, axis=(0, 1)),
       jnp.std(m, axis=0, ddof=1, keepdims=True), jnp.var(m, keepdims=True), jnp.var(m, axis=[1, 0]))
""")
C("var_std_ddof_too_large", "eager", V8 + "out = (jnp.var(v, ddof=8), jnp.std(v, ddof=9), jnp.var(v[:1], ddof=-1))", **EXACT)
C("var_std_weak_and_scalar", "eager", W + "out = (jnp.var(w), jnp.std(w), jnp.var(jnp.asarray(2.5)), jnp.std(jnp.float32(3.0)))", **EXACT)
C("var_std_nan_inf", "eager", "x = jnp.array([1.0, jnp.nan, 2.0])\ny = jnp.array([1.0, jnp.inf])\n"
  "out = (jnp.var(x), jnp.std(y), jnp.var(jnp.zeros((0,))), jnp.var(jnp.zeros((2, 0)), axis=0))", **EXACT)
C("var_std_f64", "eager", """
jax.config.update('jax_enable_x64', True)
d = jnp.asarray(np.cos(np.arange(12) * 0.9).reshape(3, 4))
out = (jnp.var(d), jnp.std(d, axis=1, ddof=1))
""")
# a batch's column variances: the compiled sums take BLAS's order here (rtol: see the test)
C("var_std_columns_large", "eager", """
x = jnp.asarray(np.cos(np.arange(256 * 64) * 0.37).astype(np.float32).reshape(256, 64))
out = (jnp.var(x, axis=0), jnp.std(x, axis=0, ddof=1), jnp.var(x), jnp.var(x, axis=1))
""", rtol=1e-6, atol=1e-7)
