"""The Plots pane's finite-difference check (app.fd_check): the drawn derivatives against central
differences, as jax.test_util.check_grads compares a rule with finite differences."""
import numpy as np
import pytest

from app import analysis, examples, fd_check, main
from app.panes import plots as plots_pane
from app.panes.common import CSS  # noqa: F401  (the pane's styles load)


def checked(code, function=None, args=None):
    a = analysis.analyse(code, function, args, with_vmap=False, with_timing=False, with_stages=False, views=())
    assert a.run.error is None, a.run.error
    return a, a.plot["fd"]


def test_a_right_gradient_agrees_closely():
    a, fd = checked("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(3 * x) * jnp.exp(-x * x / 4)\n\nf(0.5)\n")
    assert a.plot_kind == "scalar"
    (c,) = fd["checks"]
    assert c["n"] == 201 and c["bad"] == 0 and c["max_rel"] < 3e-3, c  # ~1e-3: h² f'''/6 and float32 rounding
    text, wrong = fd_check.note(fd)
    assert not wrong and text.startswith("✓ grad(f) agrees") and "tolerance 0.01" in text and "float32" in text


def test_the_gallery_example_with_a_wrong_custom_jvp_shows_the_mismatch():
    ex = examples.load("custom_jvp_check")
    a, fd = checked(ex.code, ex.function, ex.args)
    assert "check_grads(softplus): fails" in a.run.stdout and "check_grads(softplus_fixed): passes" in a.run.stdout
    (c,) = fd["checks"]
    assert c["bad"] > 0.9 * c["n"] and c["max_rel"] > 0.5, c  # sigmoid(-x) vs sigmoid(x): wrong nearly everywhere
    text, wrong = fd_check.note(fd)
    assert wrong and text.startswith("✗ grad(f) disagrees") and "custom_jvp" in text
    # the markers sit on sigmoid(x), the drawn f' is sigmoid(-x)
    x = np.asarray(fd["x"])
    np.testing.assert_allclose(fd["fd"], 1 / (1 + np.exp(-x)), atol=2e-3)
    np.testing.assert_allclose(a.plot["df"], 1 / (1 + np.exp(x)), atol=1e-5)
    html = "".join(p.object for p in plots_pane.render(a) if hasattr(p, "object") and isinstance(p.object, str))
    assert 'class="gp-fd gp-err"' in html and "disagrees with central finite differences" in html
    # the fixed rule, same code: agrees
    _, fixed = checked(ex.code, "softplus_fixed", ex.args)
    assert not fd_check.note(fixed)[1] and fixed["checks"][0]["bad"] == 0


WRONG_VJP = """import jax
import jax.numpy as jnp

@jax.custom_vjp
def energy(w):
    return jnp.sum(w ** 2)

def energy_fwd(w):
    return energy(w), w

def energy_bwd(w, g):
    return (g * w,)   # wrong: d/dw sum(w^2) is 2 w

energy.defvjp(energy_fwd, energy_bwd)

energy(jnp.array([1.0, -2.0, 0.5]))
"""


def test_a_wrong_custom_vjp_of_a_vector_fails_along_the_line_and_per_direction():
    a, fd = checked(WRONG_VJP)
    assert a.plot_kind == "rn"
    line, dirs = fd["checks"]
    assert line["bad"] > 0.9 * line["n"] and dirs["n"] == 3 and dirs["bad"] == 3, fd["checks"]
    assert abs(dirs["fd"] / dirs["ad"] - 2.0) < 0.01  # the finite difference is twice the wrong gradient
    assert fd_check.note(fd)[1]
    right, fd_right = checked(WRONG_VJP.replace("(g * w,)", "(2 * g * w,)"))
    assert [c["bad"] for c in fd_right["checks"]] == [0, 0]


def test_a_kink_is_not_a_wrong_rule():
    # relu's kink at 0 is a grid point: one or two points disagree there, the verdict still agrees
    _, fd = checked("import jax\n\ndef f(x):\n    return jax.nn.relu(x) * 2.0\n\nf(0.0)\n")
    (c,) = fd["checks"]
    assert 1 <= c["bad"] <= 2 and c["agree"], c
    text, wrong = fd_check.note(fd)
    assert not wrong and "kink" in text


