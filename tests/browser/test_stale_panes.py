"""No stale pane, ever (issue 26), on the built site: programs loaded one after another (gallery
examples, a function of 0 equations, one that raises, vector and pytree functions, a program with
no function), through the page API and through the editor; after each, every pane's text belongs
to the LAST program: its own marks are there, no earlier program's are. Also: the status line
says a run is on while one is, and the address bar and Back follow the programs chosen."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(900)
SHOTS = Path(os.environ.get("GRADPAD_SCREENSHOTS", "/tmp/gradpad-screenshots"))

# program -> how to load it, and per pane the text it shows there (whitespace collapsed). A pane
# shows the program's own marks; the marks of a program loaded before, not shared with the last
# one, must be gone from it.
PROGRAMS = {
    "sin": {"code": "import jax.numpy as jnp\n\ndef f_sin(x):\n    return jnp.sin(x) * 2.0\n\nprint('MARK_sin', f_sin(0.5))\n",
            "marks": {"jaxpr": ["= sin a", "fused[mul,sin]"], "plot": ["xs = jnp.linspace(-2.5, 3.5, 201)"],
                      "vmap": ["batch 0 0.95885"], "timing": ["jit speed-up", "2 equations → 1 kernel"],
                      "console": ["MARK_sin 0.9588511"]}},
    "zero": {"code": "import jax.numpy as jnp\nv = jnp.arange(3.0)\n\ndef g_zero(x):\n    return x\n\nprint('MARK_zero', g_zero(v[0]))\n",
             "marks": {"jaxpr": ["let in (a,) }", "0 kernels for 0 equations"], "plot": ["xs = jnp.linspace(-3, 3, 201)"],
                       "vmap": ["batch 0 0 batch 1 0.5 batch 2 1 batch 3 1.5 Loop"],
                       "timing": ["jit speed-up", "0 equations → 1 kernel"], "console": ["MARK_zero 0.0"]}},
    "vec": {"code": "import jax.numpy as jnp\n\ndef k_vec(x):\n    return jnp.tanh(x) * x\n\nprint('MARK_vec', k_vec(jnp.arange(4.0)))\n",
            "marks": {"jaxpr": ["= tanh a", "fused[mul,tanh]"], "plot": ["J = jax.jacfwd(f)(x)"],
                      "vmap": ["batch 0 0 0.76159"], "timing": ["jit speed-up", "2 equations → 1 kernel"],
                      "console": ["MARK_vec [0. 0.7615942"]}},
    "tree": {"code": "import jax.numpy as jnp\n\ndef p_tree(params):\n    return params['w'] * jnp.cos(params['b'])\n\n"
                     "print('MARK_tree', p_tree({'w': 2.0, 'b': 1.0}))\n",
             "marks": {"jaxpr": ["= cos a", "fused[mul,cos]"], "plot": ["d = grad(f)(x) / |grad(f)(x)|"],
                       "vmap": ["batch 0 1.0806"], "timing": ["jit speed-up", "2 equations → 1 kernel"],
                       "console": ["MARK_tree 1.0806046"]}},
    "raise": {"code": "import jax.numpy as jnp\n\ndef h_raise(x):\n    raise ValueError('MARK_raise: this function always fails')\n\n"
                      "h_raise(2.0)\n",
              "marks": {"jaxpr": ["ValueError: MARK_raise"], "plot": ["h_raise(2.0) is none of these"],
                        "vmap": ["ValueError: MARK_raise"], "timing": ["ValueError: MARK_raise"],
                        "console": ["ValueError: MARK_raise"]}},
    "nofn": {"code": "x = 40 + 2\nprint('MARK_nofn', x)\n",
             "marks": {"jaxpr": ["Run some code that defines a function"], "plot": ["No function to plot yet."],
                       "vmap": ["No function input to batch yet."], "timing": ["No function to time yet."],
                       "console": ["MARK_nofn 42"]}},
    "ex_jvp": {"example": "jvp_and_vjp",
               "marks": {"jaxpr": ["div b 2.0", "fused[div,mul]"], "plot": ["J = jax.jacfwd(f)(x)"],
                         "vmap": ["batch 0 1.3165"], "timing": ["jit speed-up", "2 equations → 1 kernel"],
                         "console": ["v^T Jf(x)"]}},
    "ex_scan": {"example": "lax_control_flow",
                "marks": {"jaxpr": ["= scan ["], "plot": ["J = jax.jacfwd(f)(x)"], "vmap": ["batch 0 0 1 3 6 10"],
                          "timing": ["jit speed-up", "1 equation → 1 kernel"], "console": ["while_loop doubling: 128"]}},
}
PANES = ("jaxpr", "plot", "vmap", "timing", "console")
# pairs and triples in one chain: every program after several others; (name, how: page API or editor)
CHAIN = [("sin", "api"), ("zero", "api"), ("vec", "editor"), ("raise", "api"), ("tree", "editor"), ("nofn", "api"),
         ("ex_jvp", "api"), ("zero", "editor"), ("ex_scan", "api"), ("raise", "editor"), ("sin", "api")]

# the text of one pane (its Column has class gp-pane-NAME), shadow roots included; what the app
# hides while it recomputes (CSS visibility) is left out, as a reader does not see it. Hidden tabs
# are read too: their content is what the tab shows when clicked.
PANE_TEXT = """(cls, throughTab = false) => {
  const find = (root) => { for (const el of root.querySelectorAll('*')) {
      if (el.classList && el.classList.contains(cls)) return el;
      if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; } } return null; };
  const pane = find(document);
  if (!pane) return null;
  const out = [];
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = it.nextNode(); n; n = it.nextNode()) {
      const el = n.parentElement;
      if (el && !['STYLE', 'SCRIPT'].includes(el.tagName) && getComputedStyle(el).visibility !== 'hidden') out.push(n.textContent);
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  // throughTab: the pane read as if its tab were shown (a hidden tab's column is visibility:
  // hidden, BokehJS's Tabs; what is hidden inside the pane stays hidden)
  const own = pane.style.getPropertyValue('visibility');
  if (throughTab && own === 'hidden') pane.style.setProperty('visibility', 'visible');
  try { walk(pane.shadowRoot || pane); } finally { if (throughTab) pane.style.setProperty('visibility', own); }
  return out.join(' ').replace(/\\s+/g, ' ');
}"""
SET_EDITOR = """(code) => {
  const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  const ace = all(document).find((el) => el.classList && el.classList.contains('ace_editor') && el.env);
  ace.env.editor.setValue(code, 1);
}"""


def load(gp, **opts) -> dict:
    gp.page.set_default_timeout(180_000)
    return gp.page.evaluate("opts => window.gradpad.load(opts)", opts)


def settle(gp, code: str | None, timeout_s: float = 120) -> dict:
    """Wait until the app shows `code` (None: anything) and no pane is still measuring."""
    deadline = time.monotonic() + timeout_s
    while True:
        snap = gp.page.evaluate("() => window.gradpad.snapshot()")
        panes = gp.page.evaluate("() => window.gradpad.panes")
        if (code is None or snap["code"] == code) and not snap["pending"] and panes and not panes["pending"] \
                and panes["run"] == snap["run"]:
            return snap
        assert time.monotonic() < deadline, f"the app did not settle: {snap['code'][:60]!r} {snap['pending']}"
        time.sleep(0.3)


def pane_texts(page) -> dict:
    """Each pane's text, hidden tabs read as if shown (the app has settled: none is recomputing)."""
    texts = {name: page.evaluate("([c, t]) => (" + PANE_TEXT + ")(c, t)", [f"gp-pane-{name}", True]) for name in PANES}
    texts["strip"] = page.evaluate(PANE_TEXT, "gp-console-strip")  # the console under the editor
    return texts


