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


# ---- conform (issue 11): what a learner pastes from the libraries' READMEs and docs -----------

def _train(opt, steps=15, value=False):
    """`steps` updates of the MLP with `opt` (eagerly, as a README's loop): the losses and params.
    value: pass the loss too (polyak_sgd, reduce_on_plateau read it)."""
    import optax
    params = _mlp_params()
    state = opt.init(params)
    losses = []
    for _ in range(steps):
        loss, g = jax.value_and_grad(_mlp_loss)(params)
        u, state = opt.update(g, state, params, **({"value": loss} if value else {}))
        params = optax.apply_updates(params, u)
        losses.append(loss)
    return jnp.stack(losses), params


def optax_optimizer_zoo():
    import optax
    out = {}
    for name, opt in [("sgd_nesterov", optax.sgd(1e-2, momentum=0.9, nesterov=True)),
                      ("rmsprop", optax.rmsprop(1e-3, momentum=0.5, centered=True)),
                      ("adagrad", optax.adagrad(1e-1)), ("lion", optax.lion(1e-3)),
                      ("adabelief", optax.adabelief(1e-2)), ("adafactor", optax.adafactor(1e-2)),
                      ("radam", optax.radam(1e-2)), ("lamb", optax.lamb(1e-2)), ("nadam", optax.nadam(1e-2)),
                      ("adamax", optax.adamax(1e-2)), ("amsgrad", optax.amsgrad(1e-2)), ("yogi", optax.yogi(1e-2)),
                      ("novograd", optax.novograd(1e-2)), ("fromage", optax.fromage(1e-2)),
                      ("lars", optax.lars(1e-2)), ("sm3", optax.sm3(1e-1)), ("adadelta", optax.adadelta(1.0)),
                      ("polyak_sgd", optax.polyak_sgd(max_learning_rate=0.1)), ("adan", optax.adan(1e-2))]:
        out[name] = _train(opt, 10, value=name == "polyak_sgd")[0]
    return out


def optax_schedules():
    import optax
    steps = jnp.arange(0, 100, 9)
    scheds = {
        "exp": optax.exponential_decay(1.0, 10, 0.5, staircase=True, end_value=0.05),
        "piecewise": optax.piecewise_constant_schedule(1.0, {20: 0.5, 60: 0.1}),
        "join": optax.join_schedules([optax.linear_schedule(0.0, 1.0, 10), optax.cosine_decay_schedule(1.0, 90, alpha=0.1)], [10]),
        "onecycle": optax.linear_onecycle_schedule(100, 1.0),
        "cos_onecycle": optax.cosine_onecycle_schedule(100, 1.0),
        "poly": optax.polynomial_schedule(1.0, 0.0, 2, 80, 10),
        "sgdr": optax.sgdr_schedule([dict(init_value=0.0, peak_value=1.0, warmup_steps=5, decay_steps=40, end_value=0.0)] * 2),
        "wcr": optax.warmup_exponential_decay_schedule(0.0, 1.0, 10, 20, 0.5),
        "const": optax.constant_schedule(0.3),
    }
    return {k: jnp.stack([s(i) for i in steps]) for k, s in scheds.items()}


