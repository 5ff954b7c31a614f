"""The browser side of tests/bench_webgpu.py: one headless Chromium page (the gradpad site, with
SwiftShader's WebGPU unless the machine has a GPU) times our jit/eager kernels against jax-js's
WebGPU backend (and, with --tfjs, tfjs's) on the same inputs.

Trust in the numbers: every row is timed on both sides back to back, in one round after the
other, the side that goes first alternating by round, so that a burst of load from elsewhere on
the machine lands on both sides alike; a row's ratio is the median over rounds of the paired
per-round ratios, and its spread (the lowest and highest paired ratio) is printed beside it. A
round's time is the best of `--reps` samples, a sample as many calls back to back (each waited
for) as last >= `--target-ms`, far above the page's 0.1 ms timer step."""
from __future__ import annotations

import json
import mimetypes
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NPM_DIR = ROOT / ".cache" / "bench-webgpu"
NPM_PACKAGES = ["@tensorflow/tfjs@4", "@tensorflow/tfjs-backend-webgpu@4", "@jax-js/jax@0.1"]

# Run once in Pyodide: the inputs, the jitted functions and `_gp_row(name)`, which times one row.
PY_SETUP = r'''
import json, time
import numpy as np
import core as jax
import core.numpy as jnp
from core._engine.backends import webgpu

await webgpu.init_async()
dev = jax.devices("webgpu")[0]
N, M, REPS, TARGET_MS = {n}, {m}, {reps}, {target_ms}

def selu(x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

async def per_call_ms(fn, samples=REPS):
    """[ms per call (call + wait for the GPU), calls per sample, ms of work still queued after]:
    the best of `samples` samples; a sample is `per` calls back to back, enough that it lasts
    >= TARGET_MS. The warm-up and the calls that size `per` (the fastest of three, so that one
    call slowed by load elsewhere does not leave samples of one call) are outside the samples."""
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
v_np = rng.randn(N).astype(np.float32)
a, b, x, v = (jax.device_put(t, dev) for t in (a_np, b_np, x_np, v_np))
mm, jselu, jsum, jdot = jax.jit(jnp.matmul), jax.jit(selu), jax.jit(jnp.sum), jax.jit(jnp.dot)
_gp_rows = {{"matmul": lambda: mm(a, b), "selu": lambda: jselu(x), "selu_eager": lambda: selu(x),
            "sum": lambda: jsum(x), "matvec": lambda: mm(a, v), "dot": lambda: jdot(x, x)}}
got = await jax.device_get_async(mm(a, b))
assert np.allclose(got, a_np @ b_np, atol=1e-2 * np.sqrt(N)), "matmul mismatch"

async def _gp_row(name):
    return json.dumps(await per_call_ms(_gp_rows[name]))

async def _gp_check():
    # the answers after the timings too: dropped work (a validation error, another device) times fast
    x64 = x_np.astype(np.float64)
    checks = {{"matmul": (mm(a, b), a_np @ b_np, 1e-2 * np.sqrt(N)), "sum": (jsum(x), x64.sum(), 1e-2),
              "matvec": (mm(a, v), a_np @ v_np, 1e-2 * np.sqrt(N)),
              "dot": (jdot(x, x), (x64 * x64).sum(), 1.0), "selu": (jselu(x), selu(jnp.asarray(x_np)), 2e-4)}}
    for name, (got, want, tol) in checks.items():
        got = np.asarray(await jax.device_get_async(got), np.float64)
        assert np.allclose(got, np.asarray(want, np.float64), rtol=1e-4, atol=tol), f"{{name}} wrong after timing"
    return webgpu.runtime().info["description"]
"ok"
'''

