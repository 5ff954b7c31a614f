"""WebGPU benchmarks: 1024x1024 float32 matmul (jit), fused selu on 1M floats (jit vs eager), a
1M-float sum (the browser run adds matrix @ vector and a 1M-float dot, against jax-js).

    python -m tests.bench_webgpu            # CPython through wgpu-py (Vulkan; lavapipe or a real GPU)
    python -m tests.bench_webgpu --browser  # headless Chromium, one page, side by side with
                                            # @jax-js/jax (and @tensorflow/tfjs with --tfjs; npm
                                            # packages installed into .cache/, served locally)
`python build.py bench webgpu` runs the browser variant: `--rounds` rounds, each timing every row
on both sides back to back (the first side alternating by round); a side's time in a round is
the best of `--reps` samples, a sample as many calls back to back (each waited for) as last
>= `--target-ms` (the page's timer steps by 0.1 ms). Each row prints the median times, the
median of the paired per-round ratios with their lowest and highest, and the calls per sample. tests/bench_webgpu_kernels.py times bare WGSL matmul
variants in the same browser.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import core as jax  # noqa: E402
import core.numpy as jnp  # noqa: E402


def selu(x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


def timeit(fn, reps):
    fn().block_until_ready()  # compile + warm up
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn().block_until_ready()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--browser", action="store_true", help="run in headless Chromium vs tfjs and jax-js")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--elems", type=int, default=1 << 20)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5, help="browser: rounds, each timing every row on both "
                    "sides back to back; each row reports the median paired ratio and its spread")
    ap.add_argument("--tfjs", action="store_true", help="browser: tfjs's WebGPU backend too (its 1024 matmul "
                    "takes seconds a call)")
    ap.add_argument("--target-ms", type=float, default=50.0, help="browser: least duration of one sample "
                    "(calls back to back); the page's timer steps by 0.1 ms")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.browser:
        from tests.bench_webgpu_browser import run_browser
        return run_browser(args)
    try:
        from tools.sysdeps import ensure_vulkan
        ensure_vulkan()
    except RuntimeError as e:
        print(f"note: {e}", file=sys.stderr)
    dev = jax.devices("webgpu")[0]
    from core._engine.backends.webgpu.runtime import runtime
    info = runtime().info
    n, m = args.n, args.elems
    rng = np.random.RandomState(0)
    a = jax.device_put(rng.randn(n, n).astype(np.float32), dev)
    b = jax.device_put(rng.randn(n, n).astype(np.float32), dev)
    x = jax.device_put(rng.randn(m).astype(np.float32), dev)
    mm = jax.jit(jnp.matmul)
    got = np.asarray(mm(a, b))
    ref = np.asarray(a) @ np.asarray(b)
    assert np.allclose(got, ref, atol=1e-2 * np.sqrt(n)), "matmul mismatch"
    t_mm = timeit(lambda: mm(a, b), args.reps)
    jselu = jax.jit(selu)
    assert np.allclose(np.asarray(jselu(x)), np.asarray(selu(jnp.asarray(np.asarray(x)))), atol=2e-4)
    t_selu_jit = timeit(lambda: jselu(x), args.reps)
    t_selu_eager = timeit(lambda: selu(x), args.reps)
    jsum = jax.jit(jnp.sum)
    assert abs(float(jsum(x)) - float(np.asarray(x, np.float64).sum())) < 1e-2 * np.sqrt(m) * 1e-2 + 0.5
    t_sum = timeit(lambda: jsum(x), args.reps)
    res = {
        "adapter": info["description"], "host": runtime().host.name,
        "matmul_n": n, "matmul_ms": t_mm * 1e3, "matmul_gflops": 2 * n ** 3 / t_mm / 1e9,
        "selu_elems": m, "selu_jit_ms": t_selu_jit * 1e3, "selu_eager_ms": t_selu_eager * 1e3,
        "selu_jit_speedup": t_selu_eager / t_selu_jit,
        "sum_ms": t_sum * 1e3, "sum_gbps": m * 4 / t_sum / 1e9,
    }
    if args.json:
        print(json.dumps(res))
    else:
        print(f"adapter: {res['adapter']} via {res['host']}")
        print(f"matmul {n}x{n} f32 (jit): {res['matmul_ms']:.2f} ms = {res['matmul_gflops']:.2f} GFLOP/s")
        print(f"selu on {m} floats: jit {res['selu_jit_ms']:.2f} ms, eager {res['selu_eager_ms']:.2f} ms "
              f"-> fused jit {res['selu_jit_speedup']:.1f}x eager")
        print(f"sum of {m} floats (jit): {res['sum_ms']:.2f} ms = {res['sum_gbps']:.2f} GB/s")
    return res


if __name__ == "__main__":
    main()
