"""The Jaxpr pane's stepper (app/stepper.py): each equation's values, from the engine's own
interpreter, against real JAX's `jax.core.eval_jaxpr` of the same jaxpr (tests/golden/
cases_stepper.py, recorded with the inputs it used); control flow stepped into with its
iteration index; pytree inputs; a 1,000-equation jaxpr recorded once, with a bound on what is kept."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from app import analysis, stepper

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "golden", "stepper_cases.json")
EXAMPLES = os.path.join(HERE, "..", "..", "app", "examples")


def golden(name: str) -> dict:
    cases = {c["name"]: c for c in json.loads(Path(GOLDEN).read_text())["cases"]}
    return decode(cases[name]["expected"]["out"])


def decode(enc):
    """golden_lib's encoding of a value -> numpy / Python."""
    kind = enc["kind"]
    if kind in ("list", "tuple"):
        return [decode(e) for e in enc["items"]]
    if kind == "dict":
        return dict(zip(enc["keys"], [decode(e) for e in enc["items"]]))
    if kind in ("ndarray", "array", "npscalar"):
        conv = np.vectorize(lambda x: float(x) if isinstance(x, str) else x, otypes=[float])  # "nan", "inf"
        a = np.asarray(enc["value"], dtype=object)
        return conv(a).astype(enc["dtype"]) if a.size else np.zeros(enc["shape"], enc["dtype"])
    if kind == "py":
        return enc["value"]
    if kind == "str":
        return enc["value"]
    raise AssertionError(kind)


def example_analysis(name: str, view: str):
    code = Path(EXAMPLES, name + ".txt").read_text()
    return analysis.analyse(code, views=(view,), with_timing=False, with_stages=False, with_plot=False,
                            with_vmap=False)


def with_leaves(args, leaves):
    jax = analysis._jax()
    tree = jax.tree_util.tree_structure(args)
    return jax.tree_util.tree_unflatten(tree, [jax.numpy.asarray(x) for x in leaves])


def compare(trace: stepper.Trace, want: dict, rtol: float = 1e-5, atol: float = 1e-6) -> int:
    """Every top-level step's outputs against the golden summaries (the golden README's tolerances:
    float32 sums in another order differ in their last bits); returns how many were compared."""
    top = [s for s in trace.steps if s.depth == 0]
    eqns = want["eqns"]
    assert [s.primitive for s in top] == [e["primitive"] for e in eqns]
    compared = 0
    for k, (step, e) in enumerate(zip(top, eqns)):
        outs = step.outs  # "_" (a value nothing reads) included: real JAX evaluates it too
        assert len(outs) == len(e["outs"]), (k, step.text)
        for got, exp in zip(outs, e["outs"]):
            assert got.full is not None, (k, "whole value kept under the budget")
            flat = np.asarray(got.full, np.float64).reshape(-1)
            assert list(got.full.shape) == list(exp["shape"]) and str(got.full.dtype) == exp["dtype"], (k, step.text)
            idx = stepper._evenly(flat.size, 48)
            np.testing.assert_allclose(flat[idx], exp["sample"], rtol=rtol, atol=atol, err_msg=f"eqn {k}: {step.text}")
            np.testing.assert_allclose(np.abs(flat).sum(), exp["abs_sum"], rtol=rtol, atol=atol, err_msg=f"eqn {k}")
            np.testing.assert_allclose((flat ** 2).sum(), exp["sq_sum"], rtol=rtol, atol=atol, err_msg=f"eqn {k}")
            compared += 1
    return compared


def test_mlp_sin_grad_steps_match_real_jax_per_equation():
    want = golden("stepper_mlp_sin_grad")
    a = example_analysis("mlp_sin", "grad")
    jv = a.jaxprs["grad"]
    args = with_leaves(a.args, want["inputs"])
    t = stepper.trace(jv, args)
    assert compare(t, want) >= 40
    # the backward pass starts after the forward one, and its steps are labelled as such
    assert t.backward_from is not None and 0 < t.backward_from < len(t.steps) - 1
    assert all(s.backward for s in t.steps[t.backward_from:])
    assert not any(s.backward for s in t.steps[:t.backward_from])
    # each step's text is the pane's line; its source line is the user's code
    lines = jv.text.splitlines()
    for step in t.steps:
        if step.depth == 0:
            assert "    " + step.text.splitlines()[0] in lines, step.text
        assert step.text.split(" = ")[0].split(":")[0] == step.outs[0].name  # labels: the pane's names
        assert all(v.name in step.text for v in step.ins), step.text
    assert {s.src for s in t.steps} >= {27, 32}


