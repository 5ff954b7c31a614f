"""CPU benchmark of the engine against real JAX, both in this one process, calls interleaved.

    python build.py bench core [--quick] [--json PATH] [--jax-python PATH] [--clock wall|cpu|own] [-k ROW]
    python -m tests.bench core ...

Every workload is written once, as a user writes it (`jnp.add(a, b)`, `jax.jit(jax.grad(loss))`,
`lax.scan`, `random.normal`), and built twice: with gradpad's engine (`core`) and with real JAX.
Real JAX comes from a JAX virtual environment (`--jax-python`, else $GRADPAD_JAX_PYTHON, else
`.cache/jax-venv/bin/python`): its site-packages are appended to sys.path, so `import jax` is
real JAX while ours is imported as `core` (this works because ours is never installed as `jax`).
The two sides alternate batch by batch; a row's ratio is the median of the paired ratios, so load
from other processes hits both sides alike. Every benchmarked result is checked against JAX's
before it is timed. BLAS is pinned to one thread. Targets (ours/JAX) are printed, never asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import types
from typing import NamedTuple

# One BLAS thread: on a small shared machine OpenBLAS's thread pool makes small matmuls ~100x
# slower under load (must be set before numpy loads).
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_JAX_PYTHON = os.path.join(ROOT, ".cache", "jax-venv", "bin", "python")

CHAIN_SIZE = 10_000      # elements in the steady-state elementwise chain
SELU_SIZE = 1_000_000
LOOP_STEPS = 1000        # scan / fori_loop / while_loop trip count

# row -> (max ratio ours/JAX, label)
TARGETS = {
    "jnp.add f32[8] eager": (0.5, "<= 0.5"),
    "jnp.multiply f32[8] eager": (0.5, "<= 0.5"),
    "jnp.sin f32[8] eager": (0.5, "<= 0.5"),
    "jnp.maximum f32[8] eager": (0.5, "<= 0.5"),
    "jnp.sum f32[8] eager": (0.5, "<= 0.5"),
    "jnp.mean f32[8] eager": (0.5, "<= 0.5"),
    "jnp.divide f32[8] eager": (0.5, "<= 0.5"),
    "jnp.exp f32[8] eager": (0.5, "<= 0.5"),
    "jnp.tanh f32[8] eager": (0.5, "<= 0.5"),
    "jnp.max f32[8] eager": (0.5, "<= 0.5"),
    "jnp.min f32[8] eager": (0.5, "<= 0.5"),
    "jnp.prod f32[8] eager": (0.5, "<= 0.5"),
    "jnp.argmax f32[8] eager": (0.5, "<= 0.5"),
    "jnp.var f32[8] eager": (0.5, "<= 0.5"),
    "a + b f32[8] eager": (1 / 3, "<= 1/3"),
    "jit call, 1 op": (0.5, "<= 0.5"),
    "jit first call, 100 ops": (0.04, "<= 0.04"),
    "make_jaxpr, 100 ops": (0.5, "<= 0.5"),
    f"jit 100-op chain steady, f32[{CHAIN_SIZE}]": (2.0, "<= 2"),
    "jit(grad) MLP 1-64-1, 256 pts": (1.0, "<= 1"),
    "jitted train step x200, params pytree": (1.5, "<= 1.5"),
    "eager train step x20, MLP 1-64-1": (0.5, "<= 0.5"),
    "jitted adam step x20 (optax's, written out), MLP 1-64-1": (3.0, "<= 3"),
    f"scan RNN {LOOP_STEPS} steps, jit(grad)": (25.0, "<= 25"),
    f"fori_loop {LOOP_STEPS} steps, jit(grad)": (25.0, "<= 25"),
    f"while_loop {LOOP_STEPS} steps, jit": (25.0, "<= 25"),
    "random.normal(key, (1000,))": (1.0, "<= 1"),
}


# ---- finding real JAX ---------------------------------------------------------------------

def _ours_is_jax(mod) -> bool:
    return os.path.abspath(getattr(mod, "__file__", "") or "").startswith(os.path.join(ROOT, "core"))


def load_jax(jax_python: str | None):
    """Import real JAX into this process. Returns (module, None) or (None, why not)."""
    try:
        import jax
        if not _ours_is_jax(jax):
            return jax, None
        return None, "`jax` here is gradpad's engine (install_as_jax): JAX column omitted"
    except ImportError:
        pass
    py = jax_python or os.environ.get("GRADPAD_JAX_PYTHON") or DEFAULT_JAX_PYTHON
    if not os.path.exists(py):
        return None, (f"no JAX environment at {py}: JAX column omitted (create one with "
                      "`python3 -m venv .cache/jax-venv && .cache/jax-venv/bin/pip install jax`)")
    probe = ("import json, sys, sysconfig; p = sysconfig.get_paths(); "
             "print(json.dumps([list(sys.version_info[:2]), p['purelib'], p['platlib']]))")
    out = subprocess.run([py, "-c", probe], capture_output=True, text=True)
    if out.returncode:
        return None, f"{py} did not run: {out.stderr.strip()[-200:]}"
    version, *paths = json.loads(out.stdout)
    if tuple(version) != sys.version_info[:2]:
        return None, (f"{py} is Python {version[0]}.{version[1]} and this is "
                      f"{sys.version_info[0]}.{sys.version_info[1]}: JAX's compiled modules cannot load "
                      "here; make the JAX venv with the same Python")
    for p in dict.fromkeys(paths):
        if p not in sys.path:
            sys.path.append(p)   # after ours: this process keeps its own numpy
    try:
        import jax
    except ImportError as e:
        return None, f"importing JAX from {py} failed: {e}"
    return jax, None


class Engine:
    """One side of the benchmark: jax, jnp, lax, random and a block() that waits for results."""

    def __init__(self, name, jax):
        import importlib
        self.name = name
        self.jax = jax
        self.jnp = importlib.import_module(jax.__name__ + ".numpy")
        self.lax = importlib.import_module(jax.__name__ + ".lax")
        self.random = importlib.import_module(jax.__name__ + ".random")
        self.block = jax.block_until_ready

    def asarray(self, x):
        return self.jnp.asarray(x)


# ---- workloads (each written once; build(e) returns a zero-argument callable) ---------------

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


def mlp_params(e, sizes, seed=0):
    rng = np.random.default_rng(seed)
    return [(e.asarray((rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32)),
             e.asarray(np.zeros(n, np.float32))) for m, n in zip(sizes[:-1], sizes[1:])]


def small_mlp_data(e):
    """The tutorials' regression: 1-64-1 MLP, 256 points of a sine."""
    xs = np.linspace(-3, 3, 256, dtype=np.float32)[:, None]
    return mlp_params(e, [1, 64, 1]), e.asarray(xs), e.asarray(np.sin(xs))


