"""Investigation (issues 26/27): would a post-import snapshot made at BUILD time, in Node, restore in
a fresh Chromium profile, and what would a first visit gain?

    python -m tools.probe_build_imports [--runs N]

For each run, two fresh Chromium profiles on the same built site (a copy of dist/):
- "first": a first visit as today (the build's bare snapshot, then the wheels of numpy, the engine
  and the UI loaded and imported);
- "node-imports": the same visit, but before it the profile's Cache Storage and localStorage are
  given the post-import snapshot that tools/imports_snapshot.mjs made in Node (with this server's
  origin), as if the build had shipped it: the worker then restores it as it restores the one a
  browser makes itself. The shipped file would be fetched and inflated instead of read from Cache
  Storage: that cost is measured separately in the same page (fetch + gunzip + XOR + SHA-256 of
  the gzip file the build would ship).
Prints bootedFrom, the stage timings and whether the restored Python answers (a run through
gradpad.runPython, and pyodide.ffi.run_sync where the browser has JSPI: the Node-made memory holds
Node's choices there, as the build's bare snapshot did).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import chromium  # noqa: E402
from tools import site  # noqa: E402
from tools.bench_site import Counter, load_once, start_server  # noqa: E402
from tools.bench_stop import IDLE, LOOP, STOP_PROBE, UI_READY  # noqa: E402

SEED = """async ([file, build, sha]) => {
  const r = await fetch(file);
  const bytes = new Uint8Array(await r.arrayBuffer());
  const c = await caches.open('gpsnap-' + build);
  await c.put(new URL('pyodide/imports-snapshot.bin', location.href).href,
              new Response(bytes, {headers: {'Content-Type': 'application/octet-stream'}}));
  localStorage.setItem('gpsnap-imports-sha256', JSON.stringify({build, sha256: sha}));
  return bytes.length;
}"""

# what a first visit would do with the shipped file instead of a Cache Storage read (less the XOR
# of the runtime's data segment back in, as fillBuildSnapshot does for the bare snapshot)
INFLATE = """async ([file, size, sha]) => {
  const t0 = performance.now();
  const r = await fetch(file);
  const reader = r.body.pipeThrough(new DecompressionStream('gzip')).getReader();
  const out = new Uint8Array(size);
  let at = 0;
  for (;;) { const {done, value} = await reader.read(); if (done) break; out.set(value, at); at += value.length; }
  const t1 = performance.now();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', out));
  const t2 = performance.now();
  return {inflate_ms: Math.round(t1 - t0), hash_ms: Math.round(t2 - t1), bytes: at};
}"""

REPAIR = """    if (meta.madeIn === "node") {
      restoreTrampoline(py._module);
      const s0 = py.globals.get("dict")();
      try {
        if (py._module.jspiSupported && py.runPython(RESTORE_RUN_SYNC, { globals: s0 })) mark("runtime:run-sync-restored");
      } finally { s0.destroy(); }
    }
