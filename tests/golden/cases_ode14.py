"""Case definitions for ode14_cases.json (issue 24: `import jax.<module>` for JAX's modules):
jax.experimental.ode.odeint (values at the requested times, tolerances, hmax and mxstep, pytree
states, gradients through the adjoint w.r.t. y0, args, t and closed-over arrays, jit, vmap, a small
neural-ODE fit, its errors)."""
from casebook import on_cpu, recorder

CASES, C, E = recorder()
# (WGSL's float32 rounds its own way: an adaptive stepping that rounding steers runs on the CPU device)
CPU = on_cpu(C)

# float32 with the default rtol = atol = 1.4e-8 (below float32's resolution, as tutorials run it): the
# accepted steps depend on round-off, so values agree to float32 noise times the number of steps
_NOISY = dict(rtol=1e-4, atol=1e-4)   # (the pendulum swings up to |omega| = 4: 1e-4 is 2.5e-5 of its scale)

ODE = """
odeint = jax.experimental.ode.odeint
def decay(y, t, k):
    return -k * y
def lotka_volterra(s, t, a, b, c, d):
    x, y = s[0], s[1]
    return jnp.stack([a * x - b * x * y, c * x * y - d * y])
def pendulum(y, t, b, c):
    theta, omega = y
    return jnp.array([omega, -b * omega - c * jnp.sin(theta)])
t5 = jnp.linspace(0., 2., 5)
"""