def sgd_step(e, loss, lr=0.01):
    jax = e.jax

    def step(params, x, y):
        g = jax.grad(loss)(params, x, y)
        return jax.tree_util.tree_map(lambda p, d: p - lr * d, params, g)
    return step


def w_eager(fn_name, *, binary=True):
    def build(e):
        rng = np.random.default_rng(0)
        a = e.asarray(rng.standard_normal(8).astype(np.float32))
        b = e.asarray(rng.standard_normal(8).astype(np.float32))
        f = getattr(e.jnp, fn_name)
        return (lambda: f(a, b)) if binary else (lambda: f(a))
    return build


def w_unary_f32(fn_name, size, low, high):
    """jnp.<fn_name> on `size` float32s in [low, high): XLA's own exp/log run up to
    _xla_f32.EXACT_MAX elements, numpy's kernels beyond."""
    def build(e):
        x = np.random.default_rng(0).uniform(low, high, size).astype(np.float32)
        a = e.asarray(x.reshape(()) if size == 1 else x)
        f = getattr(e.jnp, fn_name)
        return lambda: f(a)
    return build


def w_operator_add(e):
    rng = np.random.default_rng(0)
    a = e.asarray(rng.standard_normal(8).astype(np.float32))
    b = e.asarray(rng.standard_normal(8).astype(np.float32))
    return lambda: a + b


