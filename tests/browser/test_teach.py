"""The teaching views in the built site, through the page API: two examples on the lesson path,
their grad stages, previous/next, and the 'How grad is built' card at desktop and phone sizes.
Screenshots go to $GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots)."""
from __future__ import annotations

import pytest

from app import examples

from .test_app_flows import load, shot, tab, wait_snapshot

pytestmark = pytest.mark.timeout(900)


def test_two_lessons_their_grad_stages_and_prev_next(app_page):
    page = app_page.page
    first = load(app_page, example="jvp_and_vjp")
    assert first["error"] is None and first["lesson"]["chapter"] == "grad"
    stages = first["grad_stages"]
    assert set(stages) == {"jvp", "linearized", "transposed", "batched"}
    assert all(isinstance(n, int) and n > 0 for n in stages.values()), stages
    assert first["lesson"]["next"] == "jacobians_and_hessian"

    second = load(app_page, example=first["lesson"]["next"])
    assert second["example"] == "jacobians_and_hessian" and second["lesson"]["prev"] == "jvp_and_vjp"
    assert second["grad_stages"] != stages and all(n > 0 for n in second["grad_stages"].values())

    # the previous button walks back along the path
    page.locator("#app button").filter(has_text="previous").first.click()
    back = wait_snapshot(app_page, lambda s: s.get("example") == "jvp_and_vjp")
    assert back["example"] == "jvp_and_vjp" and back["lesson"]["index"] == examples.names().index("jvp_and_vjp") + 1

    tab(page, "Jaxpr").click()
    page.locator("#app button").filter(has_text="grad(f)").first.click()
    wait_snapshot(app_page, lambda s: s.get("view") == "grad")
    card = page.locator("#app .gp-stages").first
    card.wait_for(state="attached", timeout=60_000)
    html = card.inner_html()
    assert html.count("gp-stage\"") == 3 and "gp-res" in html
    for width, height in ((1400, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        card.scroll_into_view_if_needed()
        shot(page, f"teach_grad_stages_{width}x{height}")
    page.set_viewport_size({"width": 1400, "height": 900})


def test_lesson_bar_and_search_fit_a_phone(app_page):
    page = app_page.page
    load(app_page, example="pytrees")
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.evaluate("() => window.scrollTo(0, 0)")
        search = page.locator("#app input[placeholder*='scan']").first
        search.fill("scan")
        search.press("Enter")
        snap = wait_snapshot(app_page, lambda s: s.get("search") == ["lax_control_flow"])
        assert snap["search"] == ["lax_control_flow"] and snap["example"] == "pytrees"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(page, "teach_lessons_390x844")
        search.fill("")
        search.press("Enter")
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
