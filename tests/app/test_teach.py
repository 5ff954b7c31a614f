"""Teaching views: how grad(f) and vmap(f) are built (stages), and the gallery as a lesson path."""

import pytest

import panel as pn

from app import analysis, examples, main, stages
from app.panes import jaxpr as jaxpr_pane

jax = __import__("app.sandbox", fromlist=["install_jax"]).install_jax() or __import__("jax")
jnp = jax.numpy

CODE = "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sum(jnp.sin(x) * x)\n\nf(jnp.ones(3))\n"


def html_of(objs) -> str:
    out = []
    for obj in objs:
        if isinstance(obj, (pn.Card, pn.Column, pn.Row)):
            out.append(html_of(obj.objects))
        elif isinstance(getattr(obj, "object", None), str):
            out.append(obj.object)
    return "\n".join(out)


@pytest.fixture(scope="module")
def sin_x():
    return analysis.analyse(CODE, "f", "jnp.ones(3)", with_vmap=False, with_timing=False)


def test_grad_stages_are_the_public_api_jaxprs(sin_x):
    fn, x = sin_x.function.fn, jnp.ones(3)
    by_name = {s.name: s for s in sin_x.stages}
    # jax.make_jaxpr(lambda p, t: jax.jvp(f, (p,), (t,)))(x, ones)
    assert by_name["jvp"].text == str(jax.make_jaxpr(lambda p, t: jax.jvp(fn, (p,), (t,)))(x, jnp.ones(3)))
    _, f_lin = jax.linearize(fn, x)
    lin = jax.make_jaxpr(f_lin)(jnp.ones(3))
    assert by_name["linearized"].text == str(lin)
    _, f_vjp = jax.vjp(fn, x)
    assert by_name["transposed"].text == str(jax.make_jaxpr(f_vjp)(jnp.float32(1.0)))
    # real JAX 0.10.2 prints the linearized jaxpr of sum(sin(x)*x) as
    # `{ lambda a:f32[3] b:f32[3] c:f32[3]; d:f32[3]. let ...`: three residuals (x, cos x, sin x)
    assert len(lin.jaxpr.constvars) == 3 and by_name["linearized"].residuals == ("a", "b", "c")
    assert by_name["linearized"].eqn_count == len(lin.jaxpr.eqns) == 5


def test_residuals_are_marked_in_the_grad_view(sin_x):
    text = html_of(jaxpr_pane.render(sin_x, "grad"))
    assert text.count('class="gp-jv gp-res"') >= 3
    card = [o for o in jaxpr_pane.render(sin_x, "grad") if isinstance(o, pn.Card) and "grad is built" in o.title]
    assert card, "the grad view has a 'How grad is built' card"
    for sentence in stages.STAGE_NOTES.values():
        if "vmap" not in sentence:
            assert sentence in html_of(card)


def test_batched_stage_marks_each_values_batch_axis():
    code = "import jax.numpy as jnp\n\ndef f(x, w):\n    return jnp.tanh(x @ w)\n"
    a = analysis.analyse(code, "f", "jnp.ones(2), jnp.ones((2, 4))", with_vmap=False, with_timing=False)
    batched = a.stages[-1]
    size = stages.batch_size_for(a.jaxprs["f"].text)
    assert size not in (2, 4)  # no dimension of f's own values, so the batch axis is unambiguous
    # jax.vmap(f)(xs: f32[B,2], ws: f32[B,2,4]) -> f32[B,4]: every value is batched along axis 0
    assert set(batched.batch_axes.values()) == {0}
    html = html_of(jaxpr_pane.render(a, "vmap"))
    assert "# a: axis 0" in html


def test_unbatched_values_are_called_unbatched():
    # jnp.ones inside f does not depend on the input: vmap leaves it without a batch axis
    assert stages.batch_axes("{ lambda ; a:f32[5,3]. let b:f32[3] = broadcast_in_dim 1.0:f32[] in (b,) }", 5) \
        == {"a": 0, "b": None}