def w_jit_one_op(e):
    a = e.asarray(np.arange(8, dtype=np.float32))
    inc = e.jax.jit(lambda x: x + 1.0)
    return lambda: inc(a)


def w_chain_steady(e):
    x = e.asarray(np.random.default_rng(0).standard_normal(CHAIN_SIZE).astype(np.float32))
    f = e.jax.jit(chain(e.jnp, 100, 1.01))
    return lambda: f(x)


def w_mlp_grad_jit_small(e):
    params, x, y = small_mlp_data(e)
    g = e.jax.jit(e.jax.grad(mlp_loss(e.jnp)))
    return lambda: g(params, x, y)


def w_train_jit(e):
    params0, x, y = small_mlp_data(e)
    step = e.jax.jit(sgd_step(e, mlp_loss(e.jnp)))

    def run():
        params = params0
        for _ in range(200):
            params = step(params, x, y)
        return params
    return run


# [optstep] optax's adam, written out (optax itself binds whichever `jax` it imported first, and
# this process holds both engines): a params dict and a NamedTuple state, as optax's step has them
class AdamState(NamedTuple):
    count: object
    mu: object
    nu: object


def w_adam_step(e, steps=20, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    jax, jnp = e.jax, e.jnp
    tmap = jax.tree_util.tree_map
    layers, x, y = small_mlp_data(e)
    # biases of 0.1, not 0: with zero biases the odd net on a sine has bias gradients of ~1e-9
    # (rounding noise), which adam scales up to +-lr: no two summation orders would agree
    params0 = {f"{k}{i}": v for i, (w, b) in enumerate(layers) for k, v in (("w", w), ("b", b + 0.1))}
    base_loss = mlp_loss(jnp)

    def loss(p, x, y):
        return base_loss([(p[f"w{i}"], p[f"b{i}"]) for i in range(len(layers))], x, y)

    @jax.jit
    def step(params, state):
        grads = jax.grad(loss)(params, x, y)
        mu = tmap(lambda g, m: (1 - b1) * g ** 1 + b1 * m, grads, state.mu)   # optax's update_moment
        nu = tmap(lambda g, v: (1 - b2) * g ** 2 + b2 * v, grads, state.nu)
        count = jnp.where(state.count < np.iinfo(np.int32).max, state.count + 1, np.iinfo(np.int32).max)
        mu_hat = tmap(lambda m: m / (1 - b1 ** count), mu)    # optax's bias_correction
        nu_hat = tmap(lambda v: v / (1 - b2 ** count), nu)
        updates = tmap(lambda m, v: -lr * (m / (jnp.sqrt(v + 0.0) + eps)), mu_hat, nu_hat)
        return tmap(lambda p, u: p + u, params, updates), AdamState(count, mu, nu)
    zeros = tmap(jnp.zeros_like, params0)
    state0 = AdamState(jnp.zeros((), jnp.int32), zeros, zeros)

    def run():
        params, state = params0, state0
        for _ in range(steps):
            params, state = step(params, state)
        return params, state
    return run


def w_train_eager(e):
    params0, x, y = small_mlp_data(e)
    step = sgd_step(e, mlp_loss(e.jnp))

    def run():
        params = params0
        for _ in range(20):
            params = step(params, x, y)
        return params
    return run


def w_mlp_grad_eager(e):
    params, x, y = mlp_params(e, [128, 128, 128, 10]), *_mlp_batch(e)
    g = e.jax.grad(mlp_loss(e.jnp))
    return lambda: g(params, x, y)


def w_mlp_grad_jit(e):
    params, x, y = mlp_params(e, [128, 128, 128, 10]), *_mlp_batch(e)
    g = e.jax.jit(e.jax.grad(mlp_loss(e.jnp)))
    return lambda: g(params, x, y)


def _mlp_batch(e):
    rng = np.random.default_rng(1)
    return (e.asarray(rng.standard_normal((128, 128)).astype(np.float32)),
            e.asarray(rng.standard_normal((128, 10)).astype(np.float32)))


def _rnn_data(e, hidden=8):
    rng = np.random.default_rng(2)
    w = e.asarray((rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)).astype(np.float32))
    u = e.asarray((rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)).astype(np.float32))
    xs = e.asarray(rng.standard_normal((LOOP_STEPS, hidden)).astype(np.float32))
    return w, u, xs


