"""The Jaxpr pane's views (f, grad, jit, vmap, jvp as make_jaxpr shows them), their diff, and the
dataflow graph with WebGPU's kernels."""
from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass

import numpy as np

from .. import sandbox


# ------------------------------------------------------------------ jaxprs
def _jax():
    sandbox.install_jax()
    import jax
    return jax


def _batched(args, size=3):
    """Every argument stacked `size` times along a new leading axis (for the vmap view)."""
    jax = _jax()
    return jax.tree_util.tree_map(lambda a: jax.numpy.stack([jax.numpy.asarray(a)] * size), args)


def _ones_like_tree(args):
    jax = _jax()
    return jax.tree_util.tree_map(lambda a: jax.numpy.ones_like(jax.numpy.asarray(a)), args)


def _integers_only(arg) -> bool:
    """An int or bool argument (every leaf): lax.switch's index, a count, a flag."""
    leaves = _jax().tree_util.tree_leaves(arg)
    return bool(leaves) and all(np.asarray(leaf).dtype.kind in "iub" for leaf in leaves)


def transformed(view: str, fn, args, has_aux: bool = False):
    """(function, arguments) whose jaxpr the view shows. Views: f, grad, jit, vmap, jvp.
    `has_aux`: f returns (value, aux) and the code differentiates it so: grad(f, has_aux=True)."""
    jax = _jax()
    if view == "f":
        return fn, args
    if view == "grad":
        return jax.grad(fn, has_aux=has_aux), args
    if view == "jit":
        return jax.jit(fn), args
    if view == "vmap":
        return jax.vmap(fn), _batched(args)
    if view == "jvp":
        tangents = _ones_like_tree(args)
        return (lambda *primals: jax.jvp(fn, primals, tangents)), args
    raise ValueError(f"unknown view {view!r}")


VIEWS = ("f", "grad", "jit", "vmap", "jvp")
VIEW_CODE = {"f": "jax.make_jaxpr(f)({args})", "grad": "jax.make_jaxpr(jax.grad(f))({args})",
             "jit": "jax.make_jaxpr(jax.jit(f))({args})",
             "vmap": "jax.make_jaxpr(jax.vmap(f))(*batched)  # each argument stacked 3 times",
             "jvp": "t = jax.tree.map(jnp.ones_like, ({args},)); jax.make_jaxpr(lambda *p: jax.jvp(f, p, t))({args})"}
AUX_VIEW_CODE = {"grad": "jax.make_jaxpr(jax.grad(f, has_aux=True))({args})"}


def view_code(view: str, args_source: str, has_aux: bool = False) -> str:
    """The JAX call behind a jaxpr view, as the pane prints it."""
    return ((AUX_VIEW_CODE if has_aux else {}).get(view) or VIEW_CODE[view]).format(args=args_source)


@dataclass
class JaxprView:
    view: str
    text: str = ""
    eqn_count: int = 0
    closed: object = None            # the ClosedJaxpr (for the graph)
    error: sandbox.ErrorInfo | None = None
    out_tree: str = ""               # the output's tree structure (the Plots/vmap cache key reads it)

    # WebGPU's fused kernels (PlannedKernel; None if not plannable) and why there is no plan:
    # planned when first read. Every run traces the f and grad views, but only the view shown
    # draws its kernels (the plan of an MLP's grad costs ~10 ms in the page). Not a dataclass
    # field: the plan follows from `closed`, which the panes' fingerprints already cover.
    @property
    def kernels(self) -> list | None:
        return self._planned()[0]

    @property
    def kernels_note(self) -> str:
        return self._planned()[1]

    def _planned(self) -> tuple:
        plan = self.__dict__.get("_plan")
        if plan is None:
            plan = webgpu_kernels(self.closed) if self.closed is not None else (None, "")
            self.__dict__["_plan"] = plan
        return plan


def jaxpr_view(fn, args, view: str = "f", has_aux: bool = False) -> JaxprView:
    jax = _jax()

    def make():
        g, a = transformed(view, fn, args, has_aux)
        return jax.make_jaxpr(g, return_shape=True)(*a)

    made, err = sandbox.guarded_call(make, seconds=10.0)
    if err is not None:
        return JaxprView(view, error=_with_grad_hint(err, fn, args) if view == "grad" else err)
    closed, shapes = made
    return JaxprView(view, str(closed), count_eqns(closed.jaxpr), closed,
                     out_tree=str(jax.tree_util.tree_structure(shapes)))


def _with_grad_hint(err, fn, args):
    """grad(f)'s error, with has_aux=True named when f returns (scalar, aux), or the argnums of
    the first float argument when the first one is an integer."""
    if not err.hint and returns_value_and_aux(fn, args):
        return dataclasses.replace(err, hint=(
            "f returns a pair (a scalar, then more): if the rest is auxiliary data, jax.grad(f, has_aux=True) "
            "differentiates the scalar and returns the rest beside the gradient."))
    return _with_argnums_hint(err, args)


