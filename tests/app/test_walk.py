"""Programs a new user pastes (JAX's docs and the shapes a learner writes, hostile ones too) that
the panes showed wrong: each test pins one fix in CPython; tests/browser/test_walk.py loads a
compact set of them in the built page."""
import numpy as np
import pytest

from app import analysis, sandbox
from app.analysis import plots as analysis_plots
from app.analysis import vmap as analysis_vmap
from app.panes import vmap as vmap_pane

SYS_EXIT = """
import jax.numpy as jnp

def f(x):
    return jnp.sin(x) + x ** 2

print(f(0.0), f(1.5) - jnp.sin(1.5))
import sys
sys.exit()
print("never")
"""


@pytest.mark.parametrize("ending, status", [("sys.exit()", ""), ("exit(2)", " with status 2"), ("quit()", "")])
def test_sys_exit_ends_the_run_with_a_message_and_keeps_what_ran(ending, status):
    a = analysis.analyse(SYS_EXIT.replace("sys.exit()", ending), with_timing=False)
    # JAX: the script prints "0.0 2.25", then SystemExit ends it
    assert a.run.stdout == "0.0 2.25\n"
    assert a.run.error.type == "SystemExit" and a.run.error.line == 9
    assert a.run.error.message == "sys.exit() (or exit() / quit()) ended the run" + status
    assert "the panes analyse what the code defined before it" in a.run.error.hint
    assert a.function.name == "f" and a.plot_kind == "scalar"


def test_sys_exit_inside_the_function_fails_that_call_only():
    code = "import sys\ndef f(x):\n    sys.exit(1)\n"
    a = analysis.analyse(code, with_timing=False)  # never called: the panes call f on a guess
    assert a.run.error is None and a.function.name == "f"
    assert a.jaxprs["f"].error.type == "SystemExit"


def test_input_says_the_page_has_no_keyboard_input():
    a = analysis.analyse("name = input('name? ')\nprint('hi', name)\n", with_timing=False)
    assert a.run.stdout == "name? "
    assert a.run.error.type == "EOFError" and a.run.error.line == 1  # Python's error for input() with no input
    assert a.run.error.message.startswith("input() cannot read a line here: the page has no terminal")


RANDOM_ARG = """
import jax
import jax.numpy as jnp

def noisy(x, key):
    return x + 0.1 * jax.random.normal(key, x.shape)

key = jax.random.key(0)
print(noisy(jnp.ones(3), key))
"""


def test_a_key_argument_is_batched_with_fold_in():
    a = analysis.analyse(RANDOM_ARG, with_timing=False)
    import jax
    r = a.vmap
    assert r.get("error") is None and r["vmap"]["error"] is None, r
    assert r["rules"] == "floats + 0.5·k, keys fold_in(key, k)"
    # element k: noisy(jnp.ones(3) + 0.5 * k, jax.random.fold_in(key, k))
    key = jax.random.key(0)
    for k in range(4):
        want = np.asarray(a.function.fn(jax.numpy.ones(3) + 0.5 * k, jax.random.fold_in(key, k)))
        assert np.allclose(np.asarray(r["vmap"]["value"][k]), want)
    assert r["loop"]["matches_vmap"] is True


def test_integer_and_bool_inputs_are_batched_as_integers_and_bools():
    import jax.numpy as jnp
    batched = analysis.batch_inputs((jnp.int32(2), jnp.bool_(True)), (0, 0))
    assert batched[0].tolist() == [2, 3, 4, 5] and batched[0].dtype == jnp.int32
    assert batched[1].tolist() == [True] * 4 and batched[1].dtype == jnp.bool_


def test_complex_batched_outputs_keep_their_imaginary_part_in_the_plot():
    z = np.array([0.5 + 2j, -1 + 0.25j])
    assert vmap_pane.rows_of(z).tolist() == [[0.5, 2.0], [-1.0, 0.25]]
    fig = vmap_pane.outputs_figure(z)
    assert fig.xaxis[0].axis_label == vmap_pane.COMPLEX_AXIS


WHILE_LOOP = """
from jax import lax

def f(x):
    return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.1), (0, x))[1]

print(f(1.0))
"""


