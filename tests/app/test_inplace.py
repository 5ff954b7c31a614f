"""Issue 14: an edit that changes f draws the Plots, vmap and Timing panes' new data into the
figures the page already has (no new Bokeh models, no page-wide relayout), and every kept
figure's ranges, titles and sources follow the new data: a kept figure with the old axes would
show a wrong picture."""
import numpy as np
import panel as pn
import pytest

from app import analysis, main
from app.panes import plots as plots_pane
from app.panes import timing as timing_pane
from app.panes import vmap as vmap_pane


def figures(panes):
    return [p.object for p in panes]


def data_of(fig, name):
    return fig.select_one({"name": name}).data_source.data


def test_scalar_plot_is_drawn_again_in_the_same_figure_with_ranges_that_follow():
    kept = plots_pane.Kept()
    x = np.linspace(-3, 3, 7)
    first = figures(kept.figures("scalar", {"x": x, "f": x, "df": np.ones(7), "d2f": np.zeros(7)}))
    x2 = np.linspace(10, 20, 5)
    second = figures(kept.figures("scalar", {"x": x2, "f": 100 * x2, "df": 100 * np.ones(5), "d2f": np.zeros(5)}))
    assert second[0] is first[0]
    p = second[0]
    np.testing.assert_array_equal(data_of(p, "f")["x"], x2)
    np.testing.assert_array_equal(data_of(p, "f")["y"], 100 * x2)
    assert p.x_range.start < 10 and 20 < p.x_range.end < 22  # 10 % margins of [10, 20]
    assert p.y_range.start < 0 and 2000 < p.y_range.end < 2300  # 0 (f'') .. 2000 (f)
    assert (p.x_range.reset_start, p.x_range.reset_end) == (p.x_range.start, p.x_range.end)  # reset: this data


def test_rn_plot_keeps_line_and_bars_and_follows_the_new_gradient():
    kept = plots_pane.Kept()
    t = np.linspace(-1, 1, 5)
    leaves = lambda vals: [{"name": "w", "shape": (len(vals),), "norm": float(np.linalg.norm(vals)),  # noqa: E731
                            "values": np.asarray(vals, float)}]
    first = figures(kept.figures("rn", {"t": t, "f": t ** 2, "df": 2 * t, "leaves": leaves([1.0, 2.0])}))
    second = figures(kept.figures("rn", {"t": 3 * t, "f": -t, "df": -np.ones(5), "leaves": leaves([-5.0, 0.5, 7.0])}))
    assert second[0] is first[0] and second[1] is first[1]
    line, bars = second
    assert list(data_of(line, "input")["y"]) == [0.0]  # f at the middle of the new line (t = 0)
    assert line.x_range.start < -3 and line.x_range.end > 3
    assert data_of(bars, "gradient")["value"] == [-5.0, 0.5, 7.0]
    assert bars.x_range.start < -5 and bars.x_range.end > 7
    assert bars.y_range.start == 2.5 and bars.height == plots_pane.bars_height(3)  # three rows now
    assert bars.select_one({"name": "labels"}).glyph.x == bars.x_range.start


def test_jacobian_follows_a_new_shape_and_a_new_kind_gets_new_figures():
    kept = plots_pane.Kept()
    first = figures(kept.figures("vector", {"jac": np.eye(2)}))
    jac = np.arange(12.0).reshape(3, 4) - 6
    second = figures(kept.figures("vector", {"jac": jac}))
    assert second[0] is first[0]
    p = second[0]
    assert p.title.text.startswith("Jacobian 3×4")
    assert (p.x_range.start, p.x_range.end, p.y_range.start, p.y_range.end) == (-0.5, 3.5, 2.5, -0.5)
    img = p.select_one({"name": "jacobian"})
    np.testing.assert_array_equal(img.data_source.data["image"][0], jac)
    assert (img.glyph.dw, img.glyph.dh, img.glyph.color_mapper.high) == (4, 3, 6.0)
    assert data_of(p, "values")["text"][:2] == ["-6", "-5"]
    # too big for cell labels: other models (no label glyph), so a new figure
    third = figures(kept.figures("vector", {"jac": np.ones((20, 3))}))
    assert third[0] is not p and p.select_one({"name": "values"}) is not None
    assert third[0].select_one({"name": "values"}) is None
    # another kind (scalar output): new figures
    x = np.linspace(0, 1, 3)
    assert figures(kept.figures("scalar", {"x": x, "f": x, "df": x, "d2f": x}))[0] is not third[0]


def test_surface_and_elementwise_follow_new_data():
    kept = plots_pane.Kept()
    grid = lambda c, z: {"x": np.linspace(c - 2, c + 2, 3), "y": np.linspace(c - 2, c + 2, 3), "z": z,  # noqa: E731
                         "ax": np.array([c]), "ay": np.array([c]), "gx": np.array([1.0]), "gy": np.array([0.0])}
    first = figures(kept.figures("r2", grid(0.0, np.zeros((3, 3)))))[0]
    p = figures(kept.figures("r2", grid(5.0, np.arange(9.0).reshape(3, 3))))[0]
    assert p is first and (p.x_range.start, p.x_range.end) == (3.0, 7.0)
    img = p.select_one({"name": "surface"})
    assert (img.glyph.x, img.glyph.y, img.glyph.color_mapper.low, img.glyph.color_mapper.high) == (3.0, 3.0, 0.0, 8.0)
    assert list(data_of(p, "gradient")["x0"]) == [5.0] and data_of(p, "gradient")["x1"][0] > 5.0
    kept = plots_pane.Kept()
    e1 = figures(kept.figures("elementwise", {"x": np.arange(3.0), "f": np.zeros(3), "df": np.ones(3)}))[0]
    e2 = figures(kept.figures("elementwise", {"x": np.arange(100.0), "f": -np.arange(100.0), "df": np.ones(100)}))[0]
    assert e2 is e1 and "(100 components)" in e2.title.text
    assert e2.x_range.end > 99 and e2.y_range.start < -99


