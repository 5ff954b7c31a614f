"""Training and inference workloads with optax, chex, equinox and flax, run unchanged on real JAX
(record.py writes ecosystem_golden.json) and on gradpad (tests/test_ecosystem.py compares).
Each workload returns a dict of arrays. Data are asymmetric on purpose: gradients that are zero in
exact arithmetic (symmetric data) become rounding noise whose sign adam would amplify."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

X = np.linspace(-1.0, 2.0, 32, dtype=np.float32)[:, None]
Y = np.sin(3 * X)


def _mlp_params():
    k1, k2 = jax.random.split(jax.random.key(0))
    return {"w1": jax.random.normal(k1, (1, 16)) * 0.5, "b1": jnp.full(16, 0.1),
            "w2": jax.random.normal(k2, (16, 1)) * 0.5, "b2": jnp.full(1, 0.2)}


def _mlp_loss(p):
    h = jnp.tanh(X @ p["w1"] + p["b1"])
    return jnp.mean((h @ p["w2"] + p["b2"] - Y) ** 2)


def optax_adam_mlp():
    import optax
    params, opt = _mlp_params(), optax.adam(1e-2)
    state = opt.init(params)

    @jax.jit
    def step(p, s):
        loss, g = jax.value_and_grad(_mlp_loss)(p)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, loss
    losses = []
    for _ in range(50):
        params, state, loss = step(params, state)
        losses.append(loss)
    return {"losses": jnp.stack(losses), "w2": params["w2"]}


def optax_adamw_chain_schedule():
    import optax
    sched = optax.warmup_cosine_decay_schedule(0.0, 1e-2, 5, 50)
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(sched, weight_decay=1e-3))
    params = _mlp_params()
    state = opt.init(params)
    for _ in range(20):
        u, state = opt.update(jax.grad(_mlp_loss)(params), state, params)
        params = optax.apply_updates(params, u)
    return {"loss": _mlp_loss(params), "lr": jnp.array([sched(i) for i in range(0, 50, 7)]), "b1": params["b1"]}


def chex_asserts():
    import chex
    chex.assert_shape(X, (32, 1))
    chex.assert_rank(Y, 2)
    chex.assert_trees_all_close({"a": jnp.ones(2)}, {"a": jnp.ones(2) + 1e-7})
    chex.assert_type(jnp.ones(2), float)
    failed = 0
    try:
        chex.assert_shape(X, (3, 1))
    except AssertionError:
        failed = 1
    return {"failed_as_expected": jnp.array(failed)}


def equinox_mlp():
    import equinox as eqx
    mlp = eqx.nn.MLP(1, 1, 16, 2, key=jax.random.key(1))

    def loss(m):
        return jnp.mean((jax.vmap(m)(X) - Y) ** 2)
    grads = eqx.filter_grad(loss)(mlp)
    out = jax.vmap(mlp)(X[:4])
    return {"out": out, "grad_w0": grads.layers[0].weight, "loss": loss(mlp)}


def flax_nnx_linear_optimizer():
    import optax
    from flax import nnx

    class Net(nnx.Module):
        def __init__(self, rngs):
            self.l1 = nnx.Linear(1, 16, rngs=rngs)
            self.l2 = nnx.Linear(16, 1, rngs=rngs)

        def __call__(self, x):
            return self.l2(jnp.tanh(self.l1(x)))
    net = Net(nnx.Rngs(0))
    first = net(X[:4])
    optim = nnx.Optimizer(net, optax.adam(1e-2), wrt=nnx.Param)
    losses = []
    for _ in range(20):
        loss, g = nnx.value_and_grad(lambda m: jnp.mean((m(X) - Y) ** 2))(net)
        optim.update(net, g)
        losses.append(loss)
    return {"first": first, "losses": jnp.stack(losses), "kernel": net.l1.kernel[...]}


def flax_linen_batchnorm_dropout():
    import flax.linen as nn
    x = X[:8].reshape(4, 2)

    class M(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool):
            x = nn.Dense(8)(x)
            x = nn.BatchNorm(use_running_average=not train)(x)
            x = nn.Dropout(0.5, deterministic=not train)(x)
            return nn.Dense(1)(nn.relu(x))
    m = M()
    v = m.init({"params": jax.random.key(0), "dropout": jax.random.key(1)}, x, train=False)
    y, upd = m.apply(v, x, train=True, rngs={"dropout": jax.random.key(2)}, mutable=["batch_stats"])
    g = jax.grad(lambda p: jnp.sum(m.apply({"params": p, "batch_stats": v["batch_stats"]}, x, train=False)))(
        v["params"])
    return {"train_out": y, "mean": upd["batch_stats"]["BatchNorm_0"]["mean"], "grad": g["Dense_0"]["kernel"],
            "eval_out": m.apply(v, x, train=False)}


def flax_linen_rnn_lstm():
    import flax.linen as nn

    class R(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.RNN(nn.LSTMCell(4))(x)
    xs = jnp.asarray(np.linspace(-1, 1, 30, dtype=np.float32).reshape(2, 5, 3))
    r = R()
    v = r.init(jax.random.key(0), xs)
    return {"out": r.apply(v, xs), "grad": jax.grad(lambda p: jnp.sum(r.apply(p, xs) ** 2))(v)["params"][
        "LSTMCell_0"]["hi"]["kernel"]}


def optax_lbfgs_linesearch():
    import optax

    def f(w):
        return jnp.sum((X[:, 0] * w[0] + w[1] - Y[:, 0]) ** 2)
    opt, w = optax.lbfgs(), jnp.array([0.5, 0.1])
    state = opt.init(w)
    value_and_grad = optax.value_and_grad_from_state(f)
    values = []
    for _ in range(5):
        v, g = value_and_grad(w, state=state)
        u, state = opt.update(g, state, w, value=v, grad=g, value_fn=f)
        w = optax.apply_updates(w, u)
        values.append(v)
    return {"w": w, "values": jnp.stack(values)}


def equinox_conv_gru_scan():
    import equinox as eqx
    conv = eqx.nn.Conv2d(2, 3, 3, key=jax.random.key(0))
    cell = eqx.nn.GRUCell(3, 4, key=jax.random.key(1))

    def step(h, x):
        h = cell(x, h)
        return h, h
    xs = jnp.asarray(np.linspace(-1, 1, 18, dtype=np.float32).reshape(6, 3))
    return {"conv": conv(jnp.asarray(np.linspace(0, 1, 50, dtype=np.float32).reshape(2, 5, 5))),
            "gru": jax.lax.scan(step, jnp.zeros(4), xs)[1]}


def chex_chexify_jit():
    import chex

    @chex.chexify
    @jax.jit
    def f(x):
        chex.assert_trees_all_equal(x, x)
        return x * 2
    @chex.chexify
    @jax.jit
    def g(x):
        chex.assert_tree_all_finite(x)
        return x
    out = f(jnp.ones(2))
    chex.block_until_chexify_assertions_complete()
    caught = 0
    try:
        g(jnp.array([1.0, jnp.inf]))
        chex.block_until_chexify_assertions_complete()
    except Exception:  # noqa: BLE001  (chexify raises its check's error)
        caught = 1
    return {"out": out, "caught_failure": jnp.array(caught)}

def equinox_filter_jit_grad():
    import equinox as eqx
    mlp = eqx.nn.MLP(1, 1, 8, 1, key=jax.random.key(2))

    @eqx.filter_jit
    def loss(m, x, y):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    @eqx.filter_jit
    def step(m, x, y):
        grads = eqx.filter_grad(loss)(m, x, y)
        return eqx.apply_updates(m, jax.tree_util.tree_map(lambda g: -0.1 * g, grads))
    losses = []
    for _ in range(5):
        losses.append(loss(mlp, X, Y))
        mlp = step(mlp, X, Y)
    return {"losses": jnp.stack(losses), "weight0": mlp.layers[0].weight}


def equinox_error_if_jit_vmap():
    import equinox as eqx

    @jax.jit
    @jax.vmap
    def checked_sqrt(x):
        x = eqx.error_if(x, x < 0, "negative input")
        return jnp.sqrt(x)
    ok = checked_sqrt(jnp.arange(4.0))
    caught = 0
    try:
        jax.block_until_ready(checked_sqrt(jnp.array([1.0, -1.0])))
    except Exception as e:  # noqa: BLE001  (equinox raises its EqxRuntimeError, an Exception)
        caught = int("negative input" in str(e))
    return {"ok": ok, "caught_failure": jnp.array(caught)}


def flax_nnx_jit_training():
    import optax
    from flax import nnx

    class Net(nnx.Module):
        def __init__(self, rngs):
            self.l1 = nnx.Linear(1, 16, rngs=rngs)
            self.l2 = nnx.Linear(16, 1, rngs=rngs)

        def __call__(self, x):
            return self.l2(jnp.tanh(self.l1(x)))
    net = Net(nnx.Rngs(3))
    optim = nnx.Optimizer(net, optax.adam(1e-2), wrt=nnx.Param)

    @nnx.jit
    def train_step(model, optimizer, x, y):
        loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
        optimizer.update(model, grads)
        return loss
    losses = jnp.stack([train_step(net, optim, X, Y) for _ in range(20)])
    return {"losses": losses, "kernel": net.l2.kernel[...], "step": optim.step[...]}


WORKLOADS = {f.__name__: f for f in (optax_adam_mlp, optax_adamw_chain_schedule, optax_lbfgs_linesearch, chex_asserts,
                                     chex_chexify_jit, equinox_mlp, equinox_conv_gru_scan, flax_nnx_linear_optimizer,
                                     flax_linen_batchnorm_dropout, flax_linen_rnn_lstm,
                                     equinox_filter_jit_grad, equinox_error_if_jit_vmap, flax_nnx_jit_training)}


def run_all() -> dict:
    """name -> {key: {'shape': [...], 'dtype': str, 'value': nested list}} (or {'error': ...})."""
    out = {}
    for name, fn in WORKLOADS.items():
        try:
            res = fn()
            out[name] = {k: {"shape": list(np.shape(v)), "dtype": str(np.asarray(v).dtype),
                             "value": np.asarray(v).tolist()} for k, v in res.items()}
        except Exception as e:  # noqa: BLE001  (reported per workload)
            out[name] = {"error": f"{type(e).__name__}: {e}"[:2000]}
    return out


if __name__ == "__main__":
    import json
    print(json.dumps(run_all()))
