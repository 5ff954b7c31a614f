"""Every golden case recorded from real JAX, run again with the WebGPU backend as the default
device (wgpu-py on lavapipe): the results must still match JAX's, within the case's tolerance.

This is the WebGPU backend's widest check: it found outer-product broadcasting, NaN tests,
integer division by zero and the non-partitionable PRNG layout getting wrong answers.
"""
from __future__ import annotations

import importlib.util
import os

import pytest

_spec = importlib.util.spec_from_file_location("gradpad_golden_runner",
                                               os.path.join(os.path.dirname(__file__), "test_golden.py"))
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)
G = golden.G

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def webgpu_engine():
    from tools.sysdeps import ensure_vulkan
    ensure_vulkan()
    ns, reset, top = golden._engine()
    assert top is not None
    top.devices("webgpu")  # raises, naming why, without an adapter

    def reset_on_gpu():
        reset()
        top.config.update("jax_platforms", "webgpu")

    def reset_on_cpu():
        reset()
        top.config.update("jax_platforms", "cpu")
    yield ns, reset_on_cpu, reset_on_gpu
    reset_on_cpu()


@pytest.mark.parametrize("case", golden.CASES, ids=[c["name"] for c in golden.CASES])
def test_golden_on_webgpu(case, webgpu_engine):
    ns, reset_on_cpu, reset_on_gpu = webgpu_engine
    golden.check_case(case, ns, reset_on_gpu, reset_on_cpu, where=" on WebGPU")
