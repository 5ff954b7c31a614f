"""CPU benchmark of the engine, side by side with numpy and real JAX, measured in one run.

    python build.py bench core            # or: python -m tests.bench core [--quick] [--json PATH]

The same workload functions run on every engine (`core` here, `jax` when importable: in this
process if `import jax` works, else in the private JAX venv `.cache/jax-venv` as a subprocess).
numpy gets hand-written equivalents where one exists. Times are medians of repeated calls.

Targets (ratios to JAX on the same machine): eager dispatch <= 1/3 of JAX's time, jit call
overhead <= 1/2, jit first call of 100 ops <= 1/25, jitted 100-op chain steady <= 2x.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

# One BLAS thread: on a small shared machine OpenBLAS's thread pool makes 128x128 matmuls ~100x
# slower under load (must be set before numpy loads).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAX_PYTHON = os.path.join(ROOT, ".cache", "jax-venv", "bin", "python")

CHAIN_SIZE = 10_000      # elements in the steady-state elementwise chain
SELU_SIZE = 1_000_000


def timeit(fn, min_time=0.2, max_reps=2000, min_reps=3) -> float:
    """Median seconds per call (calls batched so that timer resolution does not matter)."""
    fn()
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-7)
    batch = max(1, int(0.01 / one))
    samples = []
    start = time.perf_counter()
    while (time.perf_counter() - start < min_time or len(samples) < min_reps) and len(samples) * batch < max_reps:
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t0) / batch)
    return statistics.median(samples)


def once(fn, reps) -> float:
    """Median of `reps` single timed calls of fn(rep) (for first-call costs: fresh each time)."""
    out = []
    for r in range(reps):
        t0 = time.perf_counter()
        fn(r)
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


# ---- workloads (written once, run with any jax-like module) --------------------------------

def chain(jnp, n, scale):
    """n chained elementwise ops alternating sin and a multiply (`scale` varies per trace)."""
    def f(x):
        for i in range(n):
            x = jnp.sin(x) if i % 2 == 0 else x * scale
        return x
    return f


def selu(jnp):
    def f(x, alpha=1.67, lmbda=1.05):
        return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
    return f


def mlp_loss(jnp):
    def loss(params, x, y):
        h = x
        for w, b in params[:-1]:
            h = jnp.tanh(h @ w + b)
        w, b = params[-1]
        return jnp.mean((h @ w + b - y) ** 2)
    return loss


def mlp_data(rng):
    sizes = [128, 128, 128, 10]
    params = [((rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32), np.zeros(n, np.float32))
              for m, n in zip(sizes[:-1], sizes[1:])]
    x = rng.standard_normal((128, 128)).astype(np.float32)
    y = rng.standard_normal((128, 10)).astype(np.float32)
    return params, x, y


def numpy_mlp_grad(params, x, y):
    """The same loss's gradient by hand in numpy (forward, then backward)."""
    hs, h = [x], x
    for w, b in params[:-1]:
        h = np.tanh(h @ w + b)
        hs.append(h)
    w, b = params[-1]
    out = h @ w + b
    g = 2.0 * (out - y) / out.size
    grads = [None] * len(params)
    grads[-1] = (hs[-1].T @ g, g.sum(0))
    g = g @ w.T
    for i in range(len(params) - 2, -1, -1):
        g = g * (1 - hs[i + 1] ** 2)
        grads[i] = (hs[i].T @ g, g.sum(0))
        g = g @ params[i][0].T
    return grads


