"""The browser side of tests/bench_webgpu.py: one headless Chromium page (the gradpad site, with
SwiftShader's WebGPU unless the machine has a GPU) runs our jit/eager kernels, tfjs's WebGPU
backend and jax-js's WebGPU backend on the same inputs, one after the other. Skinny products
(matrix @ vector, a long vector dot) are timed against jax-js only."""
from __future__ import annotations

import json
import mimetypes
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NPM_DIR = ROOT / ".cache" / "bench-webgpu"
NPM_PACKAGES = ["@tensorflow/tfjs@4", "@tensorflow/tfjs-backend-webgpu@4", "@jax-js/jax@0.1"]

PY_BENCH = r'''
import json, time
import numpy as np
import core as jax
import core.numpy as jnp
from core.backends import webgpu

await webgpu.init_async()
dev = jax.devices("webgpu")[0]
N, M, REPS = {n}, {m}, {reps}

def selu(x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

async def best_ms(fn, reps=REPS):
    r = fn()
    await r.block_until_ready_async()
    best = 1e30
    for _ in range(reps):
        t = time.perf_counter()
        r = fn()
        await r.block_until_ready_async()
        best = min(best, time.perf_counter() - t)
    return best * 1e3

rng = np.random.RandomState(0)
a_np, b_np = rng.randn(N, N).astype(np.float32), rng.randn(N, N).astype(np.float32)
x_np = rng.randn(M).astype(np.float32)
a, b, x = (jax.device_put(v, dev) for v in (a_np, b_np, x_np))
mm, jselu, jsum = jax.jit(jnp.matmul), jax.jit(selu), jax.jit(jnp.sum)
v = jax.device_put(rng.randn(N).astype(np.float32), dev)
jdot = jax.jit(jnp.dot)
got = await jax.device_get_async(mm(a, b))
assert np.allclose(got, a_np @ b_np, atol=1e-2 * np.sqrt(N)), "matmul mismatch"
out = {{"adapter": webgpu.runtime().info["description"],
        "matmul_ms": await best_ms(lambda: mm(a, b)),
        "selu_jit_ms": await best_ms(lambda: jselu(x), 3 * REPS),
        "selu_eager_ms": await best_ms(lambda: selu(x)),
        "sum_ms": await best_ms(lambda: jsum(x), 3 * REPS),
        "matvec_ms": await best_ms(lambda: mm(a, v), 3 * REPS),
        "dot_ms": await best_ms(lambda: jdot(x, x), 3 * REPS)}}
json.dumps(out)
'''

