"""Issue 26: a tutorial's own array sizes never freeze the page. The jit tutorial's cell at its
own size (selu on 1e6 elements) held the page's main thread for ~310 s: the Plots pane drew
2 x 1e6 scatter points and the vmap pane 4 lines of 1e6 (BokehJS paints on the main thread).
Now the panes send bounded data and say what they left out (app/pane_bounds.py).

A 50 ms heartbeat on the page records the longest gap between its ticks while each program
runs, its panes fill and its Plots and vmap tabs are shown. What remained after the bounds was
BokehJS laying out the WHOLE document (every plot of every tab) at each change of a pane's
content, several times per run, for any program size: now a change lays out only the pane or
figure it is in (static/layout_bounds.js), and no pass over the whole document happens while a
program's panes arrive (asserted: a count, not a time). The gap must stay within GAP_MS; on a
loaded machine the page's own work on any program's new panes takes longer, so the bound there
is what the 1,000-element selu costs in the same session, twice, plus 250 ms. No chart source on
the page holds more than 2,000 points.

Counts that stand for the rest of the main thread's work (times are no test on a loaded machine):
a program like the last builds no new BokehJS view, and the accessibility pass looks only at what
changed, in slices (static/a11y.js).

Stop: a Stop ends the run the moment the interrupt lands in the learner's code (the worker says
so before it draws the stopped run's panes, which the page used to wait for): the run is over
before any patch of the stopped run reaches the page, within STOP_MS, or on a busy machine
within three of the page's round trips to Python for a fixed bit of work measured just before."""
from __future__ import annotations

import re
import time

import pytest

pytestmark = pytest.mark.timeout(600)

GAP_MS = 100

SELU = """import jax, jax.numpy as jnp
from jax import random
key = random.PRNGKey(0)
x = random.normal(key, ({n},))
def selu(x, alpha=1.67, lmbda=1.05):
  return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
selu_jit = jax.jit(selu)
selu_jit(x).block_until_ready()
"""
TIMING_LOOP = """for _ in range(1000):
  selu_jit(x).block_until_ready()
"""
TANH_LINSPACE = """import jax, jax.numpy as jnp
x = jnp.linspace(-3.0, 3.0, {n})
f = jax.jit(lambda x: jnp.tanh(x) * 2.0)
f(x)
"""
MATVEC = """import jax, jax.numpy as jnp
W = jnp.linspace(-1.0, 1.0, {n} * {n}).reshape({n}, {n})
v = jnp.ones({n})
def layer(W, v):
  return jnp.tanh(W @ v)
layer(W, v)
"""
SCAN = """import jax, jax.numpy as jnp
from jax import lax
def decay(x):
  def step(c, _):
    c = c * 0.9999 + 1e-4 * jnp.sin(c)
    return c, c
  final, _ = lax.scan(step, x, None, length={n})
  return final
decay(1.0)
"""

HEARTBEAT_START = """() => { const h = window.__gpHeartbeat = {last: performance.now(), max: 0};
  clearInterval(window.__gpHeartbeatId);
  window.__gpHeartbeatId = setInterval(() => { const t = performance.now();
    h.max = Math.max(h.max, t - h.last); h.last = t; }, 50);
  return true; }"""
# a load started from a timer, so that this evaluate returns while the page works
LOAD_LATER = """code => { window.__gpBig = null;
  setTimeout(() => window.gradpad.load({code}).then(s => { window.__gpBig = {snap: s}; },
                                                     e => { window.__gpBig = {error: String(e)}; }), 0);
  return true; }"""
PANE_TEXT = """(title) => {
  const tabs = [...document.querySelectorAll('#app *')].flatMap(function all(el) {
    return [el, ...(el.shadowRoot ? [...el.shadowRoot.querySelectorAll('*')].flatMap(all) : [])]; });
  const tab = tabs.find((el) => el.classList && el.classList.contains('bk-tab') && el.textContent.trim() === title);
  if (tab) tab.click();
  return true; }"""
VISIBLE_TEXT = """() => {
  const out = [];
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = it.nextNode(); n; n = it.nextNode()) {
      const el = n.parentElement;
      if (el && !['STYLE', 'SCRIPT'].includes(el.tagName) && el.getClientRects().length) out.push(n.textContent);
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document.querySelector('#app'));
  return out.join(' ');
}"""


