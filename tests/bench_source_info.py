"""What recording each equation's source line costs make_jaxpr: the same traces with the frame
lookup on and off, alternating, best of 30 (`python tests/bench_source_info.py`)."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import core as jax  # noqa: E402
import core.numpy as jnp  # noqa: E402
from core._engine.base import source_info  # noqa: E402
from core._engine.transforms import staging  # noqa: E402


def chain(x):
    for _ in range(100):
        x = jnp.sin(x) * 1.01
    return x


def loss(x):
    return jnp.sum(chain(x))


def main(repeats: int = 30):
    on, off = staging.capture_source_info, (lambda boundary=None: source_info._NO_FRAMES)
    for fn, name in ((chain, "make_jaxpr(f), 200 equations"), (jax.grad(loss), "make_jaxpr(grad(f))")):
        best = {"with source info": float("inf"), "without": float("inf")}
        for _ in range(repeats):
            for label, capture in (("with source info", on), ("without", off)):
                staging.capture_source_info = capture
                t = time.perf_counter()
                jax.make_jaxpr(fn)(jnp.ones(3))
                best[label] = min(best[label], time.perf_counter() - t)
        staging.capture_source_info = on
        print(f"{name:30s} " + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in best.items()))


if __name__ == "__main__":
    main()