def test_a_while_loop_is_plotted_with_forward_mode_derivatives():
    a = analysis.analyse(WHILE_LOOP, with_timing=False)
    assert a.plot_kind == "scalar" and "error" not in a.plot, a.plot
    # JAX: jax.grad(f) raises "ValueError: Reverse-mode differentiation does not work for
    # lax.while_loop ..."; jax.vmap(jax.jacfwd(f))(xs) -> 1.1**10 = 2.5937428 everywhere,
    # jax.vmap(jax.jacfwd(jax.jacfwd(f)))(xs) -> 0
    assert np.allclose(a.plot["f"], a.plot["x"] * 2.5937428, rtol=1e-5)
    assert np.allclose(a.plot["df"], 2.5937428) and np.allclose(a.plot["d2f"], 0.0)
    assert a.plot["derive"] == "jacfwd" and "jax.vmap(jax.jacfwd(f))(xs)" in a.plot["code"]


def test_an_integer_index_input_explains_why_there_is_no_plot():
    a = analysis.analyse("import jax.numpy as jnp\ndef f(i):\n    return jnp.arange(5)[i]\nprint(f(2))\n",
                         with_timing=False)
    assert a.run.stdout == "2\n"  # JAX: jnp.arange(5)[2] -> Array(2, dtype=int32)
    assert a.plot_kind is None and "error" not in a.plot
    assert a.plot["why"].startswith("Its input is integers only") and "Indexer must have integer" in a.plot["why"]


# docs/notebooks/Custom_derivative_rules_for_Python_code.md: log1pexp at 100. overflows float32
CUSTOM_JVP = """
import jax
import jax.numpy as jnp

@jax.custom_jvp
def log1pexp(x):
  return jnp.log(1. + jnp.exp(x))

@log1pexp.defjvp
def log1pexp_jvp(primals, tangents):
  x, = primals
  x_dot, = tangents
  ans = log1pexp(x)
  ans_dot = (1 - 1/(1 + jnp.exp(x))) * x_dot
  return ans, ans_dot

print(jax.grad(log1pexp)(100.))
"""


def test_curves_that_are_not_finite_are_counted_as_not_drawn_and_named():
    from app.panes import plots as plots_pane
    a = analysis.analyse(CUSTOM_JVP, with_timing=False)
    assert a.run.stdout == "1.0\n"  # JAX: jax.grad(log1pexp)(100.) -> 1.0
    # JAX on x in [97, 103]: jax.vmap(log1pexp)(xs) -> inf everywhere (exp overflows float32),
    # jax.vmap(jax.grad(log1pexp))(xs) -> 1., jax.vmap(jax.grad(jax.grad(log1pexp)))(xs) -> nan
    assert plots_pane.point_counts(a.plot_kind, a.plot) == {"f": 0, "df": 201, "d2f": 0}
    assert plots_pane.not_drawn_note(a.plot_kind, a.plot) == (
        "Not drawn where not finite: f(x) is inf at 201 of its 201 points; f''(x) is nan at 201 of its 201 points.")


# docs/automatic-vectorization.md: the batched function is a name bound to jax.vmap(convolve)
VMAP_ALIAS = """
import jax
import jax.numpy as jnp

x = jnp.arange(5)
w = jnp.array([2., 3., 4.])

def convolve(x, w):
  output = []
  for i in range(1, len(x)-1):
    output.append(jnp.dot(x[i-1:i+2], w))
  return jnp.array(output)

xs = jnp.stack([x, x])
ws = jnp.stack([w, w])
auto_batch_convolve = jax.vmap(convolve)
print(auto_batch_convolve(xs, ws))
"""


def test_a_function_called_through_a_vmap_alias_is_the_one_analysed():
    a = analysis.analyse(VMAP_ALIAS, with_timing=False)
    # JAX prints auto_batch_convolve(xs, ws): [[11. 20. 29.] [11. 20. 29.]]
    assert a.run.stdout == "[[11. 20. 29.]\n [11. 20. 29.]]\n"
    assert a.function.name == "convolve" and a.args_source == "xs[0], ws[0]"
    # JAX: jax.make_jaxpr(convolve)(x, w) starts "{ lambda ; a:i32[5] b:f32[3]. let"
    assert a.jaxprs["f"].text.startswith("{ lambda ; a:i32[5] b:f32[3]. let")
    alias = next(f for f in a.functions if f.name == "auto_batch_convolve")
    assert alias.vmap_of == "convolve" and alias.call_source == "xs, ws"  # still there to pick


