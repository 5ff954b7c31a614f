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
