"""The Timing pane's measurements: eager vs jit per backend, first call and steady state, sampled
long enough for the page's coarse timer (synchronous, yielding, or async for WebGPU)."""
from __future__ import annotations

import functools
import math
import statistics
import time


from .. import pane_bounds, sandbox
from .jaxprs import _jax, count_eqns


# ------------------------------------------------------------------ timings
def available_backends() -> list[str]:
    """'cpu', plus 'webgpu' when `jax.devices('webgpu')` finds an adapter."""
    jax = _jax()
    found = ["cpu"]
    try:
        if jax.devices("webgpu"):
            found.append("webgpu")
    except Exception:  # noqa: BLE001 - backend not built or no adapter (the reason is in the message)
        pass
    return found


def kernel_count(fn, args, backend: str) -> dict:
    """How many kernels one jitted call launches: the CPU backend compiles a whole jaxpr into one
    Python function; WebGPU fuses it into the kernels `plan_kernels` reports (host steps apart)."""
    if backend != "webgpu":
        return {"kernels": 1, "host_steps": 0}
    from core._engine.backends.webgpu import plan_kernels
    from core._engine.backends.webgpu.planning import Unsupported
    try:
        planned = plan_kernels(_jax().make_jaxpr(fn)(*args))
    except Unsupported as e:  # the backend runs such jaxprs on the CPU (with a warning)
        return {"kernels": 0, "host_steps": 0, "note": f"jit falls back to the CPU: {e}"}
    host = sum(k.kind == "host" for k in planned)
    return {"kernels": len(planned) - host, "host_steps": host}


def _one_call_time(seconds: float) -> dict:
    return {"median": seconds, "min": seconds, "max": seconds, "n": 1, "calls": 1}



async def _ready_async(tree):
    """Wait for every array in `tree` without blocking the page (WebGPU readback is async)."""
    for leaf in _jax().tree_util.tree_leaves(tree):
        if hasattr(leaf, "block_until_ready_async"):
            await leaf.block_until_ready_async()
    return tree


async def _ready_sync(tree):
    return _jax().block_until_ready(tree)


MIN_SAMPLE_S = 2e-3    # a sample's length when the timer's step is not known: a 100 µs timer resolves it to 5 %
# A sample spans at least RESOLVED_STEPS of the timer's steps (its reading is then within 5 %),
# and at least SAMPLE_FLOOR_S: 2 ms with a 100 µs page timer (not cross-origin isolated), 0.5 ms
# (100 steps, 1 %) with a 5 µs one or CPython's. Shorter samples on a fine timer are what keeps
# the timings of an edit cheap (they run after every edit that changes f).
RESOLVED_STEPS = 20
SAMPLE_FLOOR_S = 5e-4
MAX_CALLS_PER_SAMPLE = 100_000
TIMING_BUDGET_S = 0.5  # a slow function gets fewer samples, never fewer than 3
CALL_STEPS = (1, 2, 5)  # calls per sample: 1, 2, 5, 10, 20, 50, ... (timeit's autorange)


def clock() -> float:
    """The timer every measurement reads (module level, so a test can make it as coarse as the page's)."""
    return time.perf_counter()


def clock_step(tries: int = 200) -> float:
    """The timer's smallest step, seen by reading it until it moves (100 µs in a page that is
    not cross-origin isolated, ~0.1 µs in CPython): single-call times are only this precise."""
    steps = []
    for _ in range(tries):
        t0 = clock()
        t1 = clock()
        while t1 == t0:
            t1 = clock()
        steps.append(t1 - t0)
        if len(steps) >= 5:
            break
    return min(steps)


async def _no_pause() -> None:
    return None


async def _sample(call, wait, n: int, pause=_no_pause) -> float:
    """Seconds for `n` calls, each waited for (per-call latency, not pipelined throughput).
    `pause` is awaited first, outside the timed calls (`timings_yielding` hands the event loop a
    turn there)."""
    await pause()
    t0 = clock()
    for _ in range(n):
        await wait(call())
    return clock() - t0


def sample_target(step: float) -> float:
    """How long one sample must last for a timer of this step (see RESOLVED_STEPS)."""
    return max(SAMPLE_FLOOR_S, RESOLVED_STEPS * step)


async def _autorange(call, wait, pause=_no_pause, target: float = MIN_SAMPLE_S) -> tuple:
    """(calls per sample, seconds of the first such sample): the fewest calls, stepping like
    timeit's autorange, whose sample lasts `target`, so a coarse timer never reads 0."""
    scale = 1
    while True:
        for step in CALL_STEPS:
            n = step * scale
            elapsed = await _sample(call, wait, n, pause)
            if elapsed >= target or n >= MAX_CALLS_PER_SAMPLE:
                return n, elapsed
        scale *= 10