def test_slow_batching_methods_are_timed_by_one_call(monkeypatch):
    # a loop of 4 calls of a slow f was timed with 4 more calls per method (25 s of a busy page)
    monkeypatch.setattr(analysis_vmap, "SLOW_CALL_S", 0.0)  # every call counts as slow
    calls = []

    def f(x):
        calls.append(1)
        return x * 2.0

    import jax.numpy as jnp
    r = analysis.vmap_comparison(f, (jnp.ones(3),), timed=True)
    for method in ("loop", "vmap", "jit(vmap)", "manual"):
        assert r[method]["error"] is None and r[method]["time"]["n"] == 1, (method, r[method])
    # one call sizes the batch (app.analysis._bounded_batch); loop: 4 calls (one per element);
    # vmap, manual: 1 trace each; jit(vmap): its trace
    assert len(calls) == 1 + 4 + 1 + 1 + 1
    assert "one call (a slow one)" in vmap_pane.timing_html(r)


def test_plot_points_are_computed_in_pieces_that_a_page_budget_can_stop(monkeypatch):
    # in the page (no watchdog thread) only a tick between pieces can end a slow plot
    monkeypatch.setattr(sandbox, "IN_PYODIDE", True)
    monkeypatch.setattr(sandbox, "INTERRUPTIBLE", True)
    monkeypatch.setattr(analysis_plots, "ONE_CALL_S", 0.0)  # always in pieces
    monkeypatch.setattr(analysis_plots, "PIECE_S", 0.0)     # of one point each
    import jax.numpy as jnp
    xs = jnp.linspace(0.0, 1.0, 7)
    assert np.allclose(analysis.over_points(jnp.sin, xs), np.sin(np.linspace(0.0, 1.0, 7)), atol=1e-6)
    ticks = []
    monkeypatch.setattr(sandbox, "tick", lambda: ticks.append(1))
    analysis.over_points(jnp.sin, xs)
    assert len(ticks) == 7 - analysis.FIRST_POINTS  # one before each piece after the first


@pytest.mark.parametrize("body, names", [("return jnp.sin(x), jnp.cos(x)", ["[0]", "[1]"]),
                                         ("return {'sin': jnp.sin(x), 'cos': jnp.cos(x)}", ["['cos']", "['sin']"])])
def test_a_tuple_or_dict_of_outputs_is_plotted_as_curves_with_derivatives(body, names):
    from app.panes import plots as plots_pane
    a = analysis.analyse(f"import jax.numpy as jnp\ndef f(x):\n    {body}\nprint(f(0.5))\n", with_timing=False)
    # before: a 2x1 Jacobian heatmap (tuple), "f(0.5) is none of these" (dict)
    assert a.plot_kind == "outputs" and a.plot["names"] == names
    x = a.plot["x"]
    # JAX: jax.vmap(f)(xs) -> sin(xs), cos(xs); jax.vmap(jax.jacfwd(f))(xs) -> cos(xs), -sin(xs)
    want = {"[0]": (np.sin(x), np.cos(x)), "[1]": (np.cos(x), -np.sin(x)),
            "['sin']": (np.sin(x), np.cos(x)), "['cos']": (np.cos(x), -np.sin(x))}
    for i, name in enumerate(names):
        assert np.allclose(a.plot["f"][i], want[name][0], atol=1e-5)
        assert np.allclose(a.plot["df"][i], want[name][1], atol=1e-5)
    counts = plots_pane.point_counts(a.plot_kind, a.plot)
    assert counts == {f"{pre}f(x){n}": 201 for n in names for pre in ("", "d/dx ")}
    fig = plots_pane.new_outputs(tuple(names))
    assert len(fig.renderers) == 2 * len(names)


def test_a_function_whose_every_argument_is_static_says_vmap_has_nothing_to_batch():
    code = ("import jax\nfrom functools import partial\n\n@partial(jax.jit, static_argnames=['x'])\n"
            "def f(x):\n  if x < 3:\n    return 3. * x ** 2\n  return -4 * x\n\nprint(f(2.))\n")
    a = analysis.analyse(code, with_timing=False)
    assert a.run.stdout == "12.0\n"  # JAX (docs/jit-compilation.md): f(2.) -> 12.0
    assert a.vmap == {"held": ("x (static)",)}
    text = vmap_pane.render(a)[0].object
    assert "f has no argument vmap could batch: x (static) stays fixed" in text  # was "No function input to batch yet."