"""

RUN_SYNC = """async () => {
  if (!('Suspending' in WebAssembly)) return 'no JSPI';
  try {
    const hang = new Promise((r) => setTimeout(() => r('no answer in 30 s (a Pyodide fatal error looks like this)'), 30000));
    return String(await Promise.race([hang, window.gradpad.runPythonAsync('from pyodide.ffi import run_sync\\nimport js\\nrun_sync(js.Promise.resolve(6 * 7))')]));
  } catch (e) { return 'error: ' + String(e).slice(0, 300); }
}"""


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--kinds", default="first,node-imports")
    a = p.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="gradpad-probe-"))
    root = site.snapshot(tmp / "dist")
    # the two repairs worker.js makes after a restore of the build's bare snapshot (Node's runtime
    # choices in the memory), made after this one too: in the copy served here only
    worker = root / "worker.js"
    text = worker.read_text()
    anchor = 'verified: given ? null : hashMatches(blob, expected, "post-import snapshot"),\n    });\n'
    assert text.count(anchor) == 1, "worker.js changed: the probe's anchor is gone"
    text = text.replace(anchor, anchor + REPAIR)
    worker.unlink()  # (hard-linked to dist/)
    worker.write_text(text)
    (root / "worker.js.gz").unlink()  # (else the server sends the unpatched twin)
    counter = Counter()
    srv, url = start_server(counter, root)
    manifest = json.loads((root / "manifest.json").read_text())
    t0 = time.monotonic()
    raw = root / "pyodide" / "x-node-imports.bin"
    r = subprocess.run(["node", str(ROOT / "tools" / "imports_snapshot.mjs"), str(root), str(tmp / "imp.snap"),
                        str(tmp / "imp.json"), url], env={**os.environ, "GP_RAW": str(raw)},
                       capture_output=True, text=True)
    if r.returncode:
        print(r.stderr[-3000:])
        return 1
    info = json.loads((tmp / "imp.json").read_text())
    shutil.copyfile(tmp / "imp.snap", root / "pyodide" / "x-node-imports.snap")
    print(f"made in Node in {time.monotonic() - t0:.1f} s: {json.dumps(info['sizes'])}")
    from playwright.sync_api import sync_playwright

    load0 = os.getloadavg()
    rows = []

    def seed(ctx, extra):
        page = ctx.new_page()
        page.goto(url + "manifest.json")
        page.evaluate(SEED, [url + "pyodide/x-node-imports.bin", manifest["build"], info["sha256"]])
        extra["ship"] = page.evaluate(INFLATE, [url + "pyodide/x-node-imports.snap", info["size"], info["sha256"]])
        page.close()

    with sync_playwright() as pw:
        for _ in range(a.runs):
            for kind in a.kinds.split(","):
                extra: dict = {}
                # 1. start-up (a fresh profile)
                ctx, udd = chromium.launch(pw)
                try:
                    if kind == "node-imports":
                        seed(ctx, extra)
                    warnings: list[str] = []
                    ctx.on("console", lambda m: warnings.append(m.text[:400]) if "snapshot" in m.text else None)
                    res = load_once(ctx, url, counter, [])
                    extra["warnings"] = warnings
                finally:
                    ctx.close()
                    shutil.rmtree(udd, ignore_errors=True)
                # 2. a Stop with no standby (another fresh profile): right after the UI on a first visit
                # as today; with the shipped snapshot, once the page keeps its bytes (read at a quiet
                # moment after the UI, static/restart_snapshot.js)
                ctx, udd = chromium.launch(pw)
                try:
                    if kind == "node-imports":
                        seed(ctx, {})
                    page = ctx.new_page()
                    page.set_default_timeout(600_000)
                    page.goto(url + "?standby=off")
                    page.wait_for_function(UI_READY, timeout=600_000)
                    page.wait_for_function(IDLE, timeout=600_000)
                    extra["booted"] = page.evaluate("() => window.gradpad.bootedFrom")
                    extra["run_sync"] = page.evaluate(RUN_SYNC)
                    if kind == "node-imports":
                        page.wait_for_function("() => window.gradpad.restartSnapshot && window.gradpad.restartSnapshot.bytes > 0",
                                               timeout=600_000)
                    stop = page.evaluate(STOP_PROBE, [LOOP, 300])
                    extra["stop"] = {k: stop.get(k) for k in ("stopped", "python", "ui", "phases")}
                finally:
                    ctx.close()
                    shutil.rmtree(udd, ignore_errors=True)
                t = res["timings"]
                rows.append((kind, res["booted_from"], res["ready_ms"], res["first_result_ms"], res["interactive_ms"],
                             res["ui_bytes"], res["first_result"], extra,
                             {k: v for k, v in t.items() if k.startswith("runtime")}))
                print(rows[-1], flush=True)
    load1 = os.getloadavg()
    srv.shutdown()
    print(f"load average {load0[0]:.2f} before, {load1[0]:.2f} after")
    for row in rows:
        print(" | ".join(str(x) for x in row))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