def w_scan_rnn(e):
    jnp, lax = e.jnp, e.lax
    w, u, xs = _rnn_data(e)

    def loss(w, u, xs):
        def cell(h, x):
            h = jnp.tanh(h @ w + x @ u)
            return h, h.sum()
        h, ys = lax.scan(cell, jnp.zeros(xs.shape[1], xs.dtype), xs)
        return jnp.sum(ys) + jnp.sum(h)
    g = e.jax.jit(e.jax.grad(loss, argnums=(0, 1)))
    return lambda: g(w, u, xs)


def w_fori(e):
    jnp, lax = e.jnp, e.lax
    w, u, _ = _rnn_data(e)

    def loss(w, u):
        def body(i, h):
            return jnp.tanh(h @ w) * 0.5 + jnp.sin(h @ u) * 0.5
        return jnp.sum(lax.fori_loop(0, LOOP_STEPS, body, jnp.ones(w.shape[0], w.dtype)))
    g = e.jax.jit(e.jax.grad(loss, argnums=(0, 1)))
    return lambda: g(w, u)


def w_while(e):
    jnp, lax = e.jnp, e.lax
    w, _, _ = _rnn_data(e)

    def run(w):
        def cond(c):
            return c[0] < LOOP_STEPS

        def body(c):
            i, h = c
            return i + 1, jnp.tanh(h @ w) + 0.1
        return lax.while_loop(cond, body, (0, jnp.ones(w.shape[0], w.dtype)))[1]
    f = e.jax.jit(run)
    return lambda: f(w)


def w_random_normal(e):
    key = e.random.PRNGKey(0)
    return lambda: e.random.normal(key, (1000,))


def w_selu(jit):
    def build(e):
        big = e.asarray(np.random.default_rng(3).standard_normal(SELU_SIZE).astype(np.float32))
        s = selu(e.jnp)
        s = e.jax.jit(s) if jit else s
        return lambda: s(big)
    return build