CPU("ode14_odeint_decay_tolerances_hmax_mxstep", "ode", ODE + """
y0 = jnp.array([1., 2.])
out = (odeint(decay, y0, t5, 0.7), odeint(decay, y0, t5, 0.7, rtol=1e-3, atol=1e-6),
       odeint(decay, y0, t5, 0.7, rtol=1e-4, atol=1e-4, hmax=0.05),
       odeint(decay, y0, t5, 3.0, rtol=1e-3, atol=1e-3, mxstep=2),
       odeint(decay, y0, jnp.array([0., 1e-3, 0.5, 4.0]), 0.7, rtol=1e-5, atol=1e-7),
       odeint(lambda y, t: jnp.cos(t) * jnp.ones_like(y), jnp.zeros(3), jnp.linspace(1., 7., 4), rtol=1e-6))
""")
C("ode14_odeint_float64_matches_tightly", "ode", ODE + """
jax.config.update("jax_enable_x64", True)
ys = odeint(lotka_volterra, jnp.array([1., 0.5]), jnp.linspace(0., 15., 16), 1.0, 0.5, 0.5, 1.0)
yp = odeint(pendulum, jnp.array([np.pi - 0.1, 0.0]), jnp.linspace(0., 10., 11), 0.25, 5.0)
g = jax.grad(lambda p: odeint(lotka_volterra, jnp.array([1., 0.5]), jnp.linspace(0., 5., 6), *p)[-1].sum())(
    (1.0, 0.5, 0.5, 1.0))
out = (ys, yp, g, str(ys.dtype))
""", rtol=1e-9, atol=1e-11)
C("ode14_odeint_tutorial_systems_float32", "ode", ODE + """
out = (odeint(lotka_volterra, jnp.array([1., 0.5]), jnp.linspace(0., 5., 11), 1.0, 0.5, 0.5, 1.0),
       odeint(pendulum, jnp.array([np.pi - 0.1, 0.0]), jnp.linspace(0., 10., 21), 0.25, 5.0),
       odeint(pendulum, jnp.array([np.pi - 0.1, 0.0]), jnp.linspace(0., 10., 21), 0.25, 5.0, rtol=1e-5, atol=1e-5))
""", **_NOISY)
C("ode14_odeint_pytree_state_and_args", "ode", ODE + """
def rot(s, t, p):
    return {"x": -p["w"] * s["v"][0], "v": (p["w"] * s["x"],)}
ys = odeint(rot, {"x": 1., "v": (jnp.float32(0.),)}, t5, {"w": 2.0}, rtol=1e-6, atol=1e-8)
out = (ys, jax.tree_util.tree_structure(ys) == jax.tree_util.tree_structure({"x": 0, "v": (0,)}),
       odeint(lambda y, t: jax.tree_util.tree_map(lambda a: -a, y), (jnp.ones((2, 2)), jnp.arange(3.)), t5,
              rtol=1e-6, atol=1e-8))
""")
C("ode14_odeint_grads_y0_args_t_closure", "ode", ODE + """
y0 = jnp.array([1., 2.])
loss = lambda y0, k: (odeint(decay, y0, t5, k) ** 2).sum()
W = jnp.array([[0., 1.], [-1., -0.1]])
out = (jax.grad(loss, (0, 1))(y0, 0.7),
       jax.grad(lambda t: odeint(decay, y0, t, 0.7)[-1].sum())(t5),
       jax.grad(lambda W: odeint(lambda y, t: jnp.tanh(W @ y), jnp.array([1., 0.]), t5)[-1].sum())(W),
       jax.jacrev(lambda y0: odeint(decay, y0, t5, 0.7, rtol=1e-6)[-1])(y0),
       jax.value_and_grad(lambda p: odeint(lotka_volterra, jnp.array([1., 0.5]), jnp.linspace(0., 5., 11), *p)[-1, 0])(
           (1.0, 0.5, 0.5, 1.0)))
""", rtol=1e-3, atol=1e-5)
C("ode14_odeint_jit_vmap_and_vmap_of_grad", "ode", ODE + """
ks = jnp.array([0.5, 1., 3.])
out = (jax.jit(lambda y0: odeint(decay, y0, t5, 0.7))(jnp.array([1., 2.])),
       jax.vmap(lambda k: odeint(decay, jnp.array([1.]), t5, k))(ks),
       jax.vmap(lambda y0: odeint(lotka_volterra, y0, jnp.linspace(0., 3., 4), 1.0, 0.5, 0.5, 1.0, rtol=1e-6))(
           jnp.array([[1., 0.5], [2., 1.]])),
       jax.jit(jax.vmap(jax.grad(lambda k: odeint(decay, jnp.array([1.]), t5, k)[-1, 0])))(ks))
""", rtol=1e-4, atol=1e-6)
C("ode14_neural_ode_fit_three_sgd_steps", "ode", """
odeint = jax.experimental.ode.odeint
ts = jnp.linspace(0., 1., 6)
target = jnp.stack([jnp.cos(2. * ts), -jnp.sin(2. * ts)], axis=1)
def field(y, t, params):
    W1, b1, W2 = params
    return W2 @ jnp.tanh(W1 @ y + b1)
def loss(params):
    return jnp.mean((odeint(field, jnp.array([1., 0.]), ts, params, rtol=1e-5, atol=1e-6) - target) ** 2)
params = (jnp.linspace(-1., 1., 8).reshape(4, 2), jnp.linspace(0., 0.3, 4), jnp.linspace(0.5, -0.5, 8).reshape(2, 4))
step = jax.jit(lambda p: jax.tree_util.tree_map(lambda a, g: a - 0.5 * g, p, jax.grad(loss)(p)))
losses = []
for _ in range(3):
    losses.append(loss(params))
    params = step(params)
out = (losses, params)
""", rtol=1e-3, atol=1e-5)
C("ode14_odeint_what_learners_paste", "ode", ODE + """
t3 = jnp.linspace(0., 1., 3)
out = (odeint(lambda y, t: -y, 1.0, t3), odeint(lambda y, t: -y, jnp.ones(1), np.linspace(0., 1., 3)),
       odeint(lambda y, t: [y[1], -y[0]], [1., 0.], t3), odeint(decay, jnp.ones(1), t3, 2),
       odeint(lambda y, t: -y, jnp.ones(1), jnp.linspace(1., 0., 3)), odeint(lambda y, t: -y, jnp.ones(1), jnp.array([0.])))
""")
E("ode14_odeint_integer_state", "ode", ODE + """
out = odeint(lambda y, t: -y, jnp.array([1, 2]), jnp.linspace(0., 1., 3))
""")
E("ode14_odeint_func_returns_another_shape", "ode", ODE + """
out = odeint(lambda y, t: jnp.ones(3), jnp.ones(2), jnp.linspace(0., 1., 3))
""")
C("ode14_odeint_in_scan_vmapped_times_second_reverse", "ode", ODE + """
out = (jax.vmap(lambda T: odeint(lambda y, t: -y, jnp.ones(1), jnp.linspace(0., T, 3), rtol=1e-6))(jnp.array([1., 2.])),
       lax.scan(lambda c, k: (c, odeint(decay, jnp.ones(1), jnp.linspace(0., 1., 3), k, rtol=1e-6)[-1]), 0.,
                jnp.array([1., 2.]))[1],
       jax.jacrev(jax.jacrev(lambda k: odeint(decay, jnp.ones(1), jnp.linspace(0., 1., 3), k, rtol=1e-6)[-1, 0]))(1.0))
""", rtol=1e-4, atol=1e-6)
E("ode14_odeint_hessian_is_forward_over_reverse", "ode", ODE + """
out = jax.hessian(lambda k: odeint(decay, jnp.ones(1), jnp.linspace(0., 1., 3), k)[-1, 0])(1.0)
""")
E("ode14_odeint_args_must_be_arrays", "ode", ODE + """
out = odeint(decay, jnp.ones(2), t5, "fast")
""")
E("ode14_odeint_integer_times", "ode", ODE + """
out = odeint(decay, jnp.ones(2), jnp.arange(3), 0.5)
""")
E("ode14_odeint_times_as_a_list", "ode", ODE + """
out = odeint(decay, jnp.ones(2), [0., 1.], 0.5)
""")
E("ode14_odeint_forward_mode_refused", "ode", ODE + """
out = jax.jvp(lambda y0: odeint(decay, y0, t5, 0.5), (jnp.ones(2),), (jnp.ones(2),))
""")

