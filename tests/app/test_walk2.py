"""A new user's pastes from JAX's documentation (issue 14, round 2) that the panes showed wrong:
each test pins one fix in CPython; tests/browser/test_walk2.py loads them in the built page."""
import numpy as np

from app import analysis

# docs/debugging/print_breakpoint.md, its cells joined: `f` is defined three times, the last one
# (w, b, x) never called
REDEFINED = """
import jax
import jax.numpy as jnp

@jax.jit
def f(x):
  jax.debug.print("x: {}", x)
  return x
f(2.).block_until_ready()

def f(w, b, x):
  logits = w.dot(x) + b
  jax.debug.print("logits: {}", logits)
  return jax.nn.relu(logits)
"""

# JAX: print(jax.make_jaxpr(f)(1.0, 1.0, 1.0)) for the last f
REDEFINED_JAXPR_HEAD = """{ lambda ; a:f32[] b:f32[] c:f32[]. let
    d:f32[] = dot_general[
      dimension_numbers=(([], []), ([], []))
      preferred_element_type=float32
    ] a c
    e:f32[] = add d b
    debug_print["""


def test_a_call_of_an_earlier_function_of_the_same_name_is_not_the_last_ones_input():
    a = analysis.analyse(REDEFINED, with_timing=False)
    assert a.run.stdout == "x: 2.0\n"  # JAX prints x: 2.0
    # before: f(2.) (the first f's call) was the last f's input: "f() missing 2 required
    # positional arguments: 'b' and 'x'" in every pane
    assert a.function.name == "f" and a.args_source == "1.0, 1.0, 1.0" and a.args_guessed
    assert a.jaxprs["f"].error is None
    assert a.jaxprs["f"].text.startswith(REDEFINED_JAXPR_HEAD)  # w.dot(x) on scalars: dot_general, not mul
    assert a.vmap["vmap"]["error"] is None


def test_wrapping_a_function_in_jit_or_defining_it_again_unchanged_keeps_its_calls():
    code = "import jax\ndef f(x):\n    return x * 2.0\nprint(f(3.0))\nf = jax.jit(f)\n"
    assert analysis.last_calls(code)["f"] == "3.0"
    code = "g = lambda W: W * 2.0\nprint(g(3.0))\ng = lambda W: W * 2.0\n"
    assert analysis.last_calls(code)["g"] == "3.0"
    # a call in a function's body runs when that function does, after the definitions above it
    code = "def g():\n    return f(2.0)\ndef f(x):\n    return x\nprint(g())\n"
    assert analysis.last_calls(code)["f"] == "2.0"


# docs/debugging.md: the first f's breakpoint ends the run; the two-argument f below never exists
STOPPED = """
import jax
import jax.numpy as jnp

@jax.jit
def f(x):
  y, z = jnp.sin(x), jnp.cos(x)
  jax.debug.breakpoint()
  return y * z

f(2.) # ==> Pauses during execution

@jax.jit
def f(x, y):
  z = x / y
  return z

f(2., 1.)
"""


def test_calls_below_the_line_where_the_run_stopped_give_no_input():
    a = analysis.analyse(STOPPED, with_timing=False)
    assert a.run.error.type == "NotImplementedError" and analysis.stopped_at(a.run.error) == 11
    # before: "2., 1." (a call that never ran, of an f that was never defined) -> "f() takes
    # 1 positional argument but 2 were given" in every pane
    assert a.function.name == "f" and a.function.params == ["x"] and a.args_source == "2."


# docs/notebooks/thinking_in_jax.md ("Automatic differentiation"), its cells joined
BUILDER = """
import jax
import jax.numpy as jnp
from jax import grad, jit, jacfwd, jacrev

def sum_logistic(x):
  return jnp.sum(1.0 / (1.0 + jnp.exp(-x)))

x_small = jnp.arange(3.)
derivative_fn = grad(sum_logistic)
print(derivative_fn(x_small))

def first_finite_differences(f, x, eps=1E-3):
  return jnp.array([(f(x + eps * v) - f(x - eps * v)) / (2 * eps)
                   for v in jnp.eye(len(x))])

print(first_finite_differences(sum_logistic, x_small))

def hessian(fun):
  return jit(jacfwd(jacrev(fun)))
print(hessian(sum_logistic)(x_small))
"""


