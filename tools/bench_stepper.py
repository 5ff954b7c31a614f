"""What one step of the Jaxpr pane's stepper costs in the page, on a 1,000-equation jaxpr (issue 28:
"each step answers within 50 ms in the page").

    python -m tools.bench_stepper [--steps N] [--rounds R] [--compare DIST] [--trace PATH] [--parts]

The program of tests/browser/test_stepper_page.py (500 x `sin(x) * 1.0001` on 256 floats: 1,001
equations) is loaded, its f view's stepper started, then N jumps across the jaxpr are timed, each
from the call of `stepper.go(i)` to the frame after it was painted (the step itself, its deferred
part: the line in the pane's jaxpr text, the editor's mark, the graph's ring, and the frame's style,
layout and paint). An idle wait for the same frame (no step) is timed beside it: the machine's
floor. --compare DIST: a second built site (e.g. /work/wt/main_dist) measured alternately with this
one in the same run, with the load average. --trace PATH: a Chrome trace of 20 of this site's
steps, and the renderer's main-thread time per event kind printed. --parts: the step again with
one deferred part left out at a time (this site): what each part costs.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import bench_sites  # noqa: E402

THOUSAND = """import jax
import jax.numpy as jnp

def f(x):
    for _ in range(500):
        x = jnp.sin(x) * 1.0001
    return x.sum()

f(jnp.linspace(0.0, 1.0, 256))
"""

START = """async () => {
  const all = (r) => [...r.querySelectorAll('*')].flatMap((e) => [e, ...(e.shadowRoot ? all(e.shadowRoot) : [])]);
  const tab = all(document).find((e) => e.classList && e.classList.contains('bk-tab') && e.textContent.trim() === 'Jaxpr');
  tab.click();
  const deadline = performance.now() + 300000;
  let b = null;
  while (performance.now() < deadline) {
    const views = all(document).filter((e) => e.tagName === 'BUTTON' && e.textContent.trim() === 'f'
                                       && e.closest && e.closest('.bk-btn-group'));
    if (views.length) { views[0].click(); }
    b = all(document).find((e) => e.classList && e.classList.contains('gp-step-start')
        && e.closest('.gp-stepper').dataset.gpView === 'f');
    if (b) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!b) return {error: 'no stepper for f'};
  b.click();
  while (!(window.gradpad.stepper.count() > 0)) {
    if (performance.now() > deadline) return {error: 'stepper never started'};
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 2000));  // the graph drawn, the ring's first placement
  return {n: window.gradpad.stepper.count()};
}"""

# `jumps` steps across the jaxpr (every 389th equation, wrapping), each timed to the frame after it;
# between them an idle wait for a frame (no step): the floor. `skip`: deferred parts left out.
STEPS = """async ({jumps, skip, offset}) => {
  const s = window.gradpad.stepper, cur = s.current, n = s.count();
  const saved = {ring: cur.ring.show, editor: window.gradpad.sourceMap.showIndexed, lines: cur.lines};
  if (skip === 'ring') cur.ring.show = () => {};
  if (skip === 'editor') window.gradpad.sourceMap.showIndexed = () => {};
  if (skip === 'text') cur.lines = new Map();
  const frame = async () => {
    await new Promise(r => setTimeout(r, 0));
    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  };
  const step = [], go = [], idle = [];
  try {
    for (let k = 0; k < jumps; k++) {
      const i = ((k + offset) * 389) % n;
      let t0 = performance.now();
      s.go(i);
      const t1 = performance.now();
      await frame();
      step.push(performance.now() - t0); go.push(t1 - t0);
      await new Promise(r => setTimeout(r, 30));
      t0 = performance.now();
      await frame();
      idle.push(performance.now() - t0);
      await new Promise(r => setTimeout(r, 30));
    }
  } finally {
    cur.ring.show = saved.ring; window.gradpad.sourceMap.showIndexed = saved.editor; cur.lines = saved.lines;
  }
  return {step, go, idle};
}"""


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))]


def summary(xs) -> str:
    return f"median {statistics.median(xs):6.1f}  p90 {pct(xs, 0.9):6.1f}  max {max(xs):6.1f}"


def trace(page, path: str, jumps: int) -> None:
    """A Chrome trace of `jumps` steps; the renderer main thread's time per event name."""
    cdp = page.context.new_cdp_session(page)
    chunks = []
    cdp.on("Tracing.dataCollected", lambda e: chunks.extend(e["value"]))
    done = []
    cdp.on("Tracing.tracingComplete", lambda e: done.append(1))
    cdp.send("Tracing.start", {"categories": "devtools.timeline,disabled-by-default-devtools.timeline,blink,cc,v8",
                               "transferMode": "ReportEvents"})
    page.evaluate(STEPS, {"jumps": jumps, "skip": "", "offset": 100})
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(200)
    Path(path).write_text(json.dumps({"traceEvents": chunks}))
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in chunks
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    main = {k for k, v in names.items() if v == "CrRendererMain"}
    # only top-level complete events of the main thread (nested ones counted once, by their parent)
    evs = sorted((e for e in chunks if (e["pid"], e["tid"]) in main and e.get("ph") == "X" and "dur" in e),
                 key=lambda e: (e["pid"], e["tid"], e["ts"], -e["dur"]))
    self_by: dict = {}
    stack: list = []
    for e in evs:
        while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
            stack.pop()
        if stack:
            parent = stack[-1]
            self_by[parent["name"]] = self_by.get(parent["name"], 0.0) - e["dur"] / 1e3
        self_by[e["name"]] = self_by.get(e["name"], 0.0) + e["dur"] / 1e3
        stack.append(e)
    print(f"renderer main thread, self time over {jumps} steps (and {jumps} idle frames), ms:")
    for k, ms in sorted(self_by.items(), key=lambda kv: -kv[1])[:25]:
        print(f"  {ms:8.1f}  {k}")