# (row, build, tolerance (rtol, atol); None: bit-exact)
STEADY = [
    ("jnp.add f32[8] eager", w_eager("add"), None),
    ("jnp.multiply f32[8] eager", w_eager("multiply"), None),
    ("jnp.maximum f32[8] eager", w_eager("maximum"), None),
    ("jnp.sin f32[8] eager", w_eager("sin", binary=False), (1e-6, 1e-7)),
    ("jnp.sum f32[8] eager", w_eager("sum", binary=False), (1e-6, 1e-6)),
    ("jnp.mean f32[8] eager", w_eager("mean", binary=False), (1e-6, 1e-6)),
    ("jnp.divide f32[8] eager", w_eager("divide"), None),
    ("jnp.exp f32[8] eager", w_eager("exp", binary=False), (1e-6, 1e-7)),
    ("jnp.tanh f32[8] eager", w_eager("tanh", binary=False), (1e-6, 1e-7)),
    ("jnp.max f32[8] eager", w_eager("max", binary=False), None),
    ("jnp.min f32[8] eager", w_eager("min", binary=False), None),
    ("jnp.prod f32[8] eager", w_eager("prod", binary=False), (1e-6, 1e-7)),
    ("jnp.argmax f32[8] eager", w_eager("argmax", binary=False), None),
    ("jnp.var f32[8] eager", w_eager("var", binary=False), (1e-6, 1e-7)),
    ("jnp.exp f32[] eager", w_unary_f32("exp", 1, -5, 5), None),
    ("jnp.log f32[] eager", w_unary_f32("log", 1, 0.1, 5), None),
    ("jnp.exp f32[1000] eager", w_unary_f32("exp", 1000, -20, 20), (1e-6, 0)),
    ("jnp.exp f32[1M] eager", w_unary_f32("exp", 1_000_000, -20, 20), (1e-6, 0)),
    ("jnp.log f32[1M] eager", w_unary_f32("log", 1_000_000, 0.01, 100), (1e-6, 0)),
    ("a + b f32[8] eager", w_operator_add, None),
    ("jit call, 1 op", w_jit_one_op, None),
    (f"jit 100-op chain steady, f32[{CHAIN_SIZE}]", w_chain_steady, (1e-5, 1e-6)),
    ("jit(grad) MLP 1-64-1, 256 pts", w_mlp_grad_jit_small, (1e-4, 1e-6)),
    ("jitted train step x200, params pytree", w_train_jit, (1e-3, 1e-5)),
    ("eager train step x20, MLP 1-64-1", w_train_eager, (1e-4, 1e-6)),
    ("jitted adam step x20 (optax's, written out), MLP 1-64-1", w_adam_step, (1e-4, 1e-6)),
    ("MLP grad eager, 128-128-128-10", w_mlp_grad_eager, (1e-4, 1e-6)),
    ("MLP grad jit, 128-128-128-10", w_mlp_grad_jit, (1e-4, 1e-6)),
    (f"scan RNN {LOOP_STEPS} steps, jit(grad)", w_scan_rnn, (1e-4, 1e-5)),
    (f"fori_loop {LOOP_STEPS} steps, jit(grad)", w_fori, (1e-4, 1e-5)),
    (f"while_loop {LOOP_STEPS} steps, jit", w_while, (1e-5, 1e-6)),
    ("random.normal(key, (1000,))", w_random_normal, None),
    ("selu 1M eager", w_selu(False), (1e-6, 1e-6)),
    ("selu 1M jit", w_selu(True), (1e-6, 1e-6)),
]


# the first-call rows' input data, made once: drawing 10000 normals inside the timed call cost
# 0.2 ms warm and 0.5-0.7 ms right after JAX's compile (cold caches), a third of our 100-op row
_FIRST_CALL_DATA = np.random.default_rng(0).standard_normal(CHAIN_SIZE).astype(np.float32)


def first_call(n):
    def call(e, r):   # a new function and new constants each time: nothing cached anywhere
        x = e.asarray(_FIRST_CALL_DATA.copy())   # (a fresh array: neither side can know it)
        return e.block(e.jax.jit(chain(e.jnp, n, 1.0 + 1e-4 * (r + 1)))(x))
    return call


def _new_lines_source(n, r) -> str:
    """The chain written out, one op per line, as a learner writes it on the page."""
    body = ["    x = jnp.sin(x)" if i % 2 == 0 else f"    x = x * {1.0 + 1e-4 * (r + 1)!r}" for i in range(n)]
    return "\n".join(["def f(x):", *body, "    return x"])


def first_call_new_code(n, reps):
    """A first call of a function whose code is new (every edit on the page makes new code
    objects: nothing known about its lines yet). Python compiles the code before the timing."""
    codes = {}
    for side in ("gradpad", "jax"):
        for r in range(reps):
            module = compile(_new_lines_source(n, r), f"<edit {side} {r}>", "exec")
            codes[side, r] = next(c for c in module.co_consts if isinstance(c, types.CodeType))

    def call(e, r):
        f = types.FunctionType(codes[e.name, r], {"jnp": e.jnp})
        x = e.asarray(_FIRST_CALL_DATA.copy())
        return e.block(e.jax.jit(f)(x))
    return call


