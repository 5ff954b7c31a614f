"""app.analysis: pane data computed from user code with the engine's public API."""
import numpy as np
import pytest

from app import analysis, sandbox
from app.analysis import timing as analysis_timing

sandbox.install_jax()
import jax  # noqa: E402  (the engine, as the user's code sees it)
import jax.numpy as jnp  # noqa: E402

CODE = """import jax
import jax.numpy as jnp

def f(x):
    return jnp.sin(x) * x ** 2

def g(x, y):
    return x ** 2 + 3 * y

f(1.5)
"""


@pytest.fixture(scope="module")
def a():
    return analysis.analyse(CODE, with_timing=True)


def test_finds_functions_and_the_last_call(a):
    assert [fi.name for fi in a.functions] == ["f", "g"]
    assert a.function.name == "f" and a.args_source == "1.5" and a.args == (1.5,)
    assert [fi.params for fi in a.functions] == [["x"], ["x", "y"]]


def test_uncalled_function_gets_default_scalar_inputs():
    b = analysis.analyse(CODE, function="g", with_vmap=False, with_timing=False)
    assert b.args_source == "1.0, 1.0"


def test_jit_wrapped_calls_count_as_calls():
    assert analysis.last_calls("import jax\ndef h(x): return x\njax.jit(h)(3.0)\nh(1.0, )")["h"] == "1.0"
    assert analysis.last_calls("def h(x): return x\njax.grad(h)(2.0)")["h"] == "2.0"


@pytest.mark.parametrize("view,make", [
    ("f", lambda f: (f, (1.5,))),
    ("grad", lambda f: (jax.grad(f), (1.5,))),
    ("jit", lambda f: (jax.jit(f), (1.5,))),
])
def test_jaxpr_text_is_make_jaxpr(a, view, make):
    f = a.function.fn
    fn, args = make(f)
    expected = jax.make_jaxpr(fn)(*args)
    assert a.jaxprs[view].text == str(expected)
    assert a.jaxprs[view].eqn_count == len(expected.jaxpr.eqns)


def test_jaxpr_of_f_matches_jax_text(a):
    # JAX 0.10.2: jax.make_jaxpr(lambda x: jnp.sin(x) * x ** 2)(1.5)
    assert a.jaxprs["f"].text == ("{ lambda ; a:f32[]. let\n    b:f32[] = sin a\n    c:f32[] = integer_pow[y=2] a\n"
                                  "    d:f32[] = mul b c\n  in (d,) }")
    assert a.jaxprs["vmap"].text.startswith("{ lambda ; a:f32[3]. let")


def test_diff_rows_cover_both_sides(a):
    rows = analysis.side_by_side(a.jaxprs["f"].text, a.jaxprs["grad"].text)
    assert "\n".join(r[1] for r in rows if r[1]) == a.jaxprs["f"].text
    assert "\n".join(r[2] for r in rows if r[2]) == a.jaxprs["grad"].text
    assert rows[0][0] == "equal"


def test_dataflow_graph_has_a_node_per_equation(a):
    jaxpr = a.jaxprs["grad"].closed.jaxpr
    g = analysis.dataflow_graph(jaxpr)
    kinds = [n["kind"] for n in g["nodes"]]
    assert kinds.count("eqn") == len(jaxpr.eqns) and kinds.count("input") == 1 and kinds.count("output") == 1
    ids = {n["id"] for n in g["nodes"]}
    assert all(s in ids and d in ids for s, d in g["edges"])
    layer = {n["id"]: n["layer"] for n in g["nodes"]}
    assert all(layer[s] < layer[d] for s, d in g["edges"])  # edges flow left to right


