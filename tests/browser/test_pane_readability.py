"""What a learner reads in the panes, measured in the page (the shared one, see conftest): the
Jacobian's entries are told apart by colour and written in their cells, table cells never wrap
("batch" over "0", "1.84 ms –" over "7.22 ms"), and a plot's legend never covers its data.
Screenshots go to $GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots-ui)."""
from __future__ import annotations

import io
from collections import Counter

import pytest

from .a11y import axe_violations, describe
from .settle import settled, show_tab
from .test_gallery import load, load_or_keep, shot, tab

pytestmark = pytest.mark.timeout(900)

# every cell of the panes' HTML tables (shadow roots included): its text and height in pixels
TABLE_CELLS = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  // a cell holding a manual call's line (.gp-call) has two lines by design: that line is checked itself
  return all(document).filter((el) => (((el.tagName === 'TD' || el.tagName === 'TH') && !el.querySelector('.gp-call'))
                                       || el.classList.contains('gp-call')) && el.closest('.gp-table')
                                      && el.getClientRects().length)
    // the text's own height, not the cell's (a row holding a two-line cell is two lines tall)
    .map((el) => { const r = document.createRange(); r.selectNodeContents(el);
                   return [el.textContent, r.getBoundingClientRect().height,
                           parseFloat(getComputedStyle(el).lineHeight) || 18]; });
}"""


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
    snap = load_or_keep(app_page, "jacobians_and_hessian")
    assert snap["plots"] == {"jacobian": 6}, snap["plots"]
    show_tab(page, "Plots")
    colours = plot_colours(page)
    area = sum(colours.values())
    cells = [c for c, n in colours.items() if n > 0.04 * area and c != (255, 255, 255)]
    shot(page, "jacobian_cells_1400x900")
    tab(page, "Jaxpr").click()
    assert len(cells) >= 6, colours.most_common(10)


@pytest.mark.parametrize("width", [1400, 390])
def test_table_cells_stay_on_one_line(app_page, width):
    page = app_page.page
    load_or_keep(app_page, "vmap_batching_comparison")
    page.set_viewport_size({"width": width, "height": 900 if width > 600 else 844})
    try:
        show_tab(page, "vmap")
        cells = page.evaluate(TABLE_CELLS)
        assert len(cells) > 20, cells
        wrapped = [(text, h) for text, h, line in cells if h > 1.6 * line]
        shot(page, f"vmap_tables_{width}")
        assert wrapped == [], wrapped[:6]
    finally:
        tab(page, "Jaxpr").click()
        page.set_viewport_size({"width": 1400, "height": 900})


# the vmap methods tables: each one's width, its box's, and its cells' right edges against the box's
METHODS_FIT = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  return all(document).filter((el) => el.classList && el.classList.contains('gp-methods') && el.getClientRects().length)
    .map((t) => { const box = t.parentElement, b = box.getBoundingClientRect();
      return {scroll: box.scrollWidth, client: box.clientWidth, boxRight: b.right,
              cells: [...t.querySelectorAll('td, th')].filter((c) => c.getClientRects().length)
                       .map((c) => [c.textContent, c.getBoundingClientRect().right])}; });
}"""


@pytest.mark.parametrize("width", [1400, 390])
def test_the_vmap_methods_table_fits_its_pane(app_page, width):
    # "loop vs manual vs vmap": at 1400 px the verdict column sat behind the table's sideways
    # scroll; at 390 px (a phone) each verdict goes under its row
    page = app_page.page
    snap = load_or_keep(app_page, "vmap_batching_comparison")
    rows = snap["vmap"]["rows"]
    assert rows["manual"]["matches_vmap"] is True, rows
    same = sum(r.get("matches_vmap") is True for r in rows.values())  # the loop and manual batching
    page.set_viewport_size({"width": width, "height": 900 if width > 600 else 844})
    try:
        show_tab(page, "vmap")
        page.locator("#app .gp-methods").first.scroll_into_view_if_needed()
        settled(page)
        tables = page.evaluate(METHODS_FIT)
        shot(page, f"vmap_methods_{width}")
        assert len(tables) == 1, tables
        t = tables[0]
        assert t["scroll"] <= t["client"], t  # nothing behind a sideways scroll
        assert [c for c in t["cells"] if c[1] > t["boxRight"] + 0.5] == [], t
        texts = [c[0] for c in t["cells"]]
        assert same >= 2 and texts.count("✓ same") == same, (texts, rows)  # every verdict in view
    finally:
        tab(page, "Jaxpr").click()
        page.set_viewport_size({"width": 1400, "height": 900})


