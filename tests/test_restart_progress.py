"""What the page says while a fresh Python starts after a Stop with no standby ready
(static/restart_view.js startProgress), and where a standby's app is rendered in advance
(static/prerender.js prerenderWanted). Run in Node.js: the functions are the page's own."""
from __future__ import annotations

from pathlib import Path
from node_js import run_script, static_module

ROOT = Path(__file__).resolve().parent.parent

HARNESS = """
const view = await import(%(view)s);
const pre = await import(%(pre)s);
const progress = [
  view.startProgress(undefined, 0, 30000),
  view.startProgress("numpy", 11000, 30000),
  view.startProgress("ui", 29600, 30000),
  view.startProgress("engine", 5000, null),
];
const wanted = [["", false], ["", true], ["?prerender=1", true], ["?prerender=0", false], ["?lesson=a.md", false]]
  .map(([q, isolated]) => pre.prerenderWanted(q, isolated));
console.log("@@" + JSON.stringify({progress, wanted}));
"""


def run() -> dict:
    return run_script(HARNESS % {"view": static_module("restart_view.js"), "pre": static_module("prerender.js")})


def test_the_restart_note_says_the_step_and_about_how_long_is_left():
    got = run()["progress"]
    assert got == ["starting, about 30 s left",
                   "loading numpy (step 2 of 4), about 19 s left",
                   "loading the app (step 4 of 4), almost there",
                   "loading the engine (step 3 of 4)"], got  # no earlier start to go by: no guess


def test_the_standbys_app_is_rendered_in_advance_where_every_stop_ends_the_worker():
    # no shared memory: yes; isolated (Stop interrupts): only when asked; off when asked; lessons: no
    assert run()["wanted"] == [True, False, True, False, False]