def test_every_pane_belongs_to_the_last_program(app_page):
    from app import examples
    gp, page = app_page, app_page.page
    started = time.monotonic()
    problems = []
    for step, (name, how) in enumerate(CHAIN):
        prog = PROGRAMS[name]
        code = prog.get("code") or examples.load(prog["example"]).code
        if how == "api":
            load(gp, **{k: v for k, v in prog.items() if k in ("code", "example")})
        else:  # typed: the edit reruns the code (the autorun), as a learner's paste does
            page.evaluate(SET_EDITOR, code)
        snap = settle(gp, code)
        marks = dict(prog["marks"], strip=prog["marks"]["console"])
        # read once, as soon as the app reports the run done: each pane shows its content from
        # then on (Panel's HTML panes no longer wait for their stylesheets' load events to show
        # their text: static/markup_shown.js)
        texts = pane_texts(page)
        earlier = {n for n, _ in CHAIN[:step]} - {name}
        for pane, text in texts.items():
            where = f"step {step} ({name} by {how}), {pane} pane"
            if not text or not text.strip():
                problems.append(f"{where}: blank")
                continue
            for mark in marks[pane]:
                if mark not in text:
                    problems.append(f"{where}: its own {mark!r} is missing: {text[:300]!r}")
            for other in earlier:
                stale = [m for m in dict(PROGRAMS[other]["marks"], strip=PROGRAMS[other]["marks"]["console"])[pane]
                         if m not in marks[pane] and not any(m in own for own in marks[pane])]
                for m in stale:
                    if m in text:
                        problems.append(f"{where}: shows {other}'s {m!r}")
            if "could not be drawn" in text:
                problems.append(f"{where}: a pane builder failed: {text[:300]!r}")
        if snap["failed_panes"]:
            problems.append(f"step {step} ({name}): failed panes {snap['failed_panes']}")
    print(f"\n[stale panes] {len(CHAIN)} programs in {time.monotonic() - started:.1f} s")
    assert problems == [], "\n".join(problems)