def traced(page, args: dict) -> dict:
    """STEPS with a Chrome trace: the page's renderer main-thread CPU time (thread time, not wall:
    what the step costs, whatever else the machine runs) per step, idle frames included."""
    cdp = page.context.new_cdp_session(page)
    chunks, done = [], []
    cdp.on("Tracing.dataCollected", lambda e: chunks.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda e: done.append(1))
    cdp.send("Tracing.start", {"categories": "toplevel,devtools.timeline", "transferMode": "ReportEvents"})
    got = page.evaluate(STEPS, args)
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(100)
    cdp.detach()
    pid = next((e["pid"] for e in chunks if e.get("name") == "Paint"), None)
    top = sorted((e for e in chunks if e.get("pid") == pid and e.get("tid") == pid and e.get("ph") == "X"
                  and "tdur" in e), key=lambda e: (e["ts"], -e["dur"]))
    end, cpu = -1, 0
    for e in top:  # top-level events only (nested ones are inside their parent's time)
        if e["ts"] >= end:
            cpu += e["tdur"]
            end = e["ts"] + e["dur"]
    got["cpu"] = cpu / 1e3 / args["jumps"]
    return got


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--dist", default=str(ROOT / "dist"))
    p.add_argument("--compare", help="another built site (a dist/ directory), measured alternately")
    p.add_argument("--trace", help="write a Chrome trace of 20 of this site's steps here")
    p.add_argument("--parts", action="store_true", help="each deferred part left out in turn")
    a = p.parse_args(argv)
    sites = bench_sites.sites(a.dist, a.compare)
    res: dict = {k: {"step": [], "go": [], "idle": [], "cpu": []} for k in sites}
    loads = []
    with bench_sites.opened(sites) as pages:
        for k, page in pages.items():
            snap = page.evaluate("opts => window.gradpad.load(opts)", {"code": THOUSAND})
            assert not snap.get("error"), snap.get("error")
            print(f"[{k}] {page.evaluate(START)}", flush=True)
        if a.trace:
            trace(pages["this"], a.trace, 20)
        for r in range(a.rounds):
            for k in bench_sites.order(pages, r):
                loads.append(os.getloadavg()[0])
                got = traced(pages[k], {"jumps": a.steps, "skip": "", "offset": r * a.steps})
                for key in ("step", "go", "idle"):
                    res[k][key] += got[key]
                res[k]["cpu"].append(got["cpu"])
                print(f"[{k}] round {r + 1} (load {loads[-1]:.1f}): to the next frame {summary(got['step'])}; "
                      f"idle frame {summary(got['idle'])}; renderer CPU {got['cpu']:.1f} ms a step", flush=True)
        if a.parts:
            for skip in ("", "ring", "text", "editor", ""):
                got = pages["this"].evaluate(STEPS, {"jumps": a.steps, "skip": skip, "offset": 7})
                print(f"[this] without {skip or 'nothing'} (load {os.getloadavg()[0]:.1f}): {summary(got['step'])}; "
                      f"go() {summary(got['go'])}; idle {summary(got['idle'])}", flush=True)
    print(f"\none step of a 1,001-equation jaxpr, ms, {len(res['this']['step'])} steps per site "
          f"(load average {min(loads):.1f}-{max(loads):.1f}):")
    for k in sites:
        print(f"  [{k:7s}] to the next frame: {summary(res[k]['step'])}")
        print(f"  [{k:7s}] go() alone:        {summary(res[k]['go'])}")
        print(f"  [{k:7s}] idle frame:        {summary(res[k]['idle'])}")
        print(f"  [{k:7s}] renderer main-thread CPU per step (thread time, rounds): "
              + ", ".join(f"{x:.1f}" for x in res[k]["cpu"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
