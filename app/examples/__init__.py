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
# The lesson path, in order: (example, chapter, what to notice when it runs).
LESSONS = [
    ("jnp_basics_and_immutability", "arrays", "x.at[i].set(v) returns a new array; the original is unchanged."),
    ("grad_value_and_grad_has_aux", "grad", "grad(f) is a new function: its jaxpr (Jaxpr pane, grad) is f's plus a backward pass."),
    ("jvp_and_vjp", "grad", "jvp pushes a tangent forward, vjp pulls a cotangent back: grad is vjp with a cotangent of 1."),
    ("jacobians_and_hessian", "grad", "jacfwd and jacrev give the same matrix; which is cheaper depends on the shape."),
    ("custom_jvp_check", "grad", "A wrong custom_jvp rule still runs: the Plots pane's finite differences catch it."),
    ("jit_selu_timing", "jit", "The first jit call traces and compiles; later calls skip Python (Timing pane)."),
    ("static_args_and_control_flow", "jit", "A Python `if` on a traced value fails under jit; lax.cond traces both branches."),
    ("jaxpr_inspection", "jit", "print() runs only while tracing, and a global's value is baked into the jaxpr."),
    ("vmap_in_axes", "vmap", "in_axes says which axis of each argument is the batch; None means shared."),
    ("vmap_batching_comparison", "vmap", "vmap turns the per-example matvec into one matmul: compare it with the loop."),
    ("random_keys_and_split", "random", "The same key always gives the same numbers: split it for new ones."),
    ("pytrees", "pytrees", "grad of a function of a dict returns a dict of the same shape."),
    ("linear_regression_pytree", "pytrees", "One SGD step is a tree_map over params and their gradients."),
    ("mlp_sin", "pytrees", "The whole training step is one jit(grad) of the loss over a list of dicts."),
    ("lax_control_flow", "lax", "scan and fori_loop trace the loop body once: the jaxpr stays small for any length."),
    ("pmap_data_parallel", "pmap", "pmean averages the gradients across devices, so every copy takes the same step."),
    ("flax_nnx_mlp_sin", "libraries", "Flax and optax run unchanged on this jax: nnx.jit traces the whole training step once."),
    ("equinox_fit", "libraries", "An equinox model is a pytree: filter_jit and filter_value_and_grad act on its array leaves."),
    ("diffrax_damped_spring", "libraries", "jax.grad goes through the whole adaptive ODE solve: dx(6)/dc matches its finite difference."),
    ("numpyro_bayesian_regression", "libraries", "NUTS draws come from jax.random keys: the same key gives the same posterior, draw for draw."),
]
ORDER = [name for name, _, _ in LESSONS]
NOTICE = {name: notice for name, _, notice in LESSONS}
CHAPTER = {name: chapter for name, chapter, _ in LESSONS}


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


def neighbours(name: str | None) -> tuple:
    """(previous, next) example on the lesson path; None at either end or for code that is no example."""
    order = names()
    if name not in order:
        return None, (order[0] if order else None)
    i = order.index(name)
    return (order[i - 1] if i > 0 else None), (order[i + 1] if i + 1 < len(order) else None)


def search(query: str) -> list[str]:
    """Examples whose title, about, chapter, note or code contain every word of the query (any case)."""
    words = query.lower().split()
    found = []
    for ex in all_examples():
        hay = " ".join((ex.name, ex.title, ex.about, CHAPTER.get(ex.name, ""), NOTICE.get(ex.name, ""), ex.code)).lower()
        if all(w in hay for w in words):
            found.append(ex.name)
    return found