SLOW_TIMED = ("import time\nimport jax.numpy as jnp\n\ndef s_slow(x):\n    time.sleep(0.25)\n"
              "    return jnp.cos(x) * 3.0\n\nprint('MARK_slow', s_slow(0.5))\n")
# Panel's HTML panes whose text container is inline `visibility: visible` (it beats the hidden
# column of a pane being recomputed)
VISIBLE_CONTAINERS = """() => {
  const all = (r, out = []) => { for (const el of r.querySelectorAll('*')) { out.push(el); if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
  return all(document).filter((e) => e.classList && e.classList.contains('bk-panel-models-markup-HTML') && e.shadowRoot)
    .map((h) => [...h.shadowRoot.children].find((c) => c.tagName === 'DIV'))
    .filter((c) => c && c.style.getPropertyValue('visibility') === 'visible').length;
}"""


def test_a_pane_being_recomputed_shows_none_of_the_last_programs_text(app_page):
    """While the Timing pane measures new code it says so, and the last program's numbers under
    the note are hidden (Panel's HTML panes set their text `visibility: visible` inline, which
    showed them through the hidden pane: "measuring eager vs jit… jit speed-up 45×")."""
    gp, page = app_page, app_page.page
    page.locator("#app .bk-tab").filter(has_text="Timing").first.click()  # the pane in view
    load(gp, code=PROGRAMS["sin"]["code"])
    settle(gp, PROGRAMS["sin"]["code"])
    assert "jit speed-up" in page.evaluate(PANE_TEXT, "gp-pane-timing")
    page.evaluate("(c) => { window.__slowLoad = window.gradpad.load({code: c}); return true; }", SLOW_TIMED)
    seen, deadline = None, time.monotonic() + 120
    while seen is None and time.monotonic() < deadline:  # s_slow's eager calls take >= 1 s to time
        text = page.evaluate(PANE_TEXT, "gp-pane-timing") or ""
        if "measuring eager vs jit" in text and "MARK_slow" in (page.evaluate(PANE_TEXT, "gp-console-strip") or ""):
            seen = text  # the new program's panes are in, its timing not yet
        time.sleep(0.05)
    page.evaluate("() => window.__slowLoad.then(() => null)")
    page.locator("#app .bk-tab").filter(has_text="Jaxpr").first.click()  # as the other tests find it
    assert seen is not None, "never saw the Timing pane measuring the new code"
    assert "jit speed-up" not in seen and "2 equations" not in seen, f"the last program's timing shows: {seen!r}"
    assert page.evaluate(VISIBLE_CONTAINERS) == 0
    assert page.evaluate("() => window.gradpad.markup.atOnce") > 0  # new panes showed their text at render