def optax_chained_transforms():
    import optax
    out = {}
    chained = optax.chain(optax.clip(0.5), optax.scale_by_adam(), optax.add_decayed_weights(1e-4),
                          optax.scale_by_learning_rate(optax.exponential_decay(1e-2, 5, 0.9)))
    out["chain"] = _train(chained)[0]
    inj = optax.inject_hyperparams(optax.adam)(learning_rate=1e-2)
    l, _ = _train(inj)
    out["inject"] = l
    out["multisteps"] = _train(optax.MultiSteps(optax.adam(1e-2), every_k_schedule=3))[0]
    mask = {"w1": True, "b1": False, "w2": True, "b2": False}
    out["masked"] = _train(optax.chain(optax.masked(optax.add_decayed_weights(0.1), mask), optax.sgd(1e-2)))[0]
    labels = {"w1": "a", "b1": "b", "w2": "a", "b2": "b"}
    out["multi_transform"] = _train(optax.multi_transform({"a": optax.adam(1e-2), "b": optax.sgd(1e-3)}, labels))[0]
    out["zero_nans"] = _train(optax.chain(optax.zero_nans(), optax.adam(1e-2)))[0]
    out["skip_nonfinite"] = _train(optax.apply_if_finite(optax.adam(1e-2), 3))[0]
    out["global_norm"] = optax.global_norm(jax.grad(_mlp_loss)(_mlp_params()))
    out["ema"] = _train(optax.chain(optax.adam(1e-2), optax.ema(0.9)))[0]
    out["centralize"] = _train(optax.chain(optax.centralize(), optax.sgd(1e-2)))[0]
    out["agc"] = _train(optax.chain(optax.adaptive_grad_clip(0.1), optax.sgd(1e-2)))[0]
    out["noisy"] = _train(optax.chain(optax.add_noise(0.01, 0.55, 0), optax.sgd(1e-2)))[0]
    return out


def optax_contrib():
    import optax
    from optax import contrib
    out = {}
    out["schedule_free_adamw"] = _train(contrib.schedule_free_adamw(1e-2))[0]
    out["prodigy"] = _train(contrib.prodigy(1.0))[0]
    out["dadapt"] = _train(contrib.dadapt_adamw(1.0))[0]
    out["cocob"] = _train(contrib.cocob())[0]
    out["mechanize"] = _train(contrib.mechanize(optax.adam(1e-2)))[0]
    out["muon"] = _train(contrib.muon(1e-2))[0]
    out["sam"] = _train(contrib.sam(optax.sgd(1e-2), optax.sgd(1e-2), sync_period=2), 6)[0]
    rop = optax.chain(optax.adam(1e-2), contrib.reduce_on_plateau(patience=2, factor=0.5))
    out["reduce_on_plateau"] = _train(rop, 10, value=True)[0]
    return out


def optax_losses():
    import optax
    logits = jnp.asarray(np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3))
    labels = jax.nn.one_hot(jnp.array([0, 2, 1, 2]), 3)
    return {"softmax_ce": optax.softmax_cross_entropy(logits, labels),
            "int_ce": optax.softmax_cross_entropy_with_integer_labels(logits, jnp.array([0, 2, 1, 2])),
            "sigmoid_bce": optax.sigmoid_binary_cross_entropy(logits, labels),
            "l2": optax.l2_loss(logits, labels), "huber": optax.huber_loss(logits, labels, delta=0.5),
            "cos": optax.cosine_similarity(logits, labels + 0.1), "kl": optax.kl_divergence(jax.nn.log_softmax(logits), labels * 0.9 + 0.1 / 3),
            "smooth": optax.smooth_labels(labels, 0.1), "hinge": optax.hinge_loss(logits[:, 0], jnp.array([1., -1., 1., -1.])),
            "log_cosh": optax.log_cosh(logits, labels),
            "squared": optax.squared_error(logits, labels),
            "grad_ce": jax.grad(lambda l: optax.softmax_cross_entropy(l, labels).mean())(logits)}