def test_a_function_that_makes_a_function_is_not_the_one_analysed():
    a = analysis.analyse(BUILDER, with_timing=False)
    # JAX prints [0.25 0.19661197 0.10499357] (grad), then the finite differences and the Hessian
    assert a.run.stdout.startswith("[0.25       0.19661")
    hessian = next(f for f in a.functions if f.name == "hessian")
    assert hessian.call_source == "sum_logistic" and hessian.builder
    # before: hessian, whose value is a function: "function returned a value of type <class
    # 'core._engine.api.api.PjitFunction'>, which is not a valid JAX type" in every pane
    assert a.function.name == "first_finite_differences" and a.function.held == ("f (a function)",)
    assert a.jaxprs["f"].error is None and a.plot_kind == "vector"
    # JAX: jax.jacfwd(lambda x: first_finite_differences(sum_logistic, x))(x_small) -> diagonal
    # [-2.98e-05, -0.09087472, -0.07996707], zeros elsewhere (float32 differences: a few ulps apart)
    jac = np.asarray(a.plot["jac"])
    assert np.allclose(jac, np.diag([-2.98e-05, -0.09087472, -0.07996707]), atol=2e-4), jac


# docs/notebooks/Custom_derivative_rules_for_Python_code.md: a custom_vjp f of a namedtuple
POINT = """
import jax.numpy as jnp
from jax import custom_vjp, grad
from collections import namedtuple
Point = namedtuple("Point", ["x", "y"])

@custom_vjp
def f(pt):
  x, y = pt.x, pt.y
  return {'a': x ** 2,
          'b': (jnp.sin(x), jnp.cos(y))}

def f_fwd(pt):
  return f(pt), pt

def f_bwd(pt, g):
  a_bar, (b0_bar, b1_bar) = g['a'], g['b']
  x_bar = 2 * pt.x * a_bar + jnp.cos(pt.x) * b0_bar
  y_bar = -jnp.sin(pt.y) * b1_bar
  return (Point(x_bar, y_bar),)

f.defvjp(f_fwd, f_bwd)

def fun(pt):
  dct = f(pt)
  return dct['a'] + dct['b'][0]

pt = Point(1., 2.)

print(grad(fun)(pt))
"""


def test_a_namedtuple_input_is_a_pytree_and_a_custom_vjp_line_uses_its_gradient():
    a = analysis.analyse(POINT, with_timing=False)
    # JAX: grad(fun)(pt) -> Point(x=Array(2.5403023, ...), y=Array(-0., ...))
    assert a.run.stdout.startswith("Point(x=Array(2.5403023")
    # before: the Plots pane took Point(1., 2.) for a (2,) vector and called fun(jnp.stack([x, y])):
    # "AttributeError: 'BatchTracer' object has no attribute 'x'"
    assert a.plot_kind == "rn" and "error" not in a.plot, a.plot
    leaves = {leaf["name"]: float(leaf["values"][0]) for leaf in a.plot["leaves"]}
    assert np.allclose([leaves["pt.x"], leaves["pt.y"]], [2.5403023, 0.0])
    # jvp refuses a custom_vjp function (JAX's TypeError), so the slope along d = grad/|grad| is
    # the gradient's component: JAX, at t = 0.5: jnp.vdot(grad(fun)(pt + 0.5 * d), d) -> 3.0707371
    t = a.plot["t"]
    assert np.allclose(a.plot["df"][np.argmin(abs(t - 0.5))], 3.0707371, rtol=1e-5)
    assert np.isfinite(a.plot["f"]).all() and "vdot(grad(f)(x + t * d), d)" in a.plot["code"]


def test_a_tuple_of_two_numbers_is_not_a_point_of_the_plane():
    import jax.numpy as jnp
    # f reads its tuple's items: a (2,) vector in its place would fail the same way
    assert analysis.plot_kind(lambda p: p[0] * p[1], ((1.0, 2.0),)) == "rn"
    assert analysis.plot_kind(lambda v: v[0] * v[1], (jnp.array([1.0, 2.0]),)) == "r2"
