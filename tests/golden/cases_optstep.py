"""Case definitions for optstep_cases.json: a jitted optimizer step in optax's shape (a params
dict, NamedTuple states, None and empty states) and the ops its generated code now writes as
ufuncs or shape-specialised callables (divisions by a scalar, x ** 1 and x ** 2, powers by an int
step count, p[0] and its gradient's pad, scalar selects), recorded from real JAX. Bit for bit
(rtol = atol = 0) where XLA computes what we compute; elsewhere XLA's fused multiply-adds and
powf differ from numpy's in the last place. tests/test_jit_optstep.py holds the fast paths to the
plain paths bit for bit."""
import textwrap

CASES = []


def C(name, area, code, **kw):
    CASES.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))


EXACT = dict(rtol=0.0, atol=0.0)
V5 = "x = jnp.asarray(np.cos(np.arange(5) * 0.7).astype(np.float32))\n"

C("optstep_adam_step_params_dict_namedtuple_state", "jit", """
class ScaleByAdamState(NamedTuple):
    count: object
    mu: object
    nu: object
class EmptyState(NamedTuple):
    pass
def loss(p):
    h = jnp.tanh(jnp.linspace(-1.0, 1.0, 6).reshape(3, 2) @ p["w"] + p["b"])
    return jnp.mean((h - 0.5) ** 2) + 0.1 * p["b"][0] ** 2
@jax.jit
def step(params, state, lr):
    adam, nothing, empty = state
    grads = jax.grad(loss)(params)
    mu = jax.tree_util.tree_map(lambda g, m: 0.1 * g ** 1 + 0.9 * m, grads, adam.mu)
    nu = jax.tree_util.tree_map(lambda g, v: 0.001 * g ** 2 + 0.999 * v, grads, adam.nu)
    count = jnp.where(adam.count < np.iinfo(np.int32).max, adam.count + 1, np.iinfo(np.int32).max)
    upd = jax.tree_util.tree_map(lambda m, v: -lr * (m / (1 - 0.9 ** count)) / (jnp.sqrt(v / (1 - 0.999 ** count) + 0.0) + 1e-8), mu, nu)
    return jax.tree_util.tree_map(lambda p, u: p + u, params, upd), (ScaleByAdamState(count, mu, nu), nothing, empty)
params = {"w": jnp.asarray(np.cos(np.arange(8) * 0.9).astype(np.float32).reshape(2, 4)), "b": jnp.full(4, 0.1)}
zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
state = (ScaleByAdamState(jnp.zeros((), jnp.int32), zeros, zeros), None, EmptyState())
for _ in range(4):
    params, state = step(params, state, 1e-2)
out = (params, state, type(state[0]).__name__, type(state[2]).__name__)
""", rtol=1e-4, atol=1e-6)   # (adam divides by sqrt(nu): a last-place difference in a gradient grows)
# (not bit for bit: whether XLA's CPU code divides or multiplies by the reciprocal depends on the
# fusion around the division: alone, x / s is x * (1 / s) in every place, as ours; beside (x + 1) / s
# both are true divisions; and WebGPU divides in WGSL)
C("optstep_jit_divisions_by_a_scalar", "jit", V5 + """
f = jax.jit(lambda x, s, t: (x / s, (x + 1) / s, x / 3.0, x / t, x.reshape(5, 1) / x[:1], x / (x + 2)))
out = f(x, jnp.float32(0.3), 7.0)
""")
C("optstep_jit_integer_powers", "jit", V5 + """
out = jax.jit(lambda x, n: (x ** 1, x ** 2, jnp.power(x, 1) + 0.0, n ** 2))(x, jnp.arange(3))
""", **EXACT)
C("optstep_jit_power_by_an_int_count", "jit", """
out = jax.jit(lambda c: (0.9 ** c, 0.999 ** c, 1 - 0.9 ** c, jnp.float32(2.5) ** c))(jnp.int32(7))
""")
C("optstep_jit_step_count_select_wraps_nothing", "jit", """
inc = jax.jit(lambda c: jnp.where(c < np.iinfo(np.int32).max, c + 1, np.iinfo(np.int32).max))
out = (inc(jnp.int32(0)), inc(jnp.int32(np.iinfo(np.int32).max)), inc(inc(jnp.int32(5))))
""", **EXACT)
C("optstep_jit_grad_of_vector_elements", "jit", """
def rosenbrock(p):
    return (1.0 - p[0]) ** 2 + 100.0 * (p[1] - p[0] ** 2) ** 2
g = jax.jit(jax.grad(rosenbrock))
out = (g(jnp.array([0.5, -0.3])), g(jnp.array([0.0, 0.0])), jax.jit(lambda p: (p[1], -p[0] * 2.0, p[0] / 4.0))(jnp.array([3.0, 5.0])))
""")
C("optstep_jit_pad_and_scalar_negation", "jit", V5 + """
out = jax.jit(lambda x, s: (lax.pad(x, s, ((2, 1, 0),)), lax.pad(x.reshape(5, 1), -s, ((0, 1, 0), (1, 0, 0))), -(s * 2)))(x, jnp.float32(1.5))
""", **EXACT)
