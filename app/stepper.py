"""Step through a jaxpr with its values: the jaxpr the Jaxpr pane shows, evaluated once by the
engine's own interpreter (`core._engine.transforms.staging.eval_jaxpr`, which reports each equation's
input and output values), recorded as a list of steps the page then walks by lookup alone.

A control-flow equation is stepped into: a scan's body once per iteration, a while loop's test
and body per iteration, the branch a cond took, a jit's (or another call's) inner jaxpr; its own
step, with the results the interpreter gave it, follows. Every value is kept as a summary (shape,
dtype, a few entries, a sparkline or heat map); whole arrays only while they fit a budget.

Plain data, no Panel: app/panes/stepper.py renders the start button, static/stepper.js the
stepper itself; app/page_api.py's "stepper" call returns `trace(...).to_json()`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import sandbox

HEAD = 6                 # entries shown of an array
SPARK = 48               # points of a vector's sparkline (evenly spaced entries)
GRID = 12                # a matrix's heat map: at most GRID x GRID cells (strided)
MAX_ITERATIONS = 64      # loop iterations stepped into (the loop's result step follows anyway)
MAX_STEPS = 5_000        # steps recorded in all (a few seconds in the page; later ones not stepped into)
KEEP_BYTES = 8 << 20     # whole arrays kept (tests compare them) until this many bytes
BODY_GRAPH_EQNS = 150    # a loop body's (or call's) dataflow graph is sent up to this many equations


@dataclass
class Value:
    """One variable's value as the stepper shows it."""
    name: str
    type: str                        # f32[3,4]
    text: str                        # a scalar in full, or 'shape · first entries …'
    head: list                       # the first entries (flattened), as floats/ints/bools
    sample: list                     # entries evenly spaced over the flattened array (sparkline)
    grid: list | None = None         # rows of a 2-D array's heat map (strided), or None
    stats: dict = field(default_factory=dict)   # min / max / mean of a numeric array
    full: np.ndarray | None = None   # the whole array, while the budget lasts (not sent to the page)

    def to_json(self) -> dict:
        out = {"name": self.name, "type": self.type, "text": self.text, "head": self.head,
               "sample": self.sample, "stats": self.stats}
        if self.grid is not None:
            out["grid"] = self.grid
        return out


@dataclass
class Step:
    """One equation evaluated: where it sits, its text, its inputs' and outputs' values."""
    depth: int                       # 0: the jaxpr shown; 1: inside a loop body or call...
    top: int                         # the index of the top-level equation it belongs to
    eqn: int                         # its index in its own jaxpr
    primitive: str
    text: str                        # the equation as printed (names as in the pane's jaxpr)
    where: str                       # '' or 'scan iteration 2', 'while iteration 0 · test', 'cond: branch 1'
    src: int | None                  # the line of the user's code it came from
    backward: bool                   # grad's backward pass: its outputs are cotangents
    tangent: bool                    # jvp: computes tangents only (no primal output needs it)
    ins: list                        # Value per input (literals included)
    outs: list                       # Value per output
    body: int | None = None          # depth > 0: the index of its body in Trace.bodies (its graph)

    def to_json(self, ref) -> dict:
        """`ref(value)`: its index in the trace's table of values (an input is an earlier output)."""
        return {"depth": self.depth, "top": self.top, "eqn": self.eqn, "primitive": self.primitive,
                "text": self.text, "where": self.where, "src": self.src, "backward": self.backward,
                "tangent": self.tangent, "body": self.body,
                "ins": [ref(v) for v in self.ins], "outs": [ref(v) for v in self.outs]}