def returns_value_and_aux(fn, args) -> bool:
    """f(*args) is a pair whose first item is a float scalar: the (loss, aux) of has_aux=True."""
    out, err = sandbox.guarded_call(fn, *args, seconds=5.0)
    if err is not None or not isinstance(out, (tuple, list)) or len(out) != 2:
        return False
    first = np.asarray(out[0]) if np.ndim(out[0]) == 0 else None
    return first is not None and first.dtype.kind == "f"


def value_part(fn):
    """f's value without its aux: what the plots and grad's stages show for has_aux functions."""
    def value(*args):
        return fn(*args)[0]
    value.__name__ = getattr(fn, "__name__", "f")
    return value


def _with_argnums_hint(err, args):
    """grad(f) of an integer first argument (lax.switch's index): JAX's error, plus which
    argnums differentiates the first float argument instead."""
    floats = [i for i, a in enumerate(args) if not _integers_only(a)]
    if err.hint or not args or not _integers_only(args[0]) or not floats:
        return err
    return dataclasses.replace(err, hint=(
        f"f's first argument is an integer, which grad cannot differentiate: jax.grad(f, argnums={floats[0]}) "
        "differentiates the first float argument, with the integer one held at its value."))


def webgpu_kernels(closed) -> tuple:
    """(kernels, note): how the WebGPU backend would fuse this jaxpr. Pure planning, no GPU."""
    try:
        from core._engine.backends.webgpu import plan_kernels
        return plan_kernels(closed), ""
    except Exception as e:  # noqa: BLE001 - float64, an op the planner rejects: the graph stays plain
        return None, f"WebGPU cannot plan this jaxpr ({type(e).__name__}: {e})"


def kernel_groups(kernels) -> dict:
    """eqn index -> index of the first kernel that computes it."""
    groups: dict = {}
    for k, kernel in enumerate(kernels or []):
        for i in kernel.eqns:
            groups.setdefault(i, k)
    return groups


def count_eqns(jaxpr) -> int:
    """Top-level equations (what `len(jaxpr.eqns)` gives in JAX)."""
    return len(jaxpr.eqns)


def side_by_side(left: str, right: str) -> list[tuple[str, str, str]]:
    """Rows (tag, left line, right line) with tag in {'equal', 'replace', 'delete', 'insert'}."""
    a, b = left.splitlines(), right.splitlines()
    rows = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        la, lb = a[i1:i2], b[j1:j2]
        for k in range(max(len(la), len(lb))):
            rows.append((tag, la[k] if k < len(la) else "", lb[k] if k < len(lb) else ""))
    return rows


# ------------------------------------------------------------------ dataflow graph
def dataflow_graph(jaxpr, kernels=None) -> dict:
    """Nodes (inputs, equations, outputs) and edges of a jaxpr, laid out in layers by depth.

    Returns {"nodes": [{id, label, kind, layer, x, y, group}], "edges": [(src, dst)], "extent":
    {layers, rows}} (x, y from graph_layout.layered).
    `group` is the index of the fused kernel computing an equation, given `kernels` (from
    `plan_kernels`); None for inputs, outputs and without kernels."""
    groups = kernel_groups(kernels)
    nodes, edges = [], []
    producer = {}
    depth = {}
    for i, v in enumerate(jaxpr.invars):
        nid = f"in{i}"
        nodes.append({"id": nid, "label": f"{_short_aval(v)}", "kind": "input", "layer": 0})
        producer[id(v)] = nid
        depth[nid] = 0
    for i, v in enumerate(getattr(jaxpr, "constvars", [])):
        nid = f"const{i}"
        nodes.append({"id": nid, "label": f"const {_short_aval(v)}", "kind": "const", "layer": 0})
        producer[id(v)] = nid
        depth[nid] = 0
    for i, eqn in enumerate(jaxpr.eqns):
        nid = f"eqn{i}"
        srcs = [producer[id(v)] for v in eqn.invars if id(v) in producer]
        layer = 1 + max((depth[s] for s in srcs), default=0)
        depth[nid] = layer
        nodes.append({"id": nid, "label": eqn.primitive.name, "kind": "eqn", "layer": layer,
                      "group": groups.get(i)})
        edges.extend((s, nid) for s in dict.fromkeys(srcs))
        for v in eqn.outvars:
            producer[id(v)] = nid
    last = 1 + max(depth.values(), default=0)
    for i, v in enumerate(jaxpr.outvars):
        nid = f"out{i}"
        nodes.append({"id": nid, "label": f"out {_short_aval(v)}", "kind": "output", "layer": last})
        if id(v) in producer:
            edges.append((producer[id(v)], nid))
    from ..graph_layout import layered
    for n in nodes:
        n.setdefault("group", None)
    extent = layered(nodes, edges)
    return {"nodes": nodes, "edges": edges, "extent": extent}


def _short_aval(v) -> str:
    aval = getattr(v, "aval", None)
    return aval.str_short() if hasattr(aval, "str_short") else str(aval)
