"""tools/profile_edit.py: an edit's Python per pane, data apart from models, in this CPython."""
from __future__ import annotations

from tools import profile_edit


def test_an_f_edit_is_profiled_per_pane_with_its_data_apart():
    code = "import jax.numpy as jnp\ndef f(x):\n    return jnp.sin(x) * 2.0\nf(1.0)\n"
    assert "1.998" in profile_edit.edited_code(code, "f", "f")  # the bench's edit: a literal nudged
    assert profile_edit.edited_code(code, "f", "print").endswith('print("edit", 0)')
    r = profile_edit.profile_edit("jnp_basics_and_immutability", "f", top=5)
    assert {"plot", "vmap", "timing"} <= set(r["panes"]) and {"plot", "vmap"} <= set(r["pane_data"])
    assert all(r["pane_data"][p] <= r["panes"][p] + 1 for p in ("plot", "vmap"))
    assert r["phases"]["exec"] > 0 and "tottime" in r["profile"]


def test_the_page_mode_script_profiles_an_edit_in_the_running_app_and_counts_collections():
    # what `--page` runs in the page's worker, run here against a playground installed the same way
    import ast
    import json

    from app import main, page_api
    pg = main.create_app(example="jnp_basics_and_immutability").playground
    page_api.install(pg)
    try:
        code = profile_edit.edited_code(pg.editor.value, pg.analysis.function.name, "f", 1)
        tree = ast.parse(f"CODE = {code!r}\nTOP = 5\nSORT = 'cumulative'\n" + profile_edit.PAGE_PROFILE)
        last = ast.Expression(tree.body.pop().value)
        ns: dict = {}
        exec(compile(tree, "<page>", "exec"), ns)
        r = json.loads(eval(compile(last, "<page>", "eval"), ns))
    finally:
        page_api.install(None)
    assert pg.editor.value == code and r["run_ms"] > 0 and {"plot", "vmap", "timing"} <= set(r["panes"])
    assert "cumulative" in r["profile"] and r["tracked"] > 0
    assert all(g in (0, 1, 2) and ms >= 0 for g, ms in r["gc"])
    assert main.event_loop.__name__ == "event_loop"  # put back as it was (not the lambda it ran with)