def test_vmap_outputs_figure_is_kept_while_drawn_alike():
    kept = vmap_pane.Kept()
    first = kept.outputs(np.arange(6.0).reshape(2, 3))
    pane = kept.outputs(np.full((2, 5), -40.0))
    assert pane is first
    p = pane.object
    assert list(data_of(p, "batch1")["y"]) == [-40.0] * 5 and p.x_range.end > 4
    assert p.y_range.start < -40 < p.y_range.end
    assert kept.outputs(np.arange(4.0)) is not first  # one point per element now: other glyphs
    assert "one point per element" in kept.outputs(np.arange(4.0)).object.title.text


def cpu_timing(scale):
    stat = lambda m: {"median": m, "min": m / 2, "max": m * 2, "n": 5}  # noqa: E731
    return {"backend": "cpu", "eager": stat(1e-3 * scale), "jit_steady": stat(1e-4 * scale),
            "jit_first": {"total": 0.01 * scale, "trace": 0.005 * scale, "compile_and_run": 0.005 * scale},
            "retraces": 1, "eqn_count": 3, "kernels": 1}


def test_timing_chart_is_kept_and_emptied_while_measured_again():
    kept = timing_pane.Kept()
    row = kept.row({"cpu": cpu_timing(1), "webgpu": {"pending": True, "backend": "webgpu"}})
    fig = row.objects[0].objects[1].object
    assert kept.row({"cpu": cpu_timing(100), "webgpu": {"pending": True, "backend": "webgpu"}}) is row
    assert row.objects[0].objects[1].object is fig
    assert data_of(fig, "median")["median"] == pytest.approx([100.0, 1000.0, 10.0])  # ms
    # min / 2 .. max · 2 (2.5 .. 2000), out to whole decades: the ticks are powers of ten
    assert fig.x_range.start == pytest.approx(1.0) and fig.x_range.end == pytest.approx(1e4)
    assert fig.select_one({"name": "median"}).glyph.left == fig.x_range.start  # bars start at the left edge
    assert "jit speed-up 10×" in row.objects[0].objects[0].object
    # measured again: the same chart, empty (never the last function's bars)
    kept.row({"cpu": {"pending": True, "backend": "cpu"}, "webgpu": {"pending": True, "backend": "webgpu"}})
    assert row.objects[0].objects[1].object is fig and data_of(fig, "median")["median"] == []
    assert "measuring" in row.objects[0].objects[0].object


CODE = """import jax.numpy as jnp

def f(x):
    return jnp.sum(jnp.sin(x) * 2.0)

f(jnp.ones(3))
"""


def test_an_edit_of_f_keeps_every_figure_of_the_page_and_draws_the_new_values():
    pg = main.create_app(code=CODE).playground

    def figs():
        return {name: [o.object for o in pg.panes[name].select(pn.pane.Bokeh)] for name in ("plot", "vmap", "timing")}

    before = figs()
    assert all(before.values())
    pg.editor.value = CODE.replace("* 2.0", "* 50.0")
    pg.run()
    after = figs()
    for name in before:
        assert len(after[name]) == len(before[name]) and all(a is b for a, b in zip(after[name], before[name])), name
    # jax.vmap(lambda t: f(x + t * d))(ts) along the line: f is 50·sum(sin), its range too
    line = after["plot"][0]
    y = np.asarray(data_of(line, "line_f")["y"])
    assert np.abs(y).max() > 60 and line.y_range.start <= y.min() and line.y_range.end >= y.max()
    a = pg.analysis
    np.testing.assert_allclose(data_of(after["vmap"][0], "batch0")["y"], np.asarray(a.vmap["vmap"]["value"][:1], float))


def test_the_kernels_card_is_kept_when_the_page_finds_webgpu_after_a_load(monkeypatch):
    """In the page the WebGPU adapter is found after a load's first run: the next edit used to
    build a new kernels card, and with it new children for the whole Jaxpr tab (a ~1 s relayout)."""
    from app.panes import jaxpr as jaxpr_pane
    monkeypatch.setattr(analysis, "available_backends", lambda: ["cpu"])
    pg = main.create_app(code=CODE).playground

    def kernel_card():
        return next(o for o in pg.panes["jaxpr"].objects if isinstance(o, pn.Card) and "gp-kernels" in o.css_classes)

    card, objects = kernel_card(), list(pg.panes["jaxpr"].objects)
    assert "WebGPU is not available here" in card.objects[0].object
    monkeypatch.setattr(analysis, "available_backends", lambda: ["cpu", "webgpu"])
    pg.editor.value = CODE.replace("* 2.0", "* 3.0")
    pg.run()
    assert kernel_card() is card and all(a is b for a, b in zip(pg.panes["jaxpr"].objects, objects))
    assert "WebGPU is available here" in card.objects[0].object
    assert isinstance(pg.jaxpr_kept, jaxpr_pane.Kept)
