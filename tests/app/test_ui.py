"""The Panel app object under CPython: set editor text, run, and read what the panes show."""
import json

import pytest

import panel as pn  # noqa: E402

from app import env, examples, main, share  # noqa: E402
from app.panes import jaxpr as jaxpr_pane  # noqa: E402

sandbox_jax = __import__("app.sandbox", fromlist=["install_jax"])
sandbox_jax.install_jax()
import jax  # noqa: E402  (the engine)

CODE = "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.tanh(x) * 3.0\n\nf(0.5)\n"


@pytest.fixture(scope="module")
def app():
    return main.create_app(code=CODE)


def texts(column) -> str:
    """Every HTML/Markdown object's text in a pane column (widgets skipped)."""
    out = []
    for obj in column.objects:
        if isinstance(obj, pn.Card):
            out.append(texts(obj))
        elif hasattr(obj, "object") and isinstance(obj.object, str):
            out.append(obj.object)
    return "\n".join(out)


def test_snapshot_after_run(app):
    pg = app.playground
    snap = pg.snapshot()
    f = pg.analysis.function.fn
    assert snap["function"] == "f" and snap["error"] is None
    assert snap["jaxpr"] == str(jax.make_jaxpr(f)(0.5))
    assert snap["plots"] == {"f": 201, "df": 201, "d2f": 201}
    assert snap["timings"]["retraces"] == 1 and snap["timings"]["backend"] == "cpu"
    json.dumps(snap)  # the page API sends it as JSON


def test_jaxpr_pane_shows_highlighted_text_and_count(app):
    html = texts(app.playground.panes["jaxpr"])
    assert '<span class="gp-jp">tanh</span>' in html
    assert "2 equations" in html
    graphs = [o for o in app.playground.panes["jaxpr"].objects if "gp-graph" in o.css_classes]
    assert len(graphs) == 1 and isinstance(graphs[0].objects[0], pn.pane.Bokeh)


def test_views_switch_the_jaxpr(app):
    pg = app.playground
    pg.view_select.value = "grad"
    f = pg.analysis.function.fn
    assert pg.snapshot()["jaxpr"] == str(jax.make_jaxpr(jax.grad(f))(0.5))
    pg.view_select.value = "f"