@dataclass
class Trace:
    view: str
    steps: list
    inputs: list                     # Value per jaxpr input
    outputs: list                    # Value per jaxpr output
    notes: list                      # what was not stepped into, and why
    backward_from: int | None        # the first backward step (grad)
    seconds: float = 0.0
    bodies: list = field(default_factory=list)  # body_graph() per nested jaxpr stepped into

    def to_json(self) -> dict:
        """What the page receives once: steps refer to a table of values (each value sent once)."""
        table, index = [], {}

        def ref(v: Value) -> int:
            i = index.get(id(v))
            if i is None:
                i = index[id(v)] = len(table)
                table.append(v.to_json())
            return i

        steps = [s.to_json(ref) for s in self.steps]
        return {"view": self.view, "steps": steps, "values": table,
                "inputs": [ref(v) for v in self.inputs], "outputs": [ref(v) for v in self.outputs],
                "notes": self.notes, "backward_from": self.backward_from, "ms": round(self.seconds * 1e3, 1),
                "bodies": self.bodies}


# ------------------------------------------------------------------ values
def _num(x):
    """A JSON-safe number: non-finite floats as strings ('nan', 'inf', '-inf')."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    if math.isfinite(x):
        return float(f"{x:.7g}")
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")


def _nums(a) -> list:
    """_num of every entry, vectorized (thousands per jaxpr): floats to 7 significant digits."""
    a = np.asarray(a)
    if a.dtype.kind in "biu":
        return a.tolist()
    x = a.astype(np.float64)
    finite = np.isfinite(x)
    with np.errstate(all="ignore"):
        scale = np.where(finite & (x != 0), 10.0 ** (6 - np.floor(np.log10(np.abs(np.where(finite & (x != 0), x, 1.0))))), 1.0)
        rounded = np.where(finite, np.round(x * scale) / scale, 0.0).tolist()
    if finite.all():
        return rounded
    return [r if f else ("nan" if np.isnan(v) else "inf" if v > 0 else "-inf")
            for r, f, v in zip(rounded, finite.tolist(), x.tolist())]


def _plain(a: np.ndarray) -> np.ndarray:
    """Numbers the summaries can compute with: bools and ints stay, complex shows its real part,
    bfloat16-like and other float types become float64."""
    if a.dtype.kind in "biu":
        return a
    if a.dtype.kind == "c":
        return a.real.astype(np.float64)
    try:
        return a.astype(np.float64)
    except (TypeError, ValueError):
        return np.zeros(a.shape)


def _evenly(n: int, k: int) -> np.ndarray:
    # k <= n points at least 1 apart: their floors are distinct (the golden data takes the same ones)
    return np.linspace(0, n - 1, min(n, k)).astype(int) if n else np.zeros(0, int)


class Summarizer:
    def __init__(self, names: dict, keep_bytes: int = KEEP_BYTES):
        self.names, self.budget = names, keep_bytes
        self.seen: dict = {}  # id(value) -> (value, var, Value): an input is an earlier step's output

    def value(self, var, x) -> Value:
        hit = self.seen.get(id(x))
        if hit is not None and hit[0] is x and hit[1] is var:
            return hit[2]
        v = self._value(var, x)
        self.seen[id(x)] = (x, var, v)  # x kept alive: its id stays its own
        return v

    def name(self, v) -> str:
        from core._engine.tracing.jaxpr import Literal, pp_literal
        if isinstance(v, Literal):
            return pp_literal(v)
        return self.names.get(v) or "_"

    def _value(self, var, x) -> Value:
        aval = getattr(var, "aval", None)
        type_ = aval.str_short() if hasattr(aval, "str_short") else str(aval)
        try:
            a = np.asarray(x)
        except Exception:  # noqa: BLE001 - a PRNG key array, a token: shown by its repr
            return Value(self.name(var), type_, _short(repr(x)), [], [])
        if a.dtype.kind not in "biufc":  # typed keys (key<fry>) and other non-numbers
            return Value(self.name(var), type_, _short(repr(x)), [], [])
        p = _plain(a)
        flat = p.reshape(-1)
        full = None
        if a.nbytes <= self.budget:
            self.budget -= a.nbytes
            full = np.array(a)
        if a.ndim == 0:
            return Value(self.name(var), type_, _scalar_text(a), [_num(flat[0])], [], full=full)
        head = _nums(flat[:HEAD])
        stats = {}
        if flat.size:
            finite = flat[np.isfinite(flat)] if flat.dtype.kind == "f" else flat
            if finite.size:
                stats = {"min": _num(finite.min()), "max": _num(finite.max()), "mean": _num(finite.mean())}
        grid = None
        if a.ndim == 2 and a.shape[0] > 1 and a.shape[1] > 1:
            rows, cols = _evenly(a.shape[0], GRID), _evenly(a.shape[1], GRID)
            cells = _nums(p[np.ix_(rows, cols)].reshape(-1))
            grid = [cells[i:i + len(cols)] for i in range(0, len(cells), len(cols))]
        sample = _nums(flat[_evenly(flat.size, SPARK)]) if flat.size > 1 else []
        shown = ", ".join(_scalar_text(np.asarray(v)) for v in a.reshape(-1)[:HEAD])
        more = " …" if flat.size > HEAD else ""
        return Value(self.name(var), type_, f"shape {tuple(a.shape)}: [{shown}{more}]", head, sample,
                     grid, stats, full)


def _scalar_text(a: np.ndarray) -> str:
    if a.dtype.kind == "b":
        return str(bool(a))
    if a.dtype.kind in "iu":
        return str(int(a))
    if a.dtype.kind == "c":
        return str(complex(a))
    return str(a[()])  # numpy's shortest text for its own dtype: 0.1 for a float32, not 0.10000000149011612


def _short(text: str, n: int = 120) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


# ------------------------------------------------------------------ equations
def _src_line(eqn) -> int | None:
    for f in getattr(getattr(eqn, "source_info", None), "traceback", None) or ():
        if f.file_name == sandbox.USER_FILE:
            return f.start_line
    return None


def _backward(eqn) -> bool:
    stack = getattr(getattr(getattr(eqn, "source_info", None), "name_stack", None), "stack", ())
    return any(getattr(t, "name", None) == "transpose" for t in stack)


def _short_text(eqn, s: Summarizer) -> str:
    """`c:f32[3] = mul a b` with the pane's names; a nested jaxpr's equations and loops' bodies
    are not printed again (their steps follow)."""
    outs = " ".join(f"{s.name(v)}:{v.aval.str_short()}" for v in eqn.outvars)
    ins = " ".join(s.name(v) for v in eqn.invars)
    return f"{outs} = {eqn.primitive.name} {ins}".strip()


def _closed(j):
    """(jaxpr, consts) of a ClosedJaxpr or an open Jaxpr (no consts)."""
    return (j.jaxpr, list(j.consts)) if hasattr(j, "consts") else (j, [])


def _call_body(eqn):
    """The inner jaxpr a call-like equation runs once on its own inputs (jit, closed_call,
    remat, custom_jvp_call...), or None."""
    for key in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        j = eqn.params.get(key)
        if j is not None and hasattr(_closed(j)[0], "eqns"):
            inner, consts = _closed(j)
            if len(inner.invars) == len(eqn.invars):
                return inner, consts
    return None


def body_graph(jaxpr, title: str) -> dict:
    """A nested jaxpr's dataflow graph as the page draws it (static/stepper.js, SVG): the nodes
    laid out as the pane's graph lays out the top level (analysis.dataflow_graph), so a step inside
    a loop body lights its own node. Over BODY_GRAPH_EQNS equations: its size only, said so."""
    n = len(jaxpr.eqns)
    if n > BODY_GRAPH_EQNS:
        return {"title": title, "eqns": n, "nodes": [], "edges": []}
    from .analysis import dataflow_graph
    g = dataflow_graph(jaxpr)
    return {"title": title, "eqns": n,  # nodes: [id, label, kind, layer, row]
            "nodes": [[nd["id"], nd["label"], nd["kind"], nd["x"], nd["y"]] for nd in g["nodes"]],
            "edges": [list(e) for e in g["edges"]]}


class Recorder:
    def __init__(self, names: dict, top_texts: list, keep_bytes: int = KEEP_BYTES, tangent_eqns=frozenset()):
        self.s = Summarizer(names, keep_bytes)
        self.top_texts = top_texts
        self.tangent_eqns = tangent_eqns  # top-level equations only jvp's tangent outputs need
        self.steps: list = []
        self.notes: list = []
        self.bodies: list = []
        self.body_index: dict = {}  # id(jaxpr) -> (jaxpr, its index in bodies): one graph per body

    def body(self, jaxpr, primitive: str, top: int, where: str) -> int:
        hit = self.body_index.get(id(jaxpr))
        if hit is None or hit[0] is not jaxpr:
            last = where.rsplit("› ", 1)[-1]
            what = ("the while loop's test" if last.endswith("· test") else
                    {"scan": "the scan's body", "while": "the while loop's body"}.get(primitive) or
                    (f"the cond's {last.split(': ', 1)[1].replace(' taken', '')}" if primitive == "cond"
                     else f"{primitive}'s inner jaxpr"))
            title = f"{what} (in equation {top + 1})"
            hit = self.body_index[id(jaxpr)] = (jaxpr, len(self.bodies))
            self.bodies.append(body_graph(jaxpr, title))
        return hit[1]

    def run(self, jaxpr, consts, args, depth: int = 0, top: int | None = None, where: str = "",
            outer: str = ""):
        from core._engine.transforms.staging import eval_jaxpr
        body = self.body(jaxpr, outer, top, where) if depth > 0 else None

        def on_eqn(index, eqn, invals, outvals):
            t = index if depth == 0 else top
            if len(self.steps) < MAX_STEPS:
                self.step_into(eqn, invals, depth, t, where)
            text = (self.top_texts[index] if depth == 0 and index < len(self.top_texts)
                    else _short_text(eqn, self.s))
            if len(self.steps) < MAX_STEPS:
                self.steps.append(Step(depth, t, index, eqn.primitive.name, text, where, _src_line(eqn),
                                       _backward(eqn), t in self.tangent_eqns, [self.s.value(v, x) for v, x in zip(eqn.invars, invals)],
                                       [self.s.value(v, x) for v, x in zip(eqn.outvars, outvals)], body))
            elif not self.notes or "steps" not in self.notes[-1]:
                self.notes.append(f"only the first {MAX_STEPS} steps are recorded")

        return eval_jaxpr(jaxpr, consts, *args, on_eqn=on_eqn)

    def step_into(self, eqn, invals, depth: int, top: int, where: str):
        """The body steps of a control-flow or call equation (evaluated again by the interpreter,
        iteration by iteration); the equation's own step comes after them."""
        name, p = eqn.primitive.name, eqn.params
        at = f"{where} › " if where else ""
        if name == "scan":
            body, bconsts = _closed(p["jaxpr"])
            n_c, n_carry, length = p["num_consts"], p["num_carry"], p["length"]
            consts, carry, xs = invals[:n_c], list(invals[n_c:n_c + n_carry]), invals[n_c + n_carry:]
            order = range(length - 1, -1, -1) if p.get("reverse") else range(length)
            for count, i in enumerate(order):
                if count == MAX_ITERATIONS:
                    self.notes.append(f"scan (equation {top}): iterations after the first {MAX_ITERATIONS} "
                                      f"of {length} are not stepped into")
                    break
                outs = self.run(body, bconsts, [*consts, *carry, *[x[i] for x in xs]], depth + 1, top,
                                f"{at}scan iteration {i}", name)
                carry = list(outs[:n_carry])
        elif name == "while":
            cj, cconsts = _closed(p["cond_jaxpr"])
            bj, bconsts = _closed(p["body_jaxpr"])
            nc, nb = p["cond_nconsts"], p["body_nconsts"]
            c_in, b_in, carry = invals[:nc], invals[nc:nc + nb], list(invals[nc + nb:])
            for i in range(MAX_ITERATIONS + 1):
                pred = self.run(cj, cconsts, [*c_in, *carry], depth + 1, top, f"{at}while iteration {i} · test", name)[0]
                if not bool(np.asarray(pred)):
                    return
                if i == MAX_ITERATIONS:
                    self.notes.append(f"while (equation {top}): iterations after the first {MAX_ITERATIONS} "
                                      "are not stepped into")
                    return
                carry = list(self.run(bj, bconsts, [*b_in, *carry], depth + 1, top, f"{at}while iteration {i}", name))
        elif name == "cond":
            branches = p["branches"]
            k = int(np.clip(int(np.asarray(invals[0])), 0, len(branches) - 1))
            bj, bconsts = _closed(branches[k])
            self.run(bj, bconsts, list(invals[1:]), depth + 1, top, f"{at}cond: branch {k} taken", name)
        else:
            body = _call_body(eqn)
            if body is not None and body[0].eqns:
                self.run(body[0], body[1], list(invals), depth + 1, top, f"{at}inside {name}", name)


