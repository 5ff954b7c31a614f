"""Issue 26: what the panes send to the page is bounded by design, whatever the learner's arrays,
and a pane that left something out says what (the jit tutorial's selu on 1e6 elements held the
page's main thread for minutes drawing 2 x 1e6 scatter points and 4 lines of 1e6)."""
import json
import time

import numpy as np
import panel as pn
from bokeh.core.serialization import Serializer
from bokeh.document import Document

from app import analysis, pane_bounds
from app.panes import plots as plots_pane
from app.panes import timing as timing_pane
from app.panes import vmap as vmap_pane

jnp = analysis._jax().numpy

SELU_1E6 = """import jax, jax.numpy as jnp
from jax import random
key = random.PRNGKey(0)
x = random.normal(key, (1000000,))
def selu(x, alpha=1.67, lmbda=1.05):
  return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
selu_jit = jax.jit(selu)
selu_jit(x).block_until_ready()
"""
PANE_BYTES = 300_000  # a pane's models as the page gets them (JSON, arrays base64): 1e6 float64 alone is 10.7 MB


def sent_bytes(parts) -> int:
    """The pane's Bokeh models serialised as the worker sends them to the page."""
    doc = Document()
    models = [part.get_root(doc) for part in parts]
    return len(json.dumps(Serializer(deferred=False).encode(models), default=str))


def texts(parts) -> str:
    return " ".join(p.object for p in parts if isinstance(p, pn.pane.HTML))


def test_spread_indices_keep_the_ends_and_at_most_the_cap():
    idx = pane_bounds.spread_indices(1_000_000)
    assert len(idx) == pane_bounds.MAX_PLOT_POINTS and idx[0] == 0 and idx[-1] == 999_999
    assert np.all(np.diff(idx) > 0)
    np.testing.assert_array_equal(pane_bounds.spread_indices(10), np.arange(10))
    assert pane_bounds.plotted_note(10, 10) == ""
    assert pane_bounds.plotted_note(2000, 1_000_000).startswith("plotted 2,000 of 1,000,000 points")


def test_selu_on_a_million_points_plots_2000_and_says_so():
    a = analysis.analyse(SELU_1E6, with_vmap=False, with_timing=False)
    assert a.plot_kind == "elementwise" and a.plot["total"] == 1_000_000
    assert len(a.plot["x"]) == len(a.plot["f"]) == len(a.plot["df"]) == pane_bounds.MAX_PLOT_POINTS
    # the kept points are the chart's points of the whole array: f is selu of x there
    x = a.plot["x"]
    np.testing.assert_allclose(a.plot["f"], 1.05 * np.where(x > 0, x, 1.67 * np.exp(x) - 1.67), rtol=1e-5, atol=1e-6)
    parts = plots_pane.render(a)
    assert sent_bytes(parts) < PANE_BYTES
    assert "plotted 2,000 of 1,000,000 points" in texts(parts)
    fig = parts[0].object
    assert fig.title.text == "f(x)_i vs x_i (2,000 of 1,000,000 plotted)"  # short enough for a phone


def test_vmap_outputs_of_a_million_elements_are_drawn_sampled_and_say_so():
    a = analysis.analyse(SELU_1E6, with_plot=False, with_timing=False)
    v = a.vmap
    size = v["size"]  # 4, or fewer where one call of f is slow on this machine (then it says so)
    assert size >= 2 and v["vmap"]["value"].shape == (size, 1_000_000)
    parts = vmap_pane.render(a)
    assert sent_bytes(parts) < PANE_BYTES
    assert "plotted 2,000 of 1,000,000 outputs of each element" in texts(parts)
    table = next(p.object for p in parts if isinstance(p, pn.pane.HTML) and "gp-table" in p.object)
    assert f"showing {size}×8 of ({size}, 1000000)" in table


def test_vmap_skips_a_ten_million_element_input_and_says_why():
    x = jnp.ones((10_000_000,), dtype=jnp.float32)
    t0 = time.perf_counter()
    r = analysis.vmap_comparison(jnp.sin, (x,), timed=False)
    assert time.perf_counter() - t0 < 5.0
    assert r["size"] == 0 and "10,000,000 elements" in r["skipped"] and "x[:1000]" in r["skipped"]

    class A:
        function = type("F", (), {"name": "f"})
        vmap = r
    parts = vmap_pane.render(A)
    assert "vmap comparison skipped: your input has 10,000,000 elements" in texts(parts)


def test_batch_size_shrinks_for_a_slow_f_and_skips_when_even_two_is_too_slow():
    assert pane_bounds.batch_size(1000, None, 4) == (4, "")
    size, why = pane_bounds.batch_size(1_000_000, 0.4, 4)
    assert size == 2 and why.startswith("a batch of 2, not 4: one call of f takes 0.4 s")
    size, why = pane_bounds.batch_size(1_000_000, 3.0, 4)
    assert size == 0 and "one call of f takes 3 s" in why and "skipped" in why
    size, why = pane_bounds.batch_size(3_000_000, None, 4)
    assert size == 0 and "3,000,000 elements" in why


def test_a_slow_function_is_timed_on_one_call_and_the_pane_says_so():
    def slow(x):
        time.sleep(0.6)  # eager: every call; jit: only while tracing
        return x * 2.0

    t0 = time.perf_counter()
    t = analysis.timings(slow, (jnp.ones(3),), backends=["cpu"])
    assert time.perf_counter() - t0 < 6.0  # samples of several 0.6 s calls would take 10 s and more
    assert t["eager"]["n"] == 1 and t["eager"]["median"] >= 0.6
    assert "timing measured on 1 call (eager)" in timing_pane.sample_note(t)


def test_a_fast_function_is_still_sampled():
    t = analysis.timings(lambda x: x * 2.0, (jnp.ones(3),), backends=["cpu"])
    assert t["eager"]["n"] > 1 and "timing measured on 1 call" not in timing_pane.sample_note(t)
