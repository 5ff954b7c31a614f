"""One cold visit of a built site under a Chrome trace: where each thread's time goes between the
page's marks (gradpad.timings), and the request waterfall (issue 26: the critical path to ready).

    python -m tools.trace_boot [--dist DIR] [--trace OUT.json]   # record, then report
    python -m tools.trace_boot --analyze OUT.json                # report a recorded trace again

Busy ms come from V8's CPU sampler (samples in JS or wasm; a thread descheduled on a loaded machine
still counts as busy), so compare windows within one trace, not totals between loaded runs.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CATEGORIES = ["disabled-by-default-v8.cpu_profiler", "v8.execute", "devtools.timeline", "blink.user_timing",
              "v8", "v8.wasm", "loading"]
ORDER = ["start", "preview:json", "bokeh", "preview:resources", "preview", "runtime:module", "runtime", "numpy", "engine", "ui:loaded", "ui:imported", "ui:built", "ui"]


def record(dist: Path, out: Path) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser import chromium
    from tools import serve
    srv, url = serve.start(dist)
    try:
        with sync_playwright() as pw:
            br = pw.chromium.launch(executable_path=str(chromium.CHROMIUM), headless=False, args=chromium.FLAGS)
            page = br.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.set_default_timeout(600_000)
            br.start_tracing(page=page, categories=CATEGORIES)
            page.goto(url, wait_until="domcontentloaded")
            page.evaluate("() => window.gradpad.uiReady.then(() => 1)")
            timings = page.evaluate("() => window.gradpad.timings")
            # the document's own milestones (HTML parsed, deferred scripts run, first paint)
            nav = page.evaluate("""() => {
                const n = performance.getEntriesByType('navigation')[0], o = {};
                for (const k of ['responseEnd', 'domInteractive', 'domContentLoadedEventStart', 'domContentLoadedEventEnd'])
                    o[k] = Math.round(n[k]);
                for (const p of performance.getEntriesByType('paint')) o[p.name] = Math.round(p.startTime);
                return o;
            }""")
            # a user-timing mark ties the trace's clock to the page's navigation-relative ms
            align = page.evaluate("() => { const t = performance.now(); performance.mark('gp-align'); return t; }")
            time.sleep(0.5)
            trace = json.loads(br.stop_tracing())
            br.close()
    finally:
        srv.shutdown()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    out.write_text(json.dumps({"traceEvents": events, "gradpad": {"timings": timings, "align": align, "nav": nav}}))


def analyze(path: Path) -> None:
    data = json.loads(path.read_text())
    ev, meta = data["traceEvents"], data["gradpad"]
    nav0 = next(e for e in ev if e.get("name") == "gp-align")["ts"] - meta["align"] * 1000
    ms = lambda ts: (ts - nav0) / 1000  # noqa: E731
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
    marks = sorted([("nav", 0)] + [(k, meta["timings"][k]) for k in ORDER if k in meta["timings"]], key=lambda x: x[1])
    windows = [f"{a[0]}->{b[0]}" for a, b in zip(marks, marks[1:] + [("end", 1e12)])]

    def window(t):
        i = max(i for i, (_, v) in enumerate(marks) if t >= v) if t >= 0 else 0
        return windows[i]

    profiles = {}
    for e in ev:
        if e.get("name") == "Profile":
            profiles[(e["pid"], e["id"])] = {"tid": e["tid"], "t": e["args"]["data"]["startTime"], "nodes": {}, "samples": []}
    for e in ev:
        p = profiles.get((e.get("pid"), e.get("id"))) if e.get("name") == "ProfileChunk" else None
        if not p:
            continue
        d = e["args"]["data"]
        for n in d.get("cpuProfile", {}).get("nodes", []):
            p["nodes"][n["id"]] = n
        t = p["samples"][-1][0] if p["samples"] else p["t"]
        for sid, dt in zip(d.get("cpuProfile", {}).get("samples", []), d.get("timeDeltas", [])):
            t += dt
            p["samples"].append((t, sid))
    busy = collections.defaultdict(collections.Counter)
    top = collections.defaultdict(collections.Counter)
    for (pid, _), p in profiles.items():
        thread = names.get((pid, p["tid"]), str(p["tid"]))
        for (t0, _), (t1, sid) in zip(p["samples"], p["samples"][1:]):
            node, dt = p["nodes"].get(sid), (t1 - t0) / 1000
            if not node or dt > 50 or node["callFrame"].get("functionName") == "(idle)":
                continue
            cf = node["callFrame"]
            w = window(ms(t1))
            busy[w][thread] += dt
            top[(w, thread)][f"{cf.get('functionName') or '(anon)'} {cf.get('url', '').rsplit('/', 1)[-1][:28]}"] += dt
    print("marks (ms from navigation):", ", ".join(f"{k} {v}" for k, v in marks))
    print("document:", ", ".join(f"{k} {v}" for k, v in meta.get("nav", {}).items()))
    for w in windows:
        if w not in busy:
            continue
        print(f"\n{w}: busy ms " + ", ".join(f"{k} {v:.0f}" for k, v in busy[w].most_common()))
        for thread, v in busy[w].most_common():
            if v >= 30:
                print(f"   [{thread}] " + "; ".join(f"{n} {x:.0f}" for n, x in top[(w, thread)].most_common(6)))
    requests = {}
    for e in ev:
        d = (e.get("args") or {}).get("data") or {}
        r = requests.setdefault(d["requestId"], {}) if d.get("requestId") and e.get("name", "").startswith("Resource") else None
        if r is None:
            continue
        if e["name"] == "ResourceSendRequest":
            r.update(url=d.get("url", ""), send=ms(e["ts"]), thread=names.get((e["pid"], e["tid"]), "?"))
        elif e["name"] == "ResourceFinish":
            r.update(end=ms(e["ts"]), bytes=d.get("encodedDataLength"))
    print("\nrequests: sent, finished (ms), bytes on the wire, thread, url")
    for r in sorted((r for r in requests.values() if "send" in r and not r["url"].startswith("data:")), key=lambda r: r["send"]):
        print(f"{r['send']:8.0f} {r.get('end', float('nan')):8.0f} {r.get('bytes') or 0:>9} {r['thread'][:14]:14} {r['url'].split('/', 3)[-1][:70]}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dist", default=str(ROOT / "dist"))
    p.add_argument("--trace", default="boot-trace.json", help="where the recorded trace is written")
    p.add_argument("--analyze", help="report this recorded trace (no browser run)")
    a = p.parse_args(argv)
    if a.analyze:
        analyze(Path(a.analyze))
        return 0
    record(Path(a.dist), Path(a.trace))
    analyze(Path(a.trace))
    return 0


if __name__ == "__main__":
    sys.exit(main())
