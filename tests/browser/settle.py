"""Waits on what the page does, not on the clock: after a tab click or a resize, BokehJS lays the
pane out and paints its canvases over the next frames. `settled(page)` returns once BokehJS has
finished rendering and the layout holds still (the same boxes and canvas sizes for a while and two
frames in a row), however slow the machine; a fixed sleep was too long on a fast machine and could
be too short on a loaded one."""
from __future__ import annotations

# the geometry of the app's visible canvases, how many elements show, how many Bokeh views there
# are, and the document's size, through shadow roots; the promise resolves once it has been
# unchanged for `quiet` ms and at least two animation frames (a relayout that a library defers to
# a timer lands in that time) and BokehJS has finished rendering every root, or after `limit` ms
STILL = """async ([selector, quiet, limit]) => {
  const root = document.querySelector(selector) || document.body;
  const all = (r, out = []) => { for (const el of r.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const shape = () => {
    const parts = [document.documentElement.scrollWidth, document.documentElement.scrollHeight];
    let shown = 0;
    for (const el of all(root)) {
      if (!el.getClientRects().length) continue;
      shown += 1;  // what is shown at all (a tab's content appearing)
      if (el.tagName !== 'CANVAS') continue;
      const b = el.getBoundingClientRect();
      parts.push(el.width, el.height, b.left | 0, b.top | 0, b.width | 0, b.height | 0);
    }
    return parts.join(',') + '|' + shown + '|' + views().length;
  };
  // BokehJS builds the views of models a patch brought asynchronously: how many there are, and
  // whether every root has finished rendering (its children included)
  const views = () => (window.Bokeh && Bokeh.index ? [...Bokeh.index.query(() => true)] : []);
  const finished = () => !window.Bokeh || !Bokeh.index || [...Bokeh.index.roots].every((v) => v.has_finished());
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const t0 = performance.now();
  let last = shape(), still = 0, since = t0;
  while ((still < 2 || performance.now() - since < quiet || !finished()) && performance.now() - t0 < limit) {
    await frame();
    const now = shape();
    if (now === last) still += 1; else { still = 0; since = performance.now(); }
    last = now;
  }
  await frame();  // and painted
}"""


def settled(page, selector: str = "#app", quiet_ms: int = 150, limit_ms: int = 10_000) -> None:
    """Wait until BokehJS has rendered and the layout under `selector` (a Page or a Frame) has held
    still for `quiet_ms` and two frames."""
    page.evaluate(STILL, [selector, quiet_ms, limit_ms])


def show_tab(page, title: str, root: str = "#app") -> None:
    """Click the output tab titled `title` and wait until it is the active one and laid out."""
    page.locator(f"{root} .bk-tab").filter(has_text=title).first.click()
    page.locator(f"{root} .bk-tab.bk-active").filter(has_text=title).first.wait_for(state="attached")
    settled(page, root)
