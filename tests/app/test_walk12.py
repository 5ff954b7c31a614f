"""A new user's programs in the style of course material (walk12, issues 26/27), walked in the
built page and pinned here in CPython: what the panes took for the program's function and its
input, the Plots pane's finite-difference verdict, the jvp view's code and the Timing verdict."""
import numpy as np

from app import analysis

# JAX 101's per-example gradients: `loss` is only ever called through vmap(grad(loss))
PER_EXAMPLE = """
import jax
import jax.numpy as jnp

def predict(w, x):
    return jnp.tanh(jnp.dot(x, w))

def loss(w, x, y):
    return (predict(w, x) - y) ** 2

key = jax.random.key(0)
kx, kw = jax.random.split(key)
xs = jax.random.normal(kx, (8, 3))
ys = jnp.arange(8.) / 8
w = jax.random.normal(kw, (3,))
per_example = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
print(per_example.shape)
"""


def test_a_function_met_only_in_vmap_of_grad_takes_one_example_of_the_batch():
    a = analysis.analyse(PER_EXAMPLE, with_timing=False)
    assert a.run.stdout == "(8, 3)\n"  # JAX prints (8, 3)
    # before: no call of loss was found and its input was guessed: loss(1.0, 1.0, 1.0), scalars
    # where w and x are 3-vectors (its Jaxpr showed f32[] inputs, its plots a scalar line)
    assert a.function.name == "loss" and a.args_source == "w, xs[0], ys[0]" and not a.args_guessed
    assert a.jaxprs["f"].text.startswith("{ lambda ; a:f32[3] b:f32[3] c:f32[]. let"), a.jaxprs["f"].text


def test_an_alias_of_vmap_of_grad_is_a_call_of_the_function_on_one_example():
    code = PER_EXAMPLE.replace("per_example = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)",
                               "per_example_grads = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))\n"
                               "per_example = per_example_grads(w, xs, ys)")
    a = analysis.analyse(code, with_timing=False)
    assert a.function.name == "loss" and a.args_source == "w, xs[0], ys[0]" and not a.args_guessed


def test_nested_wrappers_are_calls_of_the_innermost_function():
    code = "import jax\ndef f(x, y):\n    return x * y\nprint(jax.jit(jax.grad(f, argnums=1))(2.0, 3.0))\n"
    assert analysis.last_calls(code)["f"] == "2.0, 3.0"


# a course's lax.fori_loop: Newton's iteration for sqrt, plotted over [-1, 5]; for a < 0 there is
# no root and the iteration is chaotic: f jumps between nearby inputs, and so do its differences
NEWTON = """
import jax
from jax import lax

def newton_sqrt(a):
    return lax.fori_loop(0, 20, lambda i, x: 0.5 * (x + a / x), a)
print(newton_sqrt(2.0), jax.grad(newton_sqrt)(2.0))
"""


def test_finite_differences_that_do_not_settle_do_not_call_the_derivative_rule_wrong():
    from app import fd_check
    a = analysis.analyse(NEWTON, with_timing=False)
    assert a.run.stdout == "1.4142135 0.35355335\n"  # JAX prints 1.4142135 0.35355335
    text, wrong = fd_check.note(a.plot["fd"])
    # before: "✗ grad(f) disagrees with central finite differences at 33 of 200 points ... The
    # derivative rule is wrong" (autodiff differentiates the iteration exactly; h and h/2 give
    # finite differences thousands apart there)
    assert not wrong and "The derivative rule is wrong" not in text, text
    [check] = fd_check.summary(a.plot)["checks"]
    assert check["unsettled"] >= 20 and check["bad"] == 0 and check["n"] >= 150, check
    assert "do not settle" in text and text.startswith("✓ grad(f) agrees"), text


GRAD_LOSS = """
import jax
import jax.numpy as jnp

def loss(w, x, y):
    pred = jnp.dot(x, w)
    return jnp.mean((pred - y) ** 2)

x = jnp.array([[1., 2.], [3., 4.], [5., 6.]])
y = jnp.array([1., 2., 3.])
w = jnp.array([0.1, -0.3])
print(jax.grad(loss)(w, x, y))
"""


def test_the_jvp_view_shows_the_code_whose_jaxpr_it_is():
    a = analysis.analyse(GRAD_LOSS, with_timing=False)
    from app import jaxpr_diff
    from app.analysis import jaxprs
    # before: `jax.jvp(f, p, ones_like(p))`, ones made inside the traced function, whose jaxpr
    # JAX starts `{ lambda ; a:f32[2] b:f32[3,2] c:f32[3]. let d:f32[2] = broadcast_in_dim 1.0 ...`;
    # the pane's jaxpr is that of ones made outside (constants), so the code now says that
    code = "t = jax.tree.map(jnp.ones_like, (w, x, y,)); jax.make_jaxpr(lambda *p: jax.jvp(f, p, t))(w, x, y)"
    assert jaxprs.view_code("jvp", a.args_source) == code
    assert jaxpr_diff.VIEW_CODE["jvp"].replace("{args}", a.args_source) == code
    # JAX: _t = jax.tree.map(jnp.ones_like, (w, x, y)); print(jax.make_jaxpr(lambda *p: jax.jvp(loss, p, _t))(w, x, y))
    assert a.jaxprs["jvp"].text == JVP_OF_LOSS, a.jaxprs["jvp"].text