def tangent_only(jaxpr, n_primal_outs: int) -> frozenset:
    """The equations that no primal output needs (jvp's jaxpr returns the primal outputs, then
    the tangents): those compute tangents, beside the primals they use."""
    from core._engine.tracing.jaxpr import Literal
    needed = {v for v in jaxpr.outvars[:n_primal_outs] if not isinstance(v, Literal)}
    primal = set()
    for i in range(len(jaxpr.eqns) - 1, -1, -1):
        eqn = jaxpr.eqns[i]
        if any(v in needed for v in eqn.outvars):
            primal.add(i)
            needed.update(v for v in eqn.invars if not isinstance(v, Literal))
    return frozenset(i for i in range(len(jaxpr.eqns)) if i not in primal)


def top_texts(closed, text: str) -> list:
    """Each top-level equation as the pane prints it."""
    from . import kernels
    return kernels.equation_texts(closed.jaxpr, text)


def flat_inputs(view: str, args) -> list:
    """The jaxpr's inputs: the view's arguments (vmap's stacked ones), flattened as make_jaxpr does."""
    from . import analysis
    jax = analysis._jax()
    if view == "vmap":
        args = analysis._batched(args)
    return jax.tree_util.tree_leaves(args)


def trace(jv, args, keep_bytes: int = KEEP_BYTES) -> Trace:
    """Evaluate `jv` (an analysis.JaxprView: the jaxpr the pane shows) on the view's inputs."""
    import time

    from core._engine.tracing.jaxpr import printed_names

    t0 = time.perf_counter()
    closed = jv.closed
    jaxpr = closed.jaxpr
    names = printed_names(jaxpr)
    tangents = tangent_only(jaxpr, len(jaxpr.outvars) // 2) if jv.view == "jvp" else frozenset()
    rec = Recorder(names, top_texts(closed, jv.text), keep_bytes, tangents)
    inputs = flat_inputs(jv.view, args)
    if len(inputs) != len(jaxpr.invars):
        raise ValueError(f"the jaxpr takes {len(jaxpr.invars)} inputs, the view's arguments flatten to {len(inputs)}")
    in_values = [rec.s.value(v, x) for v, x in zip(jaxpr.invars, inputs)]
    with sandbox.captured():  # a jax.debug.print inside f prints to the run's console, not here
        outs = rec.run(jaxpr, list(closed.consts), inputs)
    backward = next((i for i, s in enumerate(rec.steps) if s.backward), None)
    return Trace(jv.view, rec.steps, in_values, [rec.s.value(v, x) for v, x in zip(jaxpr.outvars, outs)],
                 rec.notes, backward, time.perf_counter() - t0, rec.bodies)
