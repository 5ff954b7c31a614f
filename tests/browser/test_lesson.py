"""Teachers' pages (issue 27, and issue 29's "embeds stay in their frame"): a lesson of three
cells on ONE Python, written on a course site of another origin (another local port) as three
code blocks and one script tag (static/lesson.js); and the Embed button's snippet on a cross-origin isolated host.

Each test boots its own Python in its own frame (the session's shared page is not used)."""
from __future__ import annotations

import functools
import html
import os
import threading
import time
from pathlib import Path


from app import share
from tools import serve

from .a11y import axe_violations, describe
from .settle import settled

SHOTS = Path(os.environ.get("GRADPAD_SCREENSHOTS", "/tmp/gradpad-screenshots-lesson"))
BOOT_TIMEOUT_MS = 360_000
# every frame of the page counts the Python sessions it starts for its cells, as the init messages
# its workers get (an independent check of gradpad.boots, the page's own count of Pythons that
# became ready; the throw-away worker that saves the boot snapshot gets no init). A standby Stop
# would take over is not counted: a lesson boots one only once a run has gone on for a second
# (static/standby.js, "lazy"), which a loaded machine's first runs do.
COUNT_WORKERS = """(() => {
  let n = 0;
  window.__gpPythonWorkers = () => n;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (msg && msg.type === 'init' && !msg.standby) n++;
    return post.call(this, msg, ...rest);
  };
})();"""