# ---- jax.custom_batching: custom_vmap's rule replaces batching (also inside jit, and for jvp), sequential_vmap
CB = """
cb = jax.custom_batching
seen = []
@cb.custom_vmap
def f(x, y):
    return jnp.sin(x) * y
@f.def_vmap
def f_rule(axis_size, in_batched, x, y):
    seen.append((axis_size, in_batched, jnp.shape(x), jnp.shape(y)))
    return jnp.cos(x) * y, in_batched[0] or in_batched[1]
xs = jnp.arange(3.)
"""
C("ode14_custom_vmap_rule_under_vmap_and_jit", "custom_batching", CB + """
out = (f(1., 2.), jax.vmap(f, (0, None))(xs, 2.), jax.vmap(jax.jit(f), (0, None))(xs, 2.),
       jax.jit(jax.vmap(f))(xs, jnp.ones(3)), jax.vmap(f, (None, 0))(0.5, xs),
       jax.vmap(jax.vmap(f))(jnp.ones((2, 3)), jnp.ones((2, 3))), jax.jit(f)(1., 2.), seen)
""")
C("ode14_custom_vmap_jvp_uses_the_rules_jvp", "custom_batching", CB + """
out = (jax.jvp(f, (1., 2.), (1., 0.)),
       jax.vmap(lambda a, b: jax.jvp(f, (a, b), (1., 0.)))(xs, jnp.ones(3)),
       jax.jvp(lambda x: jax.vmap(f, (0, None))(x, 2.), (xs,), (jnp.ones(3),)),
       jax.jacfwd(lambda x: jax.vmap(f, (0, None))(x, 2.))(xs))
""")
C("ode14_custom_vmap_pytree_arguments", "custom_batching", '''
seen = []
@jax.custom_batching.custom_vmap
def q(d, n):
    return d["a"] + d["b"] * n
@q.def_vmap
def q_rule(axis_size, in_batched, d, n):
    seen.append(in_batched)
    out = d["a"] - d["b"] * n
    return (out, in_batched[0]["a"] or in_batched[0]["b"] or in_batched[1])
out = (q({"a": 1., "b": 2.}, 3.), jax.vmap(q, ({"a": 0, "b": None}, None))({"a": jnp.ones(2), "b": 3.}, 2.),
       jax.vmap(q, ({"a": None, "b": 0}, 0))({"a": 1., "b": jnp.arange(2.)}, jnp.arange(2.)), seen)
''')
C("ode14_sequential_vmap", "custom_batching", """
calls = []
@jax.custom_batching.sequential_vmap
def h(x, y):
    calls.append(jnp.shape(x))
    return x @ y
A = jnp.arange(12.).reshape(3, 2, 2)
out = (h(A[0], jnp.ones(2)), jax.vmap(h, (0, None))(A, jnp.ones(2)), jax.vmap(h)(A, jnp.arange(6.).reshape(3, 2)),
       jax.jit(jax.vmap(h, (0, None)))(A, jnp.ones(2)),
       jax.vmap(jax.vmap(h, (0, None)), (0, None))(A.reshape(3, 1, 2, 2), jnp.ones(2)), calls)
""")
C("ode14_custom_vmap_inside_control_flow_kwargs_ints", "custom_batching", """
@jax.custom_batching.custom_vmap
def f(x, n):
    return x * n
@f.def_vmap
def rule(axis_size, in_batched, x, n):
    return x * n + 1000, in_batched[0] or in_batched[1]
out = (jax.vmap(lambda x: f(x, n=3))(jnp.arange(3.)), jax.vmap(f, (0, None))(jnp.arange(3), 2),
       jax.vmap(lambda x: lax.scan(lambda c, _: (f(c, 2.), c), x, None, length=3))(jnp.arange(2.)),
       jax.vmap(lambda x: lax.cond(x > 0, lambda v: f(v, 2.), lambda v: v, x))(jnp.array([-1., 1.])),
       jax.vmap(lambda x: lax.while_loop(lambda c: c < 10, lambda c: f(c, 2.), x))(jnp.array([1., 3.])),
       jax.vmap(jax.custom_batching.sequential_vmap(lambda x: jnp.argmax(x)))(jnp.eye(3)))
""")
E("ode14_custom_vmap_without_rule", "custom_batching", """
@jax.custom_batching.custom_vmap
def g(x):
    return x
out = jax.vmap(g)(jnp.ones(2))
""")
E("ode14_custom_vmap_rule_structure_mismatch", "custom_batching", """
@jax.custom_batching.custom_vmap
def k(x):
    return x * 2
@k.def_vmap
def krule(axis_size, in_batched, x):
    return x * 2, [in_batched[0]]
out = jax.vmap(k)(jnp.ones(2))
""")