# the Jacobian plot's frame in the page (px)
JACOBIAN_FRAME = """() => {
  const v = Bokeh.index.query_one((v) => v.frame && v.model.renderers && v.model.renderers.some((r) => r.name === 'jacobian'));
  const c = v.canvas_view.el.getBoundingClientRect(), f = v.frame.bbox;
  return {left: c.left + f.left, top: c.top + f.top, right: c.left + f.right, bottom: c.top + f.bottom};
}"""
# the text of every tooltip in view
TOOLTIPS = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  return all(document).filter((el) => el.classList && el.classList.contains('bk-Tooltip') && el.getClientRects().length)
    .map((el) => ((el.shadowRoot && el.shadowRoot.textContent) || '') + el.textContent).join(' | ');
}"""


def test_the_jacobian_hover_names_the_cell_under_the_pointer(app_page):
    # JAX: jax.jacfwd(g)(jnp.array([1., 2.])) is 3x2. Bokeh's "{0}" format rounded the pointer's
    # -0.5 < x < 0 (a cell's top or left edge) to "-0"; the corners must read (0, 0) and (2, 1)
    import re
    page = app_page.page
    snap = load_or_keep(app_page, "jacobians_and_hessian")
    assert snap["plots"] == {"jacobian": 6}, snap["plots"]
    show_tab(page, "Plots")
    try:
        f = page.evaluate(JACOBIAN_FRAME)
        read = {}
        for corner, (x, y) in {"top left": (f["left"] + 2, f["top"] + 2),
                               "bottom right": (f["right"] - 2, f["bottom"] - 2)}.items():
            page.mouse.move(x - 20, y - 20)
            page.mouse.move(x, y, steps=4)
            page.wait_for_timeout(300)
            text = page.evaluate(TOOLTIPS)
            i, j = re.search(r"\bi\s*:\s*(\S+)", text), re.search(r"\bj\s*:\s*(\S+)", text)
            read[corner] = (i and i.group(1), j and j.group(1), text[:120])
        shot(page, "jacobian_hover_1400x900")
        assert read["top left"][:2] == ("0", "0"), read
        assert read["bottom right"][:2] == ("2", "1"), read
    finally:
        page.mouse.move(5, 5)
        tab(page, "Jaxpr").click()


# Every piece of visible text in the app whose colour contrasts less than `min` with the
# background behind it (the nearest ancestor, across shadow roots, with an opaque background;
# the page's own background otherwise). WCAG's ratio: (L1 + 0.05) / (L2 + 0.05).
LOW_CONTRAST = """(min) => {
  const rgb = (s) => { const m = s.match(/[\\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const up = (el) => el.parentElement || (el.parentNode instanceof ShadowRoot ? el.parentNode.host : null);
  const pageBg = rgb(getComputedStyle(document.body).backgroundColor);
  const bgOf = (el) => { for (let e = el; e; e = up(e)) { const c = rgb(getComputedStyle(e).backgroundColor);
                                                          if (c.length < 4 || c[3] > 0.5) return c; } return pageBg; };
  const bad = [];
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = it.nextNode(); n; n = it.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || ['STYLE', 'SCRIPT', 'OPTION'].includes(el.tagName) || !el.getClientRects().length) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || Number(style.opacity) < 0.5) continue;
      const a = lum(rgb(style.color)), b = lum(bgOf(el));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < min) bad.push([n.textContent.trim().slice(0, 40), style.color, String(bgOf(el)), ratio.toFixed(2)]);
    }
    for (const e of root.querySelectorAll('*')) if (e.shadowRoot) walk(e.shadowRoot);
  };
  walk(document.querySelector('#app'));
  return bad;
}"""


def test_dark_theme_text_is_readable_on_every_pane(app_page):
    page = app_page.page
    page.evaluate("() => localStorage.setItem('gradpad.theme', 'dark')")
    try:
        page.reload(wait_until="domcontentloaded", timeout=60_000)
        assert app_page.wait_ui() == "app"
        assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
        bad = {}
        for name in ("jacobians_and_hessian", "mlp_sin", "vmap_batching_comparison", "static_args_and_control_flow"):
            load(app_page, example=name)
            for title in ("Jaxpr", "Plots", "vmap", "Timing", "Console"):
                show_tab(page, title)
                found = page.evaluate(LOW_CONTRAST, 3.0)
                if found:
                    bad[(name, title)] = found[:5]
                if name in ("mlp_sin", "vmap_batching_comparison"):
                    shot(page, f"dark_{name}_1400x900_{title}")
            if name == "mlp_sin":
                # axe on a page loaded in the dark theme (test_a11y.py's dark case switches in place)
                tab(page, "Jaxpr").click()
                settled(page)
                serious = axe_violations(page)
                if serious:
                    bad[(name, "axe")] = describe(serious)
        assert bad == {}, bad
    finally:
        # back to auto (light here) in place, as the header's button does: dark -> auto
        page.emulate_media(color_scheme="light")
        page.locator("#gp-theme").click()
        assert page.evaluate("() => localStorage.getItem('gradpad.theme')") == "auto"
        page.wait_for_function("() => document.documentElement.dataset.theme === 'light'"
                               " && window.gradpad.themeSwitch && window.gradpad.themeSwitch.python_ms !== null",
                               timeout=120_000)
        tab(page, "Jaxpr").click()


# the console's text boxes: how wide their content is against how wide they are
CONSOLE_BOXES = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  return all(document).filter((el) => el.classList && el.classList.contains('gp-console') && el.getClientRects().length)
    .map((el) => [el.scrollWidth, el.clientWidth]);
}"""


