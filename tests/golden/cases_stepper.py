"""Case definitions for stepper_cases.json: every equation's values in the jaxpr the Jaxpr pane's
stepper walks (app/stepper.py), recorded from real JAX by evaluating that jaxpr with
`jax.core.eval_jaxpr` with every equation's outputs made outputs of the jaxpr. The inputs are
recorded too, so tests/app/test_stepper.py feeds the stepper exactly these (training in the
example must not decide the comparison) and compares per equation at rtol 1e-5.

Per output: shape, dtype, up to 48 entries evenly spaced over the flattened array (the first and
last included), and the sums of |x| and x**2 in float64 (no cancellation: a sum near zero would
make a relative tolerance meaningless)."""
import os
import re

from casebook import recorder

CASES, C, E = recorder()
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "app", "examples")


def example_body(name: str) -> str:
    """The gallery example's code without its imports (the case namespace has jax, jnp, np,
    random) and without its last line's bare call."""
    with open(os.path.join(EXAMPLES, name + ".txt")) as f:
        text = f.read()
    keep = [ln for ln in text.splitlines() if not re.match(r"\s*(import |from \S+ import )", ln)]
    return "jit = jax.jit\n" + "\n".join(keep) + "\n"


RECORD = """
def _summary(v):
    a = np.asarray(v).astype(np.float64)
    flat = a.ravel()
    idx = np.unique(np.linspace(0, max(flat.size - 1, 0), min(flat.size, 48)).astype(int)) if flat.size else idx0
    return {{"shape": list(a.shape), "dtype": str(np.asarray(v).dtype), "sample": flat[idx],
            "abs_sum": float(np.abs(flat).sum()), "sq_sum": float((flat ** 2).sum())}}
idx0 = np.zeros(0, int)
_args = {args}
_ones = jax.tree_util.tree_map(jnp.ones_like, _args)  # the jvp view's tangents: made outside, closed over
_closed = jax.make_jaxpr({fn})(*_args)
_j = _closed.jaxpr
_leaves = jax.tree_util.tree_leaves(_args)
_outs = [v for e in _j.eqns for v in e.outvars if type(v).__name__ == "Var"]
_vals = iter(jax.core.eval_jaxpr(_j.replace(outvars=_outs), _closed.consts, *_leaves))
_per_eqn = []
for e in _j.eqns:
    _per_eqn.append({{"primitive": str(e.primitive),
                      "outs": [_summary(next(_vals)) for v in e.outvars if type(v).__name__ == "Var"]}})
out = {{"inputs": [np.asarray(x) for x in _leaves], "eqns": _per_eqn}}
"""

# the MLP's loss after its 301 training steps: both engines train it; the recorded inputs make the
# per-equation comparison exact, and the case itself (test_golden) checks the training agrees
C("stepper_mlp_sin_grad", "stepper",
  example_body("mlp_sin") + RECORD.format(args="(params, xs, ys)", fn="jax.grad(loss)"), rtol=1e-3, atol=1e-5)
# f returns a vector there, so grad(f) does not exist: the jvp view (tangent of ones), as the pane builds it
C("stepper_jvp_and_vjp_jvp", "stepper",
  example_body("jvp_and_vjp") + RECORD.format(
      args="(x,)", fn="lambda *p: jax.jvp(f, p, _ones)"))
C("stepper_jvp_and_vjp_grad_of_sum", "stepper",
  example_body("jvp_and_vjp") + RECORD.format(args="(x,)", fn="jax.grad(lambda x: f(x).sum())"))
