"""When the page boots its spare Python (static/standby.js), run in Node.js on a fake clock.

Where the page has no shared memory (an embed on a course site, a first visit, WebKit) every
Stop ends the worker, so a standby must be there: it boots on phones too, beside the worker
that saves the boot snapshot, and under a long run (a link's or an autorun's endless loop comes
before any idle moment). With shared memory the old rules hold (phones lazy, wait for the
snapshot, idle only), and a lesson page stays one Python while idle."""
from __future__ import annotations

import json
from pathlib import Path
from node_js import run_script, static_module

ROOT = Path(__file__).resolve().parent.parent

# A fake clock and browser, then standby.js's own functions; SCENARIOS' steps drive it.
HARNESS = r"""
let now = 0, timers = [], seq = 0;
globalThis.setTimeout = (fn, ms) => { const id = ++seq; timers.push({id, at: now + (ms || 0), fn}); return id; };
globalThis.clearTimeout = (id) => { timers = timers.filter((t) => t.id !== id); };
Object.defineProperty(globalThis, "performance", {value: {now: () => now}, configurable: true});
Object.defineProperty(globalThis, "navigator", {value: {}, configurable: true});
const phone = %(phone)s;
globalThis.screen = phone ? {width: 390, height: 844} : {width: 1400, height: 900};
globalThis.matchMedia = () => ({matches: phone});
function advance(ms) {
  const end = now + ms;
  for (;;) {
    timers.sort((a, b) => a.at - b.at);
    const t = timers[0];
    if (!t || t.at > end) break;
    timers.shift();
    now = t.at;
    t.fn();
  }
  now = end;
}
const { standbyPolicy, makeStandby } = await import(%(module)s);
const out = {};
for (const [name, sc] of Object.entries(%(scenarios)s)) {
  now = 0; timers = [];
  const gradpad = {running: false, runStarted: 0, snapshotMaking: false};
  let boots = 0;
  const sb = makeStandby({start: () => { boots++; return {}; }, search: sc.search || "", gradpad, isolated: sc.isolated});
  const trace = [];
  for (const [op, arg] of sc.steps) {
    if (op === "ui") sb.uiReady();
    else if (op === "run") { gradpad.running = true; gradpad.runStarted = now; sb.running(true); }
    else if (op === "end") { gradpad.running = false; sb.running(false); }
    else if (op === "snapshot") gradpad.snapshotMaking = arg;
    else if (op === "wait") advance(arg);
    else if (op === "boots") trace.push(boots);
    else if (op === "ready") sb.changed();
    else if (op === "settled") trace.push(sb.settled());  // (loader.js: the snapshot worker waits for it)
  }
  out[name] = {policy: standbyPolicy(sc.search || "", sc.isolated), boots: trace};
}
console.log("@@" + JSON.stringify(out));
"""

SCENARIOS = {
    # a run under way when the UI comes (autorun of a link's loop), and going on
    "loop_before_ui_no_shared_memory": {"isolated": False, "steps": [
        ["run", None], ["wait", 300], ["ui", None], ["wait", 900], ["boots", None], ["wait", 3000], ["boots", None]]},
    "loop_before_ui_isolated": {"isolated": True, "steps": [
        ["run", None], ["wait", 300], ["ui", None], ["wait", 5000], ["boots", None], ["end", None],
        ["wait", 2000], ["boots", None]]},
    # a run started after the UI: booted once it has gone on for a second
    "long_run_no_shared_memory": {"isolated": False, "steps": [
        ["ui", None], ["run", None], ["wait", 900], ["boots", None], ["wait", 300], ["boots", None]]},
    # idle, with the throw-away snapshot worker still busy
    "idle_beside_snapshot_no_shared_memory": {"isolated": False, "steps": [
        ["snapshot", True], ["ui", None], ["wait", 2000], ["boots", None]]},
    "idle_beside_snapshot_isolated": {"isolated": True, "steps": [
        ["snapshot", True], ["ui", None], ["wait", 5000], ["boots", None], ["snapshot", False],
        ["wait", 2000], ["boots", None]]},
    # the UI comes, idle: without shared memory the standby boots at once (a Stop seconds later
    # takes it further along), and is settled once ready; with it, after an idle moment
    "as_the_ui_comes_no_shared_memory": {"isolated": False, "steps": [
        ["ui", None], ["wait", 1], ["boots", None], ["settled", None], ["ready", None], ["settled", None]]},
    # ...also when the autorun's first run ends just after the UI came
    "first_run_ends_after_the_ui_no_shared_memory": {"isolated": False, "steps": [
        ["run", None], ["ui", None], ["wait", 200], ["end", None], ["wait", 1], ["boots", None]]},
    "as_the_ui_comes_isolated": {"isolated": True, "steps": [
        ["ui", None], ["wait", 1], ["boots", None], ["wait", 2000], ["boots", None]]},
    # a lesson page: one Python while idle, a standby only under a long run
    "lesson_idle_no_shared_memory": {"isolated": False, "search": "?embed=1&lesson=lessons/first-steps.md", "steps": [
        ["ui", None], ["wait", 10000], ["boots", None], ["run", None], ["wait", 1200], ["boots", None]]},
    "off_no_shared_memory": {"isolated": False, "search": "?standby=off", "steps": [
        ["run", None], ["ui", None], ["wait", 10000], ["end", None], ["wait", 10000], ["boots", None]]},
}


def run_scenarios(phone: bool) -> dict:
    return run_script(HARNESS % {"phone": json.dumps(phone), "module": static_module("standby.js"),
                                 "scenarios": json.dumps(SCENARIOS)})


def test_without_shared_memory_a_standby_boots_under_a_long_run_and_beside_the_snapshot():
    got = run_scenarios(phone=False)
    assert got["loop_before_ui_no_shared_memory"] == {"policy": "eager", "boots": [0, 1]}, got
    assert got["long_run_no_shared_memory"]["boots"] == [0, 1], got
    assert got["idle_beside_snapshot_no_shared_memory"]["boots"] == [1], got
    # with shared memory Stop interrupts: the spare waits for an idle moment and for the snapshot
    assert got["loop_before_ui_isolated"] == {"policy": "eager", "boots": [0, 1]}, got
    assert got["idle_beside_snapshot_isolated"]["boots"] == [0, 1], got
    assert got["as_the_ui_comes_no_shared_memory"]["boots"] == [1, False, True], got
    assert got["as_the_ui_comes_isolated"]["boots"] == [0, 1], got
    assert got["first_run_ends_after_the_ui_no_shared_memory"]["boots"] == [1], got
    # a lesson page stays one Python while idle; ?standby=off never boots one
    assert got["lesson_idle_no_shared_memory"] == {"policy": "lazy", "boots": [0, 1]}, got
    assert got["off_no_shared_memory"] == {"policy": "off", "boots": [0]}, got


def test_a_phone_without_shared_memory_keeps_a_standby_and_one_with_it_boots_lazily():
    got = run_scenarios(phone=True)
    assert got["idle_beside_snapshot_no_shared_memory"] == {"policy": "eager", "boots": [1]}, got
    assert got["idle_beside_snapshot_isolated"]["policy"] == "lazy", got
    assert got["idle_beside_snapshot_isolated"]["boots"] == [0, 0], got  # idle: one Python
    assert got["lesson_idle_no_shared_memory"] == {"policy": "lazy", "boots": [0, 1]}, got
