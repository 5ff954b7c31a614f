"""`jax.config`: global flags, settable by `config.update(name, value)` or environment variables."""
from __future__ import annotations

import os


def _env_bool(name: str, default: bool) -> bool:
    v = os.environ.get(name)
    if v is None:
        return default
    return v.strip().lower() in ("1", "true", "yes", "on")


class Config:
    """Holds JAX's named flags. Attribute access mirrors `jax.config.jax_enable_x64`."""

    _defaults = {
        "jax_enable_x64": lambda: _env_bool("JAX_ENABLE_X64", False),
        "jax_threefry_partitionable": lambda: _env_bool("JAX_THREEFRY_PARTITIONABLE", True),
        "jax_debug_nans": lambda: _env_bool("JAX_DEBUG_NANS", False),
        "jax_debug_infs": lambda: _env_bool("JAX_DEBUG_INFS", False),
        "jax_disable_jit": lambda: _env_bool("JAX_DISABLE_JIT", False),
        "jax_platforms": lambda: os.environ.get("JAX_PLATFORMS", "cpu") or "cpu",
        "jax_default_device": lambda: None,
        "jax_num_cpu_devices": lambda: int(os.environ.get("GRADPAD_DEVICES", "1")),
        "jax_numpy_rank_promotion": lambda: "allow",
        "jax_default_matmul_precision": lambda: None,
        "jax_log_compiles": lambda: False,
    }

    def __init__(self):
        object.__setattr__(self, "_values", {k: f() for k, f in self._defaults.items()})
        object.__setattr__(self, "_listeners", [])

    def update(self, name: str, value) -> None:
        if name not in self._values:
            raise AttributeError(f"Unrecognized config option: {name}")
        self._values[name] = value
        for fn in self._listeners:
            fn(name, value)

    def read(self, name: str):
        return self._values[name]

    def reset(self) -> None:
        """Back to defaults (tests use this between cases)."""
        for k, f in self._defaults.items():
            self.update(k, f())

    def on_change(self, fn) -> None:
        self._listeners.append(fn)

    def __getattr__(self, name):
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        if name == "x64_enabled":
            return values["jax_enable_x64"]
        raise AttributeError(f"Unrecognized config option: {name}")

    def __setattr__(self, name, value):
        self.update(name, value)

    def parse_flags_with_absl(self):  # tutorials call this; nothing to parse here
        return None


config = Config()