JS_BENCH = r'''
async ({n, m, reps}) => {
  const rand = (k, seed) => { const a = new Float32Array(k); let s = seed;
    for (let i = 0; i < k; i++) { s = (s * 1103515245 + 12345) >>> 0; a[i] = (s / 4294967296) * 2 - 1; } return a; };
  const A = rand(n * n, 1), B = rand(n * n, 2), X = rand(m, 3);
  // the cheap ops (a few ms, near the noise of a shared machine) get 3x the repetitions, on
  // both sides alike (PY_BENCH does the same)
  async function best(run, sync, dispose, n = reps) {
    let r = run(); await sync(r); dispose(r);
    let t = 1e30;
    for (let i = 0; i < n; i++) {
      const t0 = performance.now(); r = run(); await sync(r); t = Math.min(t, performance.now() - t0); dispose(r);
    }
    return t;
  }
  const res = {};
  // ---- tfjs (webgpu backend); its only wait-for-result call is data(), which also reads back
  await tf.setBackend("webgpu"); await tf.ready();
  res.tfjs_backend = tf.getBackend();
  {
    const a = tf.tensor2d(A, [n, n]), b = tf.tensor2d(B, [n, n]), x = tf.tensor1d(X);
    const sync = (r) => r.data(), dispose = (r) => r.dispose();
    res.tfjs_matmul_ms = await best(() => tf.matMul(a, b), sync, dispose);
    res.tfjs_selu_ms = await best(() => tf.selu(x), sync, dispose, 3 * reps);
    res.tfjs_sum_ms = await best(() => tf.sum(x), sync, dispose, 3 * reps);
    a.dispose(); b.dispose(); x.dispose();
  }
  // ---- jax-js (webgpu device), jit-compiled
  const jx = await import("/npm/@jax-js/jax/dist/index.js");
  const devs = await jx.init();
  if (!devs.includes("webgpu")) throw new Error("jax-js found no webgpu device: " + devs);
  jx.defaultDevice("webgpu");
  {
    const np = jx.numpy;
    const a = np.array(A).reshape([n, n]), b = np.array(B).reshape([n, n]), x = np.array(X), v = np.array(B.slice(0, n));
    const mm = jx.jit((p, q) => np.matmul(p, q)), selu = jx.jit((v) => jx.nn.selu(v)), sum = jx.jit((v) => np.sum(v));
    const sync = (r) => r.blockUntilReady(), dispose = (r) => r.dispose();
    res.jaxjs_matmul_ms = await best(() => mm(a.ref, b.ref), sync, dispose);
    res.jaxjs_selu_ms = await best(() => selu(x.ref), sync, dispose, 3 * reps);
    res.jaxjs_sum_ms = await best(() => sum(x.ref), sync, dispose, 3 * reps);
    const dot = jx.jit((p, q) => np.dot(p, q));
    res.jaxjs_matvec_ms = await best(() => mm(a.ref, v.ref), sync, dispose, 3 * reps);
    res.jaxjs_dot_ms = await best(() => dot(x.ref, x.ref), sync, dispose, 3 * reps);
  }
  return JSON.stringify(res);
}
'''


def ensure_npm() -> Path:
    mods = NPM_DIR / "node_modules"
    if not (mods / "@jax-js" / "jax" / "dist" / "index.js").exists() or \
            not (mods / "@tensorflow" / "tfjs-backend-webgpu" / "dist").exists():
        NPM_DIR.mkdir(parents=True, exist_ok=True)
        print(f"[bench] npm install {' '.join(NPM_PACKAGES)} into {NPM_DIR}", flush=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(NPM_DIR), *NPM_PACKAGES],
                       check=True)
    return mods


def _keep_best(best: dict, new: dict) -> None:
    for k, v in new.items():
        best[k] = min(best[k], v) if k.endswith("_ms") and k in best else v


