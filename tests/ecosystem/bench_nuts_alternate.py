"""blackjax's README NUTS (its 100 `jax.jit(nuts.step)` calls from the README, data seeded), real
JAX and gradpad in ONE process, runs alternating, wall time and process CPU time per run:

    python build.py bench nuts [--rounds 2] [--steps 100] [--jax-python PATH]
    .venv/bin/python tests/ecosystem/bench_nuts_alternate.py ...           (the same)

blackjax imports `jax` by name, so each side gets its own copy of blackjax (and of every library
it imports that imports jax): real JAX's side is imported first (JAX's site-packages appended to
sys.path, as `bench core` does), its modules are then set aside and gradpad's engine installed as
`jax` for a second import. Before each run the side's own modules are put back into sys.modules
(a library importing lazily inside a function finds its own jax). Each run is the README's code
from `blackjax.nuts(...)` on, timed to the last state's `block_until_ready`; JAX's first run
includes its compile, as a user's does, and later runs of a side reuse nothing (new kernel,
new jit). Both sides must end on the same chain (loc, scale printed).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

from install import ensure_installed, ensure_ring2_installed  # noqa: E402

# the modules that belong to one side: jax itself and everything imported from the library targets
_SIDE_PREFIXES = ("jax", "jaxlib", "blackjax", "optax", "chex", "fastprogress", "jaxopt", "absl")


def _belongs_to_a_side(name: str, mod, targets) -> bool:
    if name.split(".")[0] in _SIDE_PREFIXES:
        return True
    path = os.path.abspath(getattr(mod, "__file__", None) or "")
    return any(path.startswith(t) for t in targets)


def _take_side(targets) -> dict:
    """Remove this side's modules from sys.modules and return them."""
    side = {n: m for n, m in list(sys.modules.items()) if _belongs_to_a_side(n, m, targets)}
    for n in side:
        del sys.modules[n]
    return side


def _readme_run(jax, jnp, stats, blackjax, steps: int):
    """The README's code, from the kernel on (a fresh kernel and jit each run)."""
    np.random.seed(0)   # the README's data come from an unseeded generator
    observed = np.random.normal(10, 20, size=1_000)

    def logdensity_fn(x):
        logpdf = stats.norm.logpdf(observed, x["loc"], x["scale"])
        return jnp.sum(logpdf)
    step_size = 1e-3
    inverse_mass_matrix = jnp.array([1., 1.])
    nuts = blackjax.nuts(logdensity_fn, step_size, inverse_mass_matrix)
    initial_position = {"loc": 1., "scale": 2.}
    state = nuts.init(initial_position)
    rng_key = jax.random.key(0)
    step = jax.jit(nuts.step)
    for i in range(steps):
        nuts_key = jax.random.fold_in(rng_key, i)
        state, _ = step(nuts_key, state)
    jax.block_until_ready(state)
    return float(state.position["loc"]), float(state.position["scale"])


def _import_side():
    import importlib
    jax = importlib.import_module("jax")
    return (jax, importlib.import_module("jax.numpy"), importlib.import_module("jax.scipy.stats"),
            importlib.import_module("blackjax"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--jax-python", default=os.environ.get("GRADPAD_JAX_PYTHON") or os.path.join(ROOT, ".cache", "jax-venv", "bin", "python"))
    args = ap.parse_args(argv)
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    targets = [str(ensure_ring2_installed()), str(ensure_installed())]
    sys.path[:0] = targets
    targets = [os.path.abspath(t) for t in targets]

    from bench_core import load_jax
    real, why = load_jax(args.jax_python)
    if real is None:
        print(why)
        return 1
    jax_side = _import_side()
    jax_modules = _take_side(targets)

    import core
    finders_before = list(sys.meta_path)
    core.install_as_jax()
    ours_side = _import_side()
    ours_modules = _take_side(targets)
    ours_finders = [f for f in sys.meta_path if f not in finders_before]

    def enter(modules, finders):
        _take_side(targets)
        sys.modules.update(modules)
        sys.meta_path[:] = [f for f in sys.meta_path if f not in ours_finders] + finders

    sides = [("jax", jax_side, jax_modules, []), ("gradpad", ours_side, ours_modules, ours_finders)]
    times = {name: [] for name, *_ in sides}
    print(f"load average {os.getloadavg()[0]:.1f} at start; {args.steps} steps per run")
    for r in range(args.rounds):
        for name, side, modules, finders in (sides if r % 2 == 0 else sides[::-1]):
            enter(modules, finders)
            w, c = time.perf_counter(), time.process_time()
            loc, scale = _readme_run(*side, args.steps)
            w, c = time.perf_counter() - w, time.process_time() - c
            times[name].append((w, c))
            print(f"round {r + 1} {name:8s} wall {w:7.2f} s  cpu {c:7.2f} s  loc {loc:.6f} scale {scale:.6f}  "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
    jw = min(w for w, _ in times["jax"])
    ow = min(w for w, _ in times["gradpad"])
    jc = min(c for _, c in times["jax"])
    oc = min(c for _, c in times["gradpad"])
    print(f"best of {args.rounds}: gradpad/JAX wall {ow:.2f}/{jw:.2f} s = {ow / jw:.1f}x, "
          f"cpu {oc:.2f}/{jc:.2f} s = {oc / jc:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
