"""Pastes from JAX's documentation that made the playground's own analysis misbehave (the page
checks are in tests/browser/test_learner_pastes.py; these are the same cases in CPython, as the
page runs them: loop ticks only, Stop available)."""
import time

import pytest

from app import analysis, sandbox

# docs/control-flow.md: grad of a while_loop raises; f ends only for x > 0, so the Plots pane's
# points left of 0 would run for ever
WHILE_GRAD = """
import jax
from jax import lax

def f(x):
    return lax.while_loop(lambda v: v < 10., lambda v: v * 2., x)

print(f(1.5))
"""


@pytest.fixture
def as_in_the_page(monkeypatch):
    """Pyodide (no threads: loop ticks only) on a cross-origin isolated page (Stop exists)."""
    monkeypatch.setattr(sandbox, "IN_PYODIDE", True)
    monkeypatch.setattr(sandbox, "INTERRUPTIBLE", True)


@pytest.mark.timeout(60)
def test_a_while_loop_that_never_ends_on_plot_points_stops_the_plot_only(as_in_the_page):
    t0 = time.perf_counter()
    a = analysis.analyse(WHILE_GRAD, with_timing=False)
    took = time.perf_counter() - t0
    # JAX: f(1.5) -> 12.0 (1.5 doubled three times); the run and the input are fine
    assert a.run.error is None and a.run.stdout == "12.0\n"
    assert a.function.name == "f" and a.plot_kind == "scalar"
    err = a.plot["error"]
    assert err.type == "TimeBudgetExceeded" and "on the plot's points (x in [-1.5, 4.5])" in err.message
    assert took < 30, took  # one budget, not one per fallback
    # the other panes still use the learner's input: vmap of f over inputs near 1.5 ends
    assert a.vmap["vmap"]["error"] is None


# docs/automatic-vectorization.md style: a per-example function met only inside vmap
VMAP_ONLY = """
import jax
import jax.numpy as jnp

def predict(W, x):
    return jnp.tanh(W @ x)

W = jnp.arange(6.).reshape(2, 3) / 10
batch = jnp.arange(12.).reshape(4, 3)
print(jax.vmap(predict, in_axes=(None, 0))(W, batch))
"""


def test_a_function_called_only_through_vmap_is_analysed_on_one_example_of_the_batch():
    a = analysis.analyse(VMAP_ONLY, with_timing=False)
    assert a.function.name == "predict" and a.args_source == "W, batch[0]"
    # JAX: jax.make_jaxpr(predict)(W, batch[0]) -> { lambda ; a:f32[2,3] b:f32[3]. let
    #   c:f32[2] = dot_general[...] a b; d:f32[2] = tanh c in (d,) }
    view = a.jaxprs["f"]
    assert view.error is None and view.text.startswith("{ lambda ; a:f32[2,3] b:f32[3]. let")
    assert a.vmap["vmap"]["error"] is None


def test_vmap_calls_whose_axes_are_not_literals_give_no_guess():
    calls = analysis.last_calls("vmap(h, in_axes=axes)(a)\njax.vmap(k, in_axes=[0, None])(a, b)\njax.vmap(m)(u, v)")
    assert "h" not in calls and calls["k"] == "a[0], b" and calls["m"] == "u[0], v[0]"


# docs/jit-compilation.md: "Marking arguments as static"
STATIC_ARGS = """
import jax
from functools import partial

@partial(jax.jit, static_argnames=['n'])
def g(x, n):
  i = 0
  while i < n:
    i += 1
  return x + i

print(g(10, 20))
"""


def test_static_arguments_of_a_jitted_function_stay_fixed_in_every_pane():
    a = analysis.analyse(STATIC_ARGS)
    assert a.run.stdout == "30\n"  # JAX: g(10, 20) -> 30
    assert a.function.name == "g" and a.args_source == "10, 20" and a.args == (10,)
    # JAX: print(jax.make_jaxpr(g, static_argnums=1)(10, 20))
    assert a.jaxprs["f"].error is None and a.jaxprs["f"].text == (
        "{ lambda ; a:i32[]. let\n    b:i32[] = jit[\n      name=g\n"
        "      jaxpr={ lambda ; a:i32[]. let b:i32[] = add a 20:i32[] in (b,) }\n    ] a\n  in (b,) }")
    # vmap batches x only (n stays 20): the same values as a Python loop of g(x_k, 20)
    assert a.vmap["vmap"]["error"] is None and a.vmap["loop"]["matches_vmap"] is True
    assert list(a.vmap["vmap"]["value"]) == [30, 31, 32, 33]
    assert "error" not in a.timing and a.timing["speedup"] > 0


