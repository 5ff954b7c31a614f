"""Times jax.scipy.signal welch / stft / stft+istft on a 16384-sample float32 signal, eager and jitted.
Run with our engine (`.venv/bin/python tests/bench_signal.py core`) or real JAX
(`/work/jax-venv/bin/python tests/bench_signal.py jax`); the shared 2-core machine makes single runs noisy."""
import sys, time, numpy as np
if sys.argv[1] == 'jax':
    import jax, jax.numpy as jnp
else:
    import core as jax; jnp = jax.numpy
    import core.scipy.signal
sg = jax.scipy.signal
x = jnp.asarray(np.sin(np.arange(16384) * 0.01), jnp.float32)
for name, f in [("welch", lambda x: sg.welch(x, nperseg=256)[1]), ("stft", lambda x: sg.stft(x)[2]),
                ("stft+istft", lambda x: sg.istft(sg.stft(x)[2])[1])]:
    for mode, g in [("eager", f), ("jit", jax.jit(f))]:
        g(x).block_until_ready()
        t = time.perf_counter(); n = 20
        for _ in range(n): g(x).block_until_ready()
        print(f"{name:11s} {mode:5s} {(time.perf_counter() - t) / n * 1e3:7.2f} ms")
