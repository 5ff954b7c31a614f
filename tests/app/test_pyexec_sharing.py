"""An edit's Python does each piece of work once (issue 14, latency): f is traced once per run
for the Jaxpr pane and the Plots/vmap cache key, a view's WebGPU kernels are planned only when
the pane reads them, the hand-batched vmap row calls the learner's function once; and each
shortcut gives what the long way gives."""
from __future__ import annotations

import numpy as np

from app import analysis, main, pane_cache, sandbox

CODE = """import jax.numpy as jnp

def f(x):
    return jnp.sin(x) * x + 0.5 * x ** 2
f(1.5)
"""

MATVEC = """import jax.numpy as jnp
# manual: apply -> apply_batched
m = jnp.arange(6.0).reshape(2, 3)
calls = []
def apply(v):
    return m @ v
def apply_batched(vs):
    calls.append(1)  # a Python side effect: counts the eager calls
    return vs @ m.T
apply(jnp.ones(3))
"""


def _jax():
    sandbox.install_jax()
    import jax
    return jax


def test_the_cache_key_is_made_from_the_jaxpr_panes_f_view_and_equals_a_fresh_trace():
    a = analysis.analyse(CODE, views=("f", "grad"), with_plot=False, with_vmap=False, with_timing=False,
                         with_stages=False)
    view = a.jaxprs["f"]
    shared = pane_cache.f_view_key(a)
    # the long way: jax.make_jaxpr(f, return_shape=True)(1.5) traced again
    assert shared == pane_cache.traced_key(a.function.fn, a.args)
    assert a.jaxprs["f"] is view  # reused, not traced again
    assert shared[0] == view.text and shared[4] == "PyTreeDef(*)"


def test_with_the_plots_tab_in_view_the_key_makes_the_f_view_that_the_jaxpr_pane_then_reuses():
    app = main.create_app(code=CODE)
    pg = app.playground
    pg.tabs.active = list(pg.embed.panes).index("plot")
    pg.editor.value = CODE.replace("0.5 * x", "0.25 * x")
    a = pg.analysis = analysis.analyse(pg.editor.value, views=(), with_plot=False, with_vmap=False,
                                       with_timing=False, with_stages=False)
    assert "f" not in a.jaxprs
    pg._plot_data(a)
    made = a.jaxprs["f"]
    # JAX: jax.make_jaxpr(f)(1.5) of the edited f
    assert made.error is None and "mul" in made.text and made.text == str(_jax().make_jaxpr(a.function.fn)(*a.args))
    pg._complete_jaxprs()
    assert a.jaxprs["f"] is made and "grad" in a.jaxprs


def test_kernels_are_planned_when_read_and_equal_the_planners_answer():
    a = analysis.analyse(CODE, views=("f", "grad"), with_plot=False, with_vmap=False, with_timing=False,
                         with_stages=False)
    from core._engine.backends.webgpu import plan_kernels
    for view in a.jaxprs.values():
        assert "_plan" not in view.__dict__  # nothing planned by tracing alone
        expected = plan_kernels(view.closed)
        assert [(k.kind, tuple(k.eqns)) for k in view.kernels] == [(k.kind, tuple(k.eqns)) for k in expected]
        assert view.kernels is view.kernels and view.kernels_note == ""  # planned once


def test_a_view_the_planner_rejects_says_why_when_read():
    jax = _jax()
    with _x64(jax):
        view = analysis.jaxpr_view(lambda x: x * 2.0, (np.float64(1.0),))
    # float64 has no WGSL type: the plan is refused, and the note names it
    assert view.kernels is None and "float64" in view.kernels_note


class _x64:
    def __init__(self, jax):
        self.jax = jax

    def __enter__(self):
        self.jax.config.update("jax_enable_x64", True)

    def __exit__(self, *exc):
        self.jax.config.update("jax_enable_x64", False)


def test_the_hand_batched_row_calls_the_learners_function_once_and_keeps_its_value():
    a = analysis.analyse(MATVEC, views=(), with_plot=False, with_vmap=False, with_timing=False, with_stages=False)
    ns = a.run.namespace
    ns["calls"].clear()
    analysis.add_vmap(a, timed=False)
    manual = a.vmap["manual"]
    assert manual["shown"] and len(ns["calls"]) == 1  # the check and the row share one call
    batched = analysis.batch_inputs(a.args, (0,))
    # JAX: apply_batched(vs) == jax.vmap(apply)(vs)
    np.testing.assert_array_equal(manual["value"], np.asarray(ns["apply_batched"](*batched)))
    np.testing.assert_array_equal(manual["value"], a.vmap["vmap"]["value"])


def test_the_slow_panes_report_their_data_time_apart_from_their_models():
    pg = main.create_app(code=CODE).playground
    pg.editor.value = CODE.replace("0.5 * x", "0.25 * x")
    pg.run()  # no event loop: the hidden tabs fill in before run() returns
    data, total = pg.run_phases["pane_data"], pg.run_phases["panes"]
    assert set(data) >= {"plot", "vmap"}
    for pane in ("plot", "vmap"):
        assert 0 <= data[pane] <= total[pane] + 1  # ms, rounded


def test_the_plots_after_an_edit_equal_f_at_each_point():
    pg = main.create_app(code=CODE).playground
    pg.editor.value = CODE.replace("0.5 * x", "0.25 * x")
    pg.run()
    plot = pg.analysis.plot
    x = np.asarray(plot["x"])
    f = pg.analysis.run.namespace["f"]
    # JAX: f(x_i) and jax.grad(f)(x_i), one point at a time
    np.testing.assert_allclose(plot["f"], [float(f(xi)) for xi in x], rtol=1e-5, atol=1e-5)
    df = _jax().grad(f)
    np.testing.assert_allclose(plot["df"], [float(df(xi)) for xi in x], rtol=1e-4, atol=1e-4)
