"""Case definitions for xladiv_cases.json (issue 24, drift): the float32 bits of divisions whose
divisor broadcasts and of short sums, against XLA's CPU backend.

- XLA rewrites A / broadcast(B) as A * broadcast(1 / B) only when B has no other use (an eager
  division on its own, or under jit); a jnp division under AD runs in JAX as one compiled jit with
  its tangent or residual work, where the divisor has other uses: the true quotient
  (core/_engine/primitives/elementwise.py `_div_jvp`, backends/cpu_ufuncs.py `split_division`).
- A float sum over the last axis of 8 to 32 terms adds term after term (numpy's pairwise sum adds
  in another order; core/_engine/primitives/reductions.py `_adds_in_order`).
numpyro's eight-schools NUTS left real JAX at its first gradient over these two. Results are
compared as uint32 bit patterns; jitted functions run three times (the first call is interpreted,
the later ones run the generated code)."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()


CPU = on_cpu(C)


# deterministic float32 operands of mixed signs and magnitudes (no np.random in cases)
DATA = ("def data(shape, seed):\n"
        "    n = int(np.prod(shape))\n"
        "    v = np.sin(np.arange(1, n + 1) * 12.9898 + seed * 78.233) * 43758.5453\n"
        "    return jnp.asarray(((v - np.floor(v)) * 40.0 - 20.0).reshape(shape), jnp.float32)\n"
        "def u32(r):\n"
        "    return lax.bitcast_convert_type(r, jnp.uint32)\n"
        "def bits(f, *a):\n"
        "    jf = jax.jit(f)\n"
        "    return jax.tree_util.tree_map(u32, [f(*a)] + [jf(*a) for _ in range(3)])\n")

CPU("xladiv_by_broadcast_scalar_alone", "lax", DATA +
    "s = jnp.float32(3.7)\n"
    "out = bits(lambda a, b: a / b, data((64,), 1), s) + bits(lambda a: a / 3.7, data((64,), 2))\n"
    "out += bits(lambda a, b: a / b, data((6, 8), 3), data((6, 1), 4))")
CPU("xladiv_divisor_with_other_uses_under_jit", "lax", DATA +
    "x, s = data((64,), 5), jnp.float32(2.3288589)\n"
    "out = [bits(f, x, s) for f in (lambda a, b: (a / b, b * b), lambda a, b: (a / b, 1 / (b * b)),\n"
    "                              lambda a, b: (a / b, b), lambda a, b: (a / b, a * b), lambda a, b: (a / b, (a + 1) / b))]")
CPU("xladiv_differentiated_division_primal", "grad", DATA +
    "x, s = data((64,), 6), jnp.float32(3.7)\n"
    "one = jnp.float32(1.0)\n"
    "out = [u32(jax.jvp(lambda s: x / s, (s,), (one,))[0]), u32(jax.jvp(lambda a: a / s, (x,), (x * 0.5,))[0]),\n"
    "       u32(jax.vjp(lambda s: x / s, s)[0]), u32(jax.vjp(lambda a: a / s, x)[0]),\n"
    "       u32(jax.jit(lambda s: jax.jvp(lambda s: x / s, (s,), (one,)))(s)[0])]")
CPU("xladiv_normal_log_density_gradient", "grad", DATA +
    "theta = data((8,), 7) / 10\n"
    "def pe(p):\n"
    "    mu, tau = p[0], jnp.exp(p[1])\n"
    "    z = (theta - mu) / tau\n"
    "    return -jnp.sum(-0.5 * z ** 2 - jnp.log(jnp.sqrt(2 * jnp.pi) * tau))\n"
    "p = jnp.array([-1.6366563, 0.8453784], jnp.float32)\n"
    "out = [u32(jax.grad(pe)(p)), u32(jax.value_and_grad(pe)(p)[0])]")
CPU("xlasum_last_axis_adds_in_order", "lax", DATA +
    "out = [bits(jnp.sum, data((n,), n)) for n in (7, 8, 9, 16, 31, 32)]\n"
    "out += [bits(lambda a: jnp.sum(a, axis=1), data((3, n), n)) for n in (8, 20)]\n"
    "out += [bits(lambda a: jnp.sum(a, axis=-1, keepdims=True), data((2, 3, 12), 9))]\n"
    "out += [bits(jnp.mean, data((n,), 2 * n)) for n in (8, 24)]\n"
    "out += [bits(lambda a: jnp.mean(a, axis=1, keepdims=True), data((3, 16), 4))]")
CPU("xladiv_by_constant_under_jit", "lax", DATA +
    "xs = [data((), k) for k in range(12)]\n"
    "out = [bits(lambda a: a / 3.7, x) for x in xs] + [u32(x / 3.7) for x in xs]\n"
    "out += bits(lambda a: jnp.sum(a) / 24, data((24,), 3))")
CPU("xlamean_times_reciprocal_of_count", "lax", DATA +
    "out = [bits(jnp.mean, data((n,), 3 * n)) for n in (3, 5, 7, 24, 30)]\n"
    "out += [u32(jnp.mean(np.asarray(data((n,), 5 * n)))) for n in (3, 24, 29)]\n"
    "out += [bits(lambda a: jnp.mean(a, axis=0), data((6, 5), 11))]")
CPU("xladiv_differentiated_division_op_by_op", "grad", DATA +
    "x, s = data((64,), 8), jnp.float32(2.3288589)\n"
    "with jax.disable_jit():\n"
    "    out = [u32(jax.vjp(lambda s: x / s, s)[0]), u32(jax.jvp(lambda s: x / s, (s,), (jnp.float32(1.0),))[0])]")