@pytest.mark.parametrize("width", [1400, 390])
def test_console_messages_wrap_instead_of_running_off_the_pane(app_page, width):
    # the example prints TracerBoolConversionError's long first line: it was cut at the pane's edge
    page = app_page.page
    load_or_keep(app_page, "static_args_and_control_flow")
    page.set_viewport_size({"width": width, "height": 900 if width > 600 else 844})
    try:
        show_tab(page, "Console")
        boxes = page.evaluate(CONSOLE_BOXES)
        assert len(boxes) >= 2, boxes  # the Console tab's and the strip under the editor
        shot(page, f"console_wrapped_{width}")
        assert [b for b in boxes if b[0] > b[1] + 1] == [], boxes
    finally:
        tab(page, "Jaxpr").click()
        page.set_viewport_size({"width": 1400, "height": 900})


# the visible plot canvases' right edges, and the page's width
CANVAS_RIGHTS = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  // only what shows: the other tabs' canvases are laid out too, hidden (the dataflow graph's
  // scrolls sideways in its own box by design)
  const cs = all(document).filter((el) => el.tagName === 'CANVAS' && el.getClientRects().length &&
                                          el.checkVisibility({visibilityProperty: true, opacityProperty: true}))
    .map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0);
  return {rights: cs.map((r) => r.right), width: document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("name", ["mlp_sin", "jit_selu_timing"])
def test_plots_fit_a_phone(app_page, name):
    # mlp_sin's line plot had a three-item legend and a long axis label wider than a phone's pane
    page = app_page.page
    load(app_page, example=name)
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        show_tab(page, "Plots")
        m = page.evaluate(CANVAS_RIGHTS)
        shot(page, f"plots_{name}_390")
        assert m["rights"] and max(m["rights"]) <= m["width"], m
    finally:
        tab(page, "Jaxpr").click()
        page.set_viewport_size({"width": 1400, "height": 900})