def test_jvp_and_vjp_jvp_steps_match_real_jax():
    want = golden("stepper_jvp_and_vjp_jvp")
    a = example_analysis("jvp_and_vjp", "jvp")
    args = with_leaves(a.args, want["inputs"])
    assert compare(stepper.trace(a.jaxprs["jvp"], args), want) >= 3


def test_jvp_and_vjp_grad_of_sum_matches_real_jax():
    want = golden("stepper_jvp_and_vjp_grad_of_sum")
    a = example_analysis("jvp_and_vjp", "f")
    fn = a.function.fn
    jv = analysis.jaxpr_view(lambda x: fn(x).sum(), a.args, "grad")
    args = with_leaves(a.args, want["inputs"])
    assert compare(stepper.trace(jv, args), want) >= 3


CONTROL_FLOW = """
import jax
import jax.numpy as jnp
from jax import lax

def f(p, xs):
    c, ys = lax.scan(lambda c, x: (c * p['decay'] + x, jnp.tanh(c)), 0.0, xs)
    n, w = lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] * 2.0), (0, c))
    z = lax.cond(w > 0, jnp.sin, jnp.cos, w)
    return ys.sum() + z

f({'decay': 0.5}, jnp.arange(4.0))
"""


def test_control_flow_is_stepped_into_with_iteration_indices_and_pytree_input():
    a = analysis.analyse(CONTROL_FLOW, views=("f", "grad"), with_timing=False, with_stages=False, with_plot=False,
                         with_vmap=False)
    t = stepper.trace(a.jaxprs["f"], a.args)
    wheres = [s.where for s in t.steps]
    assert [w for w in dict.fromkeys(wheres) if w.startswith("scan")] == [f"scan iteration {i}" for i in range(4)]
    assert "while iteration 2" in wheres and "while iteration 3 · test" in wheres
    assert "while iteration 3" not in wheres  # the test said stop
    cond = [s for s in t.steps if s.where.startswith("cond")]
    c = 0.0
    for x in range(4):
        c = c * 0.5 + x
    branch = 0 if c * 8 > 0 else 1  # cond's index: 1 when the predicate holds (True -> branch 1)
    assert cond and cond[0].where == f"cond: branch {1 - branch} taken" and cond[0].primitive == "sin"
    # the scan body's carry in iteration i is the engine's value: c_i = c_{i-1} * 0.5 + x_i
    adds = [s for s in t.steps if s.where.startswith("scan iteration") and s.primitive == "add"]
    carries, c = [], 0.0
    for x in range(4):
        c = c * 0.5 + x
        carries.append(c)
    assert [float(s.outs[0].full) for s in adds] == pytest.approx(carries)
    # every body step is followed, at depth 0, by its control-flow equation's own step
    top = [s for s in t.steps if s.depth == 0]
    assert [s.primitive for s in top][:3] == ["scan", "while", "gt"]
    assert t.outputs[0].text == repr(float(np.asarray(a.function.fn(*a.args)))) or \
        float(t.outputs[0].full) == pytest.approx(float(a.function.fn(*a.args)))
    # grad of a scan (a while loop has no reverse mode): the transposed scan runs its iterations backwards
    jax = analysis._jax()

    def h(p, xs):
        return jax.lax.scan(lambda c, x: (c * p['decay'] + x, jax.numpy.tanh(c)), 0.0, xs)[1].sum()

    g = stepper.trace(analysis.jaxpr_view(h, a.args, "grad"), a.args)
    back = [s.where for s in g.steps[g.backward_from:] if s.where]
    assert back and back[0] == "scan iteration 3" and back[-1] == "scan iteration 0", back


def test_a_step_inside_a_loop_body_has_its_body_graph_with_its_own_node():
    """The pane's dataflow graph draws the top level only: a step inside a body carries its body's
    own graph (drawn by the stepper), in which the step's node is `eqn<its index in the body>`."""
    a = analysis.analyse(CONTROL_FLOW, views=("f",), with_timing=False, with_stages=False, with_plot=False,
                         with_vmap=False)
    t = stepper.trace(a.jaxprs["f"], a.args)
    data = t.to_json()
    inner = [s for s in t.steps if s.depth > 0]
    assert inner and all(s.body is not None for s in inner) and all(s.body is None for s in t.steps if s.depth == 0)
    titles = {data["bodies"][s.body]["title"] for s in inner}
    assert titles == {"the scan's body (in equation 1)", "the while loop's test (in equation 2)",
                      "the while loop's body (in equation 2)", f"the cond's branch {inner[-1].where[-7]} (in equation "
                      f"{[s for s in t.steps if s.primitive == 'cond'][0].top + 1})"}, titles
    # one graph per body, however many iterations ran it
    assert len(data["bodies"]) == len(titles)
    for s in inner:
        nodes = {n[0]: n for n in data["bodies"][s.body]["nodes"]}
        assert nodes[f"eqn{s.eqn}"][1] == s.primitive and nodes[f"eqn{s.eqn}"][2] == "eqn", (s.where, s.text)
    scan_body = data["bodies"][inner[0].body]
    assert {n[2] for n in scan_body["nodes"]} == {"input", "eqn", "output"} and scan_body["edges"]
    json.dumps(data)