JVP_OF_LOSS = """{ lambda a:f32[3,2] b:f32[2] c:f32[3]; d:f32[2] e:f32[3,2] f:f32[3]. let
    g:f32[3] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] e d
    h:f32[3] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a d
    i:f32[3] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] e b
    j:f32[3] = add_any h i
    k:f32[3] = sub g f
    l:f32[3] = sub j c
    m:f32[3] = integer_pow[y=2] k
    n:f32[3] = mul 2.0:f32[] k
    o:f32[3] = mul l n
    p:f32[] = reduce_sum[axes=(0,) out_sharding=None] m
    q:f32[] = reduce_sum[axes=(0,) out_sharding=None] o
    r:f32[] = div p 3.0:f32[]
    s:f32[] = div q 3.0:f32[]
  in (r, s) }"""


def test_one_call_each_within_twice_is_not_called_a_speed_up():
    from app.panes import timing as timing_pane
    t = analysis.timings(lambda x: x @ x, (np.ones((8, 8), np.float32),), repeats=3, backends=["cpu"])
    # a 1000x1000 matmul in the page: eager 2.42 s and jit 1.36 s, each timed on 1 call; before:
    # "jit speed-up 1.8× (jit is faster)" for one dot that jit cannot speed up
    t["eager"].update(n=1, median=2.419)
    t["jit_steady"].update(n=1, median=1.358)
    text = timing_pane.facts_html(t)
    assert "jit speed-up 1.8× (from 1 call each: within 2×, too close to call)" in text, text
    t["eager"].update(median=5.0)  # 3.7×: more than one call's noise
    assert "(jit is faster)" in timing_pane.facts_html(t)
    t["eager"].update(n=7, median=2.419)
    t["jit_steady"].update(n=7)  # medians of several samples: the verdict stands
    assert "(jit is faster)" in timing_pane.facts_html(t)


LINEAR_REGRESSION = """
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)
xs = rng.normal(size=(100,)).astype(np.float32)
ys = 3.0 * xs - 1.0 + 0.1 * rng.normal(size=(100,)).astype(np.float32)

def model(theta, x):
    w, b = theta
    return w * x + b

def loss_fn(theta, x, y):
    return jnp.mean((model(theta, x) - y) ** 2)

@jax.jit
def update(theta, x, y, lr=0.1):
    return theta - lr * jax.grad(loss_fn)(theta, x, y)

theta = jnp.array([1., 1.])
for step in range(500):
    theta = update(theta, xs, ys)
w, b = theta
print(f"w: {w:.2f}, b: {b:.2f}")
"""


def test_a_training_step_without_plots_names_the_loss_it_differentiates():
    from app.panes import plots
    a = analysis.analyse(LINEAR_REGRESSION, with_timing=False)
    assert a.run.stdout == "w: 3.01, b: -1.01\n"  # JAX prints w: 3.01, b: -1.01
    assert a.function.name == "update" and a.plot_kind is None
    text = "".join(p.object for p in plots.render(a))
    # before: only "update(theta, xs, ys) is none of these", and the loss's plots one menu away unsaid
    assert "It differentiates <code>loss_fn</code>: pick loss_fn in the Function menu" in text, text
    assert "model</code>" not in text  # called, not differentiated


def test_a_product_whose_shapes_do_not_line_up_says_which_axes_must_match():
    code = ("import jax.numpy as jnp\n\ndef layer(w, x):\n    return jnp.dot(w, x)\n\n"
            "w = jnp.ones((3, 4))\nx = jnp.ones(5)\nprint(layer(w, x))\n")
    a = analysis.analyse(code, with_timing=False)
    err = a.run.error
    # JAX: TypeError: dot_general requires contracting dimensions to have the same shape, got (4,) and (5,).
    assert err.type == "TypeError" and err.message == (
        "dot_general requires contracting dimensions to have the same shape, got (4,) and (5,).")
    assert err.line == 4
    # before: no hint at all under JAX's one line
    assert "last axis of the first array" in err.hint and "print(a.shape, b.shape)" in err.hint, err.hint


def test_differentiated_by_names_the_menus_functions_a_step_passes_to_grad_in_order():
    from app.analysis.find import differentiated_by
    code = ("import jax\n\ndef loss(p, x):\n    return (p * x) ** 2\n\ndef aux(p):\n    return p\n\n"
            "def step(p, x):\n    g = jax.grad(loss)(p, x)\n    v, h = jax.value_and_grad(aux)(p)\n"
            "    jax.grad(loss)(p, x)\n    return p - g\n")
    menu = ["loss", "aux", "step"]
    assert differentiated_by(code, "step", menu) == ["loss", "aux"]
    assert differentiated_by(code, "step", ["loss", "step"]) == ["loss"]  # only what the menu offers
    assert differentiated_by(code, "loss", menu) == []  # loss differentiates nothing
    assert differentiated_by("def step(:\n", "step", menu) == []  # code that does not parse