# Run once in the page: jax-js's (and tfjs's) inputs and functions, and window.__gpBench(side, row).
JS_SETUP = r'''
async ({n, m, reps, target, tfjs}) => {
  const rand = (k, seed) => { const a = new Float32Array(k); let s = seed;
    for (let i = 0; i < k; i++) { s = (s * 1103515245 + 12345) >>> 0; a[i] = (s / 4294967296) * 2 - 1; } return a; };
  const A = rand(n * n, 1), B = rand(n * n, 2), X = rand(m, 3);
  // as PY_SETUP's per_call_ms: [ms per call (run + wait), calls per sample], the best of `reps`
  // samples of >= target ms each, warm-up and sizing (the fastest of three calls) outside
  async function best([run, sync, dispose]) {
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
  const rows = {jaxjs: {}, tfjs: {}};
  let tfjsBackend = null;
  if (tfjs) {  // its only wait-for-result call is data(), which also reads back
    await tf.setBackend("webgpu"); await tf.ready();
    tfjsBackend = tf.getBackend();
    const a = tf.tensor2d(A, [n, n]), b = tf.tensor2d(B, [n, n]), x = tf.tensor1d(X);
    const sync = (r) => r.data(), dispose = (r) => r.dispose();
    rows.tfjs = {matmul: [() => tf.matMul(a, b), sync, dispose], selu: [() => tf.selu(x), sync, dispose],
                 sum: [() => tf.sum(x), sync, dispose]};
  }
  const jx = await import("/npm/@jax-js/jax/dist/index.js");
  const devs = await jx.init();
  if (!devs.includes("webgpu")) throw new Error("jax-js found no webgpu device: " + devs);
  jx.defaultDevice("webgpu");
  const np = jx.numpy;
  const a = np.array(A).reshape([n, n]), b = np.array(B).reshape([n, n]), x = np.array(X), v = np.array(B.slice(0, n));
  const mm = jx.jit((p, q) => np.matmul(p, q)), selu = jx.jit((t) => jx.nn.selu(t)), sum = jx.jit((t) => np.sum(t));
  const dot = jx.jit((p, q) => np.dot(p, q));
  const sync = (r) => r.blockUntilReady(), dispose = (r) => r.dispose();
  rows.jaxjs = {matmul: [() => mm(a.ref, b.ref), sync, dispose], selu: [() => selu(x.ref), sync, dispose],
                sum: [() => sum(x.ref), sync, dispose], matvec: [() => mm(a.ref, v.ref), sync, dispose],
                dot: [() => dot(x.ref, x.ref), sync, dispose]};
  window.__gpBench = (side, row) => best(rows[side][row]);
  return tfjsBackend;
}
'''

# (row, label, whether tfjs has it); ours and jax-js's on every row
ROWS = [("matmul", "matmul {n}x{n} GFLOP/s", True), ("selu", "selu {m} floats ms (jit)", True),
        ("sum", "sum {m} floats ms", True), ("matvec", "matvec {n}x{n} @ {n} ms", False),
        ("dot", "dot {m} floats ms", False)]