def test_status_line_says_running_while_the_code_runs(app_page):
    """A run in flight: the status line says so (it said '✓ ran in 0 ms · no function found')."""
    gp, page = app_page, app_page.page
    load(gp, code="x = 1\n")
    slow = "import time\nt0 = time.time()\nwhile time.time() - t0 < 4:\n    pass\nprint('slow done')\n"
    page.evaluate(SET_EDITOR, slow)
    page.wait_for_function("() => window.gradpad.running === true", timeout=30_000)
    status_text = """() => {
      const find = (root) => { for (const el of root.querySelectorAll('*')) {
          if (el.classList && el.classList.contains('gp-status')) return el;
          if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; } } return null; };
      const s = find(document);
      return s ? s.shadowRoot.textContent && [...s.shadowRoot.querySelectorAll('*')]
        .filter((e) => !['STYLE'].includes(e.tagName) && e.getClientRects().length && !e.children.length)
        .map((e) => e.textContent).join(' ') : null;
    }"""
    during = page.evaluate(status_text)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "status_running_1400x900.png"))
    assert "running your code" in during and "ran in" not in during, during
    settle(gp, slow)
    page.wait_for_function("() => window.gradpad.running === false", timeout=60_000)
    after = page.evaluate(status_text)
    assert "ran in" in after and "running your code" not in after, after


def test_address_bar_is_the_current_program_and_back_returns(app_page):
    from app import examples, share
    gp, page = app_page, app_page.page
    load(gp, example="jvp_and_vjp")
    settle(gp, examples.load("jvp_and_vjp").code)
    entries = page.evaluate("() => history.length")
    # pick another example in the list, as a learner does; the address bar follows at once (it
    # kept the last program for 20 s or more)
    page.evaluate("""() => {
      const all = (root, out = []) => { for (const el of root.querySelectorAll('*')) { out.push(el);
        if (el.shadowRoot) all(el.shadowRoot, out); } return out; };
      const s = all(document).find((el) => el.tagName === 'SELECT' && [...el.options].some((o) => o.value === 'pytrees'));
      s.value = 'pytrees'; s.dispatchEvent(new Event('change', {bubbles: true}));
      window.__picked = performance.now();
    }""")
    deadline = time.monotonic() + 10
    while share.parse_hash(page.evaluate("() => location.hash")).code != examples.load("pytrees").code:
        assert time.monotonic() < deadline, "the address bar did not follow the example within 10 s"
        time.sleep(0.1)
    waited_ms = page.evaluate("() => performance.now() - window.__picked")
    settle(gp, examples.load("pytrees").code)
    assert share.parse_hash(page.evaluate("() => location.hash")).example == "pytrees"
    # the example is a history entry (Chromium keeps at most 50: a long test session is at the cap)
    assert page.evaluate("() => history.length") == min(entries + 1, 50)
    # Back: the previous program again, in the editor, the panes and the address bar
    page.go_back(wait_until="commit")
    snap = settle(gp, examples.load("jvp_and_vjp").code, timeout_s=60)
    assert snap["example"] == "jvp_and_vjp" and snap["function"] == "f"
    assert "v^T Jf(x)" in page.evaluate("([c, t]) => (" + PANE_TEXT + ")(c, t)", ["gp-pane-console", True])
    assert share.parse_hash(page.evaluate("() => location.hash")).code == examples.load("jvp_and_vjp").code
    print(f"\n[address bar] followed the picked example after {waited_ms:.0f} ms")


