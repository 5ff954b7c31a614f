"""Issue 14's smaller promises, walked through in the page as a learner would (shared page, see
conftest): Run and Ctrl+Enter keep the chosen function, an edit clears the example's title, a
new Backend re-runs without Run, a SyntaxError marks its line in the editor's gutter, and the
note about prints under jit shows only for jitted code."""
from __future__ import annotations

import pytest

from .test_app_flows import load, snapshot, tab, wait_snapshot
from .test_gallery import VISIBLE_TEXT  # the text a reader sees, shadow roots included
from .settle import settled

pytestmark = pytest.mark.timeout(900)


def run_button(page):
    return page.locator("#app button").filter(has_text="Run").first


def test_run_and_ctrl_enter_keep_the_chosen_function(app_page):
    page = app_page.page
    snap = load(app_page, example="jit_selu_timing")
    assert snap["function"] == "selu"  # the example's own choice, though its code ends calling best_of
    run = snap["run"]
    run_button(page).click()
    snap = wait_snapshot(app_page, lambda s: s["run"] > run and not s["pending"])
    assert snap["function"] == "selu", snap["function"]
    run = snap["run"]
    page.locator("#app .ace_content").first.click()
    page.keyboard.press("Control+Enter")
    snap = wait_snapshot(app_page, lambda s: s["run"] > run and not s["pending"])
    assert snap["function"] == "selu", snap["function"]


def test_an_edit_clears_the_examples_title(app_page):
    page = app_page.page
    snap = load(app_page, example="pytrees")
    assert snap["example"] == "pytrees"
    page.locator("#app .ace_content").first.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nz = 1\n")
    snap = wait_snapshot(app_page, lambda s: s["example"] is None)
    assert snap["example"] is None
    chosen = page.evaluate("""() => {
      const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
        if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
      const sel = all(document).find((el) => el.tagName === 'SELECT' &&
                                       [...el.options].some((o) => o.textContent === '(your code)'));
      return sel.options[sel.selectedIndex].textContent;
    }""")
    assert chosen == "(your code)", chosen


def test_a_new_backend_reruns_without_run(app_page):
    page = app_page.page
    snap = load(app_page, code="import jax\nf = lambda x: x * 2.0\nf(1.0)\n")
    select = page.locator("#app select").filter(has=page.locator("option", has_text="cpu")).first
    options = select.locator("option").all_inner_texts()
    other = next((o for o in options if o != "cpu"), None)
    assert other, options  # the page offers WebGPU (SwiftShader) beside the CPU
    try:
        run = snap["run"]
        select.select_option(other)
        snap = wait_snapshot(app_page, lambda s: s["run"] > run and other in s["timing"], timeout_s=240)
        assert snap["run"] > run and other in snap["timing"], snap["timing"]
    finally:
        select.select_option("cpu")
        wait_snapshot(app_page, lambda s: not s["pending"], timeout_s=240)


def test_a_syntax_error_marks_its_line_in_the_gutter(app_page):
    page = app_page.page
    snap = load(app_page, code="import jax\n\ndef f(x)\n    return x\n")
    assert snap["error"]["type"] == "SyntaxError" and snap["error"]["line"] == 3, snap["error"]
    assert "<gradpad>" not in snap["error"]["message"]
    cell = page.locator("#app .ace_gutter-cell.ace_error").first
    cell.wait_for(state="visible", timeout=30_000)
    assert cell.inner_text().strip() == "3"


@pytest.mark.parametrize("jitted", [False, True])
def test_the_jit_print_note_shows_only_for_jitted_prints(app_page, jitted):
    page = app_page.page
    deco = "@jax.jit\n" if jitted else ""
    snap = load(app_page, code=f"import jax\n\n{deco}def f(x):\n    print('inside f')\n    return x * 2.0\n\nf(1.0)\n")
    assert snap["error"] is None and "inside f" in snap["console"]
    tab(page, "Console").click()
    try:
        settled(page)
        text = page.evaluate(VISIBLE_TEXT)
        assert "inside f" in text
        assert ("appear only while it is traced" in text) == jitted
    finally:
        tab(page, "Jaxpr").click()
    assert snapshot(app_page)["function"] == "f"


def test_bad_example_links_show_a_message_not_a_traceback(app_page):
    page = app_page.page
    load(app_page, example="pytrees")
    page.evaluate("() => { location.hash = '#example=nope' }")
    snap = wait_snapshot(app_page, lambda s: "There is no example named" in s["notice"])
    assert "There is no example named" in snap["notice"] and snap["error"] is None, snap["notice"][:200]
    text = page.evaluate(VISIBLE_TEXT)
    assert "KeyError" not in text and "Traceback" not in text
    assert "There is no example named" in text
    # a trailing space (%20) pasted with a link still opens the example
    page.evaluate("() => { location.hash = '#example=jvp_and_vjp%20' }")
    snap = wait_snapshot(app_page, lambda s: s["example"] == "jvp_and_vjp")
    assert snap["example"] == "jvp_and_vjp" and snap["notice"] == "", snap["notice"][:200]