def ensure_npm() -> Path:
    mods = NPM_DIR / "node_modules"
    if not (mods / "@jax-js" / "jax" / "dist" / "index.js").exists() or \
            not (mods / "@tensorflow" / "tfjs-backend-webgpu" / "dist").exists():
        NPM_DIR.mkdir(parents=True, exist_ok=True)
        print(f"[bench] npm install {' '.join(NPM_PACKAGES)} into {NPM_DIR}", flush=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(NPM_DIR), *NPM_PACKAGES],
                       check=True)
    return mods


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def summarize(rounds: list, n: int) -> dict:
    """rounds: [{side: {row: [ms, per, ...]}}]. `<side>_<row>_ms` is the median over rounds of the
    round's per-call time; `<row>_vs_<side>` the median over rounds of the paired ratio (their
    time over ours in the same round), `<row>_vs_<side>_spread` its lowest and highest."""
    res = {}
    for side in rounds[0]:
        for row in rounds[0][side]:
            ms = [r[side][row][0] for r in rounds]
            res[f"{side}_{row}_ms"] = _median(ms)
            res[f"{side}_{row}_rounds_ms"] = ms
            res[f"{side}_{row}_per"] = [r[side][row][1] for r in rounds]
    for side in rounds[0]:
        if side == "gradpad":
            continue
        for row in rounds[0][side]:
            ratios = [r[side][row][0] / r["gradpad"][row][0] for r in rounds]
            res[f"{row}_vs_{side}"] = _median(ratios)
            res[f"{row}_vs_{side}_spread"] = [min(ratios), max(ratios)]
    flops = 2 * n ** 3
    for side in rounds[0]:
        if "matmul" in rounds[0][side]:
            res[f"{side}_matmul_gflops"] = flops / (res[f"{side}_matmul_ms"] * 1e-3) / 1e9
    res["selu_jit_vs_eager"] = res["gradpad_selu_eager_ms"] / res["gradpad_selu_ms"]
    return res


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


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
    load_before = _load()
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
            if args.tfjs:
                page.add_script_tag(url="/npm/@tensorflow/tfjs/dist/tf.min.js")
                page.add_script_tag(url="/npm/@tensorflow/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js")

            def py(code):
                got = page.evaluate("c => window.gradpad.pyodide.runPythonAsync(c).then(String, e => 'ERROR: ' + e)",
                                    code)
                if got.startswith("ERROR"):
                    raise SystemExit(f"gradpad benchmark failed: {got}")
                return got
            py(PY_SETUP.format(n=args.n, m=args.elems, reps=args.reps, target_ms=args.target_ms))
            tfjs_backend = page.evaluate(JS_SETUP, {"n": args.n, "m": args.elems, "reps": args.reps,
                                                    "target": args.target_ms, "tfjs": bool(args.tfjs)})
            sides = {"gradpad": lambda row: json.loads(py(f"await _gp_row({row!r})")),
                     "jaxjs": lambda row: page.evaluate("([s, r]) => window.__gpBench(s, r)", ["jaxjs", row])}
            if args.tfjs:
                sides["tfjs"] = lambda row: page.evaluate("([s, r]) => window.__gpBench(s, r)", ["tfjs", row])
            rounds = []
            for i in range(args.rounds):
                rnd = {side: {} for side in sides}
                for row, _, has_tfjs in ROWS:
                    # both sides back to back, the first alternating by round
                    order = [s for s in sides if s != "tfjs" or has_tfjs]
                    for side in (order if i % 2 == 0 else order[::-1]):
                        got = sides[side](row)
                        rnd[side][row] = got
                        if len(got) > 2 and got[2] > max(5.0, got[0]):
                            print(f"[bench] WARNING: {side} {row}: {got[2]:.1f} ms of work still queued after "
                                  "the samples (block_until_ready_async returned early?)", flush=True)
                rnd["gradpad"]["selu_eager"] = json.loads(py("await _gp_row('selu_eager')"))
                rounds.append(rnd)
                print(f"[bench] round {i + 1}/{args.rounds} (load {_load()}): " + ", ".join(
                    f"{row} {rnd['gradpad'][row][0]:.2f} vs {rnd['jaxjs'][row][0]:.2f} ms "
                    f"({rnd['jaxjs'][row][0] / rnd['gradpad'][row][0]:.2f}x)" for row, _, _ in ROWS), flush=True)
            adapter = py("await _gp_check()")
            ctx.close()
    finally:
        srv.shutdown()
    res = {**summarize(rounds, args.n), "n": args.n, "elems": args.elems, "adapter": adapter,
           "tfjs_backend": tfjs_backend, "load_before": load_before, "load_after": _load()}
    if args.json:
        print(json.dumps(res))
        return res
    print(f"adapter: {adapter} (headless Chromium); load average {load_before} before, {res['load_after']} after")
    print(f"{args.rounds} rounds, each row timed on both sides back to back (first side alternating); a round's "
          f"time is the best of {args.reps} samples of >= {args.target_ms:g} ms; times are medians over rounds, "
          "'vs' the median paired ratio [lowest-highest]")
    sides = ["gradpad", "jaxjs", *(["tfjs"] if args.tfjs else [])]
    head = "".join(f"{s:>10}" for s in sides)
    vs = "".join(f"{'vs ' + s:>22}" for s in sides[1:])
    print(f"{'':28}{head}{vs}   calls/sample (ours; jax-js)")
    for row, label, _ in ROWS:
        cells, ratios = "", ""
        for s in sides:
            key = f"{s}_{row}_gflops" if row == "matmul" else f"{s}_{row}_ms"
            cells += f"{res[key]:10.2f}" if key in res else f"{'':10}"
        for s in sides[1:]:
            if f"{row}_vs_{s}" in res:
                lo, hi = res[f"{row}_vs_{s}_spread"]
                ratios += f"{res[f'{row}_vs_{s}']:8.2f}x [{lo:.2f}-{hi:.2f}]".rjust(22)
            else:
                ratios += f"{'':22}"
        print(f"{label.format(n=args.n, m=args.elems):28}{cells}{ratios}   "
              f"{res[f'gradpad_{row}_per']}; {res[f'jaxjs_{row}_per']}")
    print(f"{'selu eager ms':28}{res['gradpad_selu_eager_ms']:10.2f}   fused jit {res['selu_jit_vs_eager']:.1f}x eager")
    print("(a call is timed up to its completion: ours block_until_ready_async (maps a 4-byte copy after the work), "
          "jax-js blockUntilReady (maps a 0-byte read after the work), tfjs data(), which also reads back)")
    return res
