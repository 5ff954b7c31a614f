"""The editor's height in the built site: at desktop sizes it fills its column down to the console
strip, which stays in view under it, and grows with the window (it was a fixed 440 px whatever
the window); stacked on a phone, code and console are both in view as the page opens.
Screenshots go to $GRADPAD_SCREENSHOTS."""
from __future__ import annotations

import pytest

from .test_app_flows import load, shot
from .settle import settled

pytestmark = pytest.mark.timeout(900)

# the editor's box, ace's own idea of its height (it lays out lines in it), and the console strip's box
BOXES = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const els = all(document);
  const ace = els.find((e) => e.classList && e.classList.contains('ace_editor') && e.env);
  const strip = els.find((e) => e.classList && e.classList.contains('gp-console-strip'));
  const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; };
  return {editor: box(ace), ace: ace.env.editor.renderer.$size.height, strip: box(strip), vh: innerHeight};
}"""


@pytest.fixture(scope="module")
def app_page(gp):
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    gp.page.set_viewport_size({"width": 1400, "height": 900})
    load(gp, example="mlp_sin")
    # a Stop that ended the worker in an earlier module leaves its note in the run bar for 15 s
    # (loader.js stoppedNote): the layout measured here is the page's resting one
    gp.page.wait_for_function("() => !document.getElementById('gp-runbar').classList.contains('gp-stopped')",
                              timeout=60_000)
    yield gp
    gp.page.set_viewport_size({"width": 1400, "height": 900})


def boxes_at(page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => window.scrollTo(0, 0)")
    settled(page)  # Bokeh lays out again after a resize
    return page.evaluate(BOXES)


def test_the_editor_fills_its_column_and_grows_with_the_window(app_page):
    page = app_page.page
    sizes = {}
    for width, height in [(1400, 900), (1920, 1080)]:
        b = boxes_at(page, width, height)
        shot(page, f"editor_height_{width}x{height}")
        sizes[height] = b["editor"]["height"]
        # ace lays its lines out in the whole box (a box taller than ace's own size leaves a blank band)
        assert abs(b["ace"] - b["editor"]["height"]) < 4, b
        # the console strip is right under the editor and wholly in view, near the window's bottom
        assert 0 <= b["strip"]["top"] - b["editor"]["bottom"] < 30, b
        assert b["vh"] - 60 <= b["strip"]["bottom"] <= b["vh"], b
    # 180 px more window, as much more editor (it was 440 px at every size)
    assert sizes[1080] - sizes[900] > 150, sizes


def test_stacked_on_a_phone_code_and_console_fit_in_the_window(app_page):
    page = app_page.page
    try:
        b = boxes_at(page, 390, 844)
        shot(page, "editor_height_390x844")
        assert 240 <= b["editor"]["height"], b
        # the console strip is in view under the code as the page opens (a 440 px editor pushed it off)
        assert 0 <= b["strip"]["top"] - b["editor"]["bottom"] < 30 and b["strip"]["bottom"] <= b["vh"], b
        assert abs(b["ace"] - b["editor"]["height"]) < 4, b
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})



HOLD = """from app import page_api
page_api._playground.hold('stopped')"""
UNHOLD = """from app import page_api
p = page_api._playground
p.held_run.visible = False
p.notice.visible = False"""


def test_a_note_above_the_code_keeps_the_console_in_view(app_page):
    """The held-run notice (after a Stop that restarted Python) sits above the editor: the editor
    gives up that height, so the console strip stays in the window (a fixed offset pushed it
    36 px under a 900 px window and 89 px under a phone's)."""
    page = app_page.page
    sizes = [(1400, 900), (390, 844)]
    resting = {size: boxes_at(page, *size)["editor"]["top"] for size in sizes}
    app_page.run(HOLD)
    try:
        for size in sizes:
            b = boxes_at(page, *size)
            shot(page, "editor_height_held_%dx%d" % size)
            assert b["editor"]["top"] > resting[size] + 20, (resting, b)  # the notice is above the code
            assert b["strip"]["bottom"] <= b["vh"] + 1, b
            assert 0 <= b["strip"]["top"] - b["editor"]["bottom"] < 30, b
            assert abs(b["ace"] - b["editor"]["height"]) < 4, b
            assert b["editor"]["height"] >= 200, b  # a dozen lines of code beside the notice
    finally:
        app_page.run(UNHOLD)
        page.set_viewport_size({"width": 1400, "height": 900})
