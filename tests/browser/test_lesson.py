"""Teachers' pages (issue 27, and issue 29's "embeds stay in their frame"): a lesson of three
cells on ONE Python, written on a course site of another origin (another local port) as three
code blocks and one script tag (static/lesson.js: a gradpad frame at each block, all on the first
frame's worker); and the Embed button's snippet on a cross-origin isolated host.

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

from . import shots
from .a11y import DARK_SHOWN, axe_violations, describe
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


# what sticks out past a frame's right edge, once its relayout after a resize is over (Bokeh's,
# through ResizeObserver, later on a loaded machine); a real overflow stays and is named (tag,
# class, right edge, width and min-width: Panel's computed min-width of a column was CI's 3 px)
SIDEWAYS_AFTER_RELAYOUT = """async () => {
  const over = () => document.documentElement.scrollWidth - innerWidth;
  for (let i = 0; i < 100 && over() > 0; i++) await new Promise((r) => setTimeout(r, 100));
  if (over() <= 0) return [];
  const out = [`scrollWidth ${document.documentElement.scrollWidth} > innerWidth ${innerWidth}`];
  const walk = (root) => { for (const el of root.querySelectorAll('*')) {
    const b = el.getBoundingClientRect();
    if (b.right > innerWidth + 0.5 && el.getClientRects().length)
      out.push(`${el.tagName}.${String(el.className).slice(0, 60)} right=${Math.round(b.right)} width=${getComputedStyle(el).width} min-width=${getComputedStyle(el).minWidth}`);
    if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(document);
  return out.slice(0, 12);
}"""


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


def shot(page, name, full_page=True):
    if not shots.wanted():
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def frame_shots(page, frames, name):
    """Each cell frame in view (Chromium paints a frame out of view only once it is scrolled to)."""
    for i, f in enumerate(frames):
        page.evaluate("(i) => document.querySelectorAll('iframe.gradpad-lesson')[i].scrollIntoView()", i)
        settled(f, "body")
        shot(page, f"{name}_cell{i + 1}", full_page=False)


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


# whether `needle` is in the text of any shadow root of the page (Panel renders each pane in one)
SHADOW_TEXT = """(needle) => { const walk = (root) => { for (const el of root.querySelectorAll('*')) {
    if (el.shadowRoot && (el.shadowRoot.textContent.includes(needle) || walk(el.shadowRoot))) return true; }
    return false; }; return walk(document); }"""


# a cell frame's loader labels (each new one, polled every 50 ms in the frame) until its cell shows;
# the page keeps the list (window.__gpLabels) across polls
LOADER_LABELS = """() => { const seen = window.__gpLabels || (window.__gpLabels = []);
  const loader = document.getElementById('gp-loader'), label = document.getElementById('gp-stage-label');
  if (loader && label && !loader.hidden && seen.at(-1) !== label.textContent) seen.push(label.textContent);
  return !!window.gradpad && window.gradpad.ui === 'app' && seen; }"""
LOADER_LABELS_UNTIL_UI = f"""async () => {{ for (;;) {{ const seen = ({LOADER_LABELS})();
  if (seen) return seen; await new Promise((r) => setTimeout(r, 50)); }} }}"""


def waits_on_cell_1(labels: list) -> None:
    """A cell frame boots no Python: while the first frame's starts, its loader says it waits for
    that one and shows that one's progress, never a count of its own downloads ("Loading Python
    runtime… 0%" until cell 1 was ready, in WebKit)."""
    assert labels, labels
    own = [t for t in labels if t != "Starting…" and not t.startswith("Waiting for cell 1's Python")
           and t != "Cell 1's Python is ready: drawing this cell…"]
    assert not own, labels
    assert any(t.startswith("Waiting for cell 1's Python: loading ") and t.endswith("%") or "is ready" in t
               for t in labels), labels


def cell_frames(page, n: int = 3) -> list:
    """The lesson's cell frames (static/lesson.js: one per block), in page order."""
    return [frame_with(page, f"cell={i}&lid=") for i in range(n)]


def all_frames(frames, expr: str) -> list:
    return [f.evaluate(expr) for f in frames]


def frames_fit(page, frames, timeout_s: float = 60) -> list:
    """Each frame as tall as its content (its one message to the host). Chromium lays out a frame
    out of view only when it comes into view: each is scrolled to first."""
    out = []
    for i, f in enumerate(frames):
        page.evaluate("(i) => document.querySelectorAll('iframe.gradpad-lesson')[i].scrollIntoView()", i)
        deadline = time.monotonic() + timeout_s
        while True:
            tall = [page.evaluate("(i) => document.querySelectorAll('iframe.gradpad-lesson')[i].clientHeight", i),
                    f.evaluate("() => Math.ceil(document.body.getBoundingClientRect().height)")]
            if tall[0] == tall[1] or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        out.append(tall)
    return out


# the focused element of a frame, through shadow roots: "TAG|role|aria-label|text"
FOCUSED = """() => { let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body) return '';
  return [a.tagName, a.getAttribute('role') || '', a.getAttribute('aria-label') || '',
          (a.tagName === 'INPUT' ? '' : (a.textContent || '').trim().slice(0, 40))].join('|'); }"""
CELL_CODE = """() => { const find = (root) => { for (const el of root.querySelectorAll('*')) {
    if (el.classList.contains('ace_editor') && el.env) return el.env.editor.getValue();
    const inner = el.shadowRoot && find(el.shadowRoot); if (inner != null) return inner; } return null; };
  return find(document); }"""
SELECTED_TAB = """() => { const all = (r, o = []) => { for (const e of r.querySelectorAll('*')) { o.push(e);
    if (e.shadowRoot) all(e.shadowRoot, o); } return o; };
  return all(document).filter((e) => e.getAttribute('role') === 'tab' && e.getAttribute('aria-selected') === 'true')
    .map((t) => t.textContent.trim()); }"""


def keyboard_in_a_cell_frame(page, frame):
    """A keyboard alone in a cell's frame (static/a11y.js runs in each): from the cell's ▶ Run, Tab
    reaches its editor without typing into it; Esc then Tab leaves it with the code unchanged; the
    output tabs are one tab stop whose arrow keys pick a tab."""
    code = frame.evaluate(CELL_CODE)
    cells(frame).get_by_role("button", name="▶ Run").focus()
    seen = []

    def tab_to(test, limit=12):
        for _ in range(limit):
            page.keyboard.press("Tab")
            seen.append(frame.evaluate(FOCUSED))
            if test(seen[-1]):
                return seen[-1]
        raise AssertionError(f"never reached; focus went through: {seen}")
    tab_to(lambda d: d.startswith("TEXTAREA|") and "Escape" in d)
    page.keyboard.press("Escape")
    tab_to(lambda d: d.startswith("DIV|tab|"), limit=6)  # the first Tab leaves the editor
    assert frame.evaluate(CELL_CODE) == code and "\t" not in code
    before = frame.evaluate(SELECTED_TAB)
    page.keyboard.press("ArrowRight")
    frame.wait_for_function(f"(b) => ({SELECTED_TAB})().join() !== b.join()", arg=before, timeout=10_000)
    after = frame.evaluate(SELECTED_TAB)
    assert len(after) == 1 and frame.evaluate(FOCUSED) == f"DIV|tab||{after[0]}", (before, after, seen)
    page.keyboard.press("Home")
    frame.wait_for_function(f"(b) => ({SELECTED_TAB})().join() === b.join()", arg=before, timeout=10_000)


def test_a_script_tag_lesson_on_another_site_has_a_live_cell_at_each_block_on_one_python(browser_context, site_url, tmp_path):
    """A course page on another origin with three Python code blocks and ONE script tag: each
    block becomes a gradpad frame of its own, in place, the prose around them untouched; the three
    frames share ONE Python (the first frame's worker: one boot, counted) and one namespace (the
    second cell uses the first cell's function); each frame takes its cell's height, passes axe-core
    and works by keyboard; the learner's
    edits, click-to-run and Reset work in any frame; and code typed in the second cell's frame
    while the lesson's Python restarts is kept."""
    ctx, _ = browser_context
    srv, host_url = course_site(tmp_path, {"week1.html": script_tag_page(site_url)})
    page = ctx.new_page()
    page.add_init_script(COUNT_WORKERS)
    try:
        page.set_viewport_size({"width": 1400, "height": 900})
        page.goto(host_url + "week1.html")
        page.wait_for_selector("iframe.gradpad-lesson")  # lesson.js has replaced the blocks
        frames = cell_frames(page)
        page.set_default_timeout(BOOT_TIMEOUT_MS)
        waits_on_cell_1(frames[1].evaluate(LOADER_LABELS_UNTIL_UI))  # while the first frame's Python starts
        for f in frames:
            f.wait_for_function("() => window.gradpad && window.gradpad.ui === 'app'", timeout=BOOT_TIMEOUT_MS)
        page.set_default_timeout(120_000)
        # the host page: a gradpad frame where each block was, its own prose between them as it was
        host = page.evaluate("""() => ({frames: [...document.querySelectorAll('iframe')].map((f) => f.getAttribute('sandbox')),
            pres: document.querySelectorAll('pre').length, notes: document.querySelectorAll('p.gradpad-cell-note').length,
            order: [...document.body.children].map((e) => e.tagName + (e.className === 'prose' ? '.prose' : '')).join(' ')})""")
        assert host["frames"] == [share.EMBED_SANDBOX] * 3 and host["pres"] == 0 and host["notes"] == 0, host
        assert host["order"] == "H1 IFRAME P.prose IFRAME P.prose IFRAME P SCRIPT", host
        # each frame shows its one cell
        assert all_frames(frames, "() => document.querySelectorAll('#app *').length > 0") == [True] * 3
        assert [cells(f).count() for f in frames] == [1, 1, 1]
        snap = settled_snapshot(frames[1])  # any frame answers for the whole lesson
        c = snap["cells"]
        assert len(c) == 3, snap
        # ONE Python for the three frames: one worker started, one interpreter booted, in the first
        assert all_frames(frames, "() => [window.gradpad.boots, window.__gpPythonWorkers(), window.gradpad.bootedFrom]") == [
            [1, 1, frames[0].evaluate("() => window.gradpad.bootedFrom")], [0, 0, "shared"], [0, 0, "shared"]]
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
        assert cells(frames[1]).locator(".bk-tab").first.inner_text() == "Plots"
        assert cells(frames[2]).get_by_role("button", name="↺ Reset").count() == 0  # read-only: nothing to reset
        # each frame takes its cell's height: no scrollbar inside
        fit = frames_fit(page, frames)
        assert all(a == b for a, b in fit) and fit[0][0] > fit[2][0], fit
        page.evaluate("() => scrollTo(0, 0)")
        settled(frames[0], "body")
        shot(page, "lesson_1400x900_loaded")
        frame_shots(page, frames, "lesson_1400x900")
        # axe-core in each cell frame (each is a page of gradpad's own), and the keyboard in one
        for i, f in enumerate(frames):
            bad = axe_violations(f)
            assert bad == [], f"cell frame {i + 1}:\n{describe(bad)}"
        keyboard_in_a_cell_frame(page, frames[1])
        # the dark theme (the visitor's system setting, which every frame follows): axe in a cell frame
        page.emulate_media(color_scheme="dark")
        try:
            frames[1].wait_for_function(f"() => ({DARK_SHOWN})()", timeout=120_000)
            settled(frames[1], "body")
            bad = axe_violations(frames[1])
            assert bad == [], f"cell frame 2, dark:\n{describe(bad)}"
        finally:
            page.emulate_media(color_scheme="light")
        for f in frames:
            f.wait_for_function("() => document.documentElement.dataset.theme === 'light'", timeout=120_000)

        # click-to-run in the third frame: Show code, then ▶ Run; it uses `x` from the first cell
        third = cells(frames[2])
        third.get_by_role("button", name="Show code").click()
        third.get_by_role("button", name="▶ Run").click()
        deadline = time.monotonic() + 120
        while not (snap := settled_snapshot(frames[2]))["cells"][2]["ran"]:
            assert time.monotonic() < deadline, "the click-to-run cell never ran"
            time.sleep(0.5)
        c3 = snap["cells"][2]
        assert c3["error"] is None and "tangent: [0. 1. 2.]" in c3["console"] and c3["code_shown"], c3
        assert "mul" in c3["jaxpr"]

        # the learner edits cell 2 (typed in its frame's editor), then Reset brings back the teacher's code
        second = cells(frames[1])
        second.locator(".ace_content").click()
        page.keyboard.press("Control+End")
        page.keyboard.type("\nprint('edited by the learner')")
        deadline = time.monotonic() + 90
        while "edited by the learner" not in frames[1].evaluate("() => window.gradpad.snapshot()")["cells"][1]["console"]:
            assert time.monotonic() < deadline, "the edit never ran"
            time.sleep(0.5)
        second.get_by_role("button", name="↺ Reset").click()
        deadline = time.monotonic() + 90
        while True:
            c2 = frames[1].evaluate("() => window.gradpad.snapshot()")["cells"][1]
            if c2["code"] == c2["teacher_code"] and "edited" not in c2["console"]:
                break
            assert time.monotonic() < deadline, c2
            time.sleep(0.5)
        assert "slope at 0.5: 1.0806" in c2["console"]
        # still the one Python after all that
        assert sum(all_frames(frames, "() => window.gradpad.boots + window.__gpPythonWorkers()")) == 2

        # the frames stay in their boxes: no navigation of the course page (the sandbox has no
        # allow-top-navigation), even if script on gradpad's page tried
        tried = frames[1].evaluate("""(target) => { try { top.location.href = target; return 'navigated'; }
                                                    catch (e) { return e.name; } }""", host_url + "elsewhere")
        page.wait_for_timeout(500)
        assert page.url == host_url + "week1.html", (tried, page.url)

        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate("() => scrollTo(0, 0)")
        settled(frames[0], "body")
        for f in frames:
            # nothing wider than the phone's screen inside a cell frame (measured before the
            # screenshots: a full-page one grows the window, the course page's scrollbar goes and
            # the frames get 15 px wider), and no shown pane cut at its
            # bottom edge: on a phone a cell's pane is as tall as its content
            wide = f.evaluate(SIDEWAYS_AFTER_RELAYOUT)
            assert wide == [], "\n".join(wide)
            assert f.evaluate(CLIPPED_PANES) == []
        shot(page, "lesson_390x844")
        frame_shots(page, frames, "lesson_390x844")

        # Restart from the second cell's frame (the first frame owns the Python): every frame keeps
        # its old view and takes typing until the new Python shows its cell; what the learner typed
        # in cell 2 meanwhile is kept, shown and not run
        page.set_viewport_size({"width": 1400, "height": 900})
        # the caret is put at the end first and the line goes in as one input (as a paste does): a
        # restart from the page's own snapshot can be ready within a second, and the code is read
        # then (key by key, CI's typing outlasted it)
        cells(frames[1]).locator(".ace_content").click()
        page.keyboard.press("Control+End")
        assert frames[1].evaluate("() => window.gradpad.restart()") is True
        frames[1].wait_for_function("() => document.getElementById('app').classList.contains('gp-stale')")
        page.keyboard.insert_text("\nprint('typed while Python restarted')")
        deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
        while True:
            back = all_frames(frames, "() => [window.gradpad.restarts, !document.getElementById('app').classList.contains('gp-stale')]")
            if back == [[1, True]] * 3:
                break
            assert time.monotonic() < deadline, back
            time.sleep(1)
        # shown, not run: the cell's status line says so and its panes are hidden (read from the page:
        # the page API's snapshot runs an edit not run yet, so that its panes always pair with its code)
        frames[1].wait_for_function(SHADOW_TEXT, arg="Your edit is kept, not run", timeout=120_000)
        c2 = settled_snapshot(frames[1])["cells"][1]
        assert c2["code"].endswith("print('typed while Python restarted')"), c2["code"]
        assert "typed while Python restarted" in c2["console"], c2  # the snapshot's run: the kept code's own output
        # the cell frames booted no Python of their own for the restart either
        assert all_frames(frames[1:], "() => [window.gradpad.boots, window.__gpPythonWorkers()]") == [[0, 0], [0, 0]]
        settled(frames[1], "body")
        shot(page, "lesson_1400x900_after_restart")
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
