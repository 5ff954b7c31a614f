"""A long page session stays as fast as a fresh one: what one task leaves open does not move the
learner's eager work off the CPU's fast paths.

In the page the Timing pane measures WebGPU in a task of its own, inside
`with jax.default_device(webgpu)`, awaiting readbacks for seconds; the learner's next run goes on
meanwhile in another task. That block counted for every task: while it was open, and for the
rest of the session once an abandoned measurement was collected outside its task, every eager op
(`jnp.add`, `a + b`, eager `jax.random.normal`, a jitted call's cached path) went through the
accelerator's hook instead of numpy's fast paths, and eager normals never reached the table
(tests/browser/test_random_normal_page.py saw it in CI). JAX 0.10.2: `jax.default_device(dev)`
only changes where new computations go inside the block; on the CPU nothing else changes.
"""
from __future__ import annotations

import contextvars
import importlib
import types

import numpy as np
import pytest

from app import analysis, sandbox

sandbox.install_jax()
import jax  # noqa: E402  (the engine)
import jax.numpy as jnp  # noqa: E402
from core._engine.libraries import normal_table  # noqa: E402
from core._engine.tracing import tracing  # noqa: E402
from core._engine.api.api import _eager_plain  # noqa: E402
from core._engine.backends import webgpu  # noqa: E402

devices = importlib.import_module("core._engine.base.devices")   # (core._engine.base.devices the function shadows the module)

pytestmark = pytest.mark.timeout(300)


@types.coroutine
def _suspend():
    """One suspension, as an awaited WebGPU readback gives the event loop."""
    yield "waiting"


class _Task:
    """A coroutine stepped in a context of its own, as an asyncio task runs it."""

    def __init__(self, coro):
        self.coro, self.context = coro, contextvars.copy_context()

    def step(self):
        return self.context.run(self.coro.send, None)

    def finish(self):
        try:
            while True:
                self.step()
        except StopIteration as done:
            return done.value


@pytest.fixture
def hook_calls(monkeypatch):
    """Counts the eager ops that reach the accelerator's hook (the path eager work takes when
    the fast paths stand aside: every op, for the hook to decide where it runs)."""
    calls = []
    hook = devices.dispatch_hooks.eager
    assert hook is not None   # (importing the WebGPU backend installed it)

    def counted(prim, vals, params):
        calls.append(prim.name)
        return hook(prim, vals, params)

    monkeypatch.setattr(devices.dispatch_hooks, "eager", counted)
    yield calls


@pytest.fixture
def fresh_normal_table(monkeypatch):
    """A session that has not decided about the normal table yet (the real one comes back after)."""
    monkeypatch.setattr(normal_table, "_state", normal_table._State())


async def _on_webgpu_until_resumed():
    with jax.default_device(webgpu.DEVICE):
        assert not tracing.eager_fast_path_ok()   # inside the block the hook sees each op
        await _suspend()
        assert not tracing.eager_fast_path_ok()
    return "done"


LEARNER = """import jax, jax.numpy as jnp
from core._engine.tracing import tracing
a = jnp.arange(8.0)
b = jnp.add(a, a) + jnp.sin(a)
k = jax.random.PRNGKey(0)
x = jax.random.normal(k, (1000,))
y = jax.random.normal(k, (3,))
f = jax.jit(lambda v: v * 2.0)
f(a); f(a)
fast = tracing.eager_fast_path_ok()
"""


def test_a_default_device_block_open_in_another_task_leaves_this_ones_fast_paths_on(hook_calls, fresh_normal_table):
    other = _Task(_on_webgpu_until_resumed())
    assert other.step() == "waiting"   # the other task is inside its block, suspended
    try:
        assert devices._open_accelerator_scopes[0] == 1 and devices.dispatch_hooks.claims_host_arrays
        assert tracing.eager_fast_path_ok() and _eager_plain()
        res = sandbox.run(LEARNER)
        assert res.error is None, res.error
        ns = res.namespace
        assert ns["fast"] is True
        assert hook_calls == []   # no eager op of the learner's went through the accelerator's hook
        # eager float32 normals took the eager path and reached the table (CPython decodes it at once)
        assert normal_table.source() == "shipped"
        # JAX 0.10.2: jax.random.normal(jax.random.PRNGKey(0), (3,)) -> [1.6226422, 2.0252647, -0.43359444]
        assert [hex(int(v)) for v in np.asarray(ns["y"]).view(np.uint32)] == ["0x3fcfb2bd", "0x40019df0", "0xbede0017"]
        assert type(ns["b"]) is type(ns["a"])   # host arrays, computed on the host
    finally:
        assert other.finish() == "done"
    assert devices._open_accelerator_scopes[0] == 0 and not devices.dispatch_hooks.claims_host_arrays