# the longest column of any ColumnDataSource in the page's document: what BokehJS draws
DRAWN_POINTS = """() => { let most = 0;
  for (const doc of window.Bokeh.documents) for (const m of doc.all_models)
    if (m.type === 'ColumnDataSource' || (m.data && m.constructor.name === 'ColumnDataSource'))
      for (const col of Object.values(m.data)) most = Math.max(most, col.length || 0);
  return most; }"""
# the tops of the five panes (Panel's Tabs stacks them in one grid cell): all the same, or a pane
# stood under the others, out of its tab's view (a layout of one pane had lost their stacking)
PANE_TOPS = """() => { const all = (r) => [...r.querySelectorAll('*')].flatMap((e) => [e, ...(e.shadowRoot ? all(e.shadowRoot) : [])]);
  return all(document).filter((e) => e.classList && [...e.classList].some((c) => /^gp-pane-(jaxpr|plot|vmap|timing|console)$/.test(c)))
    .map((e) => Math.round(e.getBoundingClientRect().top)); }"""
REFERENCE: dict = {}  # the small selu's gap: what any program's new panes cost the page here


WHOLE_LAYOUTS = "() => window.gradpad.layouts ? window.gradpad.layouts.whole : null"


def load_with_heartbeat(gp, code: str, timeout_s: float = 240) -> tuple[dict, float, float]:
    """(snapshot, seconds to complete panes, longest heartbeat gap in ms) of loading `code`, then
    showing its Plots and vmap tabs (a hidden figure is painted when its tab is shown).
    REFERENCE["whole"]: BokehJS's layout passes over the whole document meanwhile."""
    page = gp.page
    whole = page.evaluate(WHOLE_LAYOUTS)
    page.evaluate(HEARTBEAT_START)
    t0 = time.monotonic()
    page.evaluate(LOAD_LATER, code)
    # polled with a timeout: page.evaluate would hang on a frozen page
    page.wait_for_function("() => window.__gpBig", timeout=timeout_s * 1000, polling=100)
    seconds = time.monotonic() - t0
    done = page.evaluate("() => window.__gpBig")
    assert "error" not in done, done
    for title in ("Plots", "vmap", "Jaxpr"):
        page.evaluate(PANE_TEXT, title)
        page.wait_for_timeout(400)  # the tab's figures are laid out and painted meanwhile
    gap = page.evaluate("() => { clearInterval(window.__gpHeartbeatId); return window.__gpHeartbeat.max; }")
    after = page.evaluate(WHOLE_LAYOUTS)
    REFERENCE["whole"] = None if whole is None or after is None else after - whole
    return done["snap"], seconds, gap


def tab_text(gp, title: str) -> str:
    gp.page.evaluate(PANE_TEXT, title)
    gp.page.wait_for_timeout(300)
    return " ".join(gp.page.evaluate(VISIBLE_TEXT).split())


def neutral(gp) -> None:
    """The default example: the next program's figures are new ones, as for a pasted program."""
    from app.main import DEFAULT_EXAMPLE
    gp.page.evaluate("opts => window.gradpad.load(opts)", {"example": DEFAULT_EXAMPLE})


def allowed_gap() -> float:
    """GAP_MS, or on a busy machine what a small program's new panes cost the page here (x2):
    the page's own relayout, the same for any array size (see the module's docstring)."""
    return max(GAP_MS, 2 * REFERENCE.get("small", 0.0) + 250)


def big(gp, template: str, n: int) -> tuple[dict, float, float]:
    neutral(gp)
    snap, seconds, gap = load_with_heartbeat(gp, template.format(n=n))
    print(f"\n[big arrays] {template.splitlines()[-1]} n={n}: panes in {seconds:.1f} s, longest main-thread "
          f"gap {gap:.0f} ms (allowed {allowed_gap():.0f} ms), whole-document layouts {REFERENCE['whole']}", flush=True)
    assert gp.page.evaluate(DRAWN_POINTS) <= 2000
    # each change laid out only its pane or figure: no pass over every plot of every tab
    assert REFERENCE["whole"] == 0, REFERENCE
    return snap, seconds, gap


@pytest.fixture(scope="module")
def page(app_page):
    """The app page, with REFERENCE["small"] measured: the 1,000-element selu's gap."""
    neutral(app_page)
    _, _, REFERENCE["small"] = load_with_heartbeat(app_page, SELU.format(n=1000))
    print(f"\n[big arrays] the 1,000-element selu: longest main-thread gap {REFERENCE['small']:.0f} ms", flush=True)
    return app_page