def test_scalar_plot_holds_f_and_its_derivatives(a):
    assert a.plot_kind == "scalar"
    x = a.plot["x"]
    assert len(x) == 201 and x[0] == pytest.approx(-1.5) and x[-1] == pytest.approx(4.5)
    np.testing.assert_allclose(a.plot["f"], np.sin(x) * x ** 2, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(a.plot["df"], np.cos(x) * x ** 2 + 2 * x * np.sin(x), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(a.plot["d2f"], -np.sin(x) * x ** 2 + 4 * x * np.cos(x) + 2 * np.sin(x),
                               rtol=1e-3, atol=1e-3)
    assert a.plot["method"] == "vmap" and "jax.vmap(jax.grad(f))(xs)" in a.plot["code"]


def test_python_control_flow_falls_back_to_a_loop():
    b = analysis.analyse("def relu(x):\n    return x if x > 0 else 0.0 * x\nrelu(1.0)", with_vmap=False,
                         with_timing=False)
    assert b.plot_kind == "scalar" and b.plot["method"] == "loop"
    np.testing.assert_allclose(b.plot["df"], (b.plot["x"] > 0).astype(float))


def test_r2_surface_and_gradient_arrows():
    b = analysis.analyse("def bowl(x, y):\n    return x ** 2 + 3 * y ** 2\nbowl(0.5, -0.5)",
                         with_vmap=False, with_timing=False)
    assert b.plot_kind == "r2"
    X, Y = np.meshgrid(b.plot["x"], b.plot["y"])
    np.testing.assert_allclose(b.plot["z"], X ** 2 + 3 * Y ** 2, rtol=1e-5)
    np.testing.assert_allclose(b.plot["gx"], 2 * b.plot["ax"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b.plot["gy"], 6 * b.plot["ay"], rtol=1e-5, atol=1e-6)


def test_vector_output_gives_the_jacobian():
    b = analysis.analyse("import jax.numpy as jnp\ndef h(x):\n    return jnp.array([x[0] * x[1], x[0] ** 2])\n"
                         "h(jnp.array([2.0, 3.0]))", with_vmap=False, with_timing=False)
    assert b.plot_kind == "vector"
    # JAX: jax.jacfwd(h)(jnp.array([2., 3.])) -> [[3., 2.], [4., 0.]]
    np.testing.assert_allclose(b.plot["jac"], [[3.0, 2.0], [4.0, 0.0]])


def test_vmap_comparison_loop_vmap_manual_agree(a):
    r = a.vmap
    assert r["in_axes"] == (0,) and r["size"] == 4
    xs = 1.5 + 0.5 * np.arange(4)
    np.testing.assert_allclose(r["vmap"]["value"], np.sin(xs) * xs ** 2, rtol=1e-5)
    assert r["loop"]["matches_vmap"] and r["manual"]["matches_vmap"]
    assert r["jit(vmap)"]["time"]["min"] <= r["jit(vmap)"]["time"]["median"] <= r["jit(vmap)"]["time"]["max"]


def test_vmap_in_axes_none_broadcasts():
    b = analysis.analyse("import jax.numpy as jnp\ndef dot(x, y):\n    return x @ y\n"
                         "dot(jnp.ones(3), jnp.arange(3.0))", in_axes=(0, None), with_timing=False)
    np.testing.assert_allclose(b.vmap["vmap"]["value"], [3.0, 4.5, 6.0, 7.5])
    assert b.vmap["loop"]["matches_vmap"]


def test_timings_are_ordered_and_count_one_trace(a):
    t = a.timing
    for key in ("eager", "jit_steady"):
        assert 0 < t[key]["min"] <= t[key]["median"] <= t[key]["max"]
    assert t["jit_first"]["total"] > 0 and t["retraces"] == 1 and t["eqn_count"] == 3
    assert t["backend"] == "cpu"


def test_errors_in_a_view_do_not_stop_the_others():
    b = analysis.analyse("import jax.numpy as jnp\ndef v(x):\n    return x * 2\nv(jnp.ones(3))",
                         with_timing=False)
    # JAX: jax.grad(v)(jnp.ones(3)) -> TypeError: Gradient only defined for scalar-output functions.
    assert b.jaxprs["grad"].error.type == "TypeError"
    assert "scalar-output" in b.jaxprs["grad"].error.message
    assert b.jaxprs["f"].error is None and b.jaxprs["vmap"].error is None


def test_user_errors_and_missing_functions_are_reported_not_raised():
    b = analysis.analyse("x = 1\n1 / 0")
    assert b.run.error.type == "ZeroDivisionError" and b.function is None
    c = analysis.analyse("def f(x):\n    return x\n", args_source="undefined_name")
    assert c.args_error.type == "NameError"


def test_prints_while_tracing_stay_in_the_console():
    b = analysis.analyse("import jax\n@jax.jit\ndef f(x):\n    print('tracing')\n    return x + 1\n"
                         "f(1.0)\nf(2.0)\n", with_timing=True)
    assert b.run.stdout == "tracing\n"  # once: the second call hits the cache


def _coarse_clock(monkeypatch, step=1e-4):
    """The page's timer without cross-origin isolation: performance.now() steps by 100 µs."""
    import math
    import time
    monkeypatch.setattr(analysis_timing, "clock", lambda: math.floor(time.perf_counter() / step) * step)


def test_timings_resolve_fast_calls_with_a_100us_timer(monkeypatch):
    _coarse_clock(monkeypatch)
    t = analysis.timings(lambda x: x * 2.0 + 1.0, (np.ones(4, np.float32),), repeats=3, backends=["cpu"])
    for key in ("eager", "jit_steady"):
        r = t[key]
        # a sample of `calls` calls spans many timer ticks, so no per-call time reads 0
        assert r["calls"] > 1 and r["calls"] * r["min"] >= 2e-4
        assert 0 < r["min"] <= r["median"] <= r["max"] and r["min"] < 1e-3
    assert np.isfinite(t["speedup"]) and t["speedup"] > 0


def test_slow_calls_take_one_call_per_sample():
    import time
    t = analysis.timings(lambda x: (time.sleep(0.003), x)[1], (1.0,), repeats=3, backends=["cpu"])
    assert t["eager"]["calls"] == 1 and t["eager"]["median"] >= 0.003


MATVEC = """import jax.numpy as jnp
# manual: apply -> apply_batched
m = jnp.arange(6.0).reshape(2, 3)
def apply(v):
    return m @ v
def apply_batched(vs):
    return vs @ m.T
apply(jnp.ones(3))
"""


def test_manual_batching_uses_the_hand_batched_version_the_code_names():
    b = analysis.analyse(MATVEC, with_timing=False)
    manual = b.vmap["manual"]
    # JAX: jax.vmap(apply)(vs) == apply_batched(vs)
    assert manual["shown"] and manual["matches_vmap"] and manual["call"] == "apply_batched(*batched)"
    assert manual["time"]["median"] > 0


def test_manual_batching_that_fails_is_explained_not_shown():
    b = analysis.analyse(MATVEC.replace("# manual: apply -> apply_batched\n", ""), with_timing=False)
    manual = b.vmap["manual"]
    # JAX: apply(vs) with vs: f32[4, 3] -> TypeError: dot_general requires contracting dimensions ...
    assert not manual["shown"] and "raises TypeError" in manual["why"] and "time" not in manual
    c = analysis.analyse("import jax.numpy as jnp\ndef total(x):\n    return jnp.sum(x ** 2)\ntotal(jnp.ones(3))",
                         with_timing=False)
    # total(batch) sums over the batch too: one number where vmap gives one per example
    assert not c.vmap["manual"]["shown"]
    assert "shape () where vmap gives (4,)" in c.vmap["manual"]["why"]


def test_vmap_pane_shows_no_error_row_for_manual_batching():
    from app.panes import vmap as vmap_pane
    b = analysis.analyse(MATVEC.replace("# manual: apply -> apply_batched\n", ""), with_timing=False)
    text = "".join(getattr(o, "object", "") or "" for o in vmap_pane.render(b) if isinstance(getattr(o, "object", None), str))
    assert "gp-err" not in text and "manual batching: f is written for one example" in text


def test_one_slow_first_sample_does_not_leave_too_few_calls(monkeypatch):
    import asyncio
    import time
    _coarse_clock(monkeypatch)
    slow_once = [2]  # the warm-up call and the first sample are paused (GC, a late compile)

    def call():
        if slow_once[0]:
            slow_once[0] -= 1
            time.sleep(0.004)
        return 1.0

    async def wait(x):
        return x
    r = asyncio.run(analysis._per_call(call, wait, 3))
    assert r["calls"] > 1 and 0 < r["median"] < 1e-3


PYTREE_LOSS = """import jax.numpy as jnp
def loss(params, x):
    return jnp.sum((params['w'] * x + params['b']) ** 2)
params = {'w': jnp.array([1.0, -2.0]), 'b': jnp.array(0.5)}
loss(params, jnp.array([3.0, 1.0]))
"""


def test_pytree_input_to_a_number_plots_the_line_and_per_leaf_gradients():
    b = analysis.analyse(PYTREE_LOSS, with_vmap=False, with_timing=False)
    assert b.plot_kind == "rn"
    p = b.plot
    w, bias, x = np.array([1.0, -2.0]), 0.5, np.array([3.0, 1.0])
    r = w * x + bias  # JAX: jax.grad(loss, argnums=(0, 1))(params, x)
    want = {"params['b']": [np.sum(2 * r)], "params['w']": 2 * r * x, "x": 2 * r * w}
    got = {leaf["name"]: leaf["values"] for leaf in p["leaves"]}
    assert set(got) == set(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5)
    norm = np.sqrt(sum(np.sum(np.square(v)) for v in want.values()))
    mid = len(p["t"]) // 2
    assert p["t"][mid] == 0
    np.testing.assert_allclose(p["f"][mid], np.sum(r ** 2), rtol=1e-5)
    # along the gradient's direction the directional derivative at the input is |grad f|
    np.testing.assert_allclose(p["df"][mid], norm, rtol=1e-4)
    # and it is the derivative of the plotted f(x + t·d)
    np.testing.assert_allclose(np.gradient(p["f"], p["t"])[mid], p["df"][mid], rtol=1e-2)


def test_long_elementwise_vectors_plot_f_against_x():
    b = analysis.analyse("import jax.numpy as jnp\ndef f(x):\n    return jnp.tanh(x)\nf(jnp.linspace(-2, 2, 500))",
                         with_vmap=False, with_timing=False)
    assert b.plot_kind == "elementwise"
    np.testing.assert_allclose(b.plot["f"], np.tanh(b.plot["x"]), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b.plot["df"], 1 - np.tanh(b.plot["x"]) ** 2, rtol=1e-4, atol=1e-6)


def test_problem_size_batches_the_input_with_vmap():
    f = lambda x, y: jnp.sum(jnp.sin(x) * y)  # noqa: E731
    g, args = analysis.scaled_problem(f, (jnp.arange(3.0), 2.0), 100)
    assert [a.shape for a in args] == [(100, 3), (100,)]
    # JAX: jax.vmap(f)(broadcast copies) == f(x, y) repeated
    np.testing.assert_allclose(g(*args), np.full(100, 2 * np.sum(np.sin(np.arange(3.0)))), rtol=1e-5)
    t = analysis.timings(f, (jnp.arange(3.0), 2.0), repeats=3, backends=["cpu"], scale=100)
    assert t["scale"] == 100 and t["eager"]["median"] > 0 and t["retraces"] == 1


def test_the_timer_step_is_reported(monkeypatch):
    _coarse_clock(monkeypatch)
    assert analysis.clock_step() == pytest.approx(1e-4)
    t = analysis.timings(lambda x: x + 1.0, (1.0,), repeats=3, backends=["cpu"])
    assert t["clock_step"] == pytest.approx(1e-4)
    from app.panes import timing as timing_pane
    assert "timer step 100.0 µs" in timing_pane.facts_html(t)


def test_samples_that_still_read_short_are_taken_again_with_more_calls(monkeypatch):
    import asyncio
    # the clock's readings: one slow 1-call sample, then a 1-call sample that crosses a tick
    scripted = iter([0.0, 0.004, 0.0, 0.0001, 0.0, 0.0])
    now = {"t": 0.0}  # afterwards: each call takes 1 µs, read with a 100 µs step

    def clock():
        t = next(scripted, None)
        return int(now["t"] / 1e-4) * 1e-4 if t is None else t

    async def wait(x):
        now["t"] += 1e-6
        return x
    monkeypatch.setattr(analysis_timing, "clock", clock)
    r = asyncio.run(analysis._per_call(lambda: 1.0, wait, 3))
    assert next(scripted, None) is None  # the patched clock is the one _per_call read
    # the per-call time is resolved (a sample spans >= 1 ms of 100 µs ticks), never 0
    assert r["median"] > 0 and r["median"] * r["calls"] >= analysis.MIN_SAMPLE_S / 2
