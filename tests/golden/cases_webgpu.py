"""Case definitions for webgpu_cases.json: float32 edge cases where a WGSL lowering differed from
JAX (tests/test_golden_webgpu.py runs them on the WebGPU backend, tests/test_golden.py on the CPU).
Drivers fold `x * 0.0` to 0 and leave an overflowing exp undefined; exp(x) - 1 cancels near 0."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


# ---------------------------------------------------------------- overflow and inf * 0
C("webgpu_exp_overflow_times_zero", "webgpu", """
f = jax.jit(lambda x: jnp.exp(x) * 0.0)
g = jax.jit(lambda x: 0.0 * jnp.exp(x))
x = jnp.array([100.0, -100.0, 1.0, 88.72283, 88.72284], jnp.float32)
out = (f(x), g(-x), f(jnp.float32(100.0)))
""")
C("webgpu_times_literal_zero_signs", "webgpu", """
x = jnp.array([2.0, -3.0, 0.0, -0.0, jnp.inf, -jnp.inf, jnp.nan], jnp.float32)
f = jax.jit(lambda x: (x * 0.0, x * -0.0, jnp.signbit(x * 0.0), jnp.signbit(-0.0 * x)))
out = f(x)
""")
C("webgpu_exp_overflow_boundary", "webgpu", """
x = jnp.array([88.7, 88.72283, 88.72284, 89.0, 1e30, jnp.inf, -jnp.inf, -104.0], jnp.float32)
out = (jax.jit(jnp.exp)(x), jax.jit(jnp.expm1)(x), jax.jit(lambda x: jnp.isinf(jnp.exp(x)))(x))
""")

# ---------------------------------------------------------------- expm1 near zero
C("webgpu_expm1_small", "webgpu", """
x = jnp.array([1e-8, -1e-8, 1e-6, -3e-6, 1e-5, 2e-5, -7e-5, 1e-4, 1e-3, -0.01, 0.1, -0.3, 0.49, 0.5, -0.5,
               1.0, -2.0, 5.0, -20.0, 0.0, -0.0], jnp.float32)
out = (jax.jit(jnp.expm1)(x), jnp.expm1(x))
""", rtol=2e-6, atol=0)
C("webgpu_expm1_grad_exp_float16", "webgpu", """
x = jnp.array([1e-6, -2e-5, 3e-4, 0.25], jnp.float32)
h = jnp.array([1e-3, -0.01, 0.2, 3.0], jnp.float16)
out = (jax.jit(jax.vmap(jax.grad(jnp.expm1)))(x), jax.jit(jnp.exp)(h), jax.jit(lambda h: jnp.exp(h) * 0.0)(h))
""", rtol=2e-6, atol=0)
