"""Download the user's code as a `.py` script or a `.ipynb` notebook that run on real JAX.

The engine accepts names that current JAX removed (jax.tree_map, jax.tree_multimap), so the
exports prepend a small shim only when the code uses them."""
from __future__ import annotations

import json
import re

HEADER = "# Exported from gradpad. Runs on JAX (pip install jax).\n"
REMOVED_NAMES = {
    "tree_map": "jax.tree_util.tree_map",
    "tree_multimap": "jax.tree_util.tree_map",
    "tree_leaves": "jax.tree_util.tree_leaves",
    "tree_flatten": "jax.tree_util.tree_flatten",
    "tree_unflatten": "jax.tree_util.tree_unflatten",
}
CELL_MARK = re.compile(r"^# %%.*$", re.M)


def compat_shim(code: str) -> str:
    """Lines that restore jax.tree_map & co. on current JAX, for the names the code uses."""
    used = [n for n in REMOVED_NAMES if re.search(rf"\bjax\.{n}\b", code)]
    if not used:
        return ""
    lines = ["import jax  # names removed from current JAX that this code uses:"]
    lines += [f"if not hasattr(jax, {n!r}): jax.{n} = {REMOVED_NAMES[n]}" for n in used]
    return "\n".join(lines) + "\n\n"


def to_py(code: str) -> str:
    body = code if code.endswith("\n") else code + "\n"
    return HEADER + compat_shim(code) + body


def split_cells(code: str) -> list[str]:
    """Cells at '# %%' markers; without markers, at blank-line-separated top-level blocks
    would split functions from their calls, so the whole code is one cell."""
    parts = [p.strip("\n") for p in CELL_MARK.split(code)]
    return [p for p in parts if p.strip()] or [""]


def to_ipynb(code: str, title: str = "gradpad") -> str:
    def cell(kind, text):
        c = {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True)}
        if kind == "code":
            c.update(execution_count=None, outputs=[])
        return c

    cells = [cell("markdown", f"# {title}\nExported from gradpad; runs on JAX (`pip install jax`).")]
    shim = compat_shim(code)
    if shim:
        cells.append(cell("code", shim.rstrip("\n")))
    cells += [cell("code", c) for c in split_cells(code)]
    for i, c in enumerate(cells):  # nbformat 4.5 wants an id on every cell
        c["id"] = f"cell-{i}"
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                      "name": "python3"},
                                       "language_info": {"name": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"
