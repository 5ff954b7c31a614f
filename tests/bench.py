"""Benchmarks entry point: `python -m tests.bench <what>` (what `python build.py bench` runs).

    core     the engine on CPU: dispatch, jit overheads, tracing, grad, fused elementwise code,
             side by side with numpy and real JAX (tests/bench_core.py)
    webgpu   the WebGPU backend (tests/bench_webgpu.py)
    nuts     blackjax's README NUTS, real JAX and gradpad in one process, runs alternating
             (tests/ecosystem/bench_nuts_alternate.py; --jax-python PATH, --rounds N, --steps N)
"""
from __future__ import annotations

import importlib
import sys

TARGETS = {"core": "tests.bench_core", "webgpu": "tests.bench_webgpu", "nuts": "tests.ecosystem.bench_nuts_alternate"}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    what = argv[0] if argv else "core"
    if what not in TARGETS:
        print(f"unknown benchmark {what!r}; choose one of: {', '.join(TARGETS)}", file=sys.stderr)
        return 2
    mod = importlib.import_module(TARGETS[what])
    return mod.main(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main())
