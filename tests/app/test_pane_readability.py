"""The panes' figures and text, built under CPython: what a learner reads must be true and legible
(tests/browser/test_pane_readability.py measures the same in the page)."""
import numpy as np
import pytest
from bokeh.models import Legend

from app.panes import jaxpr as jaxpr_pane
from app.panes import plots as plots_pane
from app.panes import timing as timing_pane

# JAX: jax.jacfwd(lambda x: jnp.array([x[0]**2 * x[1], 5*x[0] + jnp.sin(x[1]), x[1]**3]))(jnp.array([1., 2.]))
JAC = np.array([[4.0, 1.0], [5.0, -0.41614684], [0.0, 12.0]], dtype=np.float32)


def test_jacobian_cells_are_centred_on_their_indices_and_labelled():
    fig = plots_pane.jacobian_figure(JAC)
    img = next(r for r in fig.renderers if r.name == "jacobian").glyph
    assert (img.x, img.y, img.dw, img.dh) == (-0.5, -0.5, 2, 3)
    values = next(r for r in fig.renderers if r.name == "values").data_source.data
    # cell (i, j) = (1, 0) holds 5 at the point (x=j, y=i)
    k = values["text"].index("5")
    assert (values["x"][k], values["y"][k]) == (0, 1)
    assert values["text"] == ["4", "1", "5", "-0.416", "0", "12"]
    assert values["colour"][5] == "#ffffff" and values["colour"][0] != "#ffffff"  # 12 is the dark end


def test_jacobian_palette_tells_close_entries_apart():
    mapper = next(r for r in plots_pane.jacobian_figure(JAC).renderers if r.name == "jacobian").glyph.color_mapper
    lo, hi, palette = mapper.low, mapper.high, mapper.palette
    colour = lambda v: palette[min(len(palette) - 1, int((v - lo) / (hi - lo) * len(palette)))]  # noqa: E731
    assert len({colour(v) for v in JAC.ravel()}) == 6  # RdBu11 gave 3: 4 ~ 5 and 0 ~ 1 ~ -0.42


def test_negative_zero_entries_read_zero():
    # JAX: jax.jacfwd(lambda x: x * x / 2.0)(x) has -0.0 off the diagonal where x < 0
    values = plots_pane.cell_labels(np.array([[-1.0, -0.0], [0.0, 2.0]], np.float32), 2.0)
    assert values["text"] == ["-1", "0", "0", "2"]


def test_large_jacobian_has_no_cell_labels():
    fig = plots_pane.jacobian_figure(np.zeros((150, 100), np.float32))
    assert not [r for r in fig.renderers if r.name == "values"]


@pytest.mark.parametrize("build", [
    lambda: plots_pane.scalar_figure({"x": [0.0, 1.0], "f": [0.0, 1.0], "df": [1.0, 1.0], "d2f": [0.0, 0.0]}),
    lambda: plots_pane.elementwise_figure({"x": [0.0, 1.0], "f": [0.0, 1.0], "df": [1.0, 1.0]}),
    lambda: plots_pane.line_figure({"t": [-1.0, 0.0, 1.0], "f": [1.0, 0.0, 1.0], "df": [-2.0, 0.0, 2.0]}),
])
def test_legends_sit_above_the_plot_not_over_the_data(build):
    fig = build()
    assert [m for m in fig.center if isinstance(m, Legend)] == []
    legend = next(m for m in fig.above if isinstance(m, Legend))
    assert legend.orientation == "horizontal" and legend.items


def timing(first, trace, step=1e-7):
    return {"jit_first": {"total": first, "trace": min(trace, first), "compile_and_run": max(0.0, first - trace)},
            "clock_step": step}