GUESSED = """import jax, jax.numpy as jnp
def f(x):
    return jnp.array([x[0] ** 2, x[0] * x[1]])
primals = (jnp.array([1.0, 2.0]),)
y, vjp_fn = jax.vjp(f, *primals)
print(vjp_fn(jnp.ones(2)))
"""


def test_a_guessed_input_is_labelled_on_a_phone(app_page):
    """f is only called through jax.vjp: the panes' error says it is the guess's, the page fits."""
    gp, page = app_page, app_page.page
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        snap = load(gp, code=GUESSED)
        settle(gp, GUESSED)
        assert snap["args_guessed"] is True and snap["error"] is None
        jaxpr = page.evaluate(PANE_TEXT, "gp-pane-jaxpr")
        assert "IndexError" in jaxpr and "(on the guessed input 1.0)" in jaxpr and "write a call such as f(x)" in jaxpr
        page.wait_for_timeout(500)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "guessed_input_390x844.png"))
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"the page is wider than the phone: {width}"  # the Input's label
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})


# how many events each of the page's calls to BokehJS's apply_json_patch held
WATCH_PATCHES = """() => {
  const D = window.Bokeh.require('document').Document;
  const calls = window.__patchCalls = [];
  if (!D.prototype.__gpWatched) {
    const real = D.prototype.apply_json_patch;
    D.prototype.apply_json_patch = function (p, b) {
      (window.__patchCalls || []).push({ events: (p.events || []).length });
      return real.call(this, p, b);
    };
    D.prototype.__gpWatched = true;
  }
  return true;
}"""


def test_a_run_s_patch_is_applied_in_parts_and_load_returns_once_all_show(app_page):
    """Issue 26 ("never frozen"): a run's panes reach the page in parts, a task each (the page's
    heartbeat and input get turns between them), and the worker's later messages wait for the
    last part: once load() returns (the run's report came after its patch), every pane already
    shows the new program."""
    gp, page = app_page, app_page.page
    load(gp, code=PROGRAMS["sin"]["code"])
    settle(gp, PROGRAMS["sin"]["code"])
    page.evaluate(WATCH_PATCHES)
    patches_before = page.evaluate("() => window.gradpad.patches.n")
    load(gp, code=PROGRAMS["vec"]["code"])
    texts = pane_texts(page)  # read at once: no settle()
    for pane in ("jaxpr", "console", "strip"):  # (the timing pane may still measure: load() does not wait for WebGPU)
        text = texts[pane]
        own = dict(PROGRAMS["vec"]["marks"], strip=PROGRAMS["vec"]["marks"]["console"])[pane]
        old = dict(PROGRAMS["sin"]["marks"], strip=PROGRAMS["sin"]["marks"]["console"])[pane]
        assert all(m in text for m in own) and not any(m in text for m in old if m not in own), (pane, text[:300])
    # the run's patch (inputs, status, the pane in view, timing, console) arrived as several
    # parts, and the page had turns between them
    log = page.evaluate("() => window.gradpad.patches.log")
    assert max(e.get("parts", 1) for e in log) >= 3, log  # one patch, in parts (a task each: patch_chunks.nextTask)
    calls = page.evaluate("() => window.__patchCalls")
    # more calls than patches: unsplit, each patch was one call
    assert len(calls) > page.evaluate("() => window.gradpad.patches.n") - patches_before, calls
    settle(gp, PROGRAMS["vec"]["code"])
