"""What is inside the page's long main-thread tasks while a program's panes arrive (issue 26:
"never frozen"), from a Chrome trace of one built site.

    python -m tools.trace_gaps [--dist DIR] [--scenarios a,b] [--trace OUT.json] [--over MS]
    python -m tools.trace_gaps --analyze OUT.json [--over MS]

Runs tools.bench_gaps' scenarios (as `measured` runs them: load, then the Plots, vmap and Jaxpr
tabs shown) under a trace, and for every task of the page's main thread longer than --over ms
(100) prints its length, the timeline events inside it (Layout, style, paint, HTML parsing) and
the JavaScript functions with most self time and most inclusive time in it (V8's sampler); and,
while recording, each box layout over 20 ms (static/layout_bounds.js: which pane, how long).
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import bench_gaps, bench_sites  # noqa: E402

CATEGORIES = ["disabled-by-default-v8.cpu_profiler", "devtools.timeline", "disabled-by-default-devtools.timeline",
              "blink.user_timing", "v8.execute", "toplevel"]
TIMELINE = {"Layout", "UpdateLayoutTree", "Paint", "PaintImage", "RasterTask", "ParseHTML", "ParseAuthorStyleSheet",
            "FunctionCall", "EvaluateScript", "TimerFire", "FireAnimationFrame", "EventDispatch",
            "MajorGC", "MinorGC", "V8.GC_MC_BACKGROUND_MARKING", "HitTest", "PrePaint", "Layerize", "Commit"}


def record(dist: Path, out: Path, names: list) -> None:
    with bench_sites.opened({"this": dist}) as pages:
        page = pages["this"]
        br = page.context.browser
        cdp = page.context.new_cdp_session(page)
        spans = {}
        for name in names:
            before, opts = bench_gaps.SCENARIOS[name]
            bench_gaps.load(page, before)
            page.wait_for_timeout(500)
            page.evaluate("() => { gradpad.layouts.log = []; }")  # static/layout_bounds.js
            cdp.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES},
                                       "transferMode": "ReturnAsStream"})
            t0 = page.evaluate("() => { performance.mark('gp-trace-start'); return performance.now(); }")
            m = bench_gaps.measured(page, opts)
            events = _stop(cdp, page)
            spans[name] = {"max": m["max"], "long": m["long"], "t0": t0, "events": events}
            print(f"{name}: longest gap {m['max']} ms, long tasks {m['long']}", flush=True)
            for lay in page.evaluate("() => gradpad.layouts.log || []"):  # the box layouts over 20 ms
                print(f"    layout {lay['ms']:5d} ms  {lay['what']}", flush=True)
        del br
    out.write_text(json.dumps(spans))


def _stop(cdp, page) -> list:
    done = {}
    cdp.on("Tracing.tracingComplete", lambda e: done.update(e))
    cdp.send("Tracing.end")
    while not done:  # Playwright handles events only while it waits (never time.sleep)
        page.wait_for_timeout(100)
    handle, chunks = done["stream"], []
    while True:
        r = cdp.send("IO.read", {"handle": handle, "size": 1 << 22})
        chunks.append(r["data"])
        if r.get("eof"):
            break
    cdp.send("IO.close", {"handle": handle})
    data = json.loads("".join(chunks))
    return data["traceEvents"] if isinstance(data, dict) else data


def _main_thread(ev: list) -> tuple:
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
    mark = next(e for e in ev if e.get("name") == "gp-trace-start")
    return (mark["pid"], mark["tid"]), names


def _samples(ev: list, key: tuple) -> list:
    """[(ts µs, [frame names leaf first])] of the main thread's profile."""
    prof = None
    nodes, out, t = {}, [], None
    for e in ev:
        if e.get("name") == "Profile" and (e["pid"], e["tid"]) == key:
            prof, t = e["id"], e["args"]["data"]["startTime"]
    if prof is None:
        return out
    for e in ev:
        if e.get("name") != "ProfileChunk" or e.get("id") != prof or e["pid"] != key[0]:
            continue
        d = e["args"]["data"]
        for n in d.get("cpuProfile", {}).get("nodes", []):
            nodes[n["id"]] = n
        for sid, dt in zip(d.get("cpuProfile", {}).get("samples", []), d.get("timeDeltas", [])):
            t += dt
            out.append((t, sid))

    def stack(sid):
        names, seen = [], set()
        while sid in nodes and sid not in seen:
            seen.add(sid)
            cf = nodes[sid]["callFrame"]
            fn = cf.get("functionName") or f"(anon@{cf.get('columnNumber', -1)})"
            names.append(f"{fn} {cf.get('url', '').rsplit('/', 1)[-1][:20]}:{cf.get('lineNumber', -1)}")
            sid = nodes[sid].get("parent")
        return names
    parents = {}
    for n in nodes.values():
        for c in n.get("children", []):
            parents[c] = n["id"]
    for n in nodes.values():  # the trace's nodes name their parent; a CPU profile's their children
        n.setdefault("parent", parents.get(n["id"]))
    return [(ts, stack(sid)) for ts, sid in out]


def analyze(spans: dict, over: float) -> None:
    for name, s in spans.items():
        ev = s["events"]
        key, _ = _main_thread(ev)
        mine = [e for e in ev if (e.get("pid"), e.get("tid")) == key and e.get("ph") == "X"]
        tasks, end = [], 0
        for e in sorted((e for e in mine if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask")),
                        key=lambda e: (e["ts"], -e.get("dur", 0))):
            if e["ts"] >= end:  # the outermost task (RunTask nests ThreadControllerImpl::RunTask)
                end = e["ts"] + e.get("dur", 0)
                if e.get("dur", 0) > over * 1e3:
                    tasks.append(e)
        samples = _samples(ev, key)
        print(f"\n=== {name}: longest gap {s['max']} ms; {len(tasks)} tasks over {over:.0f} ms "
              f"({sum(e['dur'] for e in tasks) / 1e3:.0f} ms in all)")
        for task in tasks:
            t0, t1 = task["ts"], task["ts"] + task["dur"]
            inner = collections.Counter()
            for e in mine:
                if e["name"] in TIMELINE and t0 <= e["ts"] < t1:
                    inner[e["name"]] += e.get("dur", 0) / 1e3
            selfs, incl = collections.Counter(), collections.Counter()
            prev = None
            for ts, st in samples:
                if t0 <= ts < t1 and st:
                    dt = (ts - prev) / 1e3 if prev is not None else 0.1
                    dt = min(dt, 5.0)
                    selfs[st[0]] += dt
                    for f in set(st):
                        incl[f] += dt
                prev = ts
            print(f"- task {task['dur'] / 1e3:.0f} ms: " + ", ".join(f"{k} {v:.0f}" for k, v in inner.most_common(7)))
            print("    self: " + "; ".join(f"{k} {v:.0f}" for k, v in selfs.most_common(6)))
            print("    incl: " + "; ".join(f"{k} {v:.0f}" for k, v in incl.most_common(16)
                                          if not k.startswith("(root)") and not k.startswith("(program)")))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dist", default=str(ROOT / "dist"))
    p.add_argument("--scenarios", default=",".join(bench_gaps.SCENARIOS))
    p.add_argument("--trace", default="/tmp/trace_gaps.json")
    p.add_argument("--analyze", help="a trace recorded earlier")
    p.add_argument("--over", type=float, default=100.0)
    a = p.parse_args(argv)
    path = Path(a.analyze or a.trace)
    if not a.analyze:
        record(Path(a.dist).resolve(), path, a.scenarios.split(","))
    analyze(json.loads(path.read_text()), a.over)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