async def _per_call(call, wait, samples: int, pause=_no_pause, target: float = MIN_SAMPLE_S,
                    warm: bool = True) -> dict:
    """Per-call seconds (median, min, max over `samples` samples of `calls` calls each, each
    sample lasting `target`: `sample_target` of the timer's step). A first sample slowed by a
    pause (GC, a late compile) can pick too few calls: when the samples turn out shorter than
    half of `target`, they are taken again with more calls. `warm=False`: `call` was called
    before (its one-off work is done)."""
    if warm:
        await wait(call())  # the first call after tracing may still do one-off work
    calls, first = await _autorange(call, wait, pause, target)
    samples = samples if first < 0.05 else max(3, min(samples, int(TIMING_BUDGET_S / max(first, 1e-9))))
    times = [first / calls] + [await _sample(call, wait, calls, pause) / calls for _ in range(samples - 1)]
    while statistics.median(times) * calls < target / 2 and calls < MAX_CALLS_PER_SAMPLE:
        median = max(statistics.median(times), target / MAX_CALLS_PER_SAMPLE)
        calls = min(MAX_CALLS_PER_SAMPLE, max(10 * calls, math.ceil(target / median)))
        times = [await _sample(call, wait, calls, pause) / calls for _ in range(samples)]
    return {"median": statistics.median(times), "min": min(times), "max": max(times), "n": samples,
            "calls": calls}


async def _measure(fn, args, backend: str, repeats: int, wait, pause=_no_pause) -> dict:
    """Eager vs jit on `backend`'s device: the inputs are device_put there and new arrays default
    to it. `wait` makes a result ready; written once, run by `_drive` (CPython, sync waits) or
    awaited (the browser, async waits)."""
    jax = _jax()
    dev = jax.devices(backend)[0]
    traces = [0]

    @functools.wraps(fn)
    def counted(*a):
        traces[0] += 1
        return fn(*a)

    step = clock_step()
    target = sample_target(step)
    with jax.default_device(dev):
        dargs = jax.device_put(args, dev)
        out = {"backend": backend, "device": str(dev)}
        first_eager = await _sample(lambda: fn(*dargs), wait, 1, pause)  # the first eager call compiles per-op kernels (WebGPU)
        # a slow f (big arrays) is timed on one more call per mode, not on samples of several:
        # the pane fills in seconds, and says so (panes.timing.sample_note)
        slow = first_eager > pane_bounds.ONE_CALL_TIMING_S
        out["eager"] = _one_call_time(await _sample(lambda: fn(*dargs), wait, 1, pause)) if slow else \
            await _per_call(lambda: fn(*dargs), wait, repeats, pause, target)
        jitted = jax.jit(counted)
        # the first call in its two parts, f traced once: `trace` fills the jit's cache, so the
        # call after it compiles and runs what that traced (a fresh jit traced again cost as much)
        await pause()
        t0 = clock()
        traced = jitted.trace(*dargs)
        trace_s = clock() - t0
        compile_and_run = await _sample(lambda: jitted(*dargs), wait, 1, pause)
        out["jit_steady"] = _one_call_time(await _sample(lambda: jitted(*dargs), wait, 1, pause)) \
            if slow or compile_and_run > pane_bounds.ONE_CALL_TIMING_S else \
            await _per_call(lambda: jitted(*dargs), wait, repeats, pause, target)
    out["jit_first"] = {"total": trace_s + compile_and_run, "trace": trace_s, "compile_and_run": compile_and_run}
    out["retraces"] = traces[0]
    closed = getattr(traced, "jaxpr", None)  # gradpad's Traced keeps its jaxpr: no second trace
    out["eqn_count"] = count_eqns(closed.jaxpr if closed is not None else jax.make_jaxpr(fn)(*args).jaxpr)
    out.update(kernel_count(fn, args, backend))
    out["repeats"] = out["eager"]["n"]
    out["clock_step"] = step
    out["sample_s"] = target
    out["speedup"] = out["eager"]["median"] / out["jit_steady"]["median"]
    return out