def course_site(tmp_path, pages: dict, headers: dict | None = None):
    """A second local server (the course site's origin) serving `pages`, with `headers` on each."""
    for name, body in pages.items():
        (tmp_path / name).write_text(body)

    class Handler(serve.Handler):
        def end_headers(self):
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            super().end_headers()

    srv = serve.Server(("127.0.0.1", serve.free_port()), functools.partial(Handler, directory=str(tmp_path)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


# the shown panes (gp-pane-NAME, in Bokeh's shadow roots) that cut their content: taller than their
# box, which scrolls or hides the rest
CLIPPED_PANES = """() => { const out = [], walk = (root) => { for (const el of root.querySelectorAll('*')) {
    const name = [...el.classList].find((c) => c.startsWith('gp-pane-'));
    if (name && el.getBoundingClientRect().height > 0 && el.scrollHeight > el.clientHeight + 2
        && getComputedStyle(el).overflowY !== 'visible')
      out.push([name, el.scrollHeight, el.clientHeight]);
    if (el.shadowRoot) walk(el.shadowRoot); } }; walk(document); return out; }"""


def frame_href(frame) -> str:
    try:
        return frame.evaluate("() => location.href")
    except Exception:  # not ready yet, or detached
        return ""


def frame_with(page, needle: str, timeout_s: float = 60):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for f in page.frames:
            # a credentialless iframe in its own process can be listed before Playwright learns its
            # URL (f.url stays ''), while its document is loaded and running: ask the frame itself
            if needle in (f.url or frame_href(f)):
                return f
        time.sleep(0.3)
    raise AssertionError(f"no frame with {needle!r}: {[f.url for f in page.frames]}")


def settled_snapshot(frame, timeout_s: float = 240) -> dict:
    """The lesson's snapshot once no cell's shown panes are still measuring."""
    deadline = time.monotonic() + timeout_s
    while True:
        snap = frame.evaluate("() => window.gradpad.snapshot()")
        if not snap.get("pending") or time.monotonic() > deadline:
            return snap
        time.sleep(0.5)


def cells(frame):
    return frame.locator(".gp-cell")


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


# the sample lesson's three cells as a course page of its own writes them: ordinary code blocks
# with data- options, prose between them, and ONE script tag (static/lesson.js)
SCRIPT_TAG_CELLS = [
    'data-title="Arrays and a first function" data-panes="jaxpr,plot,console"',
    'data-title="grad of the first cell\'s function" data-panes="plot,jaxpr,console" data-function="slope"',
    'data-title="jvp (click to run)" data-panes="jaxpr,console" data-autorun="0" data-fold data-readonly',
]
HOST_PROSE = "Prose between the blocks, the course site's own."


def script_tag_page(site_url: str) -> str:
    from app import lesson
    codes = [p.code for p in lesson.parse(Path("static/lessons/first-steps.md").read_text()) if isinstance(p, lesson.CellSpec)]
    blocks = [f'<pre {opts}><code class="language-python">{html.escape(code)}</code></pre>'
              for opts, code in zip(SCRIPT_TAG_CELLS, codes, strict=True)]
    return ("<!doctype html><html lang=en><meta charset=utf-8><title>Course</title><h1>Week 1</h1>"
            + f"<p class=prose>{HOST_PROSE}</p>".join(blocks)
            + f'<p id=after>The end.</p><script src="{site_url}lesson.js"></script>')


def test_a_script_tag_lesson_on_another_site_runs_its_three_blocks_on_one_python(browser_context, site_url, tmp_path):
    """A course page on another origin with three Python code blocks and ONE script tag: the
    blocks become the three cells of one gradpad lesson frame (one Python), each cell's panes show
    its own code's output, the frame takes the lesson's height, and nothing else on the host page
    changes."""
    ctx, _ = browser_context
    srv, host_url = course_site(tmp_path, {"week1.html": script_tag_page(site_url)})
    page = ctx.new_page()
    page.add_init_script(COUNT_WORKERS)
    try:
        page.set_viewport_size({"width": 1400, "height": 900})
        page.goto(host_url + "week1.html")
        page.wait_for_selector("iframe.gradpad-lesson")  # lesson.js has replaced the blocks
        inner = frame_with(page, "lesson=inline")
        inner.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=BOOT_TIMEOUT_MS)
        page.set_default_timeout(120_000)
        # the host page: one gradpad frame where the first block was, a note for each other block,
        # its own prose as it was
        host = page.evaluate("""() => ({frames: [...document.querySelectorAll('iframe')].map((f) => f.getAttribute('sandbox')),
            pres: document.querySelectorAll('pre').length, prose: [...document.querySelectorAll('p.prose')].map((p) => p.textContent),
            notes: [...document.querySelectorAll('p.gradpad-cell-note')].map((p) => p.textContent),
            first: document.querySelector('h1').nextElementSibling.tagName})""")
        assert host["frames"] == [share.EMBED_SANDBOX] and host["pres"] == 0 and host["first"] == "IFRAME", host
        assert host["prose"] == [HOST_PROSE, HOST_PROSE], host
        assert [n.split(" (")[0] for n in host["notes"]] == ["▲ This code is cell 2", "▲ This code is cell 3"], host
        snap = settled_snapshot(inner)
        c = snap["cells"]
        assert len(c) == 3, snap
        # ONE Python for the three cells: one worker started, one interpreter booted
        assert inner.evaluate("() => [window.gradpad.boots, window.__gpPythonWorkers()]") == [1, 1]
        # each cell's panes show its own code's output
        assert "updated copy: [9. 1. 2. 3. 4.]" in c[0]["console"] and c[0]["function"] == "double_sin_cos"
        assert "sin a" in c[0]["jaxpr"] and "cos a" in c[0]["jaxpr"]
        # the second cell uses the first cell's function: one namespace, like a notebook
        assert c[1]["error"] is None and c[1]["function"] == "slope", c[1]
        assert "slope at 0.5: 1.0806" in c[1]["console"]
        assert "cos" in c[1]["jaxpr"] and c[1]["jaxpr"] != c[0]["jaxpr"]
        # per-cell options: panes, read-only, folded, click-to-run
        assert [x["panes"] for x in c] == [["jaxpr", "plot", "console"], ["plot", "jaxpr", "console"], ["jaxpr", "console"]]
        assert [x["ran"] for x in c] == [True, True, False]
        assert [x["code_shown"] for x in c] == [True, True, False] and [x["readonly"] for x in c] == [False, False, True]
        assert cells(inner).nth(1).locator(".bk-tab").first.inner_text() == "Plots"
        assert cells(inner).nth(2).locator(".bk-tab").count() == 0 or not cells(inner).nth(2).locator(".bk-tab").first.is_visible()
        assert cells(inner).nth(2).get_by_role("button", name="↺ Reset").count() == 0  # read-only: nothing to reset
        # the frame takes the lesson's height (its one message to the host): no scrollbar inside
        deadline = time.monotonic() + 30
        while True:
            tall = [page.evaluate("() => document.querySelector('iframe.gradpad-lesson').clientHeight"),
                    inner.evaluate("() => [Math.ceil(document.body.getBoundingClientRect().height), innerHeight]")]
            if tall[0] == tall[1][0] == tall[1][1] or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert tall[0] == tall[1][0] == tall[1][1] and tall[0] > 1200, tall
        settled(inner, "body")
        shot(page, "lesson_1400x900_loaded")

        # click-to-run: Show code, then ▶ Run; it uses `x` from the first cell
        third = cells(inner).nth(2)
        third.get_by_role("button", name="Show code").click()
        third.get_by_role("button", name="▶ Run").click()
        deadline = time.monotonic() + 120
        while not (snap := settled_snapshot(inner))["cells"][2]["ran"]:
            assert time.monotonic() < deadline, "the click-to-run cell never ran"
            time.sleep(0.5)
        c3 = snap["cells"][2]
        assert c3["error"] is None and "tangent: [0. 1. 2.]" in c3["console"] and c3["code_shown"], c3
        assert "mul" in c3["jaxpr"]

        # the learner edits cell 2 (typed in its editor), then Reset brings back the teacher's code
        second = cells(inner).nth(1)
        second.locator(".ace_content").click()
        page.keyboard.press("Control+End")
        page.keyboard.type("\nprint('edited by the learner')")
        deadline = time.monotonic() + 90
        while "edited by the learner" not in inner.evaluate("() => window.gradpad.snapshot()")["cells"][1]["console"]:
            assert time.monotonic() < deadline, "the edit never ran"
            time.sleep(0.5)
        second.get_by_role("button", name="↺ Reset").click()
        deadline = time.monotonic() + 90
        while True:
            c2 = inner.evaluate("() => window.gradpad.snapshot()")["cells"][1]
            if c2["code"] == c2["teacher_code"] and "edited" not in c2["console"]:
                break
            assert time.monotonic() < deadline, c2
            time.sleep(0.5)
        assert "slope at 0.5: 1.0806" in c2["console"]
        # still the one Python after all that
        assert inner.evaluate("() => [window.gradpad.boots, window.__gpPythonWorkers()]") == [1, 1]

        # the frame stays in its box: no navigation of the course page (the sandbox has no
        # allow-top-navigation), even if script on gradpad's page tried
        tried = inner.evaluate("""(target) => { try { top.location.href = target; return 'navigated'; }
                                                catch (e) { return e.name; } }""", host_url + "elsewhere")
        page.wait_for_timeout(500)
        assert page.url == host_url + "week1.html", (tried, page.url)

        settled(inner, "body")
        shot(page, "lesson_1400x900_after")
        page.set_viewport_size({"width": 390, "height": 844})
        settled(inner, "body")
        shot(page, "lesson_390x844")
        # nothing wider than the phone's screen inside the lesson
        assert inner.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
        # and no shown pane cut at its bottom edge: on a phone a cell's pane is as tall as its content
        assert inner.evaluate(CLIPPED_PANES) == []
    finally:
        page.close()
        srv.shutdown()


def test_the_embed_snippet_on_an_isolated_course_site_shows_the_code_and_gets_shared_memory(
        browser_context, site_url, tmp_path):
    """A host that sends COOP/COEP and marks the iframe `credentialless` (docs/teachers.md) passes
    its cross-origin isolation on: the embed gets SharedArrayBuffer (Stop interrupts) on a first
    visit. The default embed shows the code the panes describe."""
    ctx, _ = browser_context
    snippet = share.iframe_snippet(site_url, share.ShareState(example="jvp_and_vjp"))
    snippet = snippet.replace("<iframe ", '<iframe id="gp" credentialless ', 1)
    srv, host_url = course_site(tmp_path, {"isolated.html": f"<!doctype html><title>Course</title>{snippet}"},
                                headers={"Cross-Origin-Opener-Policy": "same-origin",
                                         "Cross-Origin-Embedder-Policy": "require-corp"})
    page = ctx.new_page()
    try:
        page.set_viewport_size({"width": 760, "height": 660})
        page.goto(host_url + "isolated.html")
        assert page.evaluate("() => crossOriginIsolated") is True
        inner = frame_with(page, "embed=1")
        inner.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=BOOT_TIMEOUT_MS)
        state = inner.evaluate("() => ({coi: crossOriginIsolated, isolated: window.gradpad.isolated})")
        assert state == {"coi": True, "isolated": True}, state
        # shared memory: Stop interrupts the run (KeyboardInterrupt), Python and variables stay
        inner.wait_for_function("() => { const p = window.gradpad.panes; return !window.gradpad.running && p && "
                                "!p.pending.filter(n => n !== 'webgpu timing').length; }", timeout=BOOT_TIMEOUT_MS)
        page.set_default_timeout(120_000)
        out = inner.evaluate("""async () => {
            const gp = window.gradpad;
            await gp.runPython('kept = 41');
            let done = false;
            const stuck = gp.runPython('while True:\\n    pass').finally(() => { done = true; });
            // Stop until the loop ends (a Stop that lands between runs is cleared by the next run)
            while (!done) { if (gp.running) gp.interrupt(); await new Promise(r => setTimeout(r, 50)); }
            const r = await stuck;
            return {stopped: r.error && r.error.type, after: (await gp.runPython('kept + 1')).result,
                    restarts: gp.restarts};
        }""")
        assert out == {"stopped": "KeyboardInterrupt", "after": "42", "restarts": 0}, out
        # the code is on show, in an editor, above the panes
        snap = inner.evaluate("() => window.gradpad.snapshot()")
        assert snap["function"] == "f" and snap["jaxpr"].startswith("{ lambda ; a:f32[5]. let")
        editor_text = inner.evaluate("""() => { const find = (root) => { for (const el of root.querySelectorAll('*')) {
              if (el.classList.contains('ace_editor') && el.env) return el.env.editor.getValue();
              const inner = el.shadowRoot && find(el.shadowRoot); if (inner != null) return inner; } return null; };
            return find(document); }""")
        assert editor_text is not None and "jax.jvp(f, (x,), (v,))" in editor_text
        # the frame fits its snippet's box: the panes end inside the frame
        assert inner.evaluate("() => document.documentElement.scrollHeight - innerHeight") <= 0
        settled(inner, "body")
        shot(page, "embed_default_isolated_host")
    finally:
        page.close()
        srv.shutdown()


