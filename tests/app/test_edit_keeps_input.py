"""An edit keeps the input an example or a link gave its function (app.main.Playground.apply_state):
the function's input, shown under Input, does not silently become a guess at the first edit."""
from __future__ import annotations

from app import main, share

CODE = """import jax.numpy as jnp

steps = jnp.arange(4.0)

def curve(step):
    return jnp.sin(step) * 2.0
"""  # curve is never called: without the link's input, the app guesses one


def test_an_edit_keeps_the_input_the_link_gave():
    pg = main.create_app(code="x = 1").playground
    pg.apply_state(share.ShareState(code=CODE, function="curve", args="steps"))
    assert pg.analysis.args_source == "steps" and pg.args_input.value == "steps"
    key = pg.cache.function_key(pg.analysis)
    pg.editor.value = CODE + 'print("edit")\n'
    pg.run()
    a = pg.analysis
    assert a.args_source == "steps" and pg.args_input.value == "steps" and a.args[0].shape == (4,)
    assert pg.cache.function_key(a) == key  # so the hidden tabs and the timings are reused
    assert a.timing.get("reused_from") is not None


def test_an_example_without_an_input_still_finds_its_own():
    pg = main.create_app(code=CODE + "curve(1.5)\n").playground
    pg.editor.value = CODE + "curve(2.5)\n"
    pg.run()
    assert pg.analysis.args_source == "2.5"  # the call in the edited code, not the loaded one
