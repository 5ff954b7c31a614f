"""Source <-> jaxpr in the built site: hovering a line of code lights up the equations it
produced, clicking an equation marks its line in the editor, and grad(f)'s backward equations
point at their primal's line (JAX's source_info; golden: tests/golden/cases_teachui.py).
Screenshots go to $GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots)."""
from __future__ import annotations

import pytest

from .test_app_flows import load, shot, tab, wait_snapshot

pytestmark = pytest.mark.timeout(900)

CODE = """import jax
import jax.numpy as jnp

def f(x):
    y = jnp.sin(x)
    z = y * 2.0
    return jnp.sum(z ** 2)

f(jnp.ones(3))
"""


def lit(page) -> dict:
    return page.evaluate("() => window.gradpad.sourceMap.lit()")


def test_code_lines_and_equations_light_each_other(app_page):
    page = app_page.page
    snap = load(app_page, code=CODE)
    # JAX: make_jaxpr(f)(ones(3)).pretty_print(source_info=True): sin 5:8, mul 6:8, integer_pow 7:19, reduce_sum 7:11
    assert snap["source_map"] == {"5": 1, "6": 1, "7": 2}, snap["source_map"]
    tab(page, "Jaxpr").click()
    page.locator("#app .gp-eqn").first.wait_for(state="visible", timeout=60_000)

    # hover line 7 of the code: its two equations light up, and the editor marks the line
    box = page.locator("#app .ace_line").nth(6).bounding_box()  # ace's text layer takes the pointer
    page.mouse.move(box["x"] + 40, box["y"] + box["height"] / 2)
    page.wait_for_function("() => window.gradpad.sourceMap.lit().line === 7", timeout=10_000)
    now = lit(page)
    assert [e.split(" = ")[1].split("[")[0].split()[0] for e in now["equations"]] == ["integer_pow", "reduce_sum"]
    assert now["editorMarks"] == [7]
    shot(page, "sourcemap_hover_code_1400x900")

    # click the sin equation: its line (5) is marked in the editor and stays after the pointer leaves
    page.locator("#app .gp-eqn").filter(has_text="sin").first.click()
    page.mouse.move(5, 5)
    now = lit(page)
    assert now["line"] == 5 and now["editorMarks"] == [5] and len(now["equations"]) == 1, now
    shot(page, "sourcemap_click_equation_1400x900")


def test_grad_backward_equations_point_at_their_primal_line(app_page):
    page = app_page.page
    load(app_page, code=CODE)
    tab(page, "Jaxpr").click()
    page.locator("#app button").filter(has_text="grad(f)").first.click()
    wait_snapshot(app_page, lambda s: s.get("view") == "grad")
    page.locator("#app .gp-eqn").filter(has_text="cos").first.wait_for(state="visible", timeout=60_000)
    # JAX: in make_jaxpr(grad(f)), sin and cos (its jvp) come from line 5, and the backward
    # `mul _ c` by cos(x) (the transpose of sin's jvp) also points at line 5
    n = page.evaluate("() => window.gradpad.sourceMap.show(5)")
    main = page.locator("#app .gp-jaxpr").first  # the grad(f) jaxpr (the stage cards below link too)
    prims = [e.split(" = ")[1].split()[0] for e in main.locator(".gp-eqn.gp-lit").all_inner_texts()]
    assert prims[:2] == ["sin", "cos"] and prims[-1] == "mul", prims
    # the stage cards light the same line: the transposed (backward) stage has its mul by cos(x)
    stages = page.locator("#app .gp-stage")
    transposed = stages.filter(has_text="transposed").first.locator(".gp-eqn.gp-lit").all_inner_texts()
    assert transposed and all(" mul " in e for e in transposed), transposed
    assert n == len(lit(page)["equations"]) > len(prims)
    # line 6 (z = y * 2.0): the forward mul and its transpose, a mul by 2.0 in the backward pass
    page.evaluate("() => window.gradpad.sourceMap.show(6)")
    six = main.locator(".gp-eqn.gp-lit").all_inner_texts()
    assert len(six) == 2 and all(" mul " in e and "2.0" in e for e in six), six
    for width, height in ((1400, 900), (1920, 1080), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#app .gp-eqn.gp-lit").first.scroll_into_view_if_needed()
        shot(page, f"sourcemap_grad_{width}x{height}")
    page.set_viewport_size({"width": 1400, "height": 900})
    page.evaluate("() => window.gradpad.sourceMap.show(null)")
