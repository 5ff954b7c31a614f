"""What a learner reads in the panes, measured in the page (the shared one, see conftest): the
Jacobian's entries are told apart by colour and written in their cells, table cells never wrap
("batch" over "0", "1.84 ms –" over "7.22 ms"), and a plot's legend never covers its data.
Screenshots go to $GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots-ui)."""
from __future__ import annotations

import io
from collections import Counter

import pytest

from .test_gallery import load, shot, tab

pytestmark = pytest.mark.timeout(900)

# every cell of the panes' HTML tables (shadow roots included): its text and height in pixels
TABLE_CELLS = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  return all(document).filter((el) => (el.tagName === 'TD' || el.tagName === 'TH') && el.closest('.gp-table')
                                       && el.getClientRects().length)
    .map((el) => [el.textContent, el.getBoundingClientRect().height,
                  parseFloat(getComputedStyle(el).lineHeight) || 18]);
}"""


@pytest.fixture(scope="module")
def app_page(gp):
    kind = gp.wait_ui()
    assert kind == "app", kind + "\n" + "\n".join(gp.console[-30:])
    gp.page.set_viewport_size({"width": 1400, "height": 900})
    yield gp
    from app.main import DEFAULT_EXAMPLE
    load(gp, example=DEFAULT_EXAMPLE)


def plot_colours(page) -> Counter:
    """Colours of the first visible plot's frame (colour bar and toolbar left out), by pixel count."""
    from PIL import Image
    canvas = page.locator("#app .bk-Canvas >> visible=true").first
    img = Image.open(io.BytesIO(canvas.screenshot())).convert("RGB")
    w, h = img.size
    return Counter(img.crop((int(w * 0.08), int(h * 0.12), int(w * 0.7), int(h * 0.85))).getdata())


def test_jacobian_entries_get_their_own_colours(app_page):
    # JAX: jax.jacfwd(g)(jnp.array([1., 2.])) = [[4, 1], [5, -0.41614684], [0, 12]]: six different
    # entries; an 11-step palette painted 4 and 5 alike, and 0, 1 and -0.42 alike (three blocks)
    page = app_page.page
    snap = load(app_page, example="jacobians_and_hessian")
    assert snap["plots"] == {"jacobian": 6}, snap["plots"]
    tab(page, "Plots").click()
    page.wait_for_timeout(800)
    colours = plot_colours(page)
    area = sum(colours.values())
    cells = [c for c, n in colours.items() if n > 0.04 * area and c != (255, 255, 255)]
    shot(page, "jacobian_cells_1400x900")
    tab(page, "Jaxpr").click()
    assert len(cells) >= 6, colours.most_common(10)


@pytest.mark.parametrize("width", [1400, 390])
def test_table_cells_stay_on_one_line(app_page, width):
    page = app_page.page
    load(app_page, example="vmap_batching_comparison")
    page.set_viewport_size({"width": width, "height": 900 if width > 600 else 844})
    try:
        tab(page, "vmap").click()
        page.wait_for_timeout(800)
        cells = page.evaluate(TABLE_CELLS)
        assert len(cells) > 20, cells
        wrapped = [(text, h) for text, h, line in cells if h > 1.6 * line]
        shot(page, f"vmap_tables_{width}")
        assert wrapped == [], wrapped[:6]
    finally:
        tab(page, "Jaxpr").click()
        page.set_viewport_size({"width": 1400, "height": 900})
