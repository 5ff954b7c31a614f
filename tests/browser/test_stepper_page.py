"""The Jaxpr pane's stepper and rules viewer in the built site (shared page, two example loads):
stepping grad(f) of the mlp_sin gallery example shows, at every equation, the values real JAX's
`jax.core.eval_jaxpr` gave (tests/golden/stepper_cases.json), each step answering by lookup in the
page; clicking `sin` in a jaxpr opens its jvp rule's source, read by inspect.getsource in the page
(whose engine is bytecode: the source comes from core-sources.zip). Screenshots of both at
1400x900 and 390x844 go to $GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from tools.bench_stepper import THOUSAND  # the 1,000-equation program the bench steps through too

from .test_app_flows import load, shot, tab, wait_snapshot

pytestmark = pytest.mark.timeout(900)
GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden", "stepper_cases.json")


def golden_eqns(name: str) -> list:
    case = next(c for c in json.loads(Path(GOLDEN).read_text())["cases"] if c["name"] == name)
    eqns = case["expected"]["out"]["items"][1]["items"]
    out = []
    for e in eqns:
        prim, outs = e["items"]
        samples = []
        for o in outs["items"]:
            fields = dict(zip(o["keys"], o["items"]))
            samples.append([float(x) for x in np.asarray(fields["sample"]["value"], dtype=float).reshape(-1)])
        out.append((prim["value"], samples))
    return out


def pick_view(page, app_page, view: str, label: str):
    tab(page, "Jaxpr").click()
    page.locator("#app .bk-btn-group button").filter(has_text=label).first.click()
    wait_snapshot(app_page, lambda s: s.get("view") == view)


def start_stepper(page):
    page.locator("#app .gp-step-start").first.click()
    page.wait_for_function("() => window.gradpad.stepper.count() > 0", timeout=120_000)


def test_stepping_mlp_sin_grad_shows_real_jax_values(app_page):
    page = app_page.page
    load(app_page, example="mlp_sin")
    pick_view(page, app_page, "grad", "grad(f)")
    start_stepper(page)
    want = golden_eqns("stepper_mlp_sin_grad")
    # every step, as the page shows it: top-level ones compared with real JAX's values
    seen = page.evaluate("""() => {
        const s = window.gradpad.stepper, out = [];
        for (let i = 0; i < s.count(); i++) {
            s.go(i);
            const l = s.last;
            out.push({depth: l.step.depth, prim: l.step.primitive, ms: l.ms, backward: l.step.backward,
                      outs: l.outs.map(v => ({head: v.head, sample: v.sample}))});
        }
        return out;
    }""")
    top = [s for s in seen if s["depth"] == 0]
    assert [s["prim"] for s in top] == [p for p, _ in want]
    for k, (step, (prim, samples)) in enumerate(zip(top, want)):
        for got, exp in zip(step["outs"], samples):
            shown = got["sample"] if len(got["sample"]) > 1 else got["head"][:1]
            np.testing.assert_allclose(np.asarray(shown, float), exp, rtol=1e-5, atol=1e-6, err_msg=f"eqn {k} {prim}")
    assert any(s["backward"] for s in seen) and not seen[0]["backward"]
    # a step is a lookup on the page: no round trip to Python (the slowest one, on a loaded machine)
    # (timed, not asserted: the machine is loaded; test_a_thousand_equation_jaxpr_steps_within_50_ms
    # counts what a step touches)
    ms = sorted(s["ms"] for s in seen)
    print(f"\n[stepper] {len(seen)} steps: median {ms[len(ms) // 2]:.1f} ms, slowest {ms[-3:]} ms")
    # the editor's line of the current equation is lit
    page.evaluate("() => window.gradpad.stepper.go(2)")
    src = page.evaluate("() => window.gradpad.stepper.last.step.src")
    page.wait_for_function("line => window.gradpad.sourceMap.lit().editorMarks[0] === line", arg=src, timeout=10_000)
    # and its node in the dataflow graph is the one ringed, its equation lit in the pane's jaxpr text
    page.wait_for_function("() => window.gradpad.stepper.graphNode() === 'eqn2'", timeout=10_000)
    page.wait_for_function("() => window.gradpad.stepper.textEquation() === 2", timeout=10_000)
    # a click on an equation of the pane's jaxpr text (not on its primitive: that opens its rules) runs to it
    line = page.locator('#app pre.gp-jaxpr [data-gp-eqn="30"]').first
    line.click(position={"x": 3, "y": 4})
    page.wait_for_function("() => window.gradpad.stepper.last.step.depth === 0 && window.gradpad.stepper.last.step.eqn === 30"
                           " && window.gradpad.stepper.textEquation() === 30 && window.gradpad.stepper.graphNode() === 'eqn30'",
                           timeout=10_000)
    assert page.evaluate("() => window.gradpad.stepper.last.step.backward")  # eqn 30 of 45: the backward pass
    assert "gp-step-now" in line.get_attribute("class")
    assert page.locator("#app pre.gp-jaxpr .gp-step-now").count() == 1
    shot(page, "stepper_mlp_sin_text_1400x900")
    page.set_viewport_size({"width": 390, "height": 844})
    try:  # on a phone: the lit line scrolled into view inside the jaxpr's own box, the page not widened
        line.scroll_into_view_if_needed()
        box, pre = line.bounding_box(), page.locator("#app pre.gp-jaxpr").first.bounding_box()
        assert pre["y"] <= box["y"] and box["y"] + box["height"] <= pre["y"] + pre["height"] + 1, (box, pre)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(page, "stepper_mlp_sin_text_390x844")
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
    page.evaluate("() => window.gradpad.stepper.go(2)")
    page.locator("#app .gp-graph").first.scroll_into_view_if_needed()
    shot(page, "stepper_mlp_sin_grad_graph_1400x900")
    page.locator("#app .gp-stepper").first.scroll_into_view_if_needed()
    shot(page, "stepper_mlp_sin_grad_1400x900")
    page.evaluate("() => window.gradpad.stepper.go(window.gradpad.stepper.count() - 3)")  # the backward pass
    page.locator("#app .gp-step-vals").first.scroll_into_view_if_needed()
    shot(page, "stepper_mlp_sin_grad_backward_1400x900")


def test_stepping_jvp_of_jvp_and_vjp_shows_real_jax_values(app_page):
    """The jvp_and_vjp example's f returns a vector (grad(f) has no jaxpr there): its jvp view,
    stepped in the page, shows at each equation the values real JAX gave (primal and tangent)."""
    page = app_page.page
    load(app_page, example="jvp_and_vjp")
    pick_view(page, app_page, "jvp", "jvp(f)")
    start_stepper(page)
    want = golden_eqns("stepper_jvp_and_vjp_jvp")
    seen = page.evaluate("""() => {
        const s = window.gradpad.stepper, out = [];
        for (let i = 0; i < s.count(); i++) {
            s.go(i);
            const l = s.last;
            out.push({depth: l.step.depth, prim: l.step.primitive, tangent: l.step.tangent,
                      outs: l.outs.map(v => ({head: v.head, sample: v.sample}))});
        }
        return out;
    }""")
    top = [s for s in seen if s["depth"] == 0]
    assert [s["prim"] for s in top] == [p for p, _ in want]
    for k, (step, (prim, samples)) in enumerate(zip(top, want)):
        for got, exp in zip(step["outs"], samples):
            shown = got["sample"] if len(got["sample"]) > 1 else got["head"][:1]
            np.testing.assert_allclose(np.asarray(shown, float), exp, rtol=1e-5, atol=1e-6, err_msg=f"eqn {k} {prim}")
    assert any(s["tangent"] for s in seen) and not all(s["tangent"] for s in seen)


def test_clicking_sin_opens_its_jvp_rule_source(app_page):
    page = app_page.page
    load(app_page, code="import jax\nimport jax.numpy as jnp\n\ndef f(x):\n    return jnp.sum(jnp.sin(x) * x)\n\nf(jnp.arange(3.0))\n")
    pick_view(page, app_page, "f", "f")
    page.locator("#app .gp-jaxpr .gp-jp").filter(has_text="sin").first.click()
    page.wait_for_function("() => window.gradpad.rules.shown && window.gradpad.rules.shown.primitive === 'sin'",
                           timeout=60_000)
    dialog = page.locator("#gp-rules")
    jvp = dialog.locator('[data-gp-rule="jvp_rules"] pre').all_inner_texts()
    assert any("cos(x)" in text for text in jvp), jvp  # the engine's own line: ad.defjvp(sin_p, lambda g, x: mul(g, cos(x)))
    transpose = dialog.locator('[data-gp-rule="transpose_rules"]').inner_text()
    assert "no transpose rule (not linear)" in transpose
    assert "def " in dialog.locator('[data-gp-rule="abstract_eval_rules"] pre').first.inner_text()
    shot(page, "rules_sin_1400x900")
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        shot(page, "rules_sin_390x844")
        page.keyboard.press("Escape")
        assert not dialog.is_visible()
        page.locator("#app .gp-step-start").first.click()
        page.wait_for_function("() => window.gradpad.stepper.count() > 0", timeout=120_000)
        page.evaluate("() => window.gradpad.stepper.go(1)")
        page.locator("#app .gp-step-vals").first.scroll_into_view_if_needed()
        shot(page, "stepper_sin_390x844")
        # the stepped equation's primitive opens its rules too: mul is linear in each input
        page.locator("#app .gp-step-vals .gp-jp").first.click()
        page.wait_for_function("() => window.gradpad.rules.shown && window.gradpad.rules.shown.primitive === 'mul'")
        assert "def _mul_t" in dialog.locator('[data-gp-rule="transpose_rules"] pre').first.inner_text()
        # its two jvp rules (one lambda per input) are one line of source: shown once, saying so
        where = dialog.locator('[data-gp-rule="jvp_rules"] .gp-rule-where').all_inner_texts()
        assert len(where) == 2 and where[0].startswith("2 rules on one line, core/"), where
        page.keyboard.press("Escape")
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})




def test_a_thousand_equation_jaxpr_steps_within_50_ms(app_page):
    """A step costs O(one equation): counted, not timed (the machine is loaded). Each step, with
    its deferred part (the jaxpr text's line, the editor's mark, the graph's ring), adds a bounded
    number of elements, never resizes the stepper (nothing outside its fixed boxes is laid out
    again) and never repaints the graph (its 1,000 HTML labels untouched)."""
    page = app_page.page
    snap = load(app_page, code=THOUSAND)
    assert not snap.get("error"), snap.get("error")
    pick_view(page, app_page, "f", "f")
    start_stepper(page)
    got = page.evaluate("""async () => {
        const s = window.gradpad.stepper, n = s.count(), ms = [];
        for (let i = 0; i < n; i++) { s.go(i); ms.push(s.last.ms); }
        for (let i = n - 1; i >= 0; i -= 7) { s.go(i); ms.push(s.last.ms); }  // back, and jumps
        const cur = s.current, ring = cur.ring;
        await new Promise(r => setTimeout(r, 50));
        if (!ring.find()) return {n, error: "no graph view"};
        const labels = ring.view.plot_view.canvas_view.overlays_el;
        let added = 0, maxAdded = 0, labelMuts = 0, resized = -1, textMuts = 0;
        const mo = new MutationObserver((ms) => { for (const m of ms) added += m.addedNodes.length; });
        mo.observe(cur.slot, {subtree: true, childList: true});
        const lo = new MutationObserver((ms) => { for (const m of ms) if (m.target !== ring.ring) labelMuts += 1; });
        lo.observe(labels, {subtree: true, childList: true, attributes: true, characterData: true});
        const to = new MutationObserver((ms) => { textMuts += ms.length; });
        to.observe(cur.text, {subtree: true, attributes: true, childList: true});
        const ro = new ResizeObserver(() => { resized += 1; });  // its first call is the observation itself
        ro.observe(cur.slot);
        const after = [], parts = [], jumps = 40;
        for (let k = 0; k < jumps; k++) {
            const i = (k * 389) % n, before = added, t0 = performance.now();
            s.go(i);
            await new Promise(r => setTimeout(r, 0));
            await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
            after.push(performance.now() - t0);
            parts.push(s.lastAfter);
            await new Promise(r => setTimeout(r, 0));  // the observers' records of this step
            maxAdded = Math.max(maxAdded, added - before);
        }
        mo.disconnect(); lo.disconnect(); to.disconnect(); ro.disconnect();
        const last = (jumps - 1) * 389 % n;
        return {n, ms, after, parts, recorded: cur.data.ms, maxAdded, labelMuts, resized, textMuts, jumps,
                node: s.graphNode(), eqn: s.textEquation(), want: cur.data.steps[last].top,
                labels: labels.children.length};
    }""")
    assert not got.get("error"), got
    ms, after = sorted(got["ms"]), sorted(got["after"])
    p90 = ms[int(len(ms) * 0.9)]
    print(f"\n[stepper] {got['n']} steps recorded in {got['recorded']} ms (Pyodide); a step: median "
          f"{ms[len(ms) // 2]:.1f} ms, 90th percentile {p90:.1f} ms, slowest {ms[-1]:.1f} ms; with its text line, "
          f"mark and ring, to the next frame: median {after[len(after) // 2]:.1f} ms, slowest {after[-1]:.1f} ms; "
          f"at most {got['maxAdded']} elements added a step")
    for key in ("text", "editor", "graph"):
        xs = sorted(p[key] for p in got["parts"] if p)
        print(f"[stepper] deferred {key}: median {xs[len(xs) // 2]:.1f} ms, slowest {xs[-1]:.1f} ms")
    assert got["n"] == 1001
    assert got["labels"] >= 1000  # the graph draws every equation: its labels are the ones not repainted
    assert got["labelMuts"] == 0, got["labelMuts"]  # the graph not repainted by a step
    assert got["resized"] == 0, got["resized"]  # the stepper's size fixed: nothing outside it laid out again
    assert got["maxAdded"] <= 30, got["maxAdded"]  # a step's own rows, not the listing or the jaxpr rebuilt
    # in the jaxpr text: the old equation's class off, the new one's on (all 1,000 equations come from
    # one line of code: its marks are set once, not again each step)
    assert got["textMuts"] <= 2 * got["jumps"], got["textMuts"]
    assert (got["node"], got["eqn"]) == (f"eqn{got['want']}", got["want"])


CONTROL_FLOW = "lax_control_flow"


def test_a_step_inside_a_loop_body_lights_the_bodys_own_graph(app_page):
    page = app_page.page
    load(app_page, example=CONTROL_FLOW)
    pick_view(page, app_page, "f", "f")
    # an earlier program's stepper (the module's last test) leaves no ring on this program's graph
    page.wait_for_function("() => { const c = window.gradpad.stepper.current; return !c || c.ring.ring === null; }",
                           timeout=10_000)
    start_stepper(page)
    got = page.evaluate("""() => {
        const s = window.gradpad.stepper, steps = s.current.data.steps;
        const i = steps.findIndex(st => st.depth > 0 && st.where === 'scan iteration 2' && st.primitive === 'add');
        s.go(i);
        return {i, step: steps[i], body: s.bodyNode(), title: s.current.data.bodies[steps[i].body].title};
    }""")
    step = got["step"]
    assert got["i"] >= 0 and step["primitive"] == "add"
    assert got["body"] == f"eqn{step['eqn']}" and got["title"].startswith("the scan's body")
    box = page.locator("#app .gp-step-graph").first
    assert "the pane's graph draws the top level only" in box.inner_text()
    assert box.locator(".gp-bg-now").count() == 1 and box.locator(".gp-bg-node").count() >= 4
    # the pane's graph rings the scan holding the body
    page.wait_for_function("top => window.gradpad.stepper.graphNode() === 'eqn' + top", arg=step["top"], timeout=10_000)
    for width, height in ((1400, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        box.scroll_into_view_if_needed()
        shot(page, f"stepper_lax_control_flow_body_{width}x{height}")
    page.set_viewport_size({"width": 1400, "height": 900})
    page.evaluate("() => window.gradpad.stepper.go(window.gradpad.stepper.count() - 1)")  # back at the top level
    assert page.evaluate("() => window.gradpad.stepper.bodyNode()") is None
    assert "rings its node" in box.inner_text()
