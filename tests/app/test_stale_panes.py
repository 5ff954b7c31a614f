"""No stale pane (issue 26): after each run every pane shows that run's result or a message
naming what went wrong, never an earlier program's output. Without a browser: the app object
under CPython, its panes' text read from their HTML objects."""
import pytest

import panel as pn

from app import main, pane_updates
from app.panes import plots as plots_pane

SIN = "import jax.numpy as jnp\n\ndef f(x):\n    return jnp.sin(x) * 2.0\n\nprint('MARK_sin', f(0.5))\n"
ZERO = "import jax.numpy as jnp\nv = jnp.arange(3.0)\ndef g(x):\n    return x\n\nprint('MARK_zero', g(v[0]))\n"


def texts(column) -> str:
    out = []
    for obj in column.objects:
        if isinstance(obj, (pn.Card, pn.Column, pn.Row)):
            out.append(texts(obj))
        elif hasattr(obj, "object") and isinstance(obj.object, str):
            out.append(obj.object)
    return "\n".join(out)


@pytest.fixture
def pg():
    return main.create_app(code=SIN).playground


def test_zero_equation_function_after_one_with_kernels(pg):
    assert "sin" in pg.snapshot()["jaxpr"]
    snap = pg.load(code=ZERO)
    assert snap["jaxpr"] == "{ lambda ; a:f32[]. let  in (a,) }"
    assert "MARK_zero" in snap["console"] and snap["failed_panes"] == []
    for name, column in pg.panes.items():
        assert "MARK_sin" not in texts(column) and ">sin<" not in texts(column), name


def test_kernel_card_with_no_kernel_chosen_shows_none():
    """The page's Select picks no value when its options empty (a jaxpr with no kernels): the
    card's watcher is called with None (it raised TypeError: '<=' ... NoneType)."""
    pg = main.create_app(code=SIN).playground
    card = pg.jaxpr_kept.kernels
    assert card is not None and card.body.object
    card.select.value = None
    assert card.body.object == ""


def test_a_failing_pane_builder_shows_its_error_and_the_others_the_new_run(pg, monkeypatch):
    def broken(a, kept=None):
        raise RuntimeError("plots builder broke")
    monkeypatch.setattr(plots_pane, "render", broken)
    pg.tabs.active = list(pg.embed.panes).index("plot")  # the Plots tab in view: drawn in the run itself
    snap = pg.load(code=ZERO)
    plot = texts(pg.panes["plot"])
    assert "could not be drawn" in plot and "RuntimeError: plots builder broke" in plot
    assert "J = jax" not in plot and "xs = jnp.linspace" not in plot  # nothing of the last run's plots
    assert snap["failed_panes"] == ["plot"]
    assert "MARK_zero" in texts(pg.panes["console"]) and "MARK_sin" not in texts(pg.panes["console"])
    assert "let  in (a,)" in texts(pg.panes["jaxpr"]) or pg.snapshot()["jaxpr"].endswith("in (a,) }")
    monkeypatch.undo()
    snap = pg.load(code=SIN)  # the builder works again: the pane is built afresh
    assert snap["failed_panes"] == [] and "could not be drawn" not in texts(pg.panes["plot"])


def test_a_failing_slow_pane_says_so_instead_of_computing_forever(pg, monkeypatch):
    from app import analysis
    pg.tabs.active = list(pg.embed.panes).index("console")  # Plots hidden: filled after the others

    def broken(a):
        raise ValueError("sampling broke")
    monkeypatch.setattr(analysis, "add_plot", broken)
    pg.load(code=ZERO)
    plot = texts(pg.panes["plot"])
    assert "ValueError: sampling broke" in plot and "computing this tab" not in plot
    assert pg.panes["plot"].styles.get("visibility") != "hidden"


def test_failure_message_is_a_pane_of_its_own():
    msg = pane_updates.failure_message(KeyError("x"))
    assert pane_updates.FAILED_CLASS in msg.css_classes and "KeyError" in msg.object


# a function the code calls only through jax.vjp with *args: the panes guess 1.0 for it
VJP_TUTORIAL = """import jax, jax.numpy as jnp
def f(x):
    return jnp.array([x[0] ** 2, x[0] * x[1]])
primals = (jnp.array([1.0, 2.0]),)
y, vjp_fn = jax.vjp(f, *primals)
print(vjp_fn(jnp.ones(2)))
"""


def test_an_error_on_a_guessed_input_says_so_and_how_to_give_one():
    pg = main.create_app(code=VJP_TUTORIAL).playground
    snap = pg.snapshot()
    assert snap["function"] == "f" and snap["args_guessed"] is True and snap["error"] is None
    assert "guessed input" in pg.status.object and "guessed" in pg.args_input.name
    for name in ("jaxpr", "vmap", "timing"):
        text = texts(pg.panes[name])
        assert "IndexError" in text and "(on the guessed input 1.0)" in text, name
        assert "write a call such as f(x)" in text and "under Input" in text, name
    assert "guessed input 1.0" in texts(pg.panes["jaxpr"])  # the badge, error or not
    # the learner gives the real input: the panes fill, and nothing says "guessed" any more
    pg.args_input.value = "jnp.array([1.0, 2.0])"
    snap = pg.snapshot()
    assert snap["args_guessed"] is False and snap["failed_panes"] == []
    assert snap["jaxpr"].startswith("{ lambda ; a:f32[2]. let")
    assert "guessed" not in pg.status.object and "guessed" not in pg.args_input.name
    for name, column in pg.panes.items():
        assert "guessed" not in texts(column), name


def test_switching_function_uses_its_own_input_not_the_last_ones():
    code = ("import jax.numpy as jnp\ndef g(x):\n    return jnp.sum(x ** 2)\ndef h(a, b):\n    return a * b\n"
            "print(g(jnp.ones(3)))\n")
    pg = main.create_app(code=code).playground
    assert pg.snapshot()["function"] == "g" and pg.args_input.value == "jnp.ones(3)"
    pg.function_select.value = "h"
    snap = pg.snapshot()
    assert snap["function"] == "h" and pg.args_input.value == "1.0, 1.0" and snap["args_guessed"] is True
