"""The dataflow graph on every gallery example, f and grad(f): no two node labels overlap, no
label is cut by the plot's edge (checked by test_gallery.py on each example it loads), and
kernels have distinct colours. The labels are HTML
(Bokeh's HTMLLabelSet), so their boxes are measured in the page. Screenshots go to
$GRADPAD_SCREENSHOTS (default /tmp/gradpad-screenshots)."""
from __future__ import annotations

import pytest

from .test_app_flows import load, shot, tab, wait_snapshot
from .settle import settled

pytestmark = pytest.mark.timeout(1800)

# every label of the graph (divs Bokeh's HTMLLabelSet places over the canvas), and the canvas box
LABEL_BOXES = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const graph = all(document).find((el) => el.classList && el.classList.contains('gp-graph'));
  if (!graph) return null;
  const els = all(graph.shadowRoot || graph);
  const canvas = els.find((el) => el.tagName === 'CANVAS');
  if (!canvas) return {canvas: null, labels: []};
  const c = canvas.getBoundingClientRect();
  const labels = els.filter((el) => el.tagName === 'DIV' && el.style.whiteSpace === 'pre' &&
                            el.style.display !== 'none' && el.textContent.trim());
  return {canvas: [c.left, c.top, c.right, c.bottom],
          labels: labels.map((el) => { const r = el.getBoundingClientRect();
                                       return [el.textContent, r.left, r.top, r.right, r.bottom]; })};
}"""


# the Jaxpr pane's scrolling column (the graph's nearest ancestor that scrolls vertically): its
# content must fit its width (only the graph's own box and code blocks scroll sideways)
PANE_FIT = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  let el = all(document).find((e) => e.classList && e.classList.contains('gp-graph'));
  while (el) {
    el = el.parentNode instanceof ShadowRoot ? el.parentNode.host : el.parentElement;
    if (el && /(auto|scroll)/.test(getComputedStyle(el).overflowY) && el.clientHeight > 300) break;
  }
  return el ? [el.scrollWidth, el.clientWidth] : null;
}"""


def overlaps(labels) -> list:
    out = []
    for i, (ta, l1, t1, r1, b1) in enumerate(labels):
        for tb, l2, t2, r2, b2 in labels[i + 1:]:
            if l1 < r2 - 0.5 and l2 < r1 - 0.5 and t1 < b2 - 0.5 and t2 < b1 - 0.5:
                out.append((ta, tb))
    return out


def graph_labels_never_overlap_nor_get_cut(app_page, name):
    """Run by tests/browser/test_gallery.py::test_every_pane_shows_something_true on each example it
    has just loaded (a load of its own here cost ~2.5 s an example in the whole suite)."""
    page = app_page.page
    snap = page.evaluate("() => window.gradpad.snapshot()")
    assert snap["example"] == name and snap["view"] == "f", (name, snap["example"], snap["view"])
    tab(page, "Jaxpr").click()
    checked = 0
    for view, label in (("f", "f"), ("grad", "grad(f)")):
        page.locator("#app .bk-btn-group button").filter(has_text=label).first.click() if view == "grad" else \
            page.locator("#app .bk-btn-group button").get_by_text("f", exact=True).first.click()
        snap = wait_snapshot(app_page, lambda s: s.get("view") == view)
        if not snap["jaxpr"]:
            continue  # this view is an error (grad of a non-scalar f): the pane says why instead
        page.locator("#app .gp-graph").first.wait_for(state="attached", timeout=60_000)
        try:
            page.wait_for_function("(" + LABEL_BOXES + ")().labels.length > 0", timeout=60_000)
        except Exception:
            shot(page, f"graph_{name}_{view}_missing")
            raise AssertionError(f"{name} {view}: no graph labels; console: " + "\n".join(app_page.console[-15:]))
        boxes = page.evaluate(LABEL_BOXES)
        labels = boxes["labels"]
        assert len(labels) >= snap["eqn_count"], (name, view, len(labels))
        assert overlaps(labels) == [], (name, view, overlaps(labels)[:5])
        cl, ct, cr, cb = boxes["canvas"]
        cut = [t for t, l, tp, r, b in labels if l < cl - 0.5 or r > cr + 0.5 or tp < ct - 0.5 or b > cb + 0.5]
        assert cut == [], (name, view, cut)
        scroll_w, client_w = page.evaluate(PANE_FIT)
        assert scroll_w <= client_w + 2, (name, view, scroll_w, client_w)
        checked += 1
        if name in ("mlp_sin", "linear_regression_pytree"):
            page.locator("#app .gp-graph").first.scroll_into_view_if_needed()
            shot(page, f"graph_{name}_{view}_1400x900")
    assert checked >= 1, name


WIDEST = """() => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  return all(document).filter((el) => el.scrollWidth > el.clientWidth + 2 && getComputedStyle(el).overflowX !== 'visible')
    .map((el) => [el.tagName, String(el.className).slice(0, 60), el.clientWidth, el.scrollWidth]);
}"""


def test_clicking_a_kernel_in_the_graph_shows_its_wgsl(app_page):
    page = app_page.page
    load(app_page, example="mlp_sin")
    tab(page, "Jaxpr").click()
    page.locator("#app .bk-btn-group button").get_by_text("f", exact=True).first.click()
    wait_snapshot(app_page, lambda s: s.get("view") == "f")
    page.wait_for_function("(" + LABEL_BOXES + ")().labels.length > 0", timeout=60_000)
    # each node sits just under its label (HTMLLabelSet y_offset=10)
    card = page.locator("#app .gp-kgrid").first
    before = card.inner_text()
    # bring the last matmul's label into view (the graph scrolls in its own box), then click its node
    rect = page.evaluate("""() => {
      const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
        if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
      const els = all(document).filter((el) => el.tagName === 'DIV' && el.style.whiteSpace === 'pre' &&
                                               el.textContent === 'dot_general');
      const el = els[els.length - 1];
      el.scrollIntoView({block: 'center', inline: 'center'});
      const r = el.getBoundingClientRect();
      return [r.left, r.top, r.right, r.bottom];
    }""")
    left, top, right, bottom = rect
    page.mouse.click((left + right) / 2, bottom + 9)
    page.wait_for_function("""(before) => {
      const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
        if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
      const k = all(document).find((el) => el.classList && el.classList.contains('gp-kgrid'));
      return k && k.innerText !== before;
    }""", arg=before, timeout=30_000)
    shown = card.inner_text()
    assert "matmul" in shown and "dot_general" in shown and "@compute" in shown and "fn main" in shown, shown[:400]
    card.scroll_into_view_if_needed()
    shot(page, "kernels_wgsl_mlp_sin_1400x900")
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        settled(page)
        scroll_w, client_w = page.evaluate(PANE_FIT)
        assert scroll_w <= client_w + 2, ("390x844", scroll_w, client_w, page.evaluate(WIDEST))
        card.scroll_into_view_if_needed()
        # the WGSL box keeps its text and a readable height on a phone (it once showed empty there)
        wgsl = page.locator("#app .gp-wgsl").first
        wgsl.scroll_into_view_if_needed()
        box = wgsl.bounding_box()
        assert "fn main" in wgsl.inner_text() and box["height"] > 100 and box["width"] > 250, box
        shot(page, "kernels_wgsl_mlp_sin_390x844")
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})
