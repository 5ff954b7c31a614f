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
if sys.argv[1] == 'j':
    from pathlib import Path
    out = Path(__file__).resolve().parents[1] / "tests" / "golden" / "example_libraries.json"
    out.write_text(json.dumps({"jax_version": jax.__version__, "results": res}, indent=1) + "\n")
print(json.dumps(res))