def test_a_measuring_coroutine_closed_outside_its_task_leaves_no_block_open(hook_calls):
    # an abandoned Timing task is collected as garbage: its coroutine is closed in whatever
    # context is current, where the block's contextvars token does not belong
    other = _Task(_on_webgpu_until_resumed())
    other.step()
    other.coro.close()   # (raised ValueError and left the block counted for the rest of the session)
    assert devices._open_accelerator_scopes[0] == 0 and not devices.dispatch_hooks.claims_host_arrays
    assert devices.configured_default_device() is None
    x = jnp.arange(4.0)
    assert np.asarray(x + x).tolist() == [0, 2, 4, 6] and tracing.eager_fast_path_ok() and _eager_plain()
    assert hook_calls == []


def test_the_timing_panes_webgpu_measurement_leaves_the_learners_run_on_the_fast_paths(hook_calls, fresh_normal_table):
    # the page's sequence: an example's WebGPU timing awaits its readbacks (here: suspends at its
    # first pause) while the learner runs code; then it finishes, or is abandoned for a newer run
    if "webgpu" not in analysis.available_backends():
        pytest.fail("no WebGPU adapter: tests need Mesa's lavapipe (python build.py test installs it)")

    def selu(x):
        return 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67)

    for abandoned in (False, True):
        measuring = _Task(analysis._measure(selu, (jnp.ones(16),), "webgpu", 3, analysis._ready_sync,
                                            pause=_suspend))
        assert measuring.step() == "waiting"
        try:
            assert devices._open_accelerator_scopes[0] == 1
            before = len(hook_calls)
            res = sandbox.run(LEARNER)
            assert res.error is None and res.namespace["fast"] is True, res.error
            assert hook_calls[before:] == []
            assert normal_table.source() == "shipped"
        finally:
            if abandoned:
                measuring.coro.close()
            else:
                out = measuring.finish()
        if not abandoned:
            assert out["backend"] == "webgpu" and out["eager"]["median"] > 0
        assert devices._open_accelerator_scopes[0] == 0 and not devices.dispatch_hooks.claims_host_arrays
        assert tracing.eager_fast_path_ok() and _eager_plain()


def test_flags_set_by_one_run_are_back_at_their_start_up_values_in_the_next():
    # a tutorial snippet pastes `jax.config.update("jax_threefry_partitionable", False)` to get its
    # old numbers, or puts every computation on WebGPU with jax_default_device; the next code the
    # learner runs starts as a fresh Python would
    res = sandbox.run("import jax\n"
                      "jax.config.update('jax_threefry_partitionable', False)\n"
                      "jax.config.update('jax_default_device', jax.devices('webgpu')[0])\n"
                      "jax.config.update('jax_check_tracer_leaks', True)\n")
    assert res.error is None, res.error
    try:
        res = sandbox.run("import jax\nfrom core._engine.tracing import tracing\n"
                          "keys = jax.random.split(jax.random.PRNGKey(0))\nfast = tracing.eager_fast_path_ok()\n")
        assert res.error is None, res.error
        # JAX 0.10.2 (jax_threefry_partitionable=True, the default):
        # jax.random.split(jax.random.PRNGKey(0)) -> [[1797259609, 2579123966], [928981903, 3453687069]]
        assert np.asarray(res.namespace["keys"]).tolist() == [[1797259609, 2579123966], [928981903, 3453687069]]
        assert res.namespace["fast"] is True and jax.config.jax_default_device is None
        assert jax.config.jax_check_tracer_leaks is False
    finally:
        sandbox.reset_user_flags()
