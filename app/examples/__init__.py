"""The examples gallery: every code path of the seed tutorials as a runnable example.

Each example is one `<name>.txt` file of plain Python (kept as text so the site's bytecode
precompiler leaves it readable) whose first comment lines are metadata:
`# title:`, `# about:`, `# function:` (the function the panes show), optionally `# args:`
(its input), `# panes:` and `# manual: f -> batched_f` (a hand-batched version of the
function, which the vmap pane times beside jax.vmap). The whole file, header included, is what the editor shows.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
META = re.compile(r"^# (title|about|function|args|panes|manual): (.*)$")
ORDER = [
    "jnp_basics_and_immutability", "grad_value_and_grad_has_aux", "jvp_and_vjp",
    "jacobians_and_hessian", "jit_selu_timing", "static_args_and_control_flow",
    "jaxpr_inspection", "vmap_in_axes", "vmap_batching_comparison", "random_keys_and_split",
    "pytrees", "lax_control_flow", "linear_regression_pytree", "mlp_sin", "pmap_data_parallel",
]


@dataclass(frozen=True)
class Example:
    name: str
    title: str
    about: str
    function: str | None
    args: str | None
    panes: tuple
    code: str


def _parse(name: str, code: str) -> Example:
    meta = {}
    for line in code.splitlines():
        m = META.match(line)
        if not m:
            break
        meta[m.group(1)] = m.group(2).strip()
    panes = tuple(p.strip() for p in meta.get("panes", "").split(",") if p.strip())
    return Example(name, meta.get("title", name.replace("_", " ")), meta.get("about", ""),
                   meta.get("function"), meta.get("args"), panes, code)


def names() -> list[str]:
    on_disk = {p.stem for p in HERE.glob("*.txt")}
    return [n for n in ORDER if n in on_disk] + sorted(on_disk - set(ORDER))


def load(name: str) -> Example:
    path = HERE / f"{name}.txt"
    if not re.fullmatch(r"[a-z0-9_]+", name) or not path.exists():
        raise KeyError(f"no example named {name!r}; examples: {', '.join(names())}")
    return _parse(name, path.read_text(encoding="utf-8"))


def all_examples() -> list[Example]:
    return [load(n) for n in names()]
