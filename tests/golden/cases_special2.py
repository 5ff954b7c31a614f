"""Case definitions for special2_cases.json: the last missing names of issue 11 (area
"special2"): jax.scipy.special.hyp1f1/hyp2f1, jax.scipy.linalg.schur, and the remaining jax.lax
and top-level names, recorded from real JAX 0.10.2."""
from casebook import recorder

CASES, C, E = recorder()

sp = "sp = jax.scipy.special\n"

# ---------------------------------------------------------------- hyp1f1
# A grid through every branch of JAX's 1F1: a == 0, a == b, b == 0, the Taylor series
# (|x| < 100) and the asymptotic series (|x| >= 100; NaN for x < 0 when a - b is no integer),
# negative and large arguments.
H1 = sp + ("a = jnp.array([0.0, 1.0, 0.5, 2.0, 3.0, 1.5, 0.3, 5.0, 2.0, 0.0, 1.0, 2.5, 10.0, 1.0, 1.0, 0.5, -1.5, 0.7, 4.0, -2.0])\n"
           "b = jnp.array([0.0, 1.0, 1.5, 3.0, 0.0, 2.5, 4.0, 7.0, 2.0, 1.0, 3.0, 2.5, 20.0, 2.0, 2.0, 1.2, 2.0, 0.3, 1.0, 3.0])\n"
           "x = jnp.array([1.0, 2.0, 0.5, -3.0, 1.0, 20.0, -50.0, 99.0, 120.0, 5.0, -120.0, 150.0, 30.0, -200.0, 3.0, -150.0, 4.0, -0.7, 60.0, -10.0])\n")
C("scipy_hyp1f1_grid", "special2", H1 + "out = sp.hyp1f1(a, b, x)")
C("scipy_hyp1f1_x64", "special2", "jax.config.update('jax_enable_x64', True)\n" + H1 +
  "out = sp.hyp1f1(a, b, x)", rtol=1e-11, atol=1e-300)
C("scipy_hyp1f1_scalars_and_dtypes", "special2", sp + "out = (sp.hyp1f1(1.0, 2.0, 0.5), sp.hyp1f1(1, 2, 3), "
  "sp.hyp1f1(jnp.float16(1.0), 2.0, 0.5), sp.hyp1f1(jnp.arange(3), 2.5, jnp.array([[0.1], [0.2]])), "
  "sp.hyp1f1(jnp.float32(0.5), 1, 2))")
C("scipy_hyp1f1_grads", "special2", sp + "out = (jax.grad(sp.hyp1f1, argnums=(0, 1, 2))(1.5, 2.5, 0.7), "
  "jax.grad(sp.hyp1f1, argnums=2)(0.5, 3.0, -4.0), "
  "jax.vmap(jax.grad(sp.hyp1f1, argnums=2), (None, None, 0))(2.0, 3.0, jnp.array([-2.0, 0.0, 1.0, 5.0])), "
  "jax.jit(sp.hyp1f1)(jnp.array([1.0, 2.0]), 3.0, jnp.array([0.5, -0.5])))")
E("scipy_hyp1f1_complex", "special2", sp + "out = sp.hyp1f1(1.0, 2.0, jnp.array(0.5 + 1j))")

# ---------------------------------------------------------------- hyp2f1
# Every case of JAX's 2F1: x == 0 or a/b == 0, poles of c, Euler's transformation (c-a-b <= -1),
# (1-x)^-a / (1-x)^-b when b == c / a == c, x > 1 (inf), x == 1 (Gauss), terminating
# polynomials (a or b a non-positive integer), the log case near x = 1 (c-a-b an integer),
# and the plain Taylor series.
H2 = sp + ("a = jnp.array([1.0, 0.5, -2.0, 1.0, 2.0, 1.5, 1.0, 0.5, -3.0, 1.0, 0.3, 2.0, 1.0, 0.7, 0.0, 2.0, 1.5, 0.5, 3.0, -4.0, 1.0, 2.0, 0.25])\n"
           "b = jnp.array([1.0, 1.5, 3.0, 2.0, 3.0, 2.5, 1.0, 0.5, 2.0, 0.0, 0.4, 1.0, 2.0, 0.2, 1.0, 3.0, 2.0, 0.5, 1.0, 1.5, 1.0, 1.0, 0.75])\n"
           "c = jnp.array([2.0, 2.5, 1.5, 3.0, 5.0, 4.0, 0.0, 1.0, -4.0, 1.0, 1.7, 3.0, 4.0, 0.9, 1.0, 2.0, 2.0, 0.5, 4.0, 2.0, 3.0, 3.0, 1.0])\n"
           "x = jnp.array([0.5, -0.5, 0.3, 0.95, 0.99, 1.0, 0.5, 0.2, 0.5, 0.3, 0.92, 1.5, -3.0, 0.97, 0.4, 0.5, 0.96, 0.6, 0.98, 0.7, -0.9, 0.93, -0.99])\n")
C("scipy_hyp2f1_grid", "special2", H2 + "out = sp.hyp2f1(a, b, c, x)")
C("scipy_hyp2f1_x64", "special2", "jax.config.update('jax_enable_x64', True)\n" + H2 +
  "out = sp.hyp2f1(a, b, c, x)", rtol=1e-10, atol=1e-300)
C("scipy_hyp2f1_scalars_and_grads", "special2", sp + "out = (sp.hyp2f1(1.0, 1.0, 2.0, 0.5), sp.hyp2f1(1, 1, 2, 0.25), "
  "jax.grad(sp.hyp2f1, argnums=(0, 1, 2, 3))(0.5, 1.5, 2.5, 0.3), "
  "jax.vmap(jax.grad(sp.hyp2f1, argnums=3), (None, None, None, 0))(1.0, 2.0, 3.0, jnp.array([-0.5, 0.0, 0.5])), "
  "jax.jit(sp.hyp2f1)(1.0, jnp.array([1.0, 2.0]), 3.0, 0.25))")
# hyp2f1's log case runs fori_loop(1, an int32 array, ...): under x64 a Python-int bound takes
# the other bound's dtype (JAX's special case for weak integers).
C("lax_fori_loop_weak_int_bound_x64", "special2", "jax.config.update('jax_enable_x64', True)\n"
  "out = (lax.fori_loop(0, jnp.int32(4), lambda i, c: c + i, jnp.int32(0)), "
  "jax.jit(lambda n: lax.fori_loop(1, n, lambda i, c: c * i, jnp.int64(1)))(jnp.int32(5)))")
E("lax_fori_loop_mixed_strong_bounds", "special2", "out = lax.fori_loop(jnp.int16(0), jnp.int32(4), lambda i, c: c + i, 0)")