def test_first_call_split_only_when_the_timer_resolves_it():
    assert timing_pane.first_call_text(timing(0.0087, 0.0002)) == \
        "first call 8.70 ms = trace 200.0 µs + compile &amp; run 8.50 ms"
    # tracing alone (on a fresh jit) took as long as the whole first call: no "+ compile & run 0.0 µs"
    text = timing_pane.first_call_text(timing(0.000575, 0.000600))
    assert "0.0 µs" not in text and "nearly all tracing" in text
    # a 100 µs timer step (a page without cross-origin isolation) cannot split 50 µs off
    assert "nearly all tracing" in timing_pane.first_call_text(timing(0.0006, 0.00055, step=1e-4))


def steady(eager_ms, first_ms, jit_ms):
    m = lambda ms: {"median": ms / 1e3, "min": ms / 1e3 * 0.9, "max": ms / 1e3 * 1.1}  # noqa: E731
    return {"backend": "cpu", "eager": m(eager_ms), "jit_first": {"total": first_ms / 1e3}, "jit_steady": m(jit_ms)}


@pytest.mark.parametrize("ms", [(62.0, 80.0, 55.0), (0.02, 3.0, 0.004), (700.0, 900.0, 650.0)])
def test_timing_axis_spans_whole_decades_so_its_labels_are_powers_of_ten(ms):
    """Inside one decade the log axis labelled 50, 60, 70, 80 ..., which at a phone's width ran
    together ("607080"): the range runs from one power of ten to another, at least a decade apart,
    every bar inside it, and the ticker asks for few labels."""
    t = steady(*ms)
    lo, hi = timing_pane.shared_bounds([t])
    exps = np.log10([lo, hi])
    assert np.allclose(exps, np.round(exps)) and exps[1] - exps[0] >= 1
    values = [v * 1e3 for b in timing_pane.bars(t).values() for v in b]
    assert lo < min(values) and max(values) < hi
    fig = timing_pane.timing_figure(t)
    assert (fig.x_range.start, fig.x_range.end) == (lo, hi)
    assert fig.xaxis[0].ticker.desired_num_ticks <= 4
    bar = fig.select_one({"name": "median"})
    assert list(bar.data_source.data["median"]) == [ms[0], ms[1], ms[2]]  # the values drawn are the numbers


def test_short_graph_keeps_its_own_height():
    from app import analysis
    from app.sandbox import install_jax
    install_jax()
    import jax
    closed = jax.make_jaxpr(lambda x: x * x / 2.0)(np.ones(5, np.float32))
    fig = jaxpr_pane.graph_figure(closed.jaxpr, "g")
    assert fig.frame_height == jaxpr_pane.GRAPH_MIN_FRAME_PX <= 150  # was 220, the nodes centred in it
    assert fig.toolbar_location == "left"  # a wide graph scrolls in its box: the tools stay at its start
    assert analysis.dataflow_graph(closed.jaxpr, None)["extent"]["rows"] == 1


def test_source_map_hint_names_the_editor_only_where_there_is_one():
    assert "editor" in jaxpr_pane.SOURCE_MAP_HINT
    assert "editor" not in jaxpr_pane.SOURCE_MAP_HINT_NO_EDITOR


def test_tables_scroll_sideways_instead_of_wrapping():
    from app.panes import vmap as vmap_pane
    html = vmap_pane.table_html(np.arange(40.0).reshape(4, 10))
    assert html.startswith('<div class="gp-scroll-x"><table class="gp-table">')
    from app.panes.common import CSS
    assert "white-space: nowrap" in CSS.split(".gp-table td, .gp-table th")[1].split("}")[0]


@pytest.mark.parametrize("shape, per", [((4,), "point"), ((4, 3), "line")])
def test_vmap_outputs_plot_says_what_it_draws_and_ticks_whole_indices(shape, per):
    from app.panes import vmap as vmap_pane
    fig = vmap_pane.outputs_figure(np.arange(float(np.prod(shape))).reshape(shape))
    assert f"one {per} per element" in fig.title.text
    assert fig.xaxis[0].ticker.min_interval == 1