def test_selu_on_a_million_elements_keeps_the_page_responsive(page):
    gp = page
    snap, seconds, gap = big(gp, SELU, 1_000_000)
    assert snap["error"] is None and snap["function"] in ("selu", "selu_jit")
    plots = tab_text(gp, "Plots")
    tops = gp.page.evaluate(PANE_TOPS)
    assert len(tops) == 5 and len(set(tops)) == 1, tops  # the Plots pane in its tab's place, not below
    assert snap["plots"] == {"f": 2000, "df": 2000}, plots  # drawn: 2,000 of the 1,000,000 points
    assert "plotted 2,000 of 1,000,000 points" in plots
    vmap_text = tab_text(gp, "vmap")
    assert "plotted 2,000 of 1,000,000 outputs of each element" in vmap_text
    size = snap["vmap"]["rows"] and int(re.search(r"showing (\d)×8 of \(\d, 1000000\)", vmap_text).group(1))
    assert size in (2, 3, 4), vmap_text  # fewer than 4 copies where one call of f is slow here: then it says so
    assert size == 4 or f"a batch of {size}, not 4: one call of f takes" in vmap_text
    assert gap <= allowed_gap(), (gap, REFERENCE)


def test_ten_million_elements_plot_sampled_and_vmap_says_it_skipped(page):
    gp = page
    snap, seconds, gap = big(gp, TANH_LINSPACE, 10_000_000)
    assert snap["error"] is None
    plots = tab_text(gp, "Plots")
    assert snap["plots"] == {"f": 2000, "df": 2000}, plots
    assert "plotted 2,000 of 10,000,000 points" in plots
    assert "your input has 10,000,000 elements" in snap["vmap"]["skipped"]
    assert "vmap comparison skipped: your input has 10,000,000 elements" in tab_text(gp, "vmap")
    assert gap <= allowed_gap(), (gap, REFERENCE)


def test_a_1000x1000_matrix_program_fills_its_panes(page):
    gp = page
    snap, seconds, gap = big(gp, MATVEC, 1000)
    assert snap["error"] is None and snap["function"] == "layer"
    # 1,001,000 input elements: a batch of 3 copies fits the pane's bound, 4 do not
    assert snap["vmap"]["bounded"].startswith("a batch of 3, not 4: your input has 1,001,000 elements")
    assert "a batch of 3, not 4" in tab_text(gp, "vmap")
    assert snap["timings"]["jit_steady_s"] > 0
    assert gap <= allowed_gap(), (gap, REFERENCE)


def test_a_10k_step_scan_fills_or_says_what_it_skipped(page):
    gp = page
    snap, seconds, gap = big(gp, SCAN, 10_000)
    assert snap["error"] is None and snap["function"] == "decay"
    vmap = snap["vmap"]
    assert vmap["skipped"] or vmap["bounded"] or set(vmap["rows"]) >= {"loop", "vmap"}, vmap
    plots = tab_text(gp, "Plots")
    assert snap["plots"] or "did not finish within" in plots, plots
    timing = tab_text(gp, "Timing")
    assert "jit speed-up" in timing, timing
    assert gap <= allowed_gap(), (gap, REFERENCE)


# Stop pressed `after_ms` into a run of `code`: how long until the page shows no run in flight
# (ms), and until the first patch of the stopped run reached the page (patch_ms, null: none
# before the run was over); rt_ms: the page's round trip to Python for a fixed bit of work just
# before, the quickest of three (~10 ms on a quiet machine): the machine's pace on a busy one
STOP_DURING = """async ([code, afterMs]) => {
  const gp = window.gradpad;
  const trips = [];
  for (let i = 0; i < 3; i++) { const t = performance.now(); await gp.runPython('sum(range(300000))'); trips.push(performance.now() - t); }
  const stops = gp.stops.length;
  const done = gp.load({code}).catch((e) => ({error: String(e)}));
  while (!gp.running) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, afterMs));
  const t0 = performance.now(), patches = gp.patches.n;
  if (!gp.interrupt()) return {ms: null, late: true};
  let patchMs = null;
  while (gp.running) {
    await new Promise((r) => setTimeout(r, 1));
    if (patchMs === null && gp.patches.n !== patches) patchMs = performance.now() - t0;
  }
  const ms = performance.now() - t0;
  const snap = await done;
  return {ms, patch_ms: patchMs, rt_ms: Math.min(...trips), ended_worker: gp.stops.length > stops,
          error: snap && snap.error, isolated: gp.isolated};
}"""
STOP_MS = 100