def test_many_directions_are_bounded():
    _, fd = checked("import jax.numpy as jnp\n\ndef f(w):\n    return jnp.sum(jnp.tanh(w))\n\nf(jnp.linspace(-1, 1, 500))\n")
    line, dirs = fd["checks"]
    # (f sums 500 terms that cancel to ~0: float32 rounding of the sum may tip a point or two)
    assert dirs["n"] == fd_check.MAX_DIRECTIONS and dirs["agree"] and line["agree"], fd["checks"]
    assert not fd_check.note(fd)[1]


@pytest.mark.parametrize("code,kind", [
    ("import jax.numpy as jnp\n\ndef f(x, y):\n    return jnp.sin(x) * jnp.cos(y)\n\nf(0.3, 0.2)\n", "r2"),
    ("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.tanh(x) * x[::-1]\n\nf(jnp.arange(4.0))\n", "vector"),
    ("import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x), x ** 2\n\nf(0.5)\n", "outputs"),
])
def test_other_plot_kinds_are_checked_too(code, kind):
    a, fd = checked(code)
    assert a.plot_kind == kind
    assert fd["checks"] and all(c["n"] and c["bad"] == 0 for c in fd["checks"]), fd["checks"]


def test_the_snapshot_reports_the_check():
    pg = main.create_app(example="custom_jvp_check").playground
    pg.tabs.active = list(pg.embed.panes).index("plot")
    pg.run()
    s = pg.snapshot()["fd_check"]
    assert s["mismatch"] and s["tolerance"] == fd_check.TOLERANCE and s["checks"][0]["bad"] > 150
    fig = pg.plots_kept.figs[0]
    drawn = plots_pane.renderer(fig, "fd").data_source.data
    assert 0 < len(drawn["x"]) <= plots_pane.FD_MARKERS


def test_the_gradient_bars_draw_each_components_finite_difference_and_mark_mismatches():
    a, fd = checked(WRONG_VJP)
    figs = plots_pane.Kept().figures("rn", a.plot)
    bars = next(r for r in figs[1].object.renderers if r.name == "gradient").data_source.data
    # wrong rule: every bar's estimate (2 w, the true derivative) drawn as a red ✗ beside the wrong bar (w)
    np.testing.assert_allclose(bars["fd_bad"], [2.0, -4.0, 1.0], rtol=1e-2)
    assert all(np.isnan(bars["fd_ok"])) and all(" ✗ finite diff." in n for n in bars["name"])
    assert "✗ ∂f/∂x_i at the input (3 directions) disagrees" in fd_check.note(fd)[0]  # all 3 wrong: no kink
    assert plots_pane.fd_bar_counts("rn", a.plot) == {"checked": 3, "bad": 3}
    right, _ = checked(WRONG_VJP.replace("(g * w,)", "(2 * g * w,)"))
    bars = next(r for r in plots_pane.Kept().figures("rn", right.plot)[1].object.renderers
                if r.name == "gradient").data_source.data
    np.testing.assert_allclose(bars["fd_ok"], bars["value"], rtol=1e-2)  # on each bar's end
    assert all(np.isnan(bars["fd_bad"])) and not any("✗" in n for n in bars["name"])
    assert plots_pane.fd_bar_counts("rn", right.plot) == {"checked": 3, "bad": 0}


def test_bars_per_leaf_say_how_many_components_were_checked():
    many = WRONG_VJP.replace("energy(jnp.array([1.0, -2.0, 0.5]))", "energy(jnp.linspace(-1.0, 1.0, 100))")
    a, fd = checked(many)
    labels, values, title = plots_pane.gradient_bars(a.plot["leaves"])
    assert title.startswith("|∂f/∂leaf|")
    fdv, bad, suffix = plots_pane.fd_on_bars(a.plot["leaves"], fd["dirs"], False)
    assert bad == [True] and all(np.isnan(fdv))  # a norm has no one finite difference: none drawn
    # the components at w = 0 agree (0 = 0): the rest disagree
    assert suffix[0].startswith("  ✗ finite diff.: ") and suffix[0].endswith(f" of {fd_check.MAX_DIRECTIONS} checked disagree")
