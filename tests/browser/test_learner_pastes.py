"""Code a new user pastes from JAX's documentation, loaded into the built page (the shared page,
see conftest) one paste after another: the console prints what real JAX 0.10.2 prints (values,
error class and message, checked with /work/jax-venv/bin/python), and every pane shows something
true for it or says why it does not apply; none hangs. The same pastes in CPython (faster, and
where each fix is pinned) are in tests/app/test_learner_pastes.py, which has the last three."""
from __future__ import annotations

import time

import pytest

from tests.app.test_learner_pastes import STATIC_ARGS, VMAP_ONLY, WHILE_GRAD  # (the same pastes, pinned in CPython)

from .test_gallery import VISIBLE_TEXT, tab

pytestmark = pytest.mark.timeout(600)
LOAD_LIMIT_MS = 60_000  # a paste whose panes run for ever must not hang the test session

# docs/jit-compilation.md: Python control flow on a traced value
TRACER_BOOL = """
import jax

def f(x):
  if x > 0:
    return x
  else:
    return 2 * x

jax.jit(f)(10)
"""
# docs/notebooks/Common_Gotchas_in_JAX.md: in-place update, and NaN in grad of where
IN_PLACE = """
import jax.numpy as jnp

jax_array = jnp.zeros((3,3), dtype=jnp.float32)
jax_array[1, :] = 1.0
"""
NAN_WHERE = """
import jax
import jax.numpy as jnp

def my_log(x):
  return jnp.where(x > 0., jnp.log(x), 0.)

print(my_log(0.))
print(jax.grad(my_log)(0.))

def safe_log(x):
  return jnp.where(x > 0., jnp.log(jnp.where(x > 0., x, 1.)), 0.)

print(safe_log(0.), jax.grad(safe_log)(0.))
"""
# docs/automatic-differentiation.md: gradients of a dict of parameters
PYTREE_PARAMS = """
import jax
import jax.numpy as jnp

def loss2(params_dict):
    preds = jnp.tanh(jnp.dot(params_dict['inputs'], params_dict['W']) + params_dict['b'])
    return -jnp.sum(jnp.log(preds ** 2 + 1e-3))

params = {'W': jnp.array([0.1, -0.2, 0.3]), 'b': jnp.array(0.5),
          'inputs': jnp.array([[1., 2., 3.], [4., 5., 6.]])}
print(jax.grad(loss2)(params)['b'])
"""

# docs/automatic-differentiation.md: Hessian-vector products, a function taking a function
HVP = """
import jax
import jax.numpy as jnp

def hvp(f, x, v):
    return jax.grad(lambda x: jnp.vdot(jax.grad(f)(x), v))(x)

def f(X):
    return jnp.sum(jnp.tanh(X) ** 2)

X = jnp.arange(4.)
print(hvp(f, X, jnp.ones(4)))
"""


def load(gp, code: str) -> dict:
    """gradpad.load({code}), then the snapshot once no pane is still measuring; None when the
    load did not end within LOAD_LIMIT_MS (then the run is stopped, for the next test)."""
    gp.page.set_default_timeout(LOAD_LIMIT_MS + 30_000)
    snap = gp.page.evaluate("""([code, limit]) => Promise.race([window.gradpad.load({code}),
        new Promise(r => setTimeout(() => r(null), limit))])""", [code, LOAD_LIMIT_MS])
    if snap is None:
        gp.page.evaluate("() => window.gradpad.interrupt()")
        return None
    deadline = time.monotonic() + 60
    while snap["pending"] and time.monotonic() < deadline:
        time.sleep(0.3)
        snap = gp.page.evaluate("() => window.gradpad.snapshot()")
    return snap


def pane_text(page, title: str) -> str:
    tab(page, title).click()
    page.wait_for_timeout(300)
    try:
        return page.evaluate(VISIBLE_TEXT)
    finally:
        tab(page, "Jaxpr").click()


@pytest.fixture(scope="module")
def app_page(gp):
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    gp.page.set_viewport_size({"width": 1400, "height": 900})
    yield gp
    from app.main import DEFAULT_EXAMPLE  # the page is shared: leave it as a fresh visit shows it
    gp.page.evaluate("ex => window.gradpad.load({example: ex})", DEFAULT_EXAMPLE)


def test_tracer_bool_conversion_error_is_jaxs(app_page):
    snap = load(app_page, TRACER_BOOL)
    # JAX: jax.jit(f)(10) -> jax.errors.TracerBoolConversionError, first line:
    assert snap["error"]["type"] == "TracerBoolConversionError"
    assert snap["error"]["message"].startswith("Attempted boolean conversion of traced array with shape bool[].")
    assert snap["error"]["line"] == 5 and "lax.cond" in snap["error"]["hint"]