# ---- jax.experimental.jet: Taylor series through the elementwise primitives a tutorial uses
# (JAX's own higher terms carry float32 recurrence round-off: a few ulps per order)
JET = """
jet = jax.experimental.jet.jet
x = jnp.array([0.5, 1.2])
W = jnp.arange(6.).reshape(3, 2) / 6
"""
C("ode14_jet_elementwise", "jet", JET + """
out = (jet(jnp.sin, (1.,), ([1., 0., 0.],)), jet(jnp.cos, (0.3,), ([1., 0.5],)),
       jet(lambda x, y: x * y + jnp.exp(x), (1., 2.), ([1., 0.], [0., 0.])),
       jet(lambda x: (x ** 3, jnp.tanh(x)), (x,), ([jnp.ones(2), jnp.zeros(2)],)),
       jet(lambda x: jnp.log(x) * jnp.cos(x) / (1 + x ** 2), (x,), ([jnp.ones(2), 0.5 * jnp.ones(2), jnp.ones(2)],)),
       jet(lambda x: jnp.sum(jax.nn.sigmoid(x) ** -2 + jnp.sqrt(x) + x ** 2.5), (x,), ([jnp.ones(2)] * 3,)),
       jet(lambda x: x - 2.0 * x ** 0 + x ** 4, (jnp.float32(0.),), (list(jnp.array([1., 1., 0., 0.])),)),
       jet(lambda x: 3.0 * jnp.ones(()), (1.,), ([1.],)))
""", rtol=1e-4, atol=1e-5)
C("ode14_jet_network_jit_vmap_grad", "jet", JET + """
out = (jet(lambda x: jnp.tanh(W @ x).sum(), (x,), ([jnp.ones(2), jnp.zeros(2), jnp.zeros(2), jnp.zeros(2)],)),
       jax.jit(lambda x: jet(jnp.exp, (x,), ([jnp.ones(2), jnp.ones(2)],)))(x),
       jax.grad(lambda x: jet(jnp.sin, (x,), ([1., 0.],))[1][1])(0.3),
       jax.vmap(lambda x: jet(jnp.sin, (x,), ([1., 0.],)))(x),
       jet(lambda x: jax.jit(lambda v: jnp.exp(jnp.sin(v)))(x), (0.7,), ([1., 0., 0.],)))
""", rtol=1e-4, atol=1e-5)

