"""blackjax's README NUTS (tests/ecosystem/ring2_workloads.py: blackjax_readme_nuts), timed in
process CPU time (every thread's: JAX's compile threads count; wall time means little on a loaded
machine). Run it with either Python, alternating, to compare:

    T=$(.venv/bin/python -c "import sys; sys.path.insert(0, 'tests/ecosystem'); from install import *; \
print(f'{ensure_ring2_installed()}:{ensure_installed()}')" | tail -1)
    PYTHONPATH=$T /work/jax-venv/bin/python tests/ecosystem/bench_nuts.py 20        # real JAX
    PYTHONPATH=.:$T .venv/bin/python tests/ecosystem/bench_nuts.py 20               # gradpad
"""
import sys
import time

import numpy as np

try:
    import core
    core.install_as_jax()
except ImportError:   # real JAX's environment
    pass
import jax
import jax.numpy as jnp
import jax.scipy.stats as stats

import blackjax


def main(steps: int) -> None:
    np.random.seed(0)
    observed = np.random.normal(10, 20, size=1_000)

    def logdensity_fn(x):
        return jnp.sum(stats.norm.logpdf(observed, x["loc"], x["scale"]))
    nuts = blackjax.nuts(logdensity_fn, 1e-3, jnp.array([1., 1.]))
    state = nuts.init({"loc": 1., "scale": 2.})
    rng_key = jax.random.key(0)
    step = jax.jit(nuts.step)
    c0 = time.process_time()
    for i in range(steps):
        state, info = step(jax.random.fold_in(rng_key, i), state)
        if i == 0:
            jax.block_until_ready(state)
            c1 = time.process_time()
    jax.block_until_ready(state)
    c2 = time.process_time()
    print(f"{jax.__version__}: first step {c1 - c0:.2f} s CPU, next {steps - 1} steps {c2 - c1:.2f} s CPU, "
          f"total {c2 - c0:.2f} s; last step {int(info.num_integration_steps)} leapfrogs; "
          f"loc {float(state.position['loc']):.6f} scale {float(state.position['scale']):.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
