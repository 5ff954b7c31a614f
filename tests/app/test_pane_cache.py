"""The Plots and vmap tabs reuse their data when an edit leaves the analysed function as it was
(app.pane_cache), and recompute it for every change that could change what they show."""
from __future__ import annotations

import numpy as np
import pytest

from app import main, pane_cache

CODE = """import jax.numpy as jnp

A = 2.0

def helper(x):
    return jnp.sin(x)

def f(x):
    return helper(x) * A
f(1.5)
"""


def plotted(pg):
    """(x, f(x)) of the Plots tab's scalar curve."""
    plot = pg.analysis.plot
    return np.asarray(plot["x"]), np.asarray(plot["f"])


def edited(pg, code):
    pg.editor.value = code
    pg.run()  # no event loop here: the hidden tabs are filled in before run() returns
    assert pg.pending == []
    return pg.analysis


@pytest.fixture
def pg():
    return main.create_app(code=CODE).playground


def test_an_edit_that_leaves_f_as_it_was_reuses_the_plots_and_vmap_data(pg):
    plot, vmap = pg.analysis.plot, pg.analysis.vmap
    assert plot and vmap and "run" not in vmap["jit(vmap)"]  # measured
    a = edited(pg, "# a comment above\n" + CODE + 'print("edit")\n')  # f's lines move: same f
    assert a.plot is plot and a.vmap is vmap and pg.cache.hits >= 2
    assert "edit" in pg.snapshot()["console"]


@pytest.mark.parametrize("change", [
    ("jnp.sin(x)", "jnp.cos(x)"),          # the helper f calls (f's own bytecode is the same)
    ("A = 2.0", "A = 3.0"),                # a global f reads: a literal in its jaxpr
    ("helper(x) * A", "helper(x) * A + 0.0"),  # f itself
])
def test_an_edit_that_changes_what_f_computes_recomputes_them(pg, change):
    plot, vmap = pg.analysis.plot, pg.analysis.vmap
    a = edited(pg, CODE.replace(*change))
    assert a.plot is not plot and a.vmap is not vmap
    x, y = plotted(pg)
    scale = 3.0 if "3.0" in change[1] else 2.0
    expected = (np.cos(x) if "cos" in change[1] else np.sin(x)) * scale
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_another_input_recomputes_them(pg):
    plot = pg.analysis.plot
    edited(pg, CODE.replace("f(1.5)", "f(0.5)"))
    assert pg.analysis.plot is not plot
    x, _ = plotted(pg)
    assert x.min() == pytest.approx(0.5 - 3.0)  # the curve is centred on the new input


def test_new_values_under_the_same_input_text_recompute_them():
    # `x0` changed above `f(x0)`: the input's text, shapes and f's jaxpr are the same, its values
    # are not, and the plot is drawn around them (reused, it showed the old input's neighbourhood)
    code = "import jax.numpy as jnp\nx0 = jnp.array([1.5, 2.0])\ndef f(x):\n    return jnp.sum(jnp.sin(x))\nf(x0)\n"
    pg = main.create_app(code=code).playground
    plot = pg.analysis.plot
    a = edited(pg, code.replace("[1.5, 2.0]", "[0.1, 5.0]"))
    assert a.args_source == "x0" and a.plot is not plot
    assert float(np.asarray(a.plot["x"]).min()) == pytest.approx(0.1 - 2.0)  # around the new x0[0]
    assert float(np.asarray(plot["x"]).min()) == pytest.approx(1.5 - 2.0)


def test_a_function_that_does_not_trace_is_never_reused():
    code = """def f(x):
    if x > 0:          # Python control flow on a value: no jaxpr, no key
        return x * 2.0
    return -x
f(1.0)
"""
    pg = main.create_app(code=code).playground
    assert pg.cache.function_key(pg.analysis) is None
    plot = pg.analysis.plot
    a = edited(pg, code + "print(1)\n")
    assert a.plot is not plot and a.plot["method"] == "loop"


def test_numpy_randomness_inside_f_makes_a_new_key_each_run():
    # np.random runs while tracing: its draw is a constant of the jaxpr, new at each run
    code = "import numpy as np\nimport jax.numpy as jnp\ndef f(x):\n    return x * jnp.asarray(np.random.rand())\nf(1.0)\n"
    pg = main.create_app(code=code).playground
    first = pg.cache.function_key(pg.analysis)
    a = edited(pg, code + "print(1)\n")
    assert first is not None and pg.cache.function_key(a) not in (None, first)


def test_errors_are_not_cached():
    from app.sandbox import ErrorInfo
    assert pane_cache.has_error({"vmap": {"error": ErrorInfo("TypeError", "no")}})
    assert not pane_cache.has_error({"vmap": {"error": None, "value": np.zeros(2)}})
    cache = pane_cache.PaneCache()
    cache.put("vmap", b"k", {"manual": {"error": None}})
    cache.entries["vmap"][b"k"]["manual"]["error"] = ErrorInfo("TypeError", "later")  # a time that failed
    assert cache.get("vmap", b"k") is None and b"k" not in cache.entries["vmap"]


def test_the_cache_keeps_the_newest_entries():
    cache = pane_cache.PaneCache()
    for k in range(pane_cache.MAX_ENTRIES + 3):
        cache.put("plot", k, ("scalar", {"k": k}))
    assert len(cache.entries["plot"]) == pane_cache.MAX_ENTRIES
    assert cache.get("plot", 0) is None and cache.get("plot", pane_cache.MAX_ENTRIES + 2)[1]["k"] == pane_cache.MAX_ENTRIES + 2