def run_browser(args):
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from tests.browser import chromium
    from tools import serve, site

    mods = ensure_npm()
    problem = chromium.problem()
    if problem:
        raise SystemExit(problem)
    site.build()
    srv, url = serve.start(site.DIST)
    external: list = []
    try:
        with sync_playwright() as pw:
            ctx, _udd = chromium.launch(pw)
            chromium.guard_network(ctx, external)

            def npm(route):  # /npm/<package path> served from .cache/bench-webgpu/node_modules
                rel = route.request.url.split("/npm/", 1)[1].split("?")[0]
                path = (mods / rel).resolve()
                if not str(path).startswith(str(mods.resolve())) or not path.is_file():
                    return route.fulfill(status=404, body="not found")
                ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
                if path.suffix in (".js", ".mjs"):
                    ctype = "text/javascript"
                route.fulfill(path=str(path), headers={"content-type": ctype})
            ctx.route("**/npm/**", npm)
            page = ctx.new_page()
            page.set_default_timeout(600_000)
            page.goto(url, wait_until="domcontentloaded")
            # wait for the whole UI: its loading would otherwise share the CPU with our timings
            ready = page.evaluate("() => window.gradpad.uiReady.then(() => 'ok', e => 'ERROR: ' + e)")
            if ready != "ok":
                raise SystemExit(f"gradpad page failed: {ready}")
            page.add_script_tag(url="/npm/@tensorflow/tfjs/dist/tf.min.js")
            page.add_script_tag(url="/npm/@tensorflow/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js")
            code = PY_BENCH.format(n=args.n, m=args.elems, reps=args.reps)
            # rounds alternate ours and theirs; each time is the best over all rounds, so a burst
            # of load from elsewhere on the machine does not land on one side only
            ours, theirs = {}, {}
            for _ in range(args.rounds):
                got = page.evaluate("c => window.gradpad.pyodide.runPythonAsync(c).then(String, e => 'ERROR: ' + e)",
                                    code)
                if got.startswith("ERROR"):
                    raise SystemExit(f"gradpad benchmark failed: {got}")
                _keep_best(ours, json.loads(got))
                _keep_best(theirs, json.loads(page.evaluate(JS_BENCH, {"n": args.n, "m": args.elems,
                                                                       "reps": args.reps})))
            ctx.close()
    finally:
        srv.shutdown()
    res = {**ours, **theirs, "n": args.n, "elems": args.elems}
    flops = 2 * args.n ** 3
    for k in ("matmul_ms", "tfjs_matmul_ms", "jaxjs_matmul_ms"):
        res[k.replace("_ms", "_gflops")] = flops / (res[k] * 1e-3) / 1e9
    res["matmul_vs_jaxjs"] = res["matmul_gflops"] / res["jaxjs_matmul_gflops"]
    res["matmul_vs_tfjs"] = res["matmul_gflops"] / res["tfjs_matmul_gflops"]
    res["selu_jit_vs_eager"] = res["selu_eager_ms"] / res["selu_jit_ms"]
    res["selu_vs_jaxjs"] = res["jaxjs_selu_ms"] / res["selu_jit_ms"]
    res["selu_vs_tfjs"] = res["tfjs_selu_ms"] / res["selu_jit_ms"]
    res["sum_vs_jaxjs"] = res["jaxjs_sum_ms"] / res["sum_ms"]
    res["sum_vs_tfjs"] = res["tfjs_sum_ms"] / res["sum_ms"]
    if args.json:
        print(json.dumps(res))
        return res
    print(f"adapter: {res['adapter']} (headless Chromium); tfjs backend: {res['tfjs_backend']}")
    print(f"{'':28}{'gradpad':>12}{'jax-js':>12}{'tfjs':>12}   ratios (gradpad / other)")
    print(f"{'matmul %dx%d GFLOP/s' % (args.n, args.n):28}{res['matmul_gflops']:12.2f}{res['jaxjs_matmul_gflops']:12.2f}"
          f"{res['tfjs_matmul_gflops']:12.2f}   {res['matmul_vs_jaxjs']:.2f}x jax-js, {res['matmul_vs_tfjs']:.2f}x tfjs")
    print(f"{'selu %d floats ms (jit)' % args.elems:28}{res['selu_jit_ms']:12.2f}{res['jaxjs_selu_ms']:12.2f}"
          f"{res['tfjs_selu_ms']:12.2f}   {res['selu_vs_jaxjs']:.2f}x jax-js, {res['selu_vs_tfjs']:.2f}x tfjs")
    print(f"{'selu eager ms':28}{res['selu_eager_ms']:12.2f}{'':24}   fused jit {res['selu_jit_vs_eager']:.1f}x eager")
    print(f"{'sum %d floats ms' % args.elems:28}{res['sum_ms']:12.2f}{res['jaxjs_sum_ms']:12.2f}{res['tfjs_sum_ms']:12.2f}"
          f"   {res['sum_vs_jaxjs']:.2f}x jax-js, {res['sum_vs_tfjs']:.2f}x tfjs")
    print(f"{'matvec %dx%d @ %d ms' % (args.n, args.n, args.n):28}{res['matvec_ms']:12.2f}{res['jaxjs_matvec_ms']:12.2f}"
          f"{'':12}   {res['jaxjs_matvec_ms'] / res['matvec_ms']:.2f}x jax-js")
    print(f"{'dot %d floats ms' % args.elems:28}{res['dot_ms']:12.2f}{res['jaxjs_dot_ms']:12.2f}{'':12}"
          f"   {res['jaxjs_dot_ms'] / res['dot_ms']:.2f}x jax-js")
    print("(tfjs is timed through data(), its only wait-for-result call, so its times include readback)")
    return res
