"""Device selection: jax.devices, and `with jax.default_device(...)` scoping."""
import asyncio

import core as jax
from tests.asyncio_helper import run_coroutine
import importlib

devmod = importlib.import_module("core._engine.base.devices")  # `core._engine.base.devices` the attribute is jax.devices()


def test_default_device_scope_is_local_to_its_async_task():
    # JAX's default_device is thread/context-local. The playground times WebGPU in a coroutine
    # that awaits readbacks; while it waits, the learner's next run must still default to CPU.
    other_device = devmod.CpuDevice(5)
    seen = {}

    async def timing_task():
        with jax.default_device(other_device):
            seen["inside"] = devmod.default_device()
            await asyncio.sleep(0.02)
            seen["inside_after_await"] = devmod.default_device()

    async def learner_run():
        await asyncio.sleep(0.01)  # runs while timing_task is suspended inside its `with`
        seen["other_task"] = devmod.default_device()

    async def main():
        await asyncio.gather(timing_task(), learner_run())

    run_coroutine(main)
    assert seen["inside"] is other_device
    assert seen["inside_after_await"] is other_device
    assert seen["other_task"] == jax.devices()[0]
    assert devmod.default_device() == jax.devices()[0]


def test_default_device_block_restores_on_exit_and_config_still_works():
    dev = devmod.CpuDevice(3)
    with jax.default_device(dev):
        assert devmod.default_device() is dev
    assert devmod.default_device() == jax.devices()[0]
    jax.config.update("jax_default_device", dev)
    try:
        assert devmod.default_device() is dev
    finally:
        jax.config.update("jax_default_device", None)