@pytest.mark.parametrize("line, says", [("%timeit selu(x).block_until_ready()", "`%timeit` is IPython"),
                                        ("!pip install -U jax", "`!pip` is a notebook's shell command")])
def test_a_notebook_line_pasted_as_python_says_what_it_is(line, says):
    # JAX's quickstart is a notebook: `%timeit selu(x).block_until_ready()`. Python (and so
    # CPython running JAX) raises SyntaxError: invalid syntax there; the hint says why
    r = sandbox.run(f"import jax\nx = 1.0\n{line}\n")
    assert r.error.type == "SyntaxError" and r.error.message.startswith("invalid syntax") and r.error.line == 3
    assert r.error.hint.startswith(says), r.error.hint


def test_other_syntax_errors_get_no_notebook_hint():
    r = sandbox.run("def f(x)\n    return x\n")
    assert r.error.type == "SyntaxError" and r.error.hint == ""


# docs/pytrees.md: flatten/unflatten helpers that the code registers but never calls
NEVER_CALLED = """
import jax

class MyContainer:
  def __init__(self, name, a, b, c):
    self.name, self.a, self.b, self.c = name, a, b, c

def flatten_MyContainer(container):
  return [container.a, container.b, container.c], container.name

def unflatten_MyContainer(aux_data, flat_contents):
  return MyContainer(aux_data, *flat_contents)

jax.tree_util.register_pytree_node(MyContainer, flatten_MyContainer, unflatten_MyContainer)
print(jax.tree.leaves([MyContainer('Alice', 1, 2, 3), MyContainer('Bob', 4, 5, 6)]))
"""


def test_a_guessed_input_says_it_is_a_guess():
    from app import main
    pg = main.create_app(code=NEVER_CALLED).playground
    snap = pg.snapshot()
    # JAX: jax.tree.leaves([...]) -> [1, 2, 3, 4, 5, 6]
    assert snap["error"] is None and snap["console"].splitlines()[0] == "[1, 2, 3, 4, 5, 6]"
    assert snap["function"] == "unflatten_MyContainer" and snap["args_guessed"] is True
    assert "guessed input: your code never calls unflatten_MyContainer" in pg.status.object
    called = main.create_app(code=STATIC_ARGS).playground
    assert called.snapshot()["args_guessed"] is False and "guessed" not in called.status.object


# a function taking a function (docs/automatic-differentiation.md's hvp, any `apply(f, x)`)
FUNCTION_ARGUMENT = """
import jax.numpy as jnp

def apply(g, x):
    return g(x) * 2

print(apply(jnp.sin, 1.0))
"""


def test_a_function_argument_is_held_fixed_and_the_analysis_does_not_crash():
    a = analysis.analyse(FUNCTION_ARGUMENT)  # raised TypeError from the grad stages before
    assert a.function.name == "apply" and a.args_source == "jnp.sin, 1.0" and a.args == (1.0,)
    # JAX: jax.make_jaxpr(lambda x: apply(jnp.sin, x))(1.0)
    assert a.jaxprs["f"].text == "{ lambda ; a:f32[]. let b:f32[] = sin a; c:f32[] = mul b 2.0:f32[] in (c,) }"
    assert a.plot_kind == "scalar" and "error" not in a.plot
    assert [s.eqn_count for s in a.stages][:1] and all(s.text for s in a.stages)


def test_grad_stages_say_why_a_function_first_argument_has_no_tangent():
    from app import stages
    import jax.numpy as jnp
    notes = {s.note for s in stages.grad_stages(lambda g, x: g(x), (jnp.sin, 1.0))}
    assert notes == {"grad(f) differentiates f's first argument, which is a function, not an array: "
                     "there is no float tangent to carry."}


def test_example_arguments_come_from_calls_the_top_level_can_evaluate():
    # docs' hvp: `jax.grad(f)(x)` inside hvp uses hvp's own x; `value_and_grad(loss, has_aux=True)(w, x)`
    # passes loss's own arguments
    calls = analysis.last_calls(
        "def hvp(f, x, v):\n    return jax.grad(lambda x: jnp.vdot(jax.grad(f)(x), v))(x)\n"
        "ys = [g(t) for t in ts]\n"
        "(l, p), gr = jax.value_and_grad(loss, has_aux=True)(w, x)\nprint(hvp(f, X, V))\n")
    assert "f" not in calls and "g" not in calls
    assert calls["loss"] == "w, x" and calls["hvp"] == "f, X, V"