def test_a_lesson_page_of_its_own_keeps_the_visitors_code_and_passes_axe(browser_context, site_url):
    """The lesson opened as a page (service worker, isolation from the second visit): its cells
    run, axe-core finds no serious or critical WCAG violation on it (the app's and the embed's
    checks are in test_a11y.py; this one shares this test's page load), and typing in a cell then
    leaving never replaces the visitor's own autosaved code."""
    ctx, _ = browser_context
    page = ctx.new_page()
    try:
        page.set_viewport_size({"width": 1400, "height": 900})
        # the visitor's own code, saved before: set on a file of the site that boots no Python
        page.goto(site_url + "favicon.svg")
        page.evaluate("() => localStorage.setItem('gradpad.code', 'mine = 1')")
        registered = page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => !!(r && r.active))")
        page.goto(site_url + "?lesson=lessons/first-steps.md")
        if not registered:  # a profile that never saw the site (this module run alone)
            page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
            page.reload()  # now under the service worker
        page.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=BOOT_TIMEOUT_MS)
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        c = settled_snapshot(page.main_frame)["cells"]
        assert "updated copy" in c[0]["console"] and "slope at 0.5" in c[1]["console"], c
        bad = axe_violations(page)
        assert bad == [], describe(bad)
        cells(page).nth(1).locator(".ace_content").click()
        page.keyboard.press("Control+End")
        page.keyboard.type("\nprint('typed in a lesson')")
        page.wait_for_timeout(500)
        page.reload()
        page.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=BOOT_TIMEOUT_MS)
        assert page.evaluate("() => localStorage.getItem('gradpad.code')") == "mine = 1"
        assert page.evaluate("() => location.hash") == ""
    finally:
        page.close()