def flax_linen_layers():
    import flax.linen as nn
    x = jnp.asarray(np.linspace(-1, 1, 2 * 6 * 6 * 3, dtype=np.float32).reshape(2, 6, 6, 3))

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Conv(4, (3, 3))(x)
            x = nn.LayerNorm()(x)
            x = nn.relu(x)
            x = nn.avg_pool(x, (2, 2), strides=(2, 2))
            x = nn.max_pool(x, (2, 2), strides=(1, 1), padding="SAME")
            x = x.reshape((x.shape[0], -1))
            x = nn.Dense(10)(x)
            x = nn.Dropout(0.3, deterministic=not train)(x)
            return nn.log_softmax(x)
    m = CNN()
    v = m.init(jax.random.key(0), x)
    out = m.apply(v, x)
    tr = m.apply(v, x, train=True, rngs={"dropout": jax.random.key(5)})
    g = jax.grad(lambda p: -jnp.mean(m.apply({"params": p}, x)[:, 3]))(v["params"])
    seq = jnp.asarray(np.linspace(-1, 1, 2 * 5 * 8, dtype=np.float32).reshape(2, 5, 8))
    att = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=8)
    va = att.init(jax.random.key(1), seq)
    mask = nn.make_causal_mask(jnp.ones((2, 5)))
    emb = nn.Embed(10, 4)
    ve = emb.init(jax.random.key(2), jnp.array([1, 2]))
    gn = nn.GroupNorm(num_groups=3)
    vg = gn.init(jax.random.key(3), x)
    return {"out": out, "train": tr, "grad_conv": g["Conv_0"]["kernel"], "attn": att.apply(va, seq),
            "attn_causal": att.apply(va, seq, mask=mask), "embed": emb.apply(ve, jnp.array([3, 9, 0])),
            "groupnorm": gn.apply(vg, x)[0, 0, 0],
            "embed_attend": emb.apply(ve, jnp.ones((2, 4)), method=emb.attend)}


def flax_nnx_layers():
    from flax import nnx
    rngs = nnx.Rngs(0, dropout=1)
    x = jnp.asarray(np.linspace(-1, 1, 2 * 6 * 6 * 3, dtype=np.float32).reshape(2, 6, 6, 3))

    class CNN(nnx.Module):
        def __init__(self, rngs):
            self.conv = nnx.Conv(3, 4, (3, 3), rngs=rngs)
            self.bn = nnx.BatchNorm(4, rngs=rngs)
            self.drop = nnx.Dropout(0.3, rngs=rngs)
            self.lin = nnx.Linear(4 * 3 * 3, 5, rngs=rngs)
            self.ln = nnx.LayerNorm(5, rngs=rngs)

        def __call__(self, x):
            x = nnx.relu(self.bn(self.conv(x)))
            x = nnx.avg_pool(x, (2, 2), strides=(2, 2))
            x = self.drop(x.reshape(x.shape[0], -1))
            return self.ln(self.lin(x))
    m = CNN(rngs)
    m.eval()
    ev = m(x)
    m.train()
    tr = m(x)
    mean = m.bn.mean[...]
    seq = jnp.asarray(np.linspace(-1, 1, 2 * 5 * 8, dtype=np.float32).reshape(2, 5, 8))
    mha = nnx.MultiHeadAttention(num_heads=2, in_features=8, qkv_features=8, decode=False, rngs=nnx.Rngs(3))
    att = mha(seq)
    emb = nnx.Embed(10, 4, rngs=nnx.Rngs(4))
    graphdef, state = nnx.split(m)
    m2 = nnx.merge(graphdef, state)
    m2.eval()
    grads = nnx.grad(lambda mod: jnp.sum(mod(x) * jnp.arange(5.0)))(m2)
    return {"eval": ev, "train": tr, "bn_mean": mean, "attn": att, "embed": emb(jnp.array([1, 7])),
            "grad_lin": grads.lin.kernel[...], "n_params": jnp.array(sum(p.size for p in jax.tree_util.tree_leaves(nnx.state(m, nnx.Param))))}


