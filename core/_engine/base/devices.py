"""Devices. The CPU backend offers `jax_num_cpu_devices` virtual devices (GRADPAD_DEVICES=8),
like XLA's host-platform device count; pmap maps over them."""
from __future__ import annotations

import contextvars
import os
import re

from .config import config


class Device:
    platform = "cpu"
    device_kind = "cpu"

    def __init__(self, id: int):
        self.id = id
        self.process_index = 0

    def __repr__(self):
        return f"CpuDevice(id={self.id})"

    def __eq__(self, other):
        return type(other) is type(self) and other.id == self.id

    def __hash__(self):
        return hash((type(self), self.id))

    def __call__(self, *args, **kwargs):
        """`x.device()`: a method in old JAX, a property now; calling it fails as in JAX 0.10.2."""
        raise TypeError("'Device' object is not callable")


class CpuDevice(Device):
    pass


_cpu_devices: list = []

# Backends that have handed out devices, as `jax._src.xla_bridge._backends`: chex's
# set_n_cpu_devices reads it to tell whether XLA_FLAGS can still choose the host device count.
started_backends: dict = {}
_XLA_DEVICE_COUNT = re.compile(r"-{0,2}xla_force_host_platform_device_count=(\d+)")


def _start_cpu_backend() -> None:
    """XLA reads `--xla_force_host_platform_device_count=N` from XLA_FLAGS when the CPU backend starts;
    it decides the count unless jax_num_cpu_devices was set."""
    found = _XLA_DEVICE_COUNT.search(os.environ.get("XLA_FLAGS", ""))
    if found and config.read("jax_num_cpu_devices") == config._defaults["jax_num_cpu_devices"]():
        config.update("jax_num_cpu_devices", int(found.group(1)))
    started_backends["cpu"] = cpu_devices


def cpu_devices() -> list:
    if "cpu" not in started_backends:
        _start_cpu_backend()
    n = int(config.read("jax_num_cpu_devices"))
    while len(_cpu_devices) < n:
        _cpu_devices.append(CpuDevice(len(_cpu_devices)))
    return _cpu_devices[:n]


_backends: dict = {"cpu": cpu_devices}


# Accelerator backends install these to run eager primitives / top-level jitted calls themselves;
# they return NotImplemented to leave the work to the numpy backend.
class dispatch_hooks:
    eager = None  # (prim, vals, params) -> outputs | NotImplemented
    jit = None    # (closed_jaxpr, consts, flat_args) -> [Array] | NotImplemented
    jit_call = None  # [webgpu] (jitted, args, kwargs) -> result | NotImplemented, before any flattening
    # True when a hook may want host Arrays somewhere: one is installed and new computations may
    # default to an accelerator (jax_platforms, jax_default_device, or an open `default_device`
    # block in any task). Only then may the eager and jit fast paths, which run plain host Arrays
    # in numpy, have to stand aside; they ask `claims_host_arrays_here()` for this task's answer
    # (an accelerator's own arrays never take them: they check for the exact Array type).
    claims_host_arrays = False


# `with default_device(<accelerator>)` blocks open, in any task. A block is local to its task
# (contextvars): the Timing pane keeps one open on WebGPU across awaited readbacks, for seconds,
# while the learner's next run goes on in another task, on the CPU and its fast paths.
_open_accelerator_scopes = [0]
_claims_everywhere = [False]   # jax_platforms or jax_default_device names an accelerator (all tasks)


def refresh_dispatch_claims() -> None:
    """Recompute dispatch_hooks.claims_host_arrays (after a hook is installed or the default moves)."""
    hooked = dispatch_hooks.eager is not None
    default = config.read("jax_default_device")
    everywhere = ((default is not None and getattr(default, "platform", "cpu") != "cpu")
                  or config.read("jax_platforms").split(",")[0].strip() not in ("cpu", ""))
    _claims_everywhere[0] = hooked and everywhere
    dispatch_hooks.claims_host_arrays = hooked and (everywhere or _open_accelerator_scopes[0] > 0)


