"""Devices. The CPU backend offers `jax_num_cpu_devices` virtual devices (GRADPAD_DEVICES=8),
like XLA's host-platform device count; pmap maps over them."""
from __future__ import annotations

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


class CpuDevice(Device):
    pass


_cpu_devices: list = []


def cpu_devices() -> list:
    n = int(config.read("jax_num_cpu_devices"))
    while len(_cpu_devices) < n:
        _cpu_devices.append(CpuDevice(len(_cpu_devices)))
    return _cpu_devices[:n]


_backends: dict = {"cpu": cpu_devices}


def register_backend(platform: str, devices_fn) -> None:
    """Backends (e.g. WebGPU) register a function returning their devices (or raising RuntimeError)."""
    _backends[platform] = devices_fn


def devices(backend: str | None = None) -> list:
    if backend is None:
        backend = config.read("jax_platforms").split(",")[0] or "cpu"
    if backend not in _backends:
        raise RuntimeError(f"Unknown backend {backend!r}. Available backends: {sorted(_backends)}")
    return list(_backends[backend]())


def local_devices(process_index=None, backend=None) -> list:
    return devices(backend)


def device_count(backend=None) -> int:
    return len(devices(backend))


local_device_count = device_count


def default_device():
    dev = config.read("jax_default_device")
    return dev if dev is not None else devices()[0]


def default_backend() -> str:
    return default_device().platform