def test_plot_pane_data_sources_hold_f_and_df(app):
    import numpy as np
    fig = next(o for o in app.playground.panes["plot"].objects if isinstance(o, pn.pane.Bokeh)).object
    by_name = {r.name: r.data_source.data for r in fig.renderers if r.name}
    x = np.asarray(by_name["f"]["x"])
    np.testing.assert_allclose(by_name["f"]["y"], 3 * np.tanh(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(by_name["df"]["y"], 3 * (1 - np.tanh(x) ** 2), rtol=1e-4, atol=1e-5)


def test_error_shows_class_hint_and_example_link():
    pg = main.create_app(code="import jax\n@jax.jit\ndef f(x):\n    if x > 0:\n        return x\n    return -x\nf(1.0)\n").playground
    snap = pg.snapshot()
    assert snap["error"]["type"] == "TracerBoolConversionError"
    html = texts(pg.panes["console"])
    assert "TracerBoolConversionError: Attempted boolean conversion" in html
    assert 'href="#example=static_args_and_control_flow"' in html
    # the app keeps working after an error
    pg.editor.value = CODE
    pg.run()
    assert pg.snapshot()["error"] is None


def test_load_example_keeps_unsaved_edits_one_click_away():
    pg = main.create_app(code=CODE).playground
    pg.editor.value = CODE + "# my edit\n"
    snap = pg.load(example="pytrees")
    assert snap["function"] == "loss" and snap["code"] == examples.load("pytrees").code
    assert pg.restore_button.visible
    assert env.storage_get(env.PREVIOUS_KEY) == CODE + "# my edit\n"
    pg._restore_previous()
    assert pg.editor.value == CODE + "# my edit\n"


def test_share_state_round_trips_through_the_app(app):
    pg = app.playground
    pg.view_select.value = "jit"
    state = pg.current_state()
    url = pg.share_url()
    restored = share.parse_hash(url.split("#", 1)[1])
    assert restored == state and restored.code == CODE and restored.view == "jit"
    other = main.Playground(code="x = 1")
    other.apply_state(restored)
    assert other.snapshot()["jaxpr"] == pg.snapshot()["jaxpr"]
    pg.view_select.value = "f"


def test_embed_view_is_compact(monkeypatch):
    monkeypatch.setattr(env, "location_search", lambda: "?embed=1&panes=jaxpr,plot&autorun=1&readonly=1")
    root = main.create_app(example="jvp_and_vjp")
    pg = root.playground
    assert [t for t in pg.tabs._names] == ["Jaxpr", "Plots"]
    assert pg.editor not in root.objects and pg.editor.readonly
    assert "open in gradpad" in root.objects[0].objects[1].object


def test_exports_are_downloadable(app):
    py = app.playground._export_py().getvalue()
    assert py.startswith("# Exported from gradpad") and "def f(x):" in py
    nb = json.loads(app.playground._export_ipynb().getvalue())
    assert nb["nbformat"] == 4


def test_highlighter_escapes_html():
    assert jaxpr_pane.highlight("a < b") == "a &lt; b"


def test_snapshot_reports_timing_per_backend_in_ms(app):
    timing = app.playground.snapshot()["timing"]
    cpu = timing["cpu"]
    assert 0 < cpu["jit_steady_ms"] and 0 < cpu["eager_ms"] < cpu["jit_first_ms"]
    assert cpu["speedup"] == pytest.approx(cpu["eager_ms"] / cpu["jit_steady_ms"])
    assert cpu["calls"]["eager"] >= 1 and cpu["calls"]["jit"] >= 1


def test_jacobian_image_lies_inside_the_plot():
    pg = main.create_app(example="jvp_and_vjp").playground
    fig = next(o for o in pg.panes["plot"].objects if isinstance(o, pn.pane.Bokeh)).object
    img = next(r for r in fig.renderers if r.name == "jacobian").glyph
    lo, hi = sorted((fig.y_range.start, fig.y_range.end))
    # the image covers [y, y + dh]: it must be the plotted range, not beside it
    assert (img.y, img.y + img.dh) == (lo, hi) and (img.x, img.x + img.dw) == (fig.x_range.start, fig.x_range.end)


def test_run_keeps_the_example_function_and_the_users_choice():
    pg = main.create_app(example="jit_selu_timing").playground
    assert pg.snapshot()["function"] == "selu"
    pg.run()  # the Run button: the code's last call is another function, the choice stays
    assert pg.snapshot()["function"] == "selu"
    other = next(n for n in pg.function_select.options if n != "selu")
    pg.function_select.value = other
    pg.run()
    assert pg.snapshot()["function"] == other
    pg.editor.value = pg.editor.value + "\n# an edit\n"
    pg.run()
    assert pg.snapshot()["function"] == other


def test_typed_input_stays_across_runs():
    pg = main.create_app(code=CODE).playground
    pg.args_input.value = "0.25"
    pg.run()
    assert pg.analysis.args_source == "0.25"


def test_new_code_gets_its_own_default_function():
    pg = main.create_app(example="jit_selu_timing").playground
    snap = pg.load(code="# function: h\ndef h(x):\n    return x * 2\ndef k(x):\n    return x\nk(1.0)\n")
    assert snap["function"] == "h"  # the code's '# function:' line, not the last call, not selu


@pytest.mark.parametrize("fragment", ["#example=nope", "#example=pytrees%20x", "#example=../main"])
def test_unknown_example_link_shows_a_message_and_the_gallery(monkeypatch, fragment):
    monkeypatch.setattr(env, "location_hash", lambda: fragment)
    pg = main.create_app().playground
    snap = pg.snapshot()
    assert "There is no example named" in snap["notice"] and 'href="#example=pytrees"' in snap["notice"]
    assert snap["function"] is not None and snap["error"] is None  # the app runs something
    assert pg.load(example="pytrees")["notice"] == ""  # a good link: the message goes


def test_example_link_with_a_trailing_space_opens_it(monkeypatch):
    monkeypatch.setattr(env, "location_hash", lambda: "#example=pytrees%20")
    assert main.create_app().playground.snapshot()["example"] == "pytrees"


def test_the_address_bar_follows_every_edit_so_a_reload_keeps_it(monkeypatch):
    hashes = []
    monkeypatch.setattr(env, "IN_BROWSER", True)
    monkeypatch.setattr(env, "set_hash", lambda fragment, new_entry=False: hashes.append(fragment))
    monkeypatch.setattr(env, "run_state", lambda running, measuring=False: None)  # no page to tell (the worker posts it)
    monkeypatch.setattr(env, "page_base", lambda: "./")
    monkeypatch.setattr(env, "location_hash", lambda: "")
    stored = {}
    monkeypatch.setattr(env, "storage_set", stored.__setitem__)
    monkeypatch.setattr(env, "storage_get", stored.get)
    monkeypatch.setattr(main.asyncio, "get_event_loop", lambda: (_ for _ in ()).throw(RuntimeError()))
    pg = main.Playground(example="pytrees")
    pg.editor.value = "# my newest edit\n" + pg.editor.value  # typed, no autorun yet
    assert pg.snapshot()["example"] is None  # the dropdown no longer names the example
    monkeypatch.setattr(env, "IN_BROWSER", False)
    monkeypatch.setattr(env, "location_hash", lambda: hashes[-1])  # reload now
    reloaded = main.Playground()
    assert reloaded.editor.value.startswith("# my newest edit\n")


def test_plots_for_a_pytree_input_show_the_line_and_gradient_bars():
    from tests.app.test_analysis import PYTREE_LOSS
    pg = main.create_app(code=PYTREE_LOSS).playground
    figs = [o.object for o in pg.panes["plot"].objects if isinstance(o, pn.pane.Bokeh)]
    names = {r.name for f in figs for r in f.renderers if r.name}
    assert {"line_f", "line_df", "gradient"} <= names
    assert pg.snapshot()["plots"] == {"line_f": 61, "line_df": 61, "gradient": 5}  # b, w[0], w[1], x[0], x[1]
    assert pg.snapshot()["gradient_fd"] == {"checked": 5, "bad": 0}  # each bar checked by finite differences, none off
    assert "none of these" not in texts(pg.panes["plot"])


def test_changing_the_backend_reruns_at_once():
    pg = main.create_app(code=CODE).playground
    calls = []
    pg._set_quietly(pg.backend_select, "options", ["cpu", "webgpu"])
    pg.run = lambda **kw: calls.append(kw)
    pg.backend_select.value = "webgpu"
    assert len(calls) == 1


def test_the_jit_print_note_shows_only_for_prints_in_jitted_code():
    note = "appear only while it is traced"
    assert note not in texts(main.create_app(code=CODE).playground.panes["console"])
    jit_print = "import jax\n@jax.jit\ndef f(x):\n    print('tracing', x)\n    return x + 1\nf(1.0)\n"
    assert note in texts(main.create_app(code=jit_print).playground.panes["console"])


def test_syntax_error_names_the_line_and_marks_it_in_the_editor():
    pg = main.create_app(code="import jax\n\ndef f(:\n    return 1\n").playground
    snap = pg.snapshot()
    # CPython: SyntaxError 'invalid syntax' at line 3 (the file name is gradpad's, not the user's)
    assert snap["error"]["type"] == "SyntaxError" and snap["error"]["line"] == 3
    assert "<gradpad>" not in snap["error"]["message"] and "line 3" in snap["error"]["message"]
    assert "<gradpad>" not in texts(pg.panes["console"]) + snap["console"]
    assert snap["annotations"] == [{"row": 2, "column": 0, "type": "error",
                                    "text": "SyntaxError: invalid syntax (line 3)"}]
    pg.editor.value = CODE
    pg.run()
    assert pg.snapshot()["annotations"] == []  # fixed: the mark goes


def test_dark_system_theme_darkens_editor_and_plots(monkeypatch):
    monkeypatch.setattr(main, "system_prefers_dark", lambda: True)
    try:
        pg = main.create_app(code=CODE).playground
        assert pg.editor.theme == "tomorrow_night"
        plot = next(o for o in pg.panes["plot"].objects if isinstance(o, pn.pane.Bokeh))
        assert plot.object.background_fill_color not in ("#ffffff", "white")
    finally:
        monkeypatch.undo()
        pn.config.theme = "default"
    assert main.create_app(code=CODE).playground.editor.theme == "chrome"  # light systems: light


def test_problem_size_control_retimes_only_the_timing_pane():
    pg = main.create_app(code=CODE).playground
    jaxpr_before = pg.panes["jaxpr"].objects
    pg.size_select.value = 1000
    timing = pg.snapshot()["timing"]["cpu"]
    assert timing["scale"] == 1000 and timing["speedup"] > 0
    assert pg.panes["jaxpr"].objects == jaxpr_before
    assert "problem size ×1000" in texts(pg.panes["timing"])


def test_jacobian_axes_tick_whole_indices():
    pg = main.create_app(example="jacobians_and_hessian").playground
    fig = next(o for o in pg.panes["plot"].objects if isinstance(o, pn.pane.Bokeh)).object
    assert fig.xaxis[0].ticker.min_interval == 1 and fig.yaxis[0].ticker.min_interval == 1