def claims_host_arrays_here() -> bool:
    """Whether an accelerator's hook may want this task's host Arrays (call it only where
    dispatch_hooks.claims_host_arrays is True: that cheap test is False far more often): the
    configuration says so, or this task is inside a `default_device(<accelerator>)` block. Blocks
    open in other tasks leave this one's eager ops on the CPU's fast paths."""
    if _claims_everywhere[0]:
        return True
    scoped = _scoped_default.get()
    return scoped is not None and getattr(scoped, "platform", "cpu") != "cpu"

# Backends imported on first use (so `import core` stays numpy-only).
_LAZY_BACKENDS = {"webgpu": "core._engine.backends.webgpu"}


def _load_backend(platform: str) -> None:
    if platform not in _backends and platform in _LAZY_BACKENDS:
        import importlib
        importlib.import_module(_LAZY_BACKENDS[platform])


def _on_config(name, value) -> None:
    if name == "jax_platforms" and isinstance(value, str):
        for p in value.split(","):
            _load_backend(p.strip())
    elif name == "jax_default_device" and value is not None:
        _load_backend(getattr(value, "platform", ""))
    if name in ("jax_platforms", "jax_default_device"):
        refresh_dispatch_claims()


config.on_change(_on_config)


def load_configured_backends() -> None:
    """Load the backends that `jax_platforms` names before any config.update (JAX_PLATFORMS in
    the environment); called once `core` has finished importing."""
    for p in config.read("jax_platforms").split(","):
        if p.strip() and p.strip() != "cpu":
            try:
                _load_backend(p.strip())
            except ImportError:  # reported when a device is asked for
                pass


def register_backend(platform: str, devices_fn) -> None:
    """Backends (e.g. WebGPU) register a function returning their devices (or raising RuntimeError)."""
    _backends[platform] = devices_fn


def devices(backend: str | None = None) -> list:
    if backend is None:
        backend = config.read("jax_platforms").split(",")[0] or "cpu"
    _load_backend(backend)
    if backend not in _backends:
        raise RuntimeError(f"Unknown backend {backend!r}. Available backends: {sorted(_backends)}")
    return list(_backends[backend]())


def local_devices(process_index=None, backend=None) -> list:
    return devices(backend)


def device_count(backend=None) -> int:
    return len(devices(backend))


local_device_count = device_count


_CURRENT = object()


def default_device(device=_CURRENT):
    """`default_device()`: the device new computations go to. `with jax.default_device(dev):`
    (JAX's context manager) makes `dev` the default inside the block."""
    if device is not _CURRENT:
        return _DefaultDevice(device)
    dev = configured_default_device()
    return dev if dev is not None else devices()[0]


# Like JAX's, the `with jax.default_device(...)` scope is local to its thread/async task: a
# coroutine timing work on WebGPU (awaiting readbacks) must not move the learner's next run there.
_scoped_default = contextvars.ContextVar("gradpad_default_device", default=None)


def configured_default_device():
    """The device a `with default_device(...)` block or `jax_default_device` asks for, or None."""
    dev = _scoped_default.get()
    return dev if dev is not None else config.read("jax_default_device")


class _DefaultDevice:
    def __init__(self, device):
        self.device = device

    def __enter__(self):
        platform = getattr(self.device, "platform", "")
        _load_backend(platform)
        self._token = _scoped_default.set(self.device)
        self._counted = platform not in ("cpu", "")
        if self._counted:
            _open_accelerator_scopes[0] += 1
            refresh_dispatch_claims()
        return self.device

    def __exit__(self, *exc):
        # the count first: a suspended coroutine closed outside its task (an abandoned Timing
        # task collected as garbage) exits in another context, where reset() raises ValueError;
        # the block is over either way, and a count left behind would hold every task off the
        # fast paths for the rest of the session
        if self._counted:
            self._counted = False
            _open_accelerator_scopes[0] -= 1
            refresh_dispatch_claims()
        try:
            _scoped_default.reset(self._token)
        except ValueError:   # another context: the block's own context is gone with its task
            pass


def default_backend() -> str:
    return default_device().platform