def make_jaxpr_100(e, r):
    x = e.asarray(np.zeros(CHAIN_SIZE, np.float32))
    return e.jax.make_jaxpr(chain(e.jnp, 100, 1.0 + 1e-4 * r))(x)


ONCE = [  # (row, call(engine, rep), reps, skipped by --quick)
    ("jit first call, 10 ops", first_call(10), 5, False),
    ("jit first call, 100 ops", first_call(100), 3, False),
    ("jit first call, 1000 ops", first_call(1000), 1, True),
    ("jit first call, 100 new lines", first_call_new_code(100, 3), 3, False),
    ("make_jaxpr, 100 ops", make_jaxpr_100, 5, False),
]


# ---- timing ---------------------------------------------------------------------------------

# Wall time by default; `--clock cpu` times the process's CPU time instead (every thread's, so
# JAX's worker threads count too), which a machine shared with other busy processes disturbs
# far less: there wall-clock ratios of the same code swing several-fold between runs.
# `--clock own` times each side's own CPU: JAX's process time (its XLA worker threads count),
# ours the calling thread's (gradpad runs on it alone: one BLAS thread, no worker threads). The
# cpu clock charges our calls with the CPU that JAX's pool threads burn spinning after JAX's
# call: measured ~0.6-1 ms per call (a 10-op first call: process 1.1-1.6 ms, thread 0.4-0.9 ms).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time, "own": time.process_time}
OURS_CLOCKS = {"own": time.thread_time}   # our side's clock where it differs from JAX's
clock = CLOCKS["wall"]
ours_clock = None   # None: `clock`


def _batch_time(fn, batch, clk=None) -> float:
    clk = clk or clock
    t0 = clk()
    for _ in range(batch):
        fn()
    return (clk() - t0) / batch


def _batch_size(fn, target=0.01) -> int:
    t0 = clock()
    fn()
    one = max(clock() - t0, 1e-7)
    return max(1, int(target / one))


def paired(ours, theirs, rounds) -> tuple:
    """Alternate batches of our calls and theirs; (our median, their median, median ratio)."""
    ours(), ours()
    bo = _batch_size(ours)
    if theirs is None:
        return statistics.median(_batch_time(ours, bo, ours_clock) for _ in range(rounds)), None, None
    theirs(), theirs()
    bt = _batch_size(theirs)
    to, tt = [], []
    for _ in range(rounds):
        to.append(_batch_time(ours, bo, ours_clock))
        tt.append(_batch_time(theirs, bt))
    ratios = [a / b for a, b in zip(to, tt)]
    return statistics.median(to), statistics.median(tt), statistics.median(ratios)


def settle_allocator() -> None:
    """Pay, untimed, for the other side's freed memory. After JAX's compile the next malloc of a
    few tens of KB merges the many small blocks XLA freed (glibc's fastbin consolidation): measured
    ~0.5 ms of user CPU for a 40 KB copy right after JAX's 100-op first call, 0.02 ms otherwise,
    charged to whichever call came next. Done before every timed call of either side."""
    np.empty(1 << 16, np.uint8)


def paired_once(call, ours, theirs, reps) -> tuple:
    to, tt = [], []
    own = ours_clock or clock
    for r in range(reps):
        settle_allocator()
        t0 = own()
        call(ours, r)
        to.append(own() - t0)
        if theirs is not None:
            settle_allocator()
            t0 = clock()
            call(theirs, r)
            tt.append(clock() - t0)
    if theirs is None:
        return statistics.median(to), None, None
    return statistics.median(to), statistics.median(tt), statistics.median(a / b for a, b in zip(to, tt))


