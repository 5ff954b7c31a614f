"""The Plots pane when f'' runs out of the plot points' time: f and f' are still drawn, and the pane
says what was left out and why (never a bare error over a chart that could show two of three
curves; never an empty curve with no word)."""
import numpy as np

from app import analysis
from app.analysis import plots
from app.panes import plots as plots_pane

# f and f' are fast; only f'' goes through slow_cos's derivative rule, which sleeps: the 201 points'
# f'' cannot finish within the budget the test sets
SLOW_SECOND_DERIVATIVE = """
import time
import jax, jax.numpy as jnp

@jax.custom_jvp
def slow_cos(x):
    return jnp.cos(x)

@slow_cos.defjvp
def _slow_cos_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    time.sleep(0.25)
    return slow_cos(x), -jnp.sin(x) * dx

@jax.custom_jvp
def my_sin(x):
    return jnp.sin(x)

@my_sin.defjvp
def _my_sin_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return my_sin(x), slow_cos(x) * dx

def f(x):
    return my_sin(x)

print(f(0.5))
"""


def test_f_and_its_slope_are_drawn_when_the_second_derivative_runs_out_of_time(monkeypatch):
    monkeypatch.setattr(plots, "PAGE_POINTS_BUDGET_S", 1.5)
    a = analysis.analyse(SLOW_SECOND_DERIVATIVE, "f", "0.5", views=("f",), with_stages=False,
                         with_timing=False, with_vmap=False)
    assert a.run.error is None and a.plot_kind == "scalar", a.run.error
    data = a.plot
    assert "error" not in data, data
    x = np.asarray(data["x"])
    np.testing.assert_allclose(data["f"], np.sin(x), atol=1e-5)
    np.testing.assert_allclose(data["df"], np.cos(x), atol=1e-5)
    assert data["d2f"] is None
    assert "f''(x) is left out" in data["skipped"] and "1.5 s" in data["skipped"], data["skipped"]
    # the pane: two curves drawn, the third empty, and the note says so
    assert plots_pane.point_counts("scalar", data) == {"f": 201, "df": 201}
    assert plots_pane.not_drawn_note("scalar", data) == ""
    parts = plots_pane.render(a)
    fig = next(p.object for p in parts if hasattr(getattr(p, "object", None), "renderers"))
    lengths = {r.name: len(r.data_source.data["y"]) for r in fig.renderers if r.name in ("f", "df", "d2f")}
    assert lengths == {"f": 201, "df": 201, "d2f": 0}, lengths
    texts = " ".join(str(getattr(p, "object", "")) for p in parts)
    assert "f&#x27;&#x27;(x) is left out" in texts or "f''(x) is left out" in texts, texts


def test_with_time_enough_all_three_curves_are_drawn(monkeypatch):
    monkeypatch.setattr(plots, "PAGE_POINTS_BUDGET_S", None)  # no budget: every point finishes
    a = analysis.analyse(SLOW_SECOND_DERIVATIVE.replace("time.sleep(0.25)", "pass"), "f", "0.5",
                         views=("f",), with_stages=False, with_timing=False, with_vmap=False)
    data = a.plot
    assert "skipped" not in data and data["d2f"] is not None
    np.testing.assert_allclose(data["d2f"], -np.sin(np.asarray(data["x"])), atol=1e-5)


def test_the_note_names_the_forward_mode_derivative_the_plot_used(monkeypatch):
    # a lax.while_loop: grad cannot differentiate f (JAX raises), so the plot uses jacfwd, and the
    # note must name the call that ran, not grad(grad(f))
    monkeypatch.setattr(plots, "PAGE_POINTS_BUDGET_S", 1.5)
    code = SLOW_SECOND_DERIVATIVE.replace(
        "def f(x):\n    return my_sin(x)",
        "def f(x):\n    return my_sin(jax.lax.while_loop(lambda c: c > 100.0, lambda c: c, x))")
    a = analysis.analyse(code, "f", "0.5", views=("f",), with_stages=False, with_timing=False, with_vmap=False)
    data = a.plot
    assert "error" not in data and data["derive"] == "jacfwd", data
    np.testing.assert_allclose(data["df"], np.cos(np.asarray(data["x"])), atol=1e-5)
    assert data["d2f"] is None
    assert "jacfwd(jacfwd(f))" in data["skipped"] and "grad(grad(f))" not in data["skipped"], data["skipped"]
