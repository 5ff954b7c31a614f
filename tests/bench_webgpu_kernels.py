"""Kernel-only timings in headless Chromium's WebGPU (SwiftShader here): WGSL matmul variants run
straight through navigator.gpu, without Pyodide, to choose among them in seconds.

    python -m tests.bench_webgpu_kernels [--n 1024] [--reps 3]

Each variant's result is checked against numpy; a time is the best of `reps` samples, each
sample `per` dispatches back to back, each followed by onSubmittedWorkDone (printed)."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core._engine.backends.webgpu import kernels  # noqa: E402

JS = r'''
async ({src, groups, a, b, m, k, n, reps, target}) => {
  // the operands cross from Python once per page (a 1M-float list takes seconds to pass)
  if (a === null) { a = window.__kbenchA; b = window.__kbenchB; } else { window.__kbenchA = a; window.__kbenchB = b; }
  const ad = await navigator.gpu.requestAdapter();
  const dev = await ad.requestDevice({requiredLimits: {maxStorageBufferBindingSize: ad.limits.maxStorageBufferBindingSize}});
  const mk = (arr) => { const buf = dev.createBuffer({size: arr.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST});
                        dev.queue.writeBuffer(buf, 0, arr); return buf; };
  const A = mk(new Float32Array(a)), B = mk(new Float32Array(b));
  const C = dev.createBuffer({size: m * n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC});
  const mod = dev.createShaderModule({code: src});
  const info = await mod.getCompilationInfo();
  for (const msg of info.messages) if (msg.type === "error") throw new Error(msg.message);
  const pipe = dev.createComputePipeline({layout: "auto", compute: {module: mod, entryPoint: "main"}});
  const bg = dev.createBindGroup({layout: pipe.getBindGroupLayout(0), entries: [A, B, C].map((buffer, i) => ({binding: i, resource: {buffer}}))});
  const run = async () => { const enc = dev.createCommandEncoder(); const p = enc.beginComputePass();
    p.setPipeline(pipe); p.setBindGroup(0, bg); p.dispatchWorkgroups(...groups); p.end();
    dev.queue.submit([enc.finish()]); await dev.queue.onSubmittedWorkDone(); };
  await run();
  let t0 = performance.now(); await run(); const one = performance.now() - t0;
  const per = Math.max(1, Math.ceil(target / one));
  let best = 1e30;
  for (let r = 0; r < reps; r++) { t0 = performance.now(); for (let i = 0; i < per; i++) await run();
    best = Math.min(best, (performance.now() - t0) / per); }
  const st = dev.createBuffer({size: m * n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST});
  const enc = dev.createCommandEncoder(); enc.copyBufferToBuffer(C, 0, st, 0, m * n * 4); dev.queue.submit([enc.finish()]);
  await st.mapAsync(GPUMapMode.READ); const out = Array.from(new Float32Array(st.getMappedRange()));
  dev.destroy();
  return {ms: best, per, out};
}
'''


def variants(n):
    out = {"vec4x4": kernels.matmul_kernel(1, n, n, n, np.float32)}
    for rows, cols4, wg in [(8, 2, (8, 8)), (8, 4, (8, 8)), (16, 2, (8, 8)), (8, 4, (16, 8)), (16, 4, (8, 8))]:
        out[f"block r{rows} c{cols4 * 4} wg{wg[0]}x{wg[1]}"] = kernels.matmul_block_kernel(1, n, n, n, np.float32, rows, cols4, wg)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--target-ms", type=float, default=50.0, help="least time per sample")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds over the variants; median reported")
    ap.add_argument("--only", default="", help="substring of the variant names to run")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from tests.browser import chromium
    from tools import serve
    n = args.n
    rng = np.random.RandomState(0)
    a, b = rng.randn(n, n).astype(np.float32), rng.randn(n, n).astype(np.float32)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    site = Path(tempfile.mkdtemp(prefix="gradpad-kbench-"))
    (site / "index.html").write_text("<!doctype html><title>kernels</title>")
    srv, url = serve.start(site)
    try:
        with sync_playwright() as pw:
            ctx, _ = chromium.launch(pw)
            page = ctx.new_page()
            page.set_default_timeout(600_000)
            page.goto(url)
            times = {}
            for _ in range(args.rounds):  # variants interleaved, so load from elsewhere hits all alike
                for name, (src, groups) in variants(n).items():
                    if args.only not in name:
                        continue
                    first = not times
                    got = page.evaluate(JS, {"src": src, "groups": list(groups), "a": a.ravel().tolist() if first else None,
                                             "b": b.ravel().tolist() if first else None, "m": n, "k": n, "n": n,
                                             "reps": args.reps, "target": args.target_ms})
                    err = np.abs(np.asarray(got["out"]).reshape(n, n) - ref).max()
                    assert err < 1e-3 * np.sqrt(n), f"{name}: max error {err}"
                    times.setdefault(name, []).append(got["ms"])
                    print(f"{name:32} {got['ms']:9.2f} ms  {2 * n ** 3 / got['ms'] / 1e6:6.2f} GFLOP/s  "
                          f"({got['per']} dispatches per sample, max err {err:.1e})", flush=True)
            print(f"median of {args.rounds} rounds:")
            for name, ts in times.items():
                med = sorted(ts)[len(ts) // 2]
                print(f"{name:32} {med:9.2f} ms  {2 * n ** 3 / med / 1e6:6.2f} GFLOP/s", flush=True)
            ctx.close()
    finally:
        srv.shutdown()


if __name__ == "__main__":
    main()