def check_same(row, ours, theirs, tol):
    """Our result against JAX's: same number of leaves (lists, tuples and dicts are the nodes
    on both sides), dtypes, shapes and values (tol None: bit for bit)."""
    lo_ours, lo = _leaves(ours), _leaves(theirs)
    if len(lo_ours) != len(lo):
        raise AssertionError(f"{row}: {len(lo_ours)} leaves here, JAX has {len(lo)}")
    for a, b in zip(lo_ours, lo):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape:
            raise AssertionError(f"{row}: {a.dtype}{list(a.shape)} here, JAX gives {b.dtype}{list(b.shape)}")
        if tol is None:
            np.testing.assert_array_equal(a, b, err_msg=row)
        else:
            np.testing.assert_allclose(a, b, rtol=tol[0], atol=tol[1], err_msg=row)


def _leaves(tree):
    import core
    return core.tree_util.tree_leaves(tree)


# ---- report ---------------------------------------------------------------------------------

def fmt(t) -> str:
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.1f} us"
    if t < 1:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.2f} s"


def table(results) -> str:
    rows = [("benchmark", "gradpad", "JAX", "gradpad/JAX", "target")]
    for row, t, j, ratio in results:
        tgt = TARGETS.get(row)
        target = "-" if tgt is None else tgt[1] + ("" if ratio is None else (" ok" if ratio <= tgt[0] else " MISS"))
        rows.append((row, fmt(t), fmt(j), "-" if ratio is None else f"{ratio:.3f}", target))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def _normal_path_note(core) -> str:
    """Which path the random.normal row ended on (its time differs ~3x between them)."""
    try:
        from core._engine.libraries import normal_table
    except ImportError:
        return "random.normal: (an engine without the table)"
    got = {"read": f"the float32 table, read from {normal_table.normal_table_cache.path()} after "
                   f"{normal_table.LOAD_AFTER // (1000 + normal_table.CALL_OVERHEAD) + 1} exact draws",
           "built": "the float32 table, built in this session",
           "shipped": "the float32 table shipped packed with the package (decoded at the first draw)",
           None: "the exact path (no table yet: none saved by an earlier session, GRADPAD_NORMAL_TABLE_CACHE)"}
    return "random.normal: timed on " + got[normal_table.source()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench core")
    ap.add_argument("--quick", action="store_true", help="fewer rounds; skip the 1000-op first-call row")
    ap.add_argument("--json", help="also write the numbers here")
    ap.add_argument("--jax-python", help="the python of a JAX venv (default: $GRADPAD_JAX_PYTHON, "
                                         "else .cache/jax-venv/bin/python)")
    ap.add_argument("-k", dest="only", help="only rows whose name contains this")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                    help="wall time (default), the process's CPU time (steadier on a busy machine), or "
                         "each side's own CPU time (ours: the calling thread's; JAX's: the process's)")
    args = ap.parse_args(argv)
    global clock, ours_clock
    clock = CLOCKS[args.clock]
    ours_clock = OURS_CLOCKS.get(args.clock)
    sys.path.insert(0, ROOT)
    import core
    real, note = load_jax(args.jax_python)
    ours = Engine("gradpad", core)
    theirs = Engine("jax", real) if real is not None else None
    rounds = 5 if args.quick else 15
    results = []
    for row, build, tol in STEADY:
        if args.only and args.only not in row:
            continue
        fo = build(ours)
        ft = build(theirs) if theirs else None
        if ft is not None:
            check_same(row, fo(), ft(), tol)
        bo = (lambda f=fo: ours.block(f()))
        bt = None if ft is None else (lambda f=ft: theirs.block(f()))
        results.append((row, *paired(bo, bt, rounds)))
    for row, call, reps, slow in ONCE:
        if (args.quick and slow) or (args.only and args.only not in row):
            continue
        results.append((row, *paired_once(call, ours, theirs, reps)))
    print(f"gradpad core benchmark: CPU, one BLAS thread, {'JAX ' + real.__version__ if real else 'no JAX'} "
          f"in this process; paired medians of alternating batches ({args.clock} clock)")
    print(table(results))
    if any(row.startswith("random.normal") for row, *_ in results):
        print(_normal_path_note(core))
    if note:
        print(note)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({row: {"gradpad": t, "jax": j, "ratio": r} for row, t, j, r in results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