@pytest.mark.parametrize("after_ms", [300])  # (2.5 s in, the run has ended: nothing to stop)
def test_stop_ends_a_big_array_run_promptly(page, after_ms):
    gp = page
    neutral(gp)
    gp.page.set_default_timeout(240_000)
    # a tutorial's timing loop over the 1e6 selu: still running when Stop comes, on a fast machine
    # too (a single call could end before the 300 ms, and there was nothing left to stop)
    r = gp.page.evaluate(STOP_DURING, [SELU.format(n=1_000_000) + TIMING_LOOP, after_ms])
    print(f"\n[big arrays] Stop {after_ms} ms into the 1e6 selu: run ended after {r['ms']} ms "
          f"(round trip {r.get('rt_ms')} ms, first patch after {r.get('patch_ms')} ms)", flush=True)
    assert not r.get("late"), "the timing loop had ended before Stop: nothing was stopped"
    assert r["isolated"]
    assert r["error"] and r["error"]["type"] == "KeyboardInterrupt", r
    if r["ended_worker"]:
        # the interrupt did not land within 400 ms (C code, a busy page): the page ended the
        # worker (loader.js interrupt), and the bound is issue 29's, usable again within a second
        assert r["ms"] <= 1000, r
        return
    # the run is over when the interrupt lands, not after the stopped run's panes are drawn
    # and sent (before: the page heard of the end only after their patch, 335-1630 ms at load 17)
    assert r["patch_ms"] is None or r["ms"] < r["patch_ms"], r
    assert r["ms"] <= max(STOP_MS, 3 * r["rt_ms"]), r


# What the page builds and walks for a program's panes (counts, not times: the test machine is loaded).
# views: LayoutDOM views BokehJS built (static/layout_bounds.js); a11y: the accessibility pass's own
# slices (static/a11y.js); elements: the app's elements, shadow roots included.
PAGE_COUNTS = """() => { let n = 0;
  const walk = (r) => { for (const e of r.querySelectorAll('*')) { n++; if (e.shadowRoot) walk(e.shadowRoot); } };
  walk(document.getElementById('app'));
  return {views: window.gradpad.layouts.views, a11y: {...window.gradpad.a11y.stats}, elements: n}; }"""
A11Y_SLICE_ELEMENTS = 400  # static/a11y.js SLICE_ELEMENTS


def test_a_program_like_the_last_builds_no_new_views_and_the_a11y_pass_looks_only_at_changes(page):
    """Issue 26: the page's main thread never blocked for long. A second program whose panes have
    the first one's structure (the selu on other numbers) puts its data into the views on show: no
    new BokehJS view (building views for new children was most of a run's main-thread time). The
    accessibility pass looks at what the patches changed, not at the whole app (it walked every
    element of every pane after each burst of patches: 0.3-2 s per run at load 20), in slices of
    at most A11Y_SLICE_ELEMENTS elements, each its own task."""
    gp = page
    idle = "() => window.gradpad.a11y.idle() && !window.gradpad.running && !(window.gradpad.panes.pending || []).length"
    gp.page.set_default_timeout(240_000)
    # two loads first: whatever an earlier test left on the shared page (a notice, another tab's
    # content) is replaced by the first; the second shows the selu's own structure
    for n in (1000, 1100):
        gp.page.evaluate("code => window.gradpad.load({code})", SELU.format(n=n))
        gp.page.wait_for_function(idle, timeout=240_000, polling=200)
    before = gp.page.evaluate(PAGE_COUNTS)
    snap = gp.page.evaluate("code => window.gradpad.load({code})", SELU.format(n=1200).replace("alpha=1.67", "alpha=1.6"))
    gp.page.wait_for_function(idle, timeout=240_000, polling=200)
    after = gp.page.evaluate(PAGE_COUNTS)
    print(f"\n[big arrays] a program like the last: {after['views'] - before['views']} new views; a11y looked at "
          f"{after['a11y']['elements'] - before['a11y']['elements']} elements of {after['elements']} in "
          f"{after['a11y']['slices'] - before['a11y']['slices']} slices", flush=True)
    assert snap["error"] is None and snap["function"] in ("selu", "selu_jit"), snap
    assert "1200" in tab_text(gp, "Jaxpr")  # the panes show the second program
    assert after["views"] - before["views"] == 0, (before, after)
    looked = after["a11y"]["elements"] - before["a11y"]["elements"]
    assert 0 < looked < after["elements"] / 2, (before, after)
    assert after["a11y"]["maxSliceElements"] <= A11Y_SLICE_ELEMENTS, after
    # the first pass walked the whole app: in several slices, never all at once
    assert after["a11y"]["slices"] > after["a11y"]["passes"], after