def _drive(coro):
    """Run a coroutine that never suspends (all its waits are synchronous) to its result."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("timing needed an async wait; use timings_async in the browser")


def scaled_problem(fn, args, scale: int = 1) -> tuple:
    """(function, arguments) for `scale` times the work: jax.vmap(f) over `scale` copies of the
    input (the problem-size control: where jit starts to win). Scale 1 is f itself."""
    if scale <= 1:
        return fn, tuple(args)
    jax = _jax()
    jnp = jax.numpy
    copies = jax.tree_util.tree_map(lambda a: jnp.broadcast_to(jnp.asarray(a), (scale,) + jnp.shape(a)), tuple(args))
    return jax.vmap(fn), copies


def timings(fn, args, repeats: int = 5, backends=None, selected: str | None = None, scale: int = 1) -> dict:
    """Eager vs jit per backend: first call (trace, then compile + first run) and steady state,
    per call, as median with min and max of `repeats` samples (each sample times enough calls
    to last MIN_SAMPLE_S), retraces and kernel counts.

    Returns the selected backend's numbers at top level (else the first measured) and every
    backend's under "backends". In the browser, WebGPU needs async readback: it is left
    {"pending": True} for `timings_async`."""
    jax = _jax()
    selected = selected or jax.default_backend()
    backends = list(backends or (["cpu", "webgpu"] if env_in_browser() else available_backends()))
    fn, args = scaled_problem(fn, args, scale)
    per = {}
    for b in backends:
        if b != "cpu" and env_in_browser():
            per[b] = {"pending": True, "backend": b}
            continue
        out, err = sandbox.guarded_call(lambda: _drive(_measure(fn, args, b, repeats, _ready_sync)), seconds=20.0)
        per[b] = {"error": err, "backend": b} if err is not None else out
    return _per_backend(per, selected, scale)


def _per_backend(per: dict, selected: str, scale: int) -> dict:
    """timings()' answer: the selected backend's numbers at top level, every backend's under "backends"."""
    done = [t for t in per.values() if "eager" in t]
    if not done:
        return {"error": next(t["error"] for t in per.values() if t.get("error") is not None), "backends": per,
                "scale": scale}
    top = per[selected] if "eager" in per.get(selected, {}) else done[0]
    return {**top, "backends": per, "scale": scale}


class Superseded(Exception):
    """Newer code waits to run: the measurement of the old code stops (see `timings_yielding`)."""


YIELD_EVERY_S = 0.02  # `timings_yielding` hands the event loop a turn at most this often


async def timings_yielding(fn, args, superseded, repeats: int = 5, scale: int = 1) -> dict:
    """`timings` on the CPU, synchronous calls as there, but between two samples (at most every
    YIELD_EVERY_S) the event loop gets a turn: an edit typed meanwhile is applied then, and once
    `superseded()` says so, Superseded is raised at once instead of timing the old code to its
    end. In the page, the other backends are left {"pending": True} as `timings` leaves them."""
    import asyncio
    jax = _jax()
    selected = jax.default_backend()
    backends = ["cpu", "webgpu"] if env_in_browser() else available_backends()
    fn, args = scaled_problem(fn, args, scale)
    turn = [clock()]

    async def pause():
        if clock() - turn[0] >= YIELD_EVERY_S:
            await asyncio.sleep(0)
            turn[0] = clock()
        if superseded():
            raise Superseded()

    per = {}
    for b in backends:
        if b != "cpu" and env_in_browser():
            per[b] = {"pending": True, "backend": b}
            continue
        try:
            with sandbox.budget(20.0):
                per[b] = await _measure(fn, args, b, repeats, _ready_sync, pause)
        except Superseded:
            raise
        except (Exception, sandbox.TimeBudgetExceeded, KeyboardInterrupt) as e:  # noqa: BLE001 - as guarded_call
            per[b] = {"error": sandbox.describe_error(e), "backend": b}
    return _per_backend(per, selected, scale)


# Why a backend was not timed where f itself waits for the GPU (panes.timing shows it in grey):
# the timing awaits every readback of its own, but not one inside f
NEEDS_SYNC_READ = ("not measured: f waits for a value from the GPU while it runs (e.g. an if on an "
                   "array), and this page's Python cannot wait synchronously (no JSPI stack switching here)")


async def timings_async(fn, args, backend: str = "webgpu", repeats: int = 5, scale: int = 1) -> dict:
    """One backend's timings with async readback (the browser's main thread must never block).
    A backend that f cannot run on without a synchronous wait is {"unavailable": why}."""
    from core._engine.backends.webgpu.host import SyncUnavailable
    try:
        fn, args = scaled_problem(fn, args, scale)
        if backend == "webgpu":
            from core._engine.backends.webgpu import init_async
            await init_async()
        with sandbox.quiet_task():  # held across awaits: not `captured` (see quiet_task)
            return await _measure(fn, args, backend, repeats, _ready_async)
    except SyncUnavailable:
        return {"unavailable": NEEDS_SYNC_READ, "backend": backend}
    except Exception as e:  # noqa: BLE001 - shown in the pane, like every user error
        return {"error": sandbox.describe_error(e), "backend": backend}


def env_in_browser() -> bool:
    from .. import env
    return env.IN_BROWSER
