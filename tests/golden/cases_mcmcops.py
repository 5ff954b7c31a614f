"""Case definitions for mcmcops_cases.json (issue 24): what an MCMC kernel's jitted step runs
thousands of times (blackjax's NUTS: conds and switches inside while loops, a PRNG key folded
and drawn from once per leapfrog), each written out by the CPU compiler's fast paths. Every jitted
function is called three times: the first call is interpreted, the later ones run the generated
code, and all three are recorded."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()



CPU = on_cpu(C)


THRICE = "def thrice(f, *a):\n    return [f(*a) for _ in range(3)]\n"

C("compiled_switch_clamps_its_index", "control_flow", THRICE +
  "f = jax.jit(lambda i, x: lax.switch(i, [lambda x: x + 1.0, lambda x: x * 3.0, lambda x: -x], x))\n"
  "out = [thrice(f, i, jnp.float32(2.5)) for i in (-3, 0, 1, 2, 7)]")
C("compiled_cond_passthrough_then_overwritten", "control_flow", THRICE +
  "def f(p, x):\n"
  "    t = x * 2.0\n"
  "    y = lax.cond(p, lambda t: t, lambda t: t - 1.0, t)\n"
  "    u = t + 1.0\n"
  "    return y, u, y * u\n"
  "out = [thrice(jax.jit(f), p, jnp.arange(4.0)) for p in (True, False)]")
C("compiled_cond_constant_and_int_outputs", "control_flow", THRICE +
  "f = jax.jit(lambda p, n: lax.cond(p, lambda n: (n + 1, jnp.float32(0.5), jnp.zeros(2)), "
  "lambda n: (n * 2, jnp.float32(-1.0), jnp.ones(2)), n))\n"
  "out = [thrice(f, p, jnp.int32(5)) for p in (True, False)]")
C("compiled_nested_cond_in_a_while_loop", "control_flow", THRICE +
  "def body(c):\n"
  "    i, acc, v = c\n"
  "    acc = lax.cond(i % 3 == 0, lambda a: lax.cond(a > 4.0, lambda a: a * 0.5, lambda a: a + 2.0, a),\n"
  "                   lambda a: a - 0.25, acc)\n"
  "    v = lax.cond(i % 2 == 0, lambda v: v.at[i % 4].set(acc), lambda v: v, v)\n"
  "    return i + 1, acc, v\n"
  "f = jax.jit(lambda n: lax.while_loop(lambda c: c[0] < n, body, (0, jnp.float32(1.0), jnp.zeros(4))))\n"
  "out = thrice(f, 11)")
C("compiled_cond_on_an_integer_predicate", "control_flow", THRICE +
  "f = jax.jit(lambda k, x: lax.cond(k, lambda x: jnp.sin(x), lambda x: jnp.cos(x), x))\n"
  "out = [thrice(f, k, jnp.float32(0.75)) for k in (0, 1, -4, 9)]")

# one key folded, split and drawn from: these go lane by lane in Python integers (random_bits.py,
# _LANES_MAX); recorded as key data, eager, under jit and inside a loop
C("one_key_fold_in_split_bits", "random",
  "k = random.key(42)\n"
  "pk = random.PRNGKey(7)\n"
  "out = [random.key_data(random.fold_in(k, d)) for d in (0, 1, 2**31 - 1, 4000000000)] + [\n"
  "    random.fold_in(pk, 5), random.key_data(random.split(k)), random.key_data(random.split(k, 3)),\n"
  "    random.key_data(random.split(k, (2, 2))), random.key_data(random.split(k, 9)), random.split(pk, 3),\n"
  "    random.bits(k), random.bits(k, (3,)), random.bits(k, (8,)), random.bits(k, (9,)),\n"
  "    random.bits(k, (2,), jnp.uint8), random.bits(k, (5,), jnp.uint16), random.uniform(k), random.normal(k, (3,)),\n"
  "    random.key_data(jax.vmap(random.fold_in)(random.split(k, (1,)), jnp.array([3]))),\n"
  "    jax.vmap(lambda k: random.bits(k, (1, 2)))(random.split(k, (1,)))]")
C("one_key_fold_in_and_draw_in_a_jitted_loop", "random", THRICE +
  "def body(i, c):\n"
  "    k, acc, b = c\n"
  "    kk = random.fold_in(k, i)\n"
  "    k1, k2 = random.split(kk)\n"
  "    return k1, acc + random.uniform(k2), b ^ random.bits(kk)\n"
  "f = jax.jit(lambda k: lax.fori_loop(0, 25, body, (k, jnp.float32(0.0), jnp.uint32(0))))\n"
  "out = [(random.key_data(a), b, c) for a, b, c in thrice(f, random.key(3))]")
C("one_key_bits_64_x64", "random", "jax.config.update('jax_enable_x64', True)\n"
  "k = random.key(11)\n"
  "out = (random.bits(k, (), jnp.uint64), random.bits(k, (3,), jnp.uint64), random.uniform(k, dtype=jnp.float64))")
C("one_key_split_not_partitionable", "random", "jax.config.update('jax_threefry_partitionable', False)\n"
  "k = random.key(5)\n"
  "out = (random.key_data(random.split(k, 3)), random.bits(k, (3,)), random.key_data(random.fold_in(k, 9)))")

# the scalar and one-window ops the compiler specialises (backends/cpu_special.py): dtype
# conversions, bitwise ops and shifts by a literal, population count, integer remainder, integer
# powers, logistic, dynamic_slice with clamped starts, a one-window scatter in and out of bounds
C("compiled_scalar_ops_of_a_tree_builder", "lax", THRICE +
  "def f(n, x, m):\n"
  "    a = lax.shift_right_arithmetic(n, 1)\n"
  "    b = lax.population_count(jnp.abs(a))\n"
  "    c = (~n) & (n + 1)\n"
  "    d = lax.shift_right_logical(n, 3) | lax.shift_right_logical(n, 40) ^ c\n"
  "    e = lax.rem(n, m), lax.rem(n, jnp.int32(0)), n % m\n"
  "    g = lax.convert_element_type(b, jnp.float32), (x > 0.5).astype(jnp.int32), n.astype(jnp.uint8), x.astype(jnp.int32)\n"
  "    h = lax.integer_pow(x, 2), lax.integer_pow(x, 5), lax.integer_pow(n, 3), lax.integer_pow(x, 1)\n"
  "    return a, b, c, d, e, g, h, jax.nn.sigmoid(x), jax.nn.sigmoid(-x * 40.0), lax.shift_right_arithmetic(n, 99)\n"
  "out = [thrice(jax.jit(f), jnp.int32(v), jnp.float32(w), jnp.int32(m)) for v, w, m in "
  "((13, 0.75, 4), (-7, -2.5, 3), (-2147483648, 1e30, -1), (0, 0.0, -5))]")
C("compiled_bool_ops_and_abs_on_scalars", "lax", THRICE +
  "f = jax.jit(lambda p, q, x, i: (p & q, p | q, p ^ q, ~p, jnp.logical_not(q), jnp.abs(x), jnp.abs(i), -i, (x < 0) & (i > 0)))\n"
  "out = [thrice(f, jnp.bool_(p), jnp.bool_(q), jnp.float32(x), jnp.int32(i)) for p, q, x, i in "
  "((True, False, -1.5, -2147483648), (False, False, -0.0, 7), (True, True, np.nan, -3))]")
C("compiled_dynamic_slice_clamped_starts", "lax", THRICE +
  "m = jnp.arange(20.0).reshape(5, 4)\n"
  "f = jax.jit(lambda i, j: (lax.dynamic_slice(m, (i, j), (2, 3)), lax.dynamic_slice(m, (i, 0), (1, 4)), "
  "lax.dynamic_index_in_dim(m, i, 0, keepdims=False), m[i]))\n"
  "out = [thrice(f, i, j) for i, j in ((0, 0), (3, 1), (-4, 9), (100, -1))]")
C("compiled_one_window_scatter", "indexing", THRICE +
  "m = jnp.zeros((4, 3))\n"
  "f = jax.jit(lambda i, v: (m.at[i].set(v), m.at[i, 1].set(v[0]), m.at[i].set(v, mode='clip'), "
  "m.at[i].set(v, mode='drop'), jnp.zeros(5, jnp.int32).at[i].set(7), m.at[i].add(v), "
  "lax.dynamic_update_slice(m, v[None], (i, 0))))\n"
  "out = [thrice(f, i, jnp.array([1.0, 2.0, 3.0])) for i in (0, 3, 4, -1, 9)]")
C("compiled_negative_integer_pow_and_same_dtype_converts", "lax", THRICE +
  "def f(x, v, p, n):\n"
  "    w = lax.convert_element_type(x, jnp.float32)\n"
  "    return (lax.integer_pow(x, -2), lax.integer_pow(x, -3), lax.integer_pow(v, -1), lax.integer_pow(v, -4),\n"
  "            w, w * 2.0, lax.convert_element_type(p, jnp.bool_), lax.convert_element_type(n, jnp.int32) + 1,\n"
  "            jnp.asarray(x, jnp.float32), 1.5 * x)\n"
  "out = [thrice(jax.jit(f), jnp.float32(x), jnp.array([x, 2.0, 0.0], jnp.float32), jnp.bool_(x > 1), jnp.int32(7)) "
  "for x in (3.0, -0.5, 1e-20, 0.0)]")
CPU("compiled_xla_f32_math_on_scalars_bits", "lax", THRICE +
  "f = jax.jit(lambda x: [lax.bitcast_convert_type(y, jnp.uint32) for y in "
  "(jnp.exp(x), jnp.log(x), jnp.log1p(x), jnp.tanh(x), jnp.exp(-x), jnp.log(x * x + 1e-30))])\n"
  "out = [thrice(f, jnp.float32(v)) for v in (0.3, -0.7, 2.5, 88.7, -87.5, 1e-39, 0.0, -0.0, 7.25e-5)]")