def test_thousand_equations_recorded_once_with_a_bound_on_kept_values():
    jax = analysis._jax()
    jnp = jax.numpy

    def f(x):
        for _ in range(500):
            x = jnp.sin(x) * 1.0001
        return x.sum()

    x = jnp.linspace(0.0, 1.0, 4096)  # 16 KiB per value: 1,000 of them are over the budget
    jv = analysis.jaxpr_view(f, (x,), "f")
    assert jv.eqn_count >= 1000
    t0 = time.perf_counter()
    t = stepper.trace(jv, (x,), keep_bytes=1 << 20)
    took = time.perf_counter() - t0
    assert len(t.steps) == jv.eqn_count
    kept = sum(v.full.nbytes for s in t.steps for v in s.outs if v.full is not None)
    assert kept <= 1 << 20 and t.steps[-1].outs[0].full is not None  # the scalar fits; big ones summarized
    assert all(len(v.sample) <= stepper.SPARK and len(v.head) <= stepper.HEAD for s in t.steps for v in s.outs)
    size = len(json.dumps(t.to_json()))
    assert size < 3_000_000, size  # what the page receives once
    print(f"1,000-equation jaxpr: recorded in {took * 1e3:.0f} ms, {size / 1e6:.2f} MB of JSON")


def test_jvp_steps_are_marked_tangent_or_primal():
    a = example_analysis("jvp_and_vjp", "jvp")
    t = stepper.trace(a.jaxprs["jvp"], a.args)
    marks = [(s.primitive, s.tangent) for s in t.steps]
    # f(x) = x * x / 2: primal mul and div; tangent: the products with the tangent, their sum, its div
    assert marks[0] == ("mul", False) and any(tan for _, tan in marks) and not all(tan for _, tan in marks)
    primal_out = t.steps[[s.outs[0].name for s in t.steps].index(t.outputs[0].name)]
    assert not primal_out.tangent
    tangent_out = t.steps[[s.outs[0].name for s in t.steps].index(t.outputs[1].name)]
    assert tangent_out.tangent


def test_the_page_gets_steps_only_for_the_jaxpr_it_shows():
    from app.panes import stepper as stepper_pane
    a = analysis.analyse("import jax.numpy as jnp\ndef f(x):\n    return jnp.sin(x) * 2.0\nf(1.0)\n", views=("f", "grad"),
                         with_timing=False, with_stages=False, with_plot=False, with_vmap=False)
    tok = stepper_pane.token(a, "grad")
    assert f'data-gp-token="{tok}"' in stepper_pane.slot_html("grad", tok)
    data = stepper_pane.steps_for(a, "grad", tok)
    prims = [s["primitive"] for s in data["steps"]]
    assert prims[:2] == ["sin", "cos"] and prims[-1] == "mul" and len(prims) == a.jaxprs["grad"].eqn_count
    assert data["values"][data["steps"][-1]["outs"][0]]["text"] == str(np.float32(2 * np.cos(1.0)))
    # another input (same jaxpr): the old slot's token is refused, so no earlier program's values show
    b = analysis.analyse("import jax.numpy as jnp\ndef f(x):\n    return jnp.sin(x) * 2.0\nf(0.5)\n", views=("f", "grad"),
                         with_timing=False, with_stages=False, with_plot=False, with_vmap=False)
    assert a.jaxprs["grad"].text == b.jaxprs["grad"].text
    assert stepper_pane.steps_for(b, "grad", tok).get("stale")
    assert "Run some code" in stepper_pane.steps_for(None, "grad", tok)["error"]
    json.dumps(data)  # what the page API sends


def test_a_function_that_fails_when_evaluated_gives_an_error_not_a_crash(monkeypatch):
    from app.panes import stepper as stepper_pane
    a = analysis.analyse("import jax.numpy as jnp\ndef f(x):\n    return jnp.sin(x)\nf(1.0)\n", views=("f",),
                         with_timing=False, with_stages=False, with_plot=False, with_vmap=False)

    def broken(jv, args, keep_bytes=0):
        raise FloatingPointError("invalid value (nan) encountered in sin")

    monkeypatch.setattr(stepper, "trace", broken)
    data = stepper_pane.steps_for(a, "f", stepper_pane.token(a, "f"))
    assert data["error"].startswith("evaluating the jaxpr step by step failed: FloatingPointError")
