"""The kernels card (each fused WebGPU kernel's WGSL beside its equations, chosen from a list or
by clicking the graph) and the dataflow graph's layered layout, under CPython (no GPU needed:
the WGSL comes from the compiler)."""
import panel as pn
import pytest

from app import analysis, examples, graph_layout, kernels, main
from app.panes import jaxpr as jaxpr_pane

CODE = """import jax.numpy as jnp

def f(x):
    y = jnp.sin(x) * 2.0
    return jnp.sum(y ** 2) + jnp.max(x)

f(jnp.ones(8))
"""


@pytest.fixture(scope="module")
def pg():
    return main.create_app(code=CODE).playground


def card_and_graph(pg):
    objs = pg.panes["jaxpr"].objects
    card = next(o for o in objs if isinstance(o, pn.Card) and "gp-kernels" in o.css_classes)
    graph = next(o for o in objs if "gp-graph" in o.css_classes).objects[0].object
    return card, graph


def test_each_kernel_shows_its_wgsl_and_equations(pg):
    jv = pg.analysis.jaxprs["f"]
    sources = kernels.kernel_sources(jv.closed, jv.kernels)
    assert [k.eqns for k in sources] == [tuple(k.eqns) for k in jv.kernels]
    for k in sources:
        if k.kind in ("elementwise", "reduction", "matmul"):
            assert "@compute" in k.wgsl and "fn main" in k.wgsl, k
    texts = kernels.equation_texts(jv.closed.jaxpr, jv.text)
    assert len(texts) == len(jv.closed.jaxpr.eqns) and texts[0].startswith("b:f32[8] = sin a")
    card, _ = card_and_graph(pg)
    select, body = card.objects[1], card.objects[2]
    assert select.value == 0 and "@compute" in body.object and "sin" in body.object
    here = "webgpu" in analysis.available_backends()  # lavapipe under CPython, a browser's adapter in the page
    assert ("WebGPU is available here" if here else "shown all the same") in card.objects[0].object


def test_clicking_a_node_shows_its_kernel(pg):
    card, graph = card_and_graph(pg)
    nodes = graph.renderers[-1].node_renderer.data_source
    groups = nodes.data["group"]
    last = max(g for g in groups if g is not None)
    nodes.selected.indices = [groups.index(last)]
    assert card.objects[1].value == last
    assert f"kernel {last}:" in card.objects[2].object


def test_kernel_colours_never_repeat():
    colours = [jaxpr_pane.kernel_colour(k) for k in range(60)]
    assert len(set(colours)) == 60


@pytest.mark.parametrize("name", ["mlp_sin", "linear_regression_pytree", "lax_control_flow"])
def test_layout_gives_every_node_its_own_slot(name):
    ex = examples.load(name)
    a = analysis.analyse(ex.code, ex.function, ex.args, with_vmap=False, with_timing=False)
    for view in ("f", "grad"):
        jv = a.jaxprs[view]
        if jv.error is not None:
            continue
        g = analysis.dataflow_graph(jv.closed.jaxpr)
        slots = [(n["x"], n["y"]) for n in g["nodes"]]
        assert len(set(slots)) == len(slots)
        # slots one layer (LAYER_PX) apart hold labels cut to LABEL_CHARS (10 px monospace ~6.1 px a char)
        assert all(len(graph_layout.short_label(n["label"])) <= graph_layout.LABEL_CHARS for n in g["nodes"])
        assert graph_layout.LABEL_CHARS * 6.1 < graph_layout.LAYER_PX - 8
        assert g["extent"]["layers"] == 1 + max(n["layer"] for n in g["nodes"])


def test_one_equation_is_singular():
    pg = main.create_app(code="import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x)\n\nf(1.0)\n").playground
    html = "".join(o.object for o in pg.panes["jaxpr"].objects if isinstance(getattr(o, "object", None), str))
    assert ">1 equation<" in html and "1 equations" not in html