def equinox_layers():
    import equinox as eqx
    k = jax.random.split(jax.random.key(7), 6)
    seq = eqx.nn.Sequential([eqx.nn.Linear(3, 8, key=k[0]), eqx.nn.Lambda(jax.nn.gelu), eqx.nn.LayerNorm(8),
                             eqx.nn.Linear(8, 2, key=k[1])])
    xs = jnp.asarray(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
    conv = eqx.nn.Conv1d(3, 2, 2, key=k[2])
    mha = eqx.nn.MultiheadAttention(2, 4, key=k[3])
    q = jnp.asarray(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    drop = eqx.nn.Dropout(0.5)
    params, static = eqx.partition(seq, eqx.is_array)
    model = eqx.combine(params, static)
    loss = lambda m: jnp.mean(jax.vmap(m)(xs) ** 2)
    val, grads = eqx.filter_value_and_grad(loss)(model)
    new = eqx.tree_at(lambda m: m.layers[0].bias, model, jnp.zeros(8))
    bn_model, bn_state = eqx.nn.make_with_state(eqx.nn.BatchNorm)(3, "batch")
    bn_out, bn_state = eqx.filter_vmap(bn_model, in_axes=(0, None), out_axes=(0, None), axis_name="batch")(xs, bn_state)
    emb = eqx.nn.Embedding(5, 3, key=k[4])
    return {"seq": jax.vmap(seq)(xs), "conv": conv(xs.T), "mha": mha(q, q, q), "drop": drop(xs, key=k[5]),
            "drop_inf": drop(xs, inference=True), "val": val, "grad": grads.layers[3].weight,
            "tree_at": jax.vmap(new)(xs), "bn": bn_out, "emb": emb(jnp.array(2)),
            "filter_vmap": eqx.filter_vmap(lambda m, x: m(x), in_axes=(None, 0))(seq, xs)}


def flax_linen_transforms_train_state():
    import flax.linen as nn
    import optax
    from flax.training import train_state

    class Block(nn.Module):
        @nn.compact
        def __call__(self, c, x):
            h = nn.tanh(nn.Dense(4)(jnp.concatenate([c, x], -1)))
            return h, h

    class Seq(nn.Module):
        @nn.compact
        def __call__(self, xs):
            scan = nn.scan(Block, variable_broadcast="params", split_rngs={"params": False}, in_axes=1, out_axes=1)
            c, ys = scan()(jnp.zeros((xs.shape[0], 4)), xs)
            return nn.Dense(1)(nn.remat(nn.Dense)(3)(ys))

    xs = jnp.asarray(np.linspace(-1, 1, 2 * 6 * 2, dtype=np.float32).reshape(2, 6, 2))
    m = Seq()
    params = m.init(jax.random.key(0), xs)["params"]
    state = train_state.TrainState.create(apply_fn=m.apply, params=params, tx=optax.sgd(0.1, momentum=0.9))

    @jax.jit
    def step(state):
        def loss(p):
            return jnp.mean((state.apply_fn({"params": p}, xs)[..., 0] - jnp.sin(xs[..., 0])) ** 2)
        l, g = jax.value_and_grad(loss)(state.params)
        return state.apply_gradients(grads=g), l
    losses = []
    for _ in range(8):
        state, l = step(state)
        losses.append(l)

    class VM(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.vmap(nn.Dense, in_axes=0, out_axes=0, variable_axes={"params": 0}, split_rngs={"params": True})(2)(x)
    vm = VM()
    vv = vm.init(jax.random.key(1), xs[:, 0])
    return {"losses": jnp.stack(losses), "step": state.step, "vmapped": vm.apply(vv, xs[:, 0])}


def flax_nnx_transforms():
    import optax
    from flax import nnx

    class MLP(nnx.Module):
        def __init__(self, rngs):
            self.a = nnx.Linear(1, 8, rngs=rngs)
            self.b = nnx.Linear(8, 1, rngs=rngs)

        def __call__(self, x):
            return self.b(nnx.gelu(self.a(x)))

    @nnx.vmap(in_axes=0, out_axes=0)
    def make(key):
        return MLP(nnx.Rngs(key))
    ens = make(jax.random.split(jax.random.key(0), 3))

    @nnx.vmap(in_axes=(0, None), out_axes=0)
    def fwd(m, x):
        return m(x)
    ens_out = fwd(ens, X[:4])

    m = MLP(nnx.Rngs(1))
    opt = nnx.Optimizer(m, optax.sgd(0.05), wrt=nnx.Param)

    @nnx.jit
    def step(m, opt):
        def loss(m):
            return jnp.mean((nnx.remat(lambda m, x: m(x))(m, X) - Y) ** 2)
        l, g = nnx.value_and_grad(loss)(m)
        opt.update(m, g)
        return l
    losses = jnp.stack([step(m, opt) for _ in range(6)])

    class Cell(nnx.Module):
        def __init__(self, rngs):
            self.lin = nnx.Linear(2, 2, rngs=rngs)

    @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=(nnx.Carry, 0))
    def run(c, x):
        c = jnp.tanh(cell.lin(c) + x)
        return c, c
    cell = Cell(nnx.Rngs(2))
    xs = jnp.asarray(np.linspace(-1, 1, 10, dtype=np.float32).reshape(5, 2))
    _, hs = run(jnp.zeros(2), xs)
    return {"ens": ens_out, "losses": losses, "scan": hs}


def equinox_optax_readme():
    import equinox as eqx
    import optax

    class Model(eqx.Module):
        layers: list
        extra: jax.Array

        def __init__(self, key):
            k1, k2 = jax.random.split(key)
            self.layers = [eqx.nn.Linear(1, 8, key=k1), jax.nn.relu, eqx.nn.Linear(8, 1, key=k2)]
            self.extra = jnp.ones(1)

        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            return x + self.extra

    model = Model(jax.random.key(3))
    optim = optax.adamw(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))

    @eqx.filter_jit
    def make_step(model, opt_state, x, y):
        def loss(m):
            return jnp.mean((jax.vmap(m)(x) - y) ** 2)
        l, grads = eqx.filter_value_and_grad(loss)(model)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state, l
    losses = []
    for _ in range(10):
        model, opt_state, l = make_step(model, opt_state, X, Y)
        losses.append(l)
    lstm = eqx.nn.LSTMCell(2, 3, key=jax.random.key(4))
    h = (jnp.zeros(3), jnp.zeros(3))
    xs = jnp.asarray(np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2))
    _, hs = jax.lax.scan(lambda c, x: (lstm(x, c), lstm(x, c)[0]), h, xs)
    ck = eqx.filter_checkpoint(lambda m, x: m(x))(model, X[:3, 0:1][0])
    return {"losses": jnp.stack(losses), "lstm": hs, "ck": ck,
            "n": jnp.array(len(jax.tree_util.tree_leaves(eqx.filter(model, eqx.is_inexact_array))))}


