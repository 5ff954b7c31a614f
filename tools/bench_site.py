"""Page-load benchmark of dist/ in headless Debian chromium: a cold profile, then a warm one.

    python build.py bench site [--runs N] [--json PATH] [--compare DIR] [--cold-only]

--compare DIR: a second built site (e.g. main's dist/, built in a temporary checkout) loaded the
same way, alternating with this one, and shown side by side: timings on a shared machine are
only comparable within one run.

For each load: bytes the server sent (the real transfer; the service worker makes warm
loads nearly free), requests, time to each loader stage (runtime, numpy, engine = ready,
UI), time to the first result (`jax.grad(lambda x: x**3)(2.0)` through gradpad.runPython)
and to interactive (the UI rendered). Times are ms from navigation start. Every request is
checked to stay on 127.0.0.1.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import chromium  # noqa: E402
from tools import serve, site  # noqa: E402

FIRST = "import jax\nfloat(jax.grad(lambda x: x**3)(2.0))"


class Counter:
    bytes = 0
    requests = 0


def counting_handler(counter: Counter):
    class H(serve.Handler):
        def copyfile(self, source, outputfile):
            counter.requests += 1
            while chunk := source.read(1 << 16):
                outputfile.write(chunk)
                counter.bytes += len(chunk)
    return H


def start_server(counter: Counter, root: Path):
    import functools
    import threading

    handler = functools.partial(counting_handler(counter), directory=str(root))
    srv = serve.Server(("127.0.0.1", serve.free_port()), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


# the issue-26 goals (quiet machine, headless Chromium): printed beside the numbers, not asserted
GOALS = {"cold": {"interactive_ms": 5000, "ui_bytes": 20e6, "preview_ms": 1500},
         "warm": {"interactive_ms": 2000}}


def load_once(ctx, url: str, counter: Counter, external: list, wait_snapshot: bool = True) -> dict:
    counter.bytes = counter.requests = 0
    page = ctx.new_page()
    page.on("request", lambda r: None if chromium.is_local(r.url) else external.append(r.url))
    page.set_default_timeout(600_000)
    wall0 = time.monotonic()
    page.goto(url, wait_until="domcontentloaded")
    ready = page.evaluate("() => window.gradpad.ready.then(() => 'ok', e => String(e))")
    if ready != "ok":
        raise SystemExit(f"page did not become ready: {ready}")
    first = page.evaluate("""async code => {
        const r = await window.gradpad.runPython(code);
        return {t: Math.round(performance.now()), result: r.result, error: r.error && r.error.type + ': ' + r.error.message};
    }""", FIRST)
    ui = page.evaluate("() => window.gradpad.uiReady.then(g => g.ui, e => 'error: ' + e)")
    ui_bytes = counter.bytes  # what the page needed until the UI was usable
    timings = page.evaluate("() => window.gradpad.timings")
    info = page.evaluate("() => window.gradpad.info")
    # let the service worker finish installing (it precaches from the HTTP cache)
    sw = "not waited" if not wait_snapshot else page.evaluate("""async () => {
        if (!navigator.serviceWorker) return 'unsupported';
        const reg = await Promise.race([navigator.serviceWorker.ready, new Promise(r => setTimeout(() => r(null), 20000))]);
        return reg && reg.active ? reg.active.state : 'none';
    }""")
    # the first visit stores a boot snapshot once interactive: wait for it before the next load
    snapshot = "not waited" if not wait_snapshot else page.evaluate("""async () => {
        // (and the post-import snapshot: made after a boot from the bare one too)
        const gp = window.gradpad;
        for (let i = 0; i < 240 && ((gp.bootedFrom === 'boot' && !gp.snapshotSaved) || gp.snapshotMaking); i++)
            await new Promise(r => setTimeout(r, 500));
        return gp.bootedFrom + (gp.snapshotSaved ? ' (snapshot saved)' : '')
            + (gp.importsSnapshotSaved ? ' (post-import snapshot saved)' : '')
            + (gp.importsSnapshotError ? ' (post-import snapshot failed: ' + gp.importsSnapshotError.slice(0, 200) + ')' : '');
    }""")
    out = {
        "bytes": counter.bytes, "ui_bytes": ui_bytes, "requests": counter.requests,
        # the build-time rendering of the first example shown (static/preview.js), if any
        "preview_ms": timings.get("preview"),
        "runtime_ms": timings.get("runtime"), "numpy_ms": timings.get("numpy"),
        "ready_ms": timings.get("engine"), "first_result_ms": first["t"],
        "interactive_ms": timings.get("ui"), "ui": ui, "service_worker": sw, "booted_from": snapshot,
        "first_result": first["result"], "first_error": first["error"],
        "wall_s": round(time.monotonic() - wall0, 1),
        # sub-stage marks (runtime:snapshot-read, numpy:loaded, ...) and Python import costs
        "timings": timings, "import_ms": (info or {}).get("import_ms"),
    }
    page.close()
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=1, help="cold+warm pairs, each on a fresh profile")
    p.add_argument("--json", help="also write the results here")
    p.add_argument("--compare", help="another built site (a dist/ directory) to load side by side")
    p.add_argument("--cold-only", action="store_true", help="only the cold load of each pair (no warm load)")
    a = p.parse_args(argv)
    problem = chromium.problem()
    if problem:
        raise SystemExit(problem)
    import tempfile

    sites = {"this": site.snapshot(Path(tempfile.mkdtemp(prefix="gradpad-bench-")) / "dist")}
    if a.compare:
        sites["compare"] = Path(a.compare).resolve()
    servers = {}
    for name, root in sites.items():
        counter = Counter()
        srv, url = start_server(counter, root)
        servers[name] = (srv, url, counter)
    from playwright.sync_api import sync_playwright

    external: list[str] = []
    results = {name: {"cold": [], "warm": []} for name in sites}
    load0 = os.getloadavg()
    with sync_playwright() as pw:
        for _ in range(a.runs):
            for name in sites:  # alternating: both see the same machine
                _, url, counter = servers[name]
                ctx, udd = chromium.launch(pw)
                try:
                    results[name]["cold"].append(load_once(ctx, url, counter, external, wait_snapshot=not a.cold_only))
                    if not a.cold_only:
                        time.sleep(1.0)
                        results[name]["warm"].append(load_once(ctx, url, counter, external))
                finally:
                    ctx.close()
                    shutil.rmtree(udd, ignore_errors=True)
    load1 = os.getloadavg()
    for srv, _, _ in servers.values():
        srv.shutdown()
    dist_bytes = sum(f.stat().st_size for f in sites["this"].rglob("*") if f.is_file() and f.suffix != ".gz")
    shutil.rmtree(sites["this"].parent, ignore_errors=True)
    keys = ["bytes", "ui_bytes", "requests", "runtime_ms", "ready_ms", "first_result_ms", "preview_ms", "interactive_ms"]
    print(f"\ngradpad site benchmark (dist/ {dist_bytes / 1e6:.1f} MB, {a.runs} run(s), median; "
          f"load average {load0[0]:.2f} before, {load1[0]:.2f} after; ui_bytes: sent until the UI was usable; "
          f"preview: the build-time panes shown)")
    print(f"{'':16}" + "".join(f"{k:>16}" for k in keys))
    summary = {}

    def fmt(k, v):
        if v is None:
            return f"{'-':>16}"
        return f"{v / 1e6:>13.2f} MB" if k.endswith("bytes") else f"{v!s:>16}"

    kinds = ("cold",) if a.cold_only else ("cold", "warm")
    for kind in kinds:
        for name in sites:
            runs = results[name][kind]
            med = {k: statistics.median(r[k] for r in runs if r[k] is not None) if any(r[k] is not None for r in runs) else None
                   for k in keys}
            summary.setdefault(name, {})[kind] = med
            print(f"{kind + ' ' + name:16}" + "".join(fmt(k, med[k]) for k in keys))
        print(f"{kind + ' goal':16}" + "".join(fmt(k, GOALS[kind].get(k)) for k in keys))
    for name in sites:
        last = results[name]["cold"][-1]
        warm = results[name]["warm"][-1] if results[name]["warm"] else {"service_worker": "-", "booted_from": "-"}
        print(f"[{name}] first result: {last['first_result']!r}" + (f" (error: {last['first_error']})" if last["first_error"] else "")
              + f"; UI: {last['ui']}; service worker: {warm['service_worker']}; "
              f"cold boot: {last['booted_from']}; warm boot: {warm['booted_from']}")
        for kind in kinds:
            r = results[name][kind][-1]
            print(f"[{name}] {kind} stages: " + ", ".join(f"{k} {v}" for k, v in r["timings"].items())
                  + f"; imports (ms): {r['import_ms']}")
    if "compare" in sites:
        for kind in kinds:
            t, c = summary["this"][kind], summary["compare"][kind]
            ratios = [f"{k} x{t[k] / c[k]:.2f}" for k in keys if t.get(k) and c.get(k)]
            print(f"this / compare, {kind}: " + ", ".join(ratios))
    if external:
        print(f"FAIL: requests left 127.0.0.1: {external}")
    if a.json:
        Path(a.json).write_text(json.dumps({"summary": summary, "runs": results, "dist_bytes": dist_bytes,
                                            "load_average": [load0, load1], "external": external}, indent=1))
    return 1 if external else 0


if __name__ == "__main__":
    sys.exit(main())
