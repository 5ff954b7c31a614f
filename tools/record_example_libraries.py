"""Record jax.example_libraries.optimizers trajectories from real JAX into
tests/golden/example_libraries.json (run with the oracle's Python: `<jax-venv>/bin/python
tools/record_example_libraries.py j`); tests/test_example_libraries.py runs the same program on
gradpad (the `g` argument runs it here, for a look)."""
import sys, json, numpy as np
if sys.argv[1] == 'g':
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1])); import core; core.install_as_jax()
import jax, jax.numpy as jnp
from jax.example_libraries import optimizers as O
def loss(p): return jnp.sum((p["w"] - jnp.arange(3.0)) ** 2) + (p["b"] - 1.5) ** 2
res = {}
for name, opt in [("sgd", O.sgd(0.1)), ("momentum", O.momentum(0.1, 0.9)), ("nesterov", O.nesterov(0.1, 0.9)), ("adagrad", O.adagrad(0.1)),
                  ("rmsprop", O.rmsprop(0.1)), ("rmsprop_momentum", O.rmsprop_momentum(0.1)), ("adam", O.adam(0.1)), ("adamax", O.adamax(0.1)),
                  ("adam_exponential_decay", O.adam(O.exponential_decay(0.1, 10, 0.5))),
                  ("sgd_polynomial_decay", O.sgd(O.polynomial_decay(0.1, 5, 0.01))), ("sgd_piecewise_constant", O.sgd(O.piecewise_constant([2, 4], [0.1, 0.05, 0.01]))),
                  ("sgd_inverse_time_decay", O.sgd(O.inverse_time_decay(0.1, 3, 0.5, staircase=True)))]:
    init, update, get = opt
    st = init({"w": jnp.zeros(3), "b": jnp.asarray(0.0)})
    step = jax.jit(lambda i, s: update(i, jax.grad(loss)(get(s)), s))
    for i in range(6): st = step(i, st)
    p = get(st); res[name] = [np.asarray(p["w"]).tolist(), float(p["b"])]
init, update, get = O.sm3(0.1)
st = init({"w": jnp.zeros((2, 3)), "b": jnp.asarray(0.0)})
for i in range(4): st = update(i, jax.grad(lambda p: jnp.sum((p["w"] - 1.0) ** 2) + p["b"] ** 2)(get(st)), st)
res["sm3_eager"] = [np.asarray(get(st)["w"]).tolist(), float(get(st)["b"])]
from jax.example_libraries import stax
k = jax.random.PRNGKey(0)
stax_res = {}
init, apply = stax.serial(stax.Dense(8), stax.Relu, stax.Dense(3), stax.LogSoftmax)
shape, params = init(k, (-1, 4)); x = jnp.linspace(-1, 1, 8).reshape(2, 4)
stax_res["mlp"] = [[int(d) for d in shape], np.asarray(apply(params, x)).tolist(), np.asarray(params[0][0]).ravel()[:5].tolist()]
init, apply = stax.serial(stax.Conv(4, (3, 3), padding="SAME"), stax.BatchNorm(), stax.Relu, stax.MaxPool((2, 2), strides=(2, 2)),
                          stax.Conv(2, (2, 2)), stax.AvgPool((2, 2), padding="SAME"), stax.SumPool((1, 1)), stax.Flatten, stax.Dense(2), stax.Softmax)
shape, params = init(k, (2, 8, 8, 1)); img = jnp.cos(jnp.arange(128.0) * 0.3).reshape(2, 8, 8, 1)
stax_res["cnn"] = [[int(d) for d in shape], np.asarray(apply(params, img)).tolist()]
init, apply = stax.serial(stax.FanOut(2), stax.parallel(stax.Dense(3), stax.serial(stax.Dense(3), stax.Tanh)), stax.FanInSum)
shape, params = init(k, (5, 2)); stax_res["residual"] = [[int(d) for d in shape], np.asarray(apply(params, jnp.ones((5, 2)))).tolist()]
init, apply = stax.serial(stax.Dense(4), stax.Dropout(0.7), stax.FanOut(2), stax.FanInConcat())
shape, params = init(k, (3, 2)); stax_res["dropout"] = [[int(d) for d in shape], np.asarray(apply(params, jnp.ones((3, 2)), rng=jax.random.PRNGKey(3))).tolist()]
init, apply = stax.serial(stax.ConvTranspose(2, (2, 2), strides=(2, 2)), stax.Gelu, stax.Elu, stax.Selu, stax.Sigmoid)
shape, params = init(k, (1, 3, 3, 2)); stax_res["convT"] = [[int(d) for d in shape], np.asarray(apply(params, jnp.ones((1, 3, 3, 2)))).ravel()[:8].tolist()]
init, apply = stax.serial(stax.Conv1DTranspose(2, (3,)), stax.Identity, stax.Softplus, stax.Exp, stax.LeakyRelu)
shape, params = init(k, (1, 4, 2)); stax_res["conv1dT"] = [[int(d) for d in shape], np.asarray(apply(params, jnp.ones((1, 4, 2)))).ravel().tolist()]
res = {'optimizers': res, 'stax': stax_res}
if sys.argv[1] == 'j':
    from pathlib import Path
    out = Path(__file__).resolve().parents[1] / "tests" / "golden" / "example_libraries.json"
    out.write_text(json.dumps({"jax_version": jax.__version__, "results": res}, indent=1) + "\n")
print(json.dumps(res))