def chex_dataclass_and_variants():
    import chex

    @chex.dataclass
    class Params:
        w: chex.Array
        b: chex.Array
    p = Params(w=jnp.ones(3), b=jnp.zeros(()))
    q = jax.tree_util.tree_map(lambda x: x * 2 + 1, p)
    chex.assert_trees_all_close(q.w, jnp.full(3, 3.0))
    chex.assert_tree_shape_prefix(p, ())
    chex.assert_equal_shape([p.w, q.w])
    chex.assert_scalar_positive(1.5)
    fails = 0
    for f in (lambda: chex.assert_trees_all_equal(p, q), lambda: chex.assert_axis_dimension(p.w, 0, 4),
              lambda: chex.assert_type(p.w, int), lambda: chex.assert_tree_all_finite({"a": jnp.array([jnp.nan])})):
        try:
            f()
        except AssertionError:
            fails += 1

    @chex.assert_max_traces(n=1)
    def fn(x):
        return x + 1
    jf = jax.jit(fn)
    jf(jnp.ones(2)); jf(jnp.zeros(2))
    return {"q_w": q.w, "fails": jnp.array(fails), "flat": jnp.concatenate([a.ravel() for a in jax.tree_util.tree_leaves(q)])}


WORKLOADS = {f.__name__: f for f in (optax_adam_mlp, optax_adamw_chain_schedule, optax_lbfgs_linesearch, chex_asserts,
                                     chex_chexify_jit, equinox_mlp, equinox_conv_gru_scan, flax_nnx_linear_optimizer,
                                     flax_linen_batchnorm_dropout, flax_linen_rnn_lstm,
                                     equinox_filter_jit_grad, equinox_error_if_jit_vmap, flax_nnx_jit_training,
                                     # conform (issue 11)
                                     optax_optimizer_zoo, optax_schedules, optax_chained_transforms, optax_contrib,
                                     optax_losses, flax_linen_layers, flax_nnx_layers, equinox_layers,
                                     flax_linen_transforms_train_state, flax_nnx_transforms, equinox_optax_readme,
                                     chex_dataclass_and_variants)}


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