# ---- thin modules: jax.extend.random, jax.experimental.shard_alike / control_deps (one device)
C("ode14_extend_random_threefry", "modules", """
r = jax.extend.random
k = r.seed_with_impl(r.threefry_prng_impl, 3)
ks = r.random_seed(jnp.arange(3, dtype=jnp.uint32), r.threefry_prng_impl)
out = (jax.random.key_data(k), jax.random.key_data(ks), str(r.threefry_prng_impl),
       r.threefry_2x32(jnp.array([1, 2], jnp.uint32), jnp.arange(4, dtype=jnp.uint32)),
       jax.random.uniform(k, (2,)), jax.random.key_data(jax.random.split(k)))
""")
C("ode14_shard_alike_and_control_deps", "modules", """
x, y = jax.experimental.shard_alike.shard_alike(jnp.ones(2), {"a": jnp.zeros(2)}["a"])
cd = jax.experimental.control_deps
out = (x, y, jax.jit(lambda a, b: jax.experimental.shard_alike.shard_alike(a * 2, b))(jnp.ones(3), jnp.arange(3.)),
       cd.control_dep(jnp.ones(2), jnp.zeros(2)), cd.schedule([jnp.ones(2), jnp.zeros(2)]))
""")
E("ode14_shard_alike_shapes_must_match", "modules", """
out = jax.experimental.shard_alike.shard_alike(jnp.ones(2), jnp.zeros(3))
""", msg_prefix=97)

# ---- jax.experimental.rnn: cuDNN's flat LSTM weights and the reference recurrence (JAX's lstm is GPU-only)
C("ode14_rnn_lstm_ref_layouts_ragged_bidirectional", "rnn", """
rnn = jax.experimental.rnn
key = jax.random.key(0)
B, T, I, H = 2, 5, 3, 4
x = jnp.sin(jnp.arange(B * T * I, dtype=jnp.float32).reshape(B, T, I))
lens = jnp.array([5, 3], jnp.int32)
def run(L, bi):
    nd = 2 if bi else 1
    w = rnn.init_lstm_weight(key, I, H, L, bi)
    h0 = 0.1 * jnp.ones((nd * L, B, H)); c0 = -0.2 * jnp.ones((nd * L, B, H))
    parts = rnn.unpack_lstm_weights(w, I, H, L, bi)
    return (rnn.get_num_params_in_lstm(I, H, L, bi), w[:5], rnn.lstm_ref(x, h0, c0, *parts, lens, I, H, L, 0.0, bi),
            jax.tree_util.tree_map(jnp.shape, parts))
w1 = rnn.init_lstm_weight(key, I, H, 1, False)
out = (run(1, False), run(2, False), run(1, True), run(2, True),
       rnn.swap_lstm_gates(jnp.arange(rnn.get_num_params_in_lstm(2, 1, 1, False), dtype=jnp.float32), 2, 1, 1, False),
       jax.grad(lambda w: rnn.lstm_ref(x, jnp.zeros((1, B, H)), jnp.zeros((1, B, H)),
                                       *rnn.unpack_lstm_weights(w, I, H, 1, False), lens, I, H, 1, 0.0, False)[0].sum())(w1)[:8])
""", rtol=1e-5, atol=1e-6)
E("ode14_rnn_lstm_ref_needs_int32_lengths", "rnn", """
rnn = jax.experimental.rnn
w = rnn.unpack_lstm_weights(jnp.ones(rnn.get_num_params_in_lstm(1, 1, 1, False)), 1, 1, 1, False)
out = rnn.lstm_ref(jnp.ones((1, 2, 1)), jnp.zeros((1, 1, 1)), jnp.zeros((1, 1, 1)), *w, jnp.array([2.0]), 1, 1, 1, 0.0, False)
""")
