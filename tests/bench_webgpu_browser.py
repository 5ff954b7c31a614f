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
N, M, REPS, TARGET_MS = {n}, {m}, {reps}, {target_ms}

def selu(x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

async def per_call_ms(fn, samples=REPS):
    """Milliseconds per call (call + wait for the GPU), the best of `samples` samples; a sample is
    `per` calls back to back, enough that it lasts >= TARGET_MS (the page's timer steps by
    0.1 ms). The warm-up and the calls that size `per` are outside the samples: the fastest of
    three sizes it, so that one call slowed by load elsewhere does not leave samples of one call."""
    r = fn()
    await r.block_until_ready_async()
    one = 1e30
    for _ in range(3):
        t = time.perf_counter()
        r = fn()
        await r.block_until_ready_async()
        one = min(one, (time.perf_counter() - t) * 1e3)
    per = max(1, -(-TARGET_MS // max(one, 0.1)))
    best = 1e30
    for _ in range(samples):
        t = time.perf_counter()
        for _ in range(int(per)):
            r = fn()
            await r.block_until_ready_async()
        best = min(best, (time.perf_counter() - t) / per)
    # a check on the wait itself: had it returned before the work was done, work would still be
    # queued now and onSubmittedWorkDone would take about as long as the backlog
    t = time.perf_counter()
    await webgpu.runtime().host.queue.onSubmittedWorkDone()
    return [best * 1e3, int(per), (time.perf_counter() - t) * 1e3]

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
        "matmul_ms": await per_call_ms(lambda: mm(a, b)),
        "selu_jit_ms": await per_call_ms(lambda: jselu(x)),
        "selu_eager_ms": await per_call_ms(lambda: selu(x)),
        "sum_ms": await per_call_ms(lambda: jsum(x)),
        "matvec_ms": await per_call_ms(lambda: mm(a, v)),
        "dot_ms": await per_call_ms(lambda: jdot(x, x))}}
# the answers after the timings too: dropped work (a validation error, another device) times fast
x64 = x_np.astype(np.float64)
checks = {{"matmul": (mm(a, b), a_np @ b_np, 1e-2 * np.sqrt(N)), "sum": (jsum(x), x64.sum(), 1e-2),
          "matvec": (mm(a, v), a_np @ np.asarray(await jax.device_get_async(v)), 1e-2 * np.sqrt(N)),
          "dot": (jdot(x, x), (x64 * x64).sum(), 1.0), "selu": (jselu(x), selu(jnp.asarray(x_np)), 2e-4)}}
for name, (got, want, tol) in checks.items():
    got = np.asarray(await jax.device_get_async(got), np.float64)
    assert np.allclose(got, np.asarray(want, np.float64), rtol=1e-4, atol=tol), f"{{name}} wrong after timing"
json.dumps(out)
'''

JS_BENCH = r'''
async ({n, m, reps, target}) => {
  const rand = (k, seed) => { const a = new Float32Array(k); let s = seed;
    for (let i = 0; i < k; i++) { s = (s * 1103515245 + 12345) >>> 0; a[i] = (s / 4294967296) * 2 - 1; } return a; };
  const A = rand(n * n, 1), B = rand(n * n, 2), X = rand(m, 3);
  // as PY_BENCH's per_call_ms: [ms per call (run + wait), calls per sample], the best of `reps`
  // samples of >= target ms each, warm-up and sizing (the fastest of three calls) outside
  async function best(run, sync, dispose) {
    let r = run(); await sync(r); dispose(r);
    let one = 1e30, t0;
    for (let i = 0; i < 3; i++) { t0 = performance.now(); r = run(); await sync(r); dispose(r); one = Math.min(one, performance.now() - t0); }
    const per = Math.max(1, Math.ceil(target / Math.max(one, 0.1)));
    let t = 1e30;
    for (let s = 0; s < reps; s++) {
      t0 = performance.now();
      for (let i = 0; i < per; i++) { r = run(); await sync(r); dispose(r); }
      t = Math.min(t, (performance.now() - t0) / per);
    }
    return [t, per];
  }
  const res = {};
  // ---- tfjs (webgpu backend); its only wait-for-result call is data(), which also reads back
  await tf.setBackend("webgpu"); await tf.ready();
  res.tfjs_backend = tf.getBackend();
  {
    const a = tf.tensor2d(A, [n, n]), b = tf.tensor2d(B, [n, n]), x = tf.tensor1d(X);
    const sync = (r) => r.data(), dispose = (r) => r.dispose();
    res.tfjs_matmul_ms = await best(() => tf.matMul(a, b), sync, dispose);
    res.tfjs_selu_ms = await best(() => tf.selu(x), sync, dispose);
    res.tfjs_sum_ms = await best(() => tf.sum(x), sync, dispose);
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
    res.jaxjs_selu_ms = await best(() => selu(x.ref), sync, dispose);
    res.jaxjs_sum_ms = await best(() => sum(x.ref), sync, dispose);
    const dot = jx.jit((p, q) => np.dot(p, q));
    res.jaxjs_matvec_ms = await best(() => mm(a.ref, v.ref), sync, dispose);
    res.jaxjs_dot_ms = await best(() => dot(x.ref, x.ref), sync, dispose);
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


# (label, our key, jax-js key, tfjs key): every row is timed on each side per round
ROWS = [("matmul {n}x{n} GFLOP/s", "matmul_ms", "jaxjs_matmul_ms", "tfjs_matmul_ms"),
        ("selu {m} floats ms (jit)", "selu_jit_ms", "jaxjs_selu_ms", "tfjs_selu_ms"),
        ("sum {m} floats ms", "sum_ms", "jaxjs_sum_ms", "tfjs_sum_ms"),
        ("matvec {n}x{n} @ {n} ms", "matvec_ms", "jaxjs_matvec_ms", None),
        ("dot {m} floats ms", "dot_ms", "jaxjs_dot_ms", None)]


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def summarize(rounds: list, n: int, m: int) -> dict:
    """Each `*_ms` is the median over rounds (invocations) of that round's per-call time;
    `*_per` the calls per sample of each round; ratios are gradpad's speed over the other's."""
    res = {k: v for k, v in rounds[0].items() if not isinstance(v, list)}
    for k in rounds[0]:
        if isinstance(rounds[0][k], list):
            res[k] = _median([r[k][0] for r in rounds])
            res[k.replace("_ms", "_rounds_ms")] = [r[k][0] for r in rounds]
            res[k.replace("_ms", "_per")] = [r[k][1] for r in rounds]
    flops = 2 * n ** 3
    for k in ("matmul_ms", "tfjs_matmul_ms", "jaxjs_matmul_ms"):
        res[k.replace("_ms", "_gflops")] = flops / (res[k] * 1e-3) / 1e9
    for _, ours, jaxjs, tfjs in ROWS:
        res[ours.replace("_ms", "_vs_jaxjs")] = res[jaxjs] / res[ours]
        if tfjs:
            res[ours.replace("_ms", "_vs_tfjs")] = res[tfjs] / res[ours]
    res["selu_jit_vs_eager"] = res["selu_eager_ms"] / res["selu_jit_ms"]
    return res


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
            # WebGPU validation errors reach the console only: a dropped command buffer would time as fast
            page.on("console", lambda m: print(f"[page {m.type}] {m.text[:300]}", flush=True)
                    if m.type in ("error", "warning") and "preloaded" not in m.text else None)
            page.goto(url, wait_until="domcontentloaded")
            # wait for the whole UI: its loading would otherwise share the CPU with our timings
            ready = page.evaluate("() => window.gradpad.uiReady.then(() => 'ok', e => 'ERROR: ' + e)")
            if ready != "ok":
                raise SystemExit(f"gradpad page failed: {ready}")
            page.add_script_tag(url="/npm/@tensorflow/tfjs/dist/tf.min.js")
            page.add_script_tag(url="/npm/@tensorflow/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js")
            code = PY_BENCH.format(n=args.n, m=args.elems, reps=args.reps, target_ms=args.target_ms)
            # rounds (invocations) alternate ours and theirs, so a burst of load from elsewhere on
            # the machine does not land on one side only; each row reports the median round
            rounds = []
            for i in range(args.rounds):
                got = page.evaluate("c => window.gradpad.pyodide.runPythonAsync(c).then(String, e => 'ERROR: ' + e)",
                                    code)
                if got.startswith("ERROR"):
                    raise SystemExit(f"gradpad benchmark failed: {got}")
                theirs = page.evaluate(JS_BENCH, {"n": args.n, "m": args.elems, "reps": args.reps,
                                                  "target": args.target_ms})
                rounds.append({**json.loads(got), **json.loads(theirs)})
                for k, v in rounds[-1].items():
                    if isinstance(v, list) and len(v) > 2 and v[2] > max(5.0, v[0]):
                        print(f"[bench] WARNING: {k}: {v[2]:.1f} ms of work still queued after the samples "
                              "(block_until_ready_async returned early?)", flush=True)
                print(f"[bench] round {i + 1}/{args.rounds}: " + ", ".join(
                    f"{k} {v[0]:.2f}" for k, v in rounds[-1].items() if isinstance(v, list)), flush=True)
            ctx.close()
    finally:
        srv.shutdown()
    res = {**summarize(rounds, args.n, args.elems), "n": args.n, "elems": args.elems}
    if args.json:
        print(json.dumps(res))
        return res
    print(f"adapter: {res['adapter']} (headless Chromium); tfjs backend: {res['tfjs_backend']}")
    print(f"median of {args.rounds} rounds; each round's time is the best of {args.reps} samples of >= "
          f"{args.target_ms:g} ms; [calls per sample] per round")
    print(f"{'':28}{'gradpad':>10}{'jax-js':>10}{'tfjs':>10}   {'vs jax-js':>9}{'vs tfjs':>9}   calls/sample (ours; jax-js)")
    for label, ours, jaxjs, tfjs in ROWS:
        keys = [ours, jaxjs, tfjs]
        if ours == "matmul_ms":
            vals = [res[k.replace("_ms", "_gflops")] for k in keys]
        else:
            vals = [res[k] if k else None for k in keys]
        cells = "".join(f"{v:10.2f}" if v is not None else f"{'':10}" for v in vals)
        vs_t = f"{res[ours.replace('_ms', '_vs_tfjs')]:8.2f}x" if tfjs else f"{'':9}"
        print(f"{label.format(n=args.n, m=args.elems):28}{cells}   {res[ours.replace('_ms', '_vs_jaxjs')]:8.2f}x{vs_t}"
              f"   {res[ours.replace('_ms', '_per')]}; {res[jaxjs.replace('_ms', '_per')]}")
    print(f"{'selu eager ms':28}{res['selu_eager_ms']:10.2f}{'':20}   fused jit {res['selu_jit_vs_eager']:.1f}x eager")
    print("(a call is timed up to its completion: ours block_until_ready_async (maps a 4-byte copy after the work), jax-js "
          "blockUntilReady (maps a 0-byte read after the work), tfjs data(), which also reads back)")
    return res