def test_a_stage_that_cannot_be_built_says_why():
    code = "import jax.numpy as jnp\n\ndef f(n):\n    return n * 2\n"
    a = analysis.analyse(code, "f", "3", with_vmap=False, with_timing=False)
    grad_part = [s for s in a.stages if s.name in stages.GRAD_STAGES]
    # jax.grad(f)(3) raises TypeError: grad requires real- or complex-valued inputs ... but got int32
    assert all(s.eqn_count is None and "int" in s.note and "first argument" in s.note for s in grad_part)
    assert 'class="gp-err"' not in html_of(jaxpr_pane.render(a, "grad"))
    assert "no float tangent" in html_of([jaxpr_pane.stages_card(a.stages, "grad")])


@pytest.mark.parametrize("name", examples.names())
def test_every_example_shows_stages_and_never_an_error_box(name, request):
    if any(lib in examples.load(name).code for lib in ("import flax", "import equinox", "import optax")):
        request.getfixturevalue("ecosystem_importable")
    if any(lib in examples.load(name).code for lib in ("import numpyro", "import diffrax", "import blackjax")):
        request.getfixturevalue("ring2_importable")
    ex = examples.load(name)
    a = analysis.analyse(ex.code, ex.function, ex.args, with_vmap=False, with_timing=False)
    counts = {s.name: s.eqn_count for s in a.stages}
    assert set(counts) == {"jvp", "linearized", "transposed", "batched"}
    for s in a.stages:
        assert s.note, (name, s.name)
    for view in ("grad", "vmap"):
        text = html_of(jaxpr_pane.render(a, view))
        assert 'class="gp-err"' not in text and "Traceback" not in text, (name, view)


def test_snapshot_reports_grad_stages_and_the_lesson():
    app = main.create_app(example="jvp_and_vjp")
    pg = app.playground
    snap = pg.snapshot()
    assert snap["grad_stages"] == {s.name: s.eqn_count for s in pg.analysis.stages}
    assert all(isinstance(n, int) and n > 0 for n in snap["grad_stages"].values())
    assert snap["lesson"]["index"] == 3 and snap["lesson"]["chapter"] == "grad"
    assert snap["lesson"]["prev"] == "grad_value_and_grad_has_aux"
    pg.next_button.clicks += 1
    assert pg.snapshot()["example"] == "jacobians_and_hessian"
    pg.prev_button.clicks += 1
    pg.prev_button.clicks += 1
    assert pg.snapshot()["example"] == "grad_value_and_grad_has_aux"


def test_lesson_path_order_and_ends():
    chapters = [examples.CHAPTER[n] for n in examples.names()]
    path = list(dict.fromkeys(chapters))
    assert path == ["arrays", "grad", "jit", "vmap", "random", "pytrees", "lax", "pmap", "libraries"]
    assert chapters == sorted(chapters, key=path.index)  # each chapter's examples are together
    assert all(examples.NOTICE[n] for n in examples.names())
    assert examples.neighbours(examples.names()[0])[0] is None
    assert examples.neighbours(examples.names()[-1])[1] is None
    app = main.create_app(example=examples.names()[-1])
    assert app.playground.next_button.disabled and not app.playground.prev_button.disabled


def test_search_filters_the_example_list_and_keeps_links_working(monkeypatch):
    app = main.create_app(example="mlp_sin")
    pg = app.playground
    pg.search_input.value_input = "scan"
    assert pg.snapshot()["search"] == ["lax_control_flow"]
    shown = set(pg.example_select.options.values()) - {""}
    assert shown == {"lax_control_flow", "mlp_sin"}  # the loaded example stays listed
    assert pg.example_select.value == "mlp_sin"
    pg.search_input.value_input = "no such words here"
    assert pg.snapshot()["search"] == []
    pg.search_input.value_input = ""
    assert len(pg.example_select.options) == len(examples.names()) + 1
    monkeypatch.setattr(main.env, "location_hash", lambda: "#example=pytrees")
    assert main.create_app().playground.snapshot()["lesson"]["chapter"] == "pytrees"