def test_in_place_update_error_is_jaxs_with_the_fix(app_page):
    snap = load(app_page, IN_PLACE)
    # JAX: jax_array[1, :] = 1.0 -> TypeError, first line:
    assert snap["error"]["type"] == "TypeError" and snap["error"]["message"].startswith(
        "JAX arrays are immutable and do not support in-place item assignment. "
        "Instead of x[idx] = y, use x = x.at[idx].set(y)")
    assert snap["error"]["line"] == 5


def test_nan_in_grad_of_where_prints_what_jax_prints(app_page):
    snap = load(app_page, NAN_WHERE)
    # JAX prints: my_log(0.) -> 0.0; grad(my_log)(0.) -> nan; safe_log(0.), grad(safe_log)(0.) -> 0.0 0.0
    assert snap["error"] is None and snap["console"].splitlines()[:3] == ["0.0", "nan", "0.0 0.0"], snap["console"]
    assert snap["function"] == "safe_log" and snap["plots"] == {"f": 201, "df": 201, "d2f": 201}


def test_a_dict_of_params_gets_a_gradient_bar_per_component(app_page):
    snap = load(app_page, PYTREE_PARAMS)
    # JAX: jax.grad(loss2)(params)['b'] -> Array(-1.1630236, dtype=float32, weak_type=True), printed:
    assert snap["error"] is None and snap["console"].startswith("-1.163023"), snap["console"]
    # W (3) + b (1) + inputs (2x3): one bar per component
    assert snap["function"] == "loss2" and snap["plots"] == {"line_f": 61, "line_df": 61, "gradient": 10}


def test_a_while_loop_that_never_ends_left_of_zero_does_not_hang_the_plots(app_page):
    t0 = time.monotonic()
    snap = load(app_page, WHILE_GRAD)
    assert snap is not None, "the page never finished the paste (the Plots pane ran f for ever)"
    assert time.monotonic() - t0 < 45
    assert snap["error"] is None and snap["console"].splitlines()[0] == "12.0"  # JAX: f(1.5) -> 12.0
    assert snap["function"] == "f" and snap["plots"] == {}
    text = pane_text(app_page.page, "Plots")
    assert "did not finish within 5 s on the plot's points (x in [-1.5, 4.5])" in text, text[-800:]


def test_a_function_met_only_inside_vmap_is_shown_on_one_example(app_page):
    snap = load(app_page, VMAP_ONLY)
    assert snap["error"] is None and snap["function"] == "predict"
    # JAX: jax.make_jaxpr(predict)(W, batch[0])
    assert snap["jaxpr"].startswith("{ lambda ; a:f32[2,3] b:f32[3]. let"), snap["jaxpr"]
    rows = snap["vmap"]["rows"]
    assert {"loop", "vmap", "jit(vmap)"} <= set(rows) and not [m for m, r in rows.items() if "error" in r], rows


def test_static_argnames_stay_static_in_the_panes(app_page):
    snap = load(app_page, STATIC_ARGS)
    assert snap["error"] is None and snap["console"].splitlines()[0] == "30"  # JAX: g(10, 20) -> 30
    # JAX: print(jax.make_jaxpr(g, static_argnums=1)(10, 20))
    assert snap["jaxpr"] == (
        "{ lambda ; a:i32[]. let\n    b:i32[] = jit[\n      name=g\n"
        "      jaxpr={ lambda ; a:i32[]. let b:i32[] = add a 20:i32[] in (b,) }\n    ] a\n  in (b,) }")
    rows = snap["vmap"]["rows"]
    assert not [m for m, r in rows.items() if "error" in r], rows
    assert snap["timing"]["cpu"]["speedup"] > 0


def test_a_function_taking_a_function_is_analysed_with_it_held_fixed(app_page):
    snap = load(app_page, HVP)
    # JAX prints hvp(f, X, jnp.ones(4)): [ 2.         -0.62162673 -0.25265405 -0.03888036]
    values = [float(v) for v in snap["console"].splitlines()[0].strip("[] ").split()]
    assert values == pytest.approx([2.0, -0.62162673, -0.25265405, -0.03888036], rel=1e-4, abs=1e-6)
    assert snap["error"] is None and snap["function"] == "hvp" and not snap["args_guessed"]
    assert "{ lambda" in snap["jaxpr"] and snap["eqn_count"] > 0
    rows = snap["vmap"]["rows"]
    assert not [m for m, r in rows.items() if "error" in r], rows
