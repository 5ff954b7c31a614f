"""`jax.config`: global flags, settable by `config.update(name, value)` or environment variables."""
from __future__ import annotations

import os
import sys
import types


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
        "jax_default_prng_impl": lambda: os.environ.get("JAX_DEFAULT_PRNG_IMPL", "threefry2x32"),
        "jax_legacy_prng_key": lambda: "allow",
        "jax_traceback_filtering": lambda: "auto",
        "jax_enable_checks": lambda: False,
        "jax_check_tracer_leaks": lambda: False,
        "jax_explain_cache_misses": lambda: False,
        "jax_compilation_cache_dir": lambda: None,
    }
    # Flags current JAX removed but the tutorials still set: old name -> current name.
    _renamed = {"jax_platform_name": "jax_platforms"}

    def __init__(self):
        object.__setattr__(self, "_values", {k: f() for k, f in self._defaults.items()})
        object.__setattr__(self, "_listeners", [])

    def update(self, name: str, value) -> None:
        if name in self._renamed:
            from .compat import warn_legacy
            new = self._renamed[name]
            warn_legacy(f"jax.config.update('{name}', ...)", f"jax.config.update('{new}', ...)", stacklevel=2)
            name = new
        if name == "jax_default_prng_impl" and value != "threefry2x32":
            raise NotImplementedError(f"PRNG implementation {value!r}: gradpad implements only JAX's "
                                      "default, 'threefry2x32'.")
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


class _ConfigModule(types.ModuleType):
    """`from jax.config import config` is the old spelling (the module is gone in current JAX):
    it still works, with a one-time warning naming `jax.config`."""

    @property
    def config(self):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        package = __name__.rpartition(".")[0]
        if not (caller == package or caller.startswith(package + ".")):
            from .compat import warn_legacy
            warn_legacy("from jax.config import config", "import jax; jax.config.update(...)", stacklevel=2)
        return _CONFIG


_CONFIG = config
sys.modules[__name__].__class__ = _ConfigModule
