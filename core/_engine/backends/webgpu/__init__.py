"""The WebGPU backend: jaxprs compiled to fused WGSL kernels, run through wgpu-py (CPython) or
`navigator.gpu` (Pyodide). Importing it registers the 'webgpu' platform with `core._engine.base.devices`.

    jax.devices('webgpu')            -> [WebGpuDevice(id=0)]  (RuntimeError naming why, without one)
    jax.device_put(x, dev)           -> an array living in a GPU buffer
    jax.config.update('jax_platforms', 'webgpu')   -> computations default to the GPU
    GRADPAD_DEBUG=1 logs kernel launches; =2 also prints each kernel's WGSL and its equations.
"""
from __future__ import annotations

from ...base.devices import register_backend
from ...api.api import device_get_async
from .device import DEVICE, WebGpuArray, WebGpuDevice
from .dispatch import install
from .planning import plan_kernels
from .runtime import init_async, runtime


def webgpu_devices() -> list:
    runtime()  # raises RuntimeError("Unable to initialize backend 'webgpu': <reason>")
    return [DEVICE]


register_backend("webgpu", webgpu_devices)
install()

__all__ = ["init_async", "plan_kernels", "DEVICE", "WebGpuArray", "WebGpuDevice", "device_get_async", "runtime", "webgpu_devices"]
