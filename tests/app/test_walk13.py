"""A new user's programs in the style of course material (walk13, issues 26/27): flax, optax,
control flow with gradients, random sampling, linear algebra and convolutions, walked in the built
page and pinned here in CPython."""
from app import analysis

# flax's own tutorial shape: an nnx.jit training step that takes the model and the optimizer
NNX_STEP = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx

class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(1, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 1, rngs=rngs)
    def __call__(self, x):
        return self.l2(nnx.relu(self.l1(x)))

model = MLP(nnx.Rngs(0))
opt = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
X = jnp.linspace(-2, 2, 16)[:, None]
Y = X ** 2

@nnx.jit
def train_step(model, opt, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    opt.update(model, grads)
    return loss

for i in range(3):
    print(i, float(train_step(model, opt, X, Y)) > 0)
"""


def test_an_nnx_jit_training_step_is_analysed_not_crashed(ecosystem_importable):
    # before: nnx.jit keeps static_argnums=None as the user passed it, and the panes' look at
    # it raised "TypeError: 'NoneType' object is not iterable": no pane showed anything
    a = analysis.analyse(NNX_STEP, with_timing=False)
    assert a.run.error is None and a.run.stdout == "0 True\n1 True\n2 True\n"
    assert a.function.name == "train_step" and a.args_source == "model, opt, X, Y"
    # the model is callable, but it is a pytree of arrays: JAX traces it (real JAX's
    # make_jaxpr(train_step)(model, opt, X, Y) starts with the model's 4 arrays); before, it was
    # held as "a function" and the Jaxpr pane said "Cannot mutate Param from a different trace level"
    assert a.function.held == ()
    assert a.jaxprs["f"].text.startswith(
        "let train_step = { lambda ; a:f32[8] b:f32[1,8] c:f32[1] d:f32[8,1] e:i32[]"), a.jaxprs["f"].text[:300]


# a hand-written callable pytree (equinox's Module is one): the model is what grad differentiates
CALLABLE_MODEL = """
import jax
import jax.numpy as jnp

class Line:
    def __init__(self, w, b):
        self.w, self.b = w, b
    def __call__(self, x):
        return self.w * x + self.b

jax.tree_util.register_pytree_node(Line, lambda m: ((m.w, m.b), None), lambda _, c: Line(*c))

def loss(model, x, y):
    return jnp.mean((model(x) - y) ** 2)

model = Line(jnp.array(0.5), jnp.array(0.0))
x = jnp.linspace(0, 1, 5)
g = jax.grad(loss)(model, x, 2 * x + 1)
print(g.w, g.b)
"""


def test_a_callable_pytree_argument_is_an_input_not_a_held_function():
    a = analysis.analyse(CALLABLE_MODEL, with_timing=False)
    assert a.run.stdout == "-2.125 -3.5\n"  # as real JAX 0.10.2 prints
    assert a.function.name == "loss" and a.function.held == ()
    assert a.jaxprs["f"].text.startswith("{ lambda ; a:f32[] b:f32[] c:f32[5] d:f32[5]. let"), a.jaxprs["f"].text


def test_a_lone_int_static_argnum_is_one_static_position():
    # `jax.jit(f, static_argnums=1)` is valid JAX; a wrapper that keeps the int as given holds
    # position 1 fixed rather than failing to iterate it
    from app.analysis.find import _static_argnums

    class Wrapped:
        static_argnums = 1
    assert _static_argnums(Wrapped()) == (1,)
    Wrapped.static_argnums = None
    assert _static_argnums(Wrapped()) == ()
    Wrapped.static_argnums = [0, 2]
    assert _static_argnums(Wrapped()) == (0, 2)


# a course's logistic regression: the step is a jitted lambda assigned to a name
LOGREG_STEP = """
import jax
import jax.numpy as jnp

X = jnp.array([[-1.0, -2.0], [-2.0, -1.0], [1.0, 2.0], [2.0, 1.0]])
y = jnp.array([0.0, 0.0, 1.0, 1.0])

def loss(params, X, y):
    w, b = params
    p = jax.nn.sigmoid(X @ w + b)
    return -jnp.mean(y * jnp.log(p) + (1 - y) * jnp.log(1 - p))

params = (jnp.zeros(2), 0.0)
step = jax.jit(lambda p, X, y: jax.tree_util.tree_map(lambda a, g: a - 0.5 * g, p, jax.grad(loss)(p, X, y)))
for i in range(10):
    params = step(params, X, y)
print(loss(params, X, y) < 0.2)
"""


def test_a_jitted_lambda_step_names_the_loss_it_differentiates():
    from app.panes import plots
    a = analysis.analyse(LOGREG_STEP, with_timing=False)
    assert a.run.stdout == "True\n"
    assert a.function.name == "step" and a.plot_kind is None
    text = "".join(p.object for p in plots.render(a))
    # before: only "step(params, X, y) is none of these": the hint looked in `def step` bodies only
    assert "It differentiates <code>loss</code>: pick loss in the Function menu" in text, text
