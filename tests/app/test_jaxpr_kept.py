"""Issue 14: an edit that changes f's jaxpr updates the jaxpr pane in place (the same graph
figure with new data, the same cards with new text), so the page gets new data for models it
already has instead of new models and a page-wide relayout (over a second of the page's main
thread in the page's profile of an f edit)."""
import panel as pn

from app import main

CODE = """import jax.numpy as jnp

def f(x):
    y = jnp.sin(x) * 2.0
    return jnp.sum(y ** 2) + jnp.max(x)

f(jnp.ones(8))
"""
# one more equation (a cos), and one kernel more or less: the graph's data and the cards must follow
EDITED = CODE.replace("jnp.sin(x) * 2.0", "jnp.cos(jnp.sin(x)) * 3.0")


def parts(pg):
    objs = pg.panes["jaxpr"].objects
    box = next(o for o in objs if "gp-graph" in o.css_classes)
    kernels = next(o for o in objs if isinstance(o, pn.Card) and "gp-kernels" in o.css_classes)
    return objs, box, box.objects[0].object, kernels


def test_a_new_jaxpr_redraws_the_same_figure_and_cards():
    pg = main.create_app(code=CODE).playground
    objs, box, fig, kcard = parts(pg)
    labels = list(fig.renderers[-1].node_renderer.data_source.data["label"])
    pg.editor.value = EDITED
    pg.run()
    objs2, box2, fig2, kcard2 = parts(pg)
    assert box2 is box and fig2 is fig and kcard2 is kcard
    assert [type(o) for o in objs2] == [type(o) for o in objs]
    new_labels = list(fig.renderers[-1].node_renderer.data_source.data["label"])
    assert new_labels != labels and any("cos" in label for label in new_labels)
    # the graph's ids, layout and label texts agree with each other (nothing left from the old graph)
    ids = fig.renderers[-1].node_renderer.data_source.data["index"]
    assert set(fig.renderers[-1].layout_provider.graph_layout) == set(ids)
    label_set = fig.center[-1]
    assert len(label_set.source.data["text"]) == len(ids)
    # the kernels card lists the new plan's kernels, and shows the first one
    jv = pg.analysis.jaxprs["f"]
    select, _body = kcard.objects[1], kcard.objects[2]
    assert list(select.options.values()) == list(range(len(jv.kernels)))
    assert select.value == 0 and str(len(jv.kernels)) in kcard.title
    # the jaxpr's text (an HTML pane whose text was swapped) is the new one
    assert any("gp-jaxpr" in o.object and "cos" in o.object for o in objs2 if isinstance(o, pn.pane.HTML))


def test_clicking_a_node_after_a_redraw_shows_the_new_graphs_kernel():
    pg = main.create_app(code=CODE).playground
    pg.editor.value = EDITED
    pg.run()
    _, _, fig, kcard = parts(pg)
    nodes = fig.renderers[-1].node_renderer.data_source
    groups = nodes.data["group"]
    last = max(g for g in groups if g is not None)
    nodes.selected.indices = [groups.index(last)]
    assert kcard.objects[1].value == last and f"kernel {last}:" in kcard.objects[2].object


def drawn(fig):
    """What a graph figure shows: title, frame, ranges (and the reset tool's), every source's columns."""
    graph = fig.renderers[-1]
    labels = [m for m in fig.center if type(m).__name__ == "HTMLLabelSet"][0]
    return (fig.title.text, fig.frame_width, fig.frame_height,
            [(r.start, r.end, r.reset_start, r.reset_end) for r in (fig.x_range, fig.y_range)],
            dict(graph.node_renderer.data_source.data), dict(graph.edge_renderer.data_source.data),
            dict(graph.layout_provider.graph_layout), dict(labels.source.data))


def test_a_redrawn_graph_shows_what_a_new_figure_of_the_new_jaxpr_shows():
    # the kept figure takes the new jaxpr's spec (no throwaway figure built): nothing of the old
    # graph may stay behind, a wider and taller one included
    from app import analysis
    from app.panes import jaxpr as jaxpr_pane

    small = analysis.analyse(CODE, function="f", views=("f",)).jaxprs["f"].closed.jaxpr
    big = analysis.analyse(EDITED, function="f", views=("f",)).jaxprs["f"].closed.jaxpr
    kept = jaxpr_pane.Kept()
    box = kept.graph(small, "f")
    fig = kept.fig
    assert kept.graph(big, "f, edited") is box and kept.fig is fig
    fresh = jaxpr_pane.graph_figure(big, "f, edited")
    fresh.x_range.reset_start, fresh.x_range.reset_end = fresh.x_range.start, fresh.x_range.end
    fresh.y_range.reset_start, fresh.y_range.reset_end = fresh.y_range.start, fresh.y_range.end
    assert drawn(fig) == drawn(fresh)
    assert drawn(fig) != drawn(jaxpr_pane.graph_figure(small, "f"))


def test_the_side_by_side_cards_body_is_its_own_pane_never_one_taken_back_from_the_column():
    """A pane rebuilt with new data takes back the column's HTML panes (text_html.reusing); the
    "f vs grad(f), side by side" card made in such a rebuild took the last run's error block as its
    body. Panel drops a pane's model when the column it was in lets it go: the card could keep an
    earlier program's text. Its body is its own pane, whatever the column showed before."""
    raising = "def h(x):\n    raise ValueError('MARK_raise')\n\nh(2.0)\n"
    pg = main.create_app(code=raising).playground
    before = {id(o) for o in pg.panes["jaxpr"].objects}
    assert any("MARK_raise" in getattr(o, "object", "") for o in pg.panes["jaxpr"].objects if isinstance(o, pn.pane.HTML))
    for code, mark in ((CODE, "sin"), (EDITED, "cos")):
        pg.load(code=code)
        card, body = pg.jaxpr_kept.diff_cards[pg.view_select.value]
        assert card in pg.panes["jaxpr"].objects and id(body) not in before
        assert mark in body.object and "MARK_raise" not in body.object
        before |= {id(o) for o in pg.panes["jaxpr"].objects}