def run_engine(engine: str, quick: bool) -> dict:
    if engine == "jax":
        import jax
        import jax.numpy as jnp

        def block(x):
            return jax.block_until_ready(x)
    else:
        sys.path.insert(0, ROOT)
        import core as jax
        import core.numpy as jnp

        def block(x):
            return x
    res = {}
    rng = np.random.default_rng(0)
    a = jnp.asarray(rng.standard_normal(8).astype(np.float32))
    b = jnp.asarray(rng.standard_normal(8).astype(np.float32))
    res["eager add f32[8]"] = timeit(lambda: block(a + b))

    inc = jax.jit(lambda x: x + 1.0)
    res["jit call, 1 op"] = timeit(lambda: block(inc(a)))

    x = jnp.asarray(rng.standard_normal(CHAIN_SIZE).astype(np.float32))
    for n, reps in ((10, 5), (100, 3), (1000, 1)):
        if quick and n == 1000:
            continue
        # a new function and new constants each time: nothing cached anywhere
        res[f"jit first call, {n} ops"] = once(
            lambda r: block(jax.jit(chain(jnp, n, 1.0 + 1e-4 * (r + 1)))(x)), reps)

    res["make_jaxpr, 100 ops"] = once(lambda r: jax.make_jaxpr(chain(jnp, 100, 1.0 + 1e-4 * r))(x), 5)

    f100 = jax.jit(chain(jnp, 100, 1.01))
    res[f"jit 100-op chain steady, f32[{CHAIN_SIZE}]"] = timeit(lambda: block(f100(x)))

    params, xb, yb = mlp_data(rng)
    params = [(jnp.asarray(w), jnp.asarray(b_)) for w, b_ in params]
    xb, yb = jnp.asarray(xb), jnp.asarray(yb)
    g = jax.grad(mlp_loss(jnp))
    res["MLP grad eager"] = timeit(lambda: block(g(params, xb, yb)), min_time=0.5)
    gj = jax.jit(g)
    res["MLP grad jit"] = timeit(lambda: block(gj(params, xb, yb)))

    big = jnp.asarray(rng.standard_normal(SELU_SIZE).astype(np.float32))
    s = selu(jnp)
    res["selu 1M eager"] = timeit(lambda: block(s(big)), min_time=0.5)
    sj = jax.jit(s)
    res["selu 1M jit"] = timeit(lambda: block(sj(big)))
    return res


def run_numpy() -> dict:
    rng = np.random.default_rng(0)
    res = {}
    a = rng.standard_normal(8).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    res["eager add f32[8]"] = timeit(lambda: a + b)
    res["jit call, 1 op"] = timeit(lambda: a + np.float32(1.0))
    x = rng.standard_normal(CHAIN_SIZE).astype(np.float32)
    res[f"jit 100-op chain steady, f32[{CHAIN_SIZE}]"] = timeit(lambda: chain(np, 100, np.float32(1.01))(x))
    params, xb, yb = mlp_data(rng)
    res["MLP grad eager"] = timeit(lambda: numpy_mlp_grad(params, xb, yb))
    big = rng.standard_normal(SELU_SIZE).astype(np.float32)
    res["selu 1M eager"] = timeit(lambda: selu(np)(big), min_time=0.5)
    return res


def run_jax(quick: bool):
    """JAX's numbers: in this process if importable, else from the private JAX venv."""
    try:
        import jax  # noqa: F401
        return run_engine("jax", quick), None
    except ImportError:
        pass
    if not os.path.exists(JAX_PYTHON):
        return None, "real JAX not importable and no .cache/jax-venv: JAX column omitted"
    cmd = [JAX_PYTHON, "-m", "tests.bench_core", "--engine", "jax", "--emit-json"] + (["--quick"] if quick else [])
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    if p.returncode:
        return None, f"JAX run failed: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode}"
    return json.loads(p.stdout.strip().splitlines()[-1]), None


TARGETS = {  # row -> (max ratio ours/JAX, label)
    "eager add f32[8]": (1 / 3, "<= 1/3"),
    "jit call, 1 op": (1 / 2, "<= 1/2"),
    "jit first call, 100 ops": (1 / 25, "<= 1/25"),
    f"jit 100-op chain steady, f32[{CHAIN_SIZE}]": (2.0, "<= 2"),
}


def fmt(t) -> str:
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.1f} us"
    if t < 1:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.2f} s"


def table(ours, npy, jx) -> str:
    rows = [("benchmark", "gradpad", "numpy", "JAX", "gradpad/JAX", "target")]
    for k, t in ours.items():
        j = jx.get(k) if jx else None
        ratio = f"{t / j:.3f}" if j else "-"
        tgt = TARGETS.get(k)
        target = "-" if tgt is None else tgt[1] + ("" if j is None else (" ok" if t / j <= tgt[0] else " MISS"))
        rows.append((k, fmt(t), fmt(npy.get(k)), fmt(j), ratio, target))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench core")
    ap.add_argument("--quick", action="store_true", help="skip the 1000-op first-call row")
    ap.add_argument("--json", help="also write the numbers here")
    ap.add_argument("--engine", choices=["core", "jax"], help=argparse.SUPPRESS)
    ap.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.emit_json:  # child mode: one engine's numbers as JSON on the last line
        print(json.dumps(run_engine(args.engine or "core", args.quick)))
        return 0
    ours = run_engine("core", args.quick)
    npy = run_numpy()
    jx, note = run_jax(args.quick)
    print(f"gradpad core benchmark (CPU; chain on f32[{CHAIN_SIZE}], selu on f32[{SELU_SIZE}], "
          "MLP 128-128-128-10 batch 128; medians)")
    print(table(ours, npy, jx))
    if note:
        print(note)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gradpad": ours, "numpy": npy, "jax": jx}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
