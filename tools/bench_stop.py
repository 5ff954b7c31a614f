"""Stop where the page has no shared memory: how long until the run is over, Python answers and
the UI is usable again, with a standby Python ready (static/standby.js) and without one.

    python -m tools.bench_stop [--browsers chromium,firefox,webkit] [--json PATH]

Cases, each on a fresh profile (a first visit: no service worker yet, so never isolated):
  app            the app page; Stop at once after the UI came (no standby ready yet), then
                 again once the standby is ready
  embed          the Embed button's iframe on a course site of another origin (never isolated)
  app-isolated   Chromium only: the same profile reloaded once the service worker controls the
                 page (isolated: Stop interrupts Python, no restart)
  warm           Chromium only (--cases warm): a second visit with the post-import snapshot stored,
                 not isolated (the service worker unregistered) and no standby (?standby=off):
                 every Stop starts a fresh Python from the snapshot (static/restart_snapshot.js)
Per Stop: ms from Stop to the run's end (stopped), to Python's answer to `1 + 1` (python), to
the app back and not stale (ui), and to the editor taking typing (editable: a key typed into the
editor lands there); the fresh worker's phases (runtime, numpy, engine, ui) in ms after Stop;
which path brought Python back (standby/fresh) and how its view came (prerendered: swapped in, static/prerender.js);
in the lesson case, how the cell frame's Stop reached the first frame (call/message) and after how many ms;
in the JSON, `stages`: every mark of the fresh Python's start in ms after Stop (runtime:worker, runtime:imports-js,
-memory, -files, -libs, -probed ...) and, in the warm case, `spare` (static/spare_worker.js). Memory: RSS and PSS of the browser's process
tree while idle with and without the standby. Print the load average beside the numbers.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import chromium, drivers  # noqa: E402
from tools import serve, site  # noqa: E402
from tools.bench_lesson import rss_of_tree, script_tag_page  # noqa: E402

LOOP = "x = 0\nwhile True:\n    x += 1\n"

# In the page: start the loop, Stop it `afterMs` into its run, then time the way back.
STOP_PROBE = """async ([code, afterMs, cell]) => {
  const gp = window.gradpad;
  const app = () => document.querySelector('#app');
  const uiBack = () => gp.ui === 'app' && !app().classList.contains('gp-stale') && app().childElementCount > 0;
  let ended = null;
  const opts = cell === undefined || cell === null ? {code} : {code, cell};  // a lesson's cell frame: its cell
  setTimeout(() => gp.load(opts).then(r => { ended = performance.now(); }, e => { ended = performance.now(); }), 0);
  while (!gp.running) await new Promise(r => setTimeout(r, 5));
  await new Promise(r => setTimeout(r, afterMs));
  const standbyAtStop = {...(gp.standby || {})};
  const prerenderAtStop = gp.prerender ? {...gp.prerender} : null;  // the standby's app rendered in advance, and its ms
  const before = {...gp.timings};
  const out0 = {};
  const findAce = (root) => { for (const el of root.querySelectorAll('*')) { if (el.classList && el.classList.contains('ace_editor') && el.env) return el;
    const i = el.shadowRoot && findAce(el.shadowRoot); if (i) return i; } return null; };
  const t0 = performance.now();
  out0.wall = Date.now();
  gp.interrupt();
  // the read-only window: ms from the Stop until the app is back (+500 ms) during which no editor
  // on screen takes typing (none there, inert, or read-only), sampled every 10 ms
  let readonlyMs = 0, sampling = true, lastSample = performance.now();
  const sample = () => { const now = performance.now(); const ace = findAce(app());
    const live = ace && (!app().classList.contains('gp-stale') || ace.style.pointerEvents === 'auto') && !ace.env.editor.getReadOnly();
    if (!live) readonlyMs += now - lastSample; lastSample = now; if (sampling) setTimeout(sample, 10); };
  setTimeout(sample, 10);
  // the editor takes typing: the app is live, or the old view's editor is kept live (restart_view.js)
  let editable = null;
  const watchEditable = () => { if (editable !== null) return; const ace = findAce(app());
    if (ace && (!app().classList.contains('gp-stale') || ace.style.pointerEvents === 'auto')) editable = performance.now() - t0;
    else setTimeout(watchEditable, 5); };
  while (gp.running) await new Promise(r => setTimeout(r, 2));
  const out = {...out0, standbyAtStop, prerenderAtStop, stopped: performance.now() - t0, isolated: gp.isolated};
  setTimeout(watchEditable, 20);  // after the restart marked the old view stale (a task after the Stop)
  while (ended === null) await new Promise(r => setTimeout(r, 2));
  out.settled = ended - t0;
  const answer = await gp.runPython('1 + 1');
  out.python = performance.now() - t0;
  out.answer = answer.result;
  while (!uiBack()) await new Promise(r => setTimeout(r, 10));
  out.ui = performance.now() - t0;
  await new Promise(r => setTimeout(r, 500));
  sampling = false;
  out.readonly = Math.round(readonlyMs);
  const nav = t0;  // timings are ms since navigation, as performance.now()
  out.phases = {};
  for (const k of ['runtime', 'numpy', 'engine', 'ui:built', 'ui:embed', 'ui:embedded', 'ui:swapped'])
    if (gp.timings[k] !== before[k]) out.phases[k] = Math.round(gp.timings[k] - nav);
  // every mark of the fresh Python's start (worker start, runtime load, memory, files, libraries, probe ...)
  out.stages = Object.fromEntries(Object.entries(gp.timings).filter(([k, v]) => v !== before[k] && v >= nav - 1)
    .map(([k, v]) => [k, Math.round(v - nav)]).sort((a, b) => a[1] - b[1]));
  out.editable = Math.round(editable === null ? -1 : editable);
  out.path = gp.restartedBy || null;
  out.stops = gp.stops.slice(-1);
  for (const k of ['stopped', 'settled', 'python', 'ui']) out[k] = Math.round(out[k]);
  return out;
}"""
STANDBY_READY = "() => window.gradpad.standby && window.gradpad.standby.state === 'ready'"
UI_READY = "() => window.gradpad && window.gradpad.ui === 'app'"
IDLE = "() => !window.gradpad.running"


def memory(udd_or_needle: str) -> dict:
    """RSS and PSS (MB) of the browser's process tree."""
    rss = rss_of_tree(udd_or_needle)
    pss = 0
    for pid in _tree(udd_or_needle):
        try:
            pss += next(int(line.split()[1]) * 1024 for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
                        if line.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
    return {"rss_mb": round(rss / 1e6), "pss_mb": round(pss / 1e6)}


def _tree(needle: str) -> set[int]:
    procs = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        procs[int(pid)] = (ppid, cmd)
    tree = {p for p, (_, cmd) in procs.items() if needle in cmd}
    grew = True
    while grew:
        more = {p for p, (pp, _) in procs.items() if pp in tree and p not in tree}
        tree |= more
        grew = bool(more)
    return tree


def stop_twice(ev, wait, needle: str, label: str) -> list[dict]:
    """Stop at once after the UI came, then again with the standby ready."""
    rows = []
    wait(UI_READY)
    wait(IDLE)
    mem_one = memory(needle)
    r = ev(STOP_PROBE, [LOOP, 300])
    rows.append({"case": label, "when": "right after the UI", **r, "mem_before_standby": mem_one})
    print(json.dumps(rows[-1]), flush=True)
    wait(STANDBY_READY)
    wait(IDLE)
    time.sleep(2)
    mem_two = memory(needle)
    r = ev(STOP_PROBE, [LOOP, 300])
    rows.append({"case": label, "when": "standby ready", **r, "mem_with_standby": mem_two})
    print(json.dumps(rows[-1]), flush=True)
    return rows


@contextlib.contextmanager
def app_page(pw, url: str):
    """(page, its profile folder): url opened at 1400x900 in a Chromium of its own profile."""
    udd = tempfile.mkdtemp(prefix="gradpad-bench-stop-")
    ctx, _ = chromium.launch(pw, user_data_dir=udd)
    try:
        page = ctx.new_page()
        page.set_viewport_size({"width": 1400, "height": 900})
        page.set_default_timeout(600_000)
        page.goto(url)
        yield page, udd
    finally:
        ctx.close()


def chromium_app(pw, url: str) -> list[dict]:
    """The app on a first visit (two Stops), then reloaded once the service worker isolates it."""
    rows = []
    with app_page(pw, url) as (page, udd):
        ev = lambda s, a=None: page.evaluate(s, a)  # noqa: E731
        wait = lambda s: page.wait_for_function(s, timeout=600_000)  # noqa: E731
        rows += stop_twice(ev, wait, udd, "chromium app, first visit (not isolated)")
        wait("() => !!navigator.serviceWorker.controller")
        page.reload()
        wait(UI_READY)
        wait(IDLE)
        r = ev(STOP_PROBE, [LOOP, 300])
        rows.append({"case": "chromium app, isolated", "when": "after reload", **r})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def chromium_warm(pw, url: str) -> list[dict]:
    """A warm visit without isolation or standby: two Stops, each answered by a fresh Python."""
    rows = []
    with app_page(pw, url + "?standby=off") as (page, udd):
        wait = lambda s: page.wait_for_function(s, timeout=600_000)  # noqa: E731
        wait(UI_READY)
        wait("() => window.gradpad.importsSnapshotSaved || window.gradpad.importsSnapshotError")
        page.evaluate("async () => { for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister(); }")
        page.reload()
        wait(UI_READY)
        wait(IDLE)
        time.sleep(3)  # (the page reads and checks the snapshot at a quiet moment)
        mem = memory(udd)
        booted = page.evaluate("() => window.gradpad.bootedFrom")
        for i in range(2):
            r = page.evaluate(STOP_PROBE, [LOOP, 300])
            r["booted_from"] = page.evaluate("() => window.gradpad.bootedFrom")
            r["kept"] = page.evaluate("() => window.gradpad.restartSnapshot || null")
            r["spare"] = page.evaluate("() => window.gradpad.spareWorker || null")  # (static/spare_worker.js)
            rows.append({"case": f"chromium app, warm ({booted}), no standby", "when": f"stop {i + 1}", **r,
                         "mem_before_standby": mem})
            print(json.dumps(rows[-1]), flush=True)
            wait(UI_READY)
            wait(IDLE)
            time.sleep(2)
    return rows


def chromium_embed(pw, host_url: str) -> list[dict]:
    """The embed in a course page of another origin (never isolated): two Stops."""
    udd = tempfile.mkdtemp(prefix="gradpad-bench-stop-")
    ctx, _ = chromium.launch(pw, user_data_dir=udd)
    try:
        page = ctx.new_page()
        page.set_viewport_size({"width": 760, "height": 560})
        page.set_default_timeout(600_000)
        page.goto(host_url)
        while not any("embed=1" in f.url for f in page.frames):
            page.wait_for_timeout(300)  # (lets Playwright hear of the frame: see tools/bench_lesson)
        inner = next(f for f in page.frames if "embed=1" in f.url)
        return stop_twice(lambda s, a=None: inner.evaluate(s, a),
                          lambda s: inner.wait_for_function(s, timeout=600_000), udd,
                          "chromium embed on another origin (not isolated)")
    finally:
        ctx.close()


# in a lesson's other frames, before a Stop: when this frame's app went stale and came back
# (Date.now(), comparable across the frames), and its read-only ms meanwhile
WATCH_BACK = """() => { const app = () => document.querySelector('#app'); const w = window.__gpBack = {stale: null, back: null};
  const tick = () => { const stale = app().classList.contains('gp-stale');
    if (stale && w.stale === null) w.stale = Date.now();
    if (!stale && w.stale !== null && window.gradpad.ui === 'app' && app().childElementCount > 0) { w.back = Date.now(); return; }
    setTimeout(tick, 10); };
  tick(); }"""


def first_visit_later(pw, url: str, later_s: float) -> list[dict]:
    """A first visit (fresh profile, not isolated): one Stop `later_s` after the UI came."""
    with app_page(pw, url) as (page, udd):
        wait = lambda s: page.wait_for_function(s, timeout=600_000)  # noqa: E731
        wait(UI_READY)
        wait(IDLE)
        page.wait_for_timeout(later_s * 1000)  # (Playwright keeps hearing the page meanwhile)
        r = page.evaluate(STOP_PROBE, [LOOP, 300])
        r["booted_from"] = page.evaluate("() => window.gradpad.bootedFrom")
        r["kept"] = page.evaluate("() => window.gradpad.restartSnapshot || null")
        r["spare"] = page.evaluate("() => window.gradpad.spareWorker || null")
        row = {"case": "chromium app, first visit (not isolated)", "when": f"{later_s:.0f} s after the UI", **r}
        print(json.dumps(row), flush=True)
        return [row]


def chromium_lesson(pw, lesson_url: str, later_s: float) -> list[dict]:
    """A three-cell lesson (static/lesson.js: a frame per code block, one Python) on a course site of
    another origin, first visit: Stop a loop run in cell 2's frame right after the UI, then again
    `later_s` after it is back; `others_back`: ms from the Stop until frames 1 and 3 are back."""
    udd = tempfile.mkdtemp(prefix="gradpad-bench-stop-")
    ctx, _ = chromium.launch(pw, user_data_dir=udd)
    rows = []
    try:
        page = ctx.new_page()
        page.set_viewport_size({"width": 1400, "height": 900})
        page.set_default_timeout(600_000)
        page.goto(lesson_url)
        frames = lambda: [f for f in page.frames if "embed=1" in f.url]  # noqa: E731
        while len(frames()) < 3:
            page.wait_for_timeout(300)
        fs = sorted(frames(), key=lambda f: int(f.url.split("cell=")[1].split("&")[0]))
        for when in ("right after the UI", f"{later_s:.0f} s after the UI"):
            for f in fs:
                f.wait_for_function(UI_READY, timeout=600_000)
                f.wait_for_function("() => !document.getElementById('app').classList.contains('gp-stale')", timeout=600_000)
            fs[0].wait_for_function(IDLE, timeout=600_000)
            if when != "right after the UI":
                page.wait_for_timeout(later_s * 1000)
            for f in (fs[0], fs[2]):
                f.evaluate(WATCH_BACK)
            r = fs[1].evaluate(STOP_PROBE, [LOOP, 300, 1])
            deadline = time.monotonic() + 300
            others = {}
            while len(others) < 2 and time.monotonic() < deadline:
                for i in (0, 2):
                    b = fs[i].evaluate("() => window.__gpBack")
                    if b["back"]:
                        others[i + 1] = b["back"] - r["wall"]
                page.wait_for_timeout(100)
            r["others_back"] = others
            r["first_frame"] = fs[0].evaluate("() => ({restartedBy: window.gradpad.restartedBy, "
                                              "kept: window.gradpad.restartSnapshot || null, spare: window.gradpad.spareWorker || null, "
                                              "standby: window.gradpad.standby || null, bootedFrom: window.gradpad.bootedFrom})")
            r["path"] = r["first_frame"]["restartedBy"]
            # how the Stop reached the first frame: "call" (direct, in the click's task) or "message",
            # and ms from the click until the first frame acted (static/lesson_share.js askLeader)
            heard = fs[0].evaluate("() => (window.gradpad.lessonStops || []).slice(-1)[0] || null")
            r["lesson_stop"] = {"via": heard and heard["via"], "lag_ms": heard and heard["lagMs"]}
            rows.append({"case": "chromium lesson, 3 cell frames (not isolated)", "when": when, **r})
            print(json.dumps(rows[-1]), flush=True)
    finally:
        ctx.close()
    return rows


def chromium_cases(pw, url: str, host_url: str, cases=("app", "embed"), later_s: float = 20) -> list[dict]:
    lesson_url = host_url.rsplit("/", 1)[0] + "/lesson.html"
    return ((chromium_app(pw, url) if "app" in cases else []) + (first_visit_later(pw, url, later_s) if "later" in cases else [])
            + (chromium_embed(pw, host_url) if "embed" in cases else [])
            + (chromium_lesson(pw, lesson_url, later_s) if "lesson" in cases else [])
            + (chromium_warm(pw, url) if "warm" in cases else []))


def other_cases(name: str, url: str) -> list[dict]:
    b = drivers.launch(name)
    try:
        b.set_viewport(1400, 900)
        b.goto(url)
        b.wait_for("() => !!window.gradpad", timeout_s=120)
        # the browser's own process tree: Firefox's profile directory is on its command line
        profile = getattr(getattr(getattr(getattr(b, "m", None), "instance", None), "profile", None), "profile", None)
        needle = str(profile) if profile else {"firefox": "firefox", "webkit": "WebKit"}[name]
        return stop_twice(lambda s, a=None: b.evaluate(s, a, timeout_s=600),
                          lambda s: b.wait_for(s, timeout_s=600, poll_ms=100), needle, f"{name} app, first visit")
    finally:
        b.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--browsers", default="chromium,firefox")
    p.add_argument("--json")
    p.add_argument("--before", help="a dist/ of the code before (served beside this tree's build, cases alternate)")
    p.add_argument("--cases", default="app,embed", help="chromium's cases: app (first visit, then isolated), later (a first "
                   "visit's Stop --later s after the UI), embed, lesson (three cell frames, static/lesson.js), warm")
    p.add_argument("--later", type=float, default=20, help="seconds after the UI for the later/lesson cases' late Stop")
    p.add_argument("--rounds", type=int, default=1, help="repeat the builds' runs, alternating (before, after, before, ...)")
    a = p.parse_args(argv)
    builds = {"after": site.snapshot(Path(tempfile.mkdtemp(prefix="gradpad-bench-stop-dist-")))}
    if a.before:
        builds = {"before": Path(a.before), **builds}
    servers, rows = [], []
    print(f"load average at start: {os.getloadavg()}", flush=True)
    try:
        urls = {}
        for label, root in builds.items():
            srv, url = serve.start(root)
            host_dir = Path(tempfile.mkdtemp(prefix="gradpad-bench-stop-host-"))
            (host_dir / "index.html").write_text(
                f'<!doctype html><title>course</title><iframe id="gp" src="{url}?embed=1&panes=jaxpr,plot'
                f'#example=jvp_and_vjp" width="700" height="500"></iframe>')
            (host_dir / "lesson.html").write_text(script_tag_page(url if url.endswith("/") else url + "/"))
            quiet = type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *a: None})
            host = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(quiet, directory=str(host_dir)))
            threading.Thread(target=host.serve_forever, daemon=True).start()
            servers += [srv, host]
            urls[label] = (url, f"http://127.0.0.1:{host.server_address[1]}/index.html")
        for name in a.browsers.split(","):
            for label, (url, host_url) in list(urls.items()) * a.rounds:
                print(f"--- {name}, {label}, load average {os.getloadavg()[0]:.1f}", flush=True)
                if name == "chromium":
                    from playwright.sync_api import sync_playwright
                    with sync_playwright() as pw:
                        got = chromium_cases(pw, url, host_url, a.cases.split(","), a.later)
                else:
                    got = other_cases(name, url)
                rows += [{**r, "build": label, "load": round(os.getloadavg()[0], 1)} for r in got]
    finally:
        for srv in servers:
            srv.shutdown()
    print(f"load average at end: {os.getloadavg()}", flush=True)
    print(f"{'build':6} {'case':48} {'when':18} {'path':9} {'view':11} {'stopped':>7} {'python':>7} {'ui':>7} {'editable':>8} {'ro ms':>6} "
          f"{'load':>5}  phases")
    for r in rows:
        path = "interrupt" if r["isolated"] else (r.get("path") or ("standby" if r["stops"] and r["stops"][0].get("standby") else "fresh"))
        view = (r["stops"][0].get("view") if r["stops"] else None) or "-"  # prerendered: swapped in (static/prerender.js)
        print(f"{r['build']:6} {r['case'][:48]:48} {r['when']:18} {path:9} {view:11} {r['stopped']:7} {r['python']:7} {r['ui']:7} "
              f"{r.get('editable', '-'):>8} {r.get('readonly', '-'):>6} {r['load']:5}  {r['phases']}"
              + (f" others back {r['others_back']}" if 'others_back' in r else "")
              + (f" stop via {r['lesson_stop']['via']} after {r['lesson_stop']['lag_ms']} ms" if r.get('lesson_stop') else ""))
    print("memory of the browser's processes, idle (MB): before the standby boots -> with the standby ready "
          "(and its app rendered in advance where the build does that)")
    for r in rows:
        for k in ("mem_before_standby", "mem_with_standby"):
            if k in r:
                print(f"{r['build']:6} {r['case'][:48]:48} {k:20} RSS {r[k]['rss_mb']:6} PSS {r[k]['pss_mb']:6}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
