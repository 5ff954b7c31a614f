"""How a lesson's Stop goes in one engine (issue 27): a course page of three cell frames
(static/lesson.js), `while True: pass` typed into the second cell, Stop clicked there, N times.
For each Stop and frame: how the Stop reached the first frame ("call": the direct same-origin call;
"message": postMessage), the restarts the frame counted (read again 20 s after all frames are back,
to catch a late second one), and the milliseconds from the click to the frame being back on the
new Python (its old view greyed, then replaced), on the pages' own clocks (performance.timeOrigin).

    PYTHONPATH=$PWD flock /work/wt/browser.lock .venv/bin/python -m tests.browser.lesson_stop_probe firefox 2 --load

BROWSER: chromium, firefox or webkit; N Stops (default 2); --load: two busy Python loops run
meanwhile (a loaded 2-core machine). Prints one JSON line per Stop, then RESULT and the whole."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools import serve, site

from . import drivers
from .test_every_browser import CELL_FRAME, EDITOR, EDITOR_TEXT, LOOP, in_loaded_frame
from .test_lesson import course_site, script_tag_page

# set in each frame before the click: the time the frame is back (greyed once, then not)
WATCH = """() => { const st = {back: null, greyed: false, r0: window.gradpad.restarts}; window.__gpBack = st;
  const iv = setInterval(() => { const app = document.getElementById('app');
    if (app && app.classList.contains('gp-stale')) st.greyed = true;
    if (st.greyed && window.gradpad.restarts > st.r0 && window.gradpad.ui === 'app' && app && !app.classList.contains('gp-stale')) {
      st.back = performance.timeOrigin + performance.now(); clearInterval(iv); } }, 5); return true; }"""
STATE = """() => ({restarts: window.gradpad.restarts, stale: document.getElementById('app').classList.contains('gp-stale'),
  back: window.__gpBack.back, origin: performance.timeOrigin, lessonStops: window.gradpad.lessonStops,
  stop: window.gradpad.stops.at(-1) || null, freshBoots: window.gradpad.freshBoots})"""
SCROLL_FRAME = """(block) => { document.querySelectorAll('iframe.gradpad-lesson')[1].scrollIntoView({block}); return true; }"""


def one_stop(b, k: int, back_within_s: float) -> dict:
    b.in_frame(None)
    b.evaluate(SCROLL_FRAME, "center")
    b.in_frame(CELL_FRAME, 1)
    b.click(EDITOR)
    b.press("{CTRL_A}" + LOOP)
    b.wait_for(f"(code) => ({EDITOR_TEXT})() === code && window.gradpad.running && "
               "performance.now() - window.gradpad.runStarted > 500", LOOP, timeout_s=300)
    for i in range(3):
        b.in_frame(CELL_FRAME, i)
        b.evaluate(WATCH)
    # the floating Stop sits at the frame's bottom: the whole frame in the host's view (the run
    # changed the frame's height since the scroll above)
    b.in_frame(None)
    b.evaluate(SCROLL_FRAME, "end")
    b.in_frame(CELL_FRAME, 1)
    b.click("() => document.getElementById('gp-stop')")
    t_click = time.monotonic()
    rec = {}
    deadline = t_click + back_within_s
    while True:
        backs = []
        for i in range(3):
            b.in_frame(CELL_FRAME, i)
            backs.append(b.evaluate("() => window.__gpBack.back !== null"))
        if all(backs):
            break
        if time.monotonic() > deadline:
            rec["not back"] = [i + 1 for i, x in enumerate(backs) if not x]
            break
        time.sleep(0.5)
    rec["wall_s"] = round(time.monotonic() - t_click, 1)
    time.sleep(20)  # a late second restart would show in the counts
    states = []
    for i in range(3):
        b.in_frame(CELL_FRAME, i)
        states.append(b.evaluate(STATE))
    asks = states[1]["lessonStops"]
    if len(asks) != k + 1:
        rec["click missed"] = True
        return rec
    click = states[1]["origin"] + asks[-1]["t"]
    rec["via"] = asks[-1]["via"]
    rec["heard"] = states[0]["lessonStops"][-1:]  # the first frame's record: {via, lagMs, running}
    rec["restarts"] = [s["restarts"] for s in states]
    rec["back_ms"] = [round(s["back"] - click) if s["back"] else None for s in states]
    rec["path"] = [(s["stop"] or {}).get("path") for s in states]
    rec["freshBoots"] = [len(s["freshBoots"]) for s in states]
    return rec


def main(argv: list[str]) -> int:
    name = argv[0]
    n = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 2
    load = "--load" in argv
    root = site.snapshot(Path(tempfile.mkdtemp(prefix="gradpad-probe-")) / "dist")
    srv, url = serve.start(root)
    host_srv, host_url = course_site(Path(tempfile.mkdtemp(prefix="gradpad-course-")), {"week1.html": script_tag_page(url)})
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)] if load else []
    pw = None
    if name == "chromium":
        from playwright.sync_api import sync_playwright
        pw = sync_playwright().start()
    b = drivers.launch(name, pw)
    out = {"browser": name, "version": getattr(b, "version", ""), "load": load, "stops": []}
    try:
        t0 = time.monotonic()
        b.set_viewport(1400, 900)
        b.goto(host_url + "week1.html")
        b.wait_for("() => document.querySelectorAll('iframe.gradpad-lesson').length === 3", timeout_s=60)
        in_loaded_frame(b, 1)
        for i in range(3):
            b.in_frame(CELL_FRAME, i)
            b.wait_for("() => window.gradpad && window.gradpad.ui === 'app'", timeout_s=600, poll_ms=500)
        out["boot_s"] = round(time.monotonic() - t0, 1)
        for k in range(n):
            out["stops"].append(one_stop(b, k, back_within_s=240))
            print(json.dumps(out["stops"][-1]), flush=True)
    finally:
        for p in busy:
            p.kill()
        b.close()
        if pw:
            pw.stop()
        srv.shutdown()
        host_srv.shutdown()
        print("RESULT", json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
