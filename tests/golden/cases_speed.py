"""Case definitions for speed_cases.json: the results the fast paths must keep (eager jnp calls on
concrete arrays skip promotion; jit reuses traces per function), recorded from real JAX."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


# ---------------------------------------------------------------- eager jnp on concrete arrays
W = "w = lax.add(jnp.asarray(3.0), 1.0)\n"           # a weakly typed f32 array
S = "s = jnp.asarray(np.array([1.0, -2.0, 3.5], np.float32))\n"
C("eager_add_weak_strong", "eager", W + S + "out = (jnp.add(w, s), jnp.add(s, w), jnp.add(w, w))")
C("eager_multiply_python_scalars", "eager", W + S + "out = (jnp.multiply(w, 2), jnp.multiply(s, 2.5), jnp.multiply(3, s), jnp.subtract(1.5, s))")
C("eager_binary_same_dtype", "eager", S + "out = (jnp.maximum(s, -s), jnp.minimum(s, 0.0), jnp.arctan2(s, s[::-1]), jnp.power(s, 2.0))")
C("eager_compare", "eager", W + S + "out = (jnp.less(s, s[::-1]), jnp.greater_equal(s, 1.0))")
C("eager_int_arrays", "eager", "a = jnp.arange(4)\nout = (jnp.add(a, a), jnp.add(2, a), jnp.multiply(a, 3), jnp.sin(a), jnp.negative(a), jnp.sum(a), jnp.mean(a))")
C("eager_float16", "eager", "h = jnp.asarray(np.array([0.5, 1.5], np.float16))\nout = (jnp.add(h, 1.5), jnp.add(h, h), jnp.exp(h), jnp.sum(h), jnp.mean(h))")
C("eager_unary_weak", "eager", W + S + "out = (jnp.sin(w), jnp.tanh(s), jnp.exp(w), jnp.sqrt(s), jnp.log1p(s))")
C("eager_mixed_dtypes", "eager", S + "i = jnp.arange(3)\nout = (jnp.add(s, i), jnp.multiply(i, s), jnp.add(s, jnp.ones(3, jnp.bfloat16)))")
C("eager_reductions_float", "eager", W + S + "m = jnp.arange(6.0).reshape(2, 3)\nout = (jnp.sum(w), jnp.mean(w), jnp.sum(s), jnp.mean(s), jnp.max(s), jnp.min(m, axis=0), jnp.prod(m, axis=-1))")
C("eager_reductions_axes", "eager", "m = jnp.arange(24.0).reshape(2, 3, 4)\nout = (jnp.sum(m, axis=(0, 2)), jnp.mean(m, axis=1, keepdims=True), jnp.sum(m, axis=-1, keepdims=True), jnp.mean(m, axis=(0, 1, 2)))")
C("eager_reductions_nan", "eager", "x = jnp.array([1.0, jnp.nan, 2.0])\nout = (jnp.sum(x), jnp.mean(x))")
C("eager_reductions_bool", "eager", "b = jnp.array([True, False, True])\nout = (jnp.sum(b), jnp.mean(b), jnp.max(b))")
C("eager_divide_by_zero", "eager", "x = jnp.array([1.0, -1.0, 0.0])\nout = (jnp.divide(x, jnp.zeros(3)), jnp.log(x), x / 0.0)")

# ---------------------------------------------------------------- jit's cache belongs to the function
C("jit_cache_stale_global", "jit", """
g = 0.
def impure_uses_globals(x):
    return x + g
first = jax.jit(impure_uses_globals)(4.)
g = 10.
out = (first, jax.jit(impure_uses_globals)(5.))
""")
C("jit_cache_retrace_counts", "jit", """
n = []
def f(x, k=1):
    n.append(1)
    return x * k
jax.jit(f)(1.0); jax.jit(f)(2.0); jax.jit(f, static_argnums=1)(2.0, 3); jax.jit(f, static_argnums=1)(2.0, 3)
jax.jit(f)(jnp.ones(2)); jax.jit(lambda x: f(x))(3.0)
out = len(n)
""")
C("jit_cache_x64_is_part_of_the_key", "jit", """
def f(x):
    return x + jnp.zeros(2)
a = jax.jit(f)(1.0)
jax.config.update('jax_enable_x64', True)
b = jax.jit(f)(1.0)
jax.config.update('jax_enable_x64', False)
out = (a, b, jax.jit(f)(1.0))
""")

# ---------------------------------------------------------------- one-term contractions are products
C("dot_k1_keeps_negative_zero", "eager", """
x = jnp.array([[-1.0], [2.0]]); y = jnp.array([[0.0, 3.0]])
v = jnp.array([-1.0, 2.0]); w = jnp.array([0.0, 3.0])
f = jax.jit(lambda a, b: a @ b)
out = [np.signbit(np.asarray(r)).tolist() for r in (x @ y, f(x, y), f(x, y), lax.dot_general(v, w, (((), ()), ((), ()))), jnp.outer(v, w))]
""")

# ---------------------------------------------------------------- divide and power on the fast path
C("eager_divide", "eager", W + S + "out = (jnp.divide(w, s), w / 2, 3 / s, s / s, jnp.divide(jnp.arange(3), 2), jnp.true_divide(s, 2.5), w / w)")
C("eager_power", "eager", W + S + "out = (jnp.power(s, s), jnp.power(w, 2.5), jnp.power(s, 2), s ** 0.5, jnp.power(2.0, s), jnp.power(jnp.arange(3), 2), w ** w)")
C("jaxpr_divide_power_traced", "jaxpr", "out = [str(jax.make_jaxpr(f)(jnp.ones(3), 2.0)) for f in (lambda x, y: x / y, lambda x, y: x / 2, lambda x, y: 2 / x, lambda x, y: x ** y, lambda x, y: jnp.power(x, 1.5), lambda x, y: jnp.divide(x, x))]")
