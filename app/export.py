"""Download the user's code as a `.py` script or a `.ipynb` notebook that run on real JAX.

The engine accepts names that current JAX removed (jax.tree_map, jax.tree_multimap), so the
exports prepend a small shim only when the code uses them."""
from __future__ import annotations

import ast
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
    """Cells at '# %%' markers; without markers, at top-level blocks: a new cell starts at each
    top-level def/class (with its decorators and the comment lines just above it), at the first
    statement after a definition, and at a top-level comment that follows a blank line. Code
    that does not parse stays one cell."""
    if CELL_MARK.search(code):
        parts = [p.strip("\n") for p in CELL_MARK.split(code)]
        return [p for p in parts if p.strip()] or [""]
    lines = code.splitlines()
    starts = sorted(set(_block_starts(code, lines)) - {0})
    cells = ["\n".join(lines[a:b]).strip("\n") for a, b in zip([0] + starts, starts + [len(lines)])]
    return [c for c in cells if c.strip()] or [""]


def _block_starts(code: str, lines: list[str]) -> list[int]:
    """0-based line numbers where a top-level block begins (see split_cells)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    inside = set()  # lines covered by a statement (a comment there belongs to it)
    starts = []
    after_def = False
    for node in tree.body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
        inside.update(range(first + 1, node.end_lineno))
        is_def = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        if is_def or after_def:  # a definition, and the code that follows definitions
            while first > 0 and lines[first - 1].startswith("#"):  # its comment comes along
                first -= 1
            starts.append(first)
        after_def = is_def
    starts += [i for i, line in enumerate(lines) if line.startswith("#") and i not in inside
               and i > 0 and not lines[i - 1].strip()]
    return starts


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
