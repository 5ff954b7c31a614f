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
        "jax_numpy_dtype_promotion": lambda: "standard",
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
        if name in _TRANSFER_GUARDS and value is not None and value not in _GUARD_LEVELS:
            raise ValueError(f"new enum value must be None or in {list(_GUARD_LEVELS)}, got {value} of type "
                             f"{type(value)}.")
        if value in _UNSUPPORTED_SETTINGS.get(name, ()):
            raise NotImplementedError(f"jax.config.update({name!r}, {value!r}) is not supported by gradpad: "
                                      f"{_UNSUPPORTED_SETTINGS[name][value]}")
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


# ---- special2 area (issue 11): the remaining flags of JAX 0.10.2, with its defaults ----------
# gradpad has one memory space (no host<->device transfers to guard), no XLA compilation, one
# thread of tracing and no vma/sharding-in-types, so these flags change nothing here; settings that
# would ask for a check gradpad does not perform raise instead of being ignored.
Config._defaults.update({
    "jax_allow_f16_reductions": lambda: True,
    "jax_array_garbage_collection_guard": lambda: None,
    "jax_auto_pcast": lambda: True,
    "jax_debug_key_reuse": lambda: False,
    "jax_enable_custom_prng": lambda: False,
    "jax2tf_associative_scan_reductions": lambda: False,
    "jax_no_execution": lambda: False,
    "jax_no_tracing": lambda: False,
    "jax_remove_size_one_mesh_axis_from_type": lambda: False,
    "jax_softmax_custom_jvp": lambda: False,
    "jax_thread_guard": lambda: False,
    "jax_transfer_guard": lambda: None,
    "jax_transfer_guard_host_to_device": lambda: None,
    "jax_transfer_guard_device_to_host": lambda: None,
    "jax_transfer_guard_device_to_device": lambda: None,
})
_UNSUPPORTED_SETTINGS = {
    "jax_debug_key_reuse": {True: "it does not track PRNG key reuse (no KeyReuseError); split keys explicitly."},
    "jax_no_execution": {True: "it does not refuse execution; remove the setting."},
    "jax_no_tracing": {True: "it does not refuse retracing; remove the setting."},
    "jax_thread_guard": {True: "it does not check which thread uses a mesh; remove the setting."},
}

_GUARD_LEVELS = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")
_TRANSFER_GUARDS = ("jax_transfer_guard", "jax_transfer_guard_host_to_device", "jax_transfer_guard_device_to_host",
                    "jax_transfer_guard_device_to_device")

config = Config()


# Allowed values of the enum-valued flags, checked when a context manager sets one.
_ENUM_FLAGS = {"jax_numpy_dtype_promotion": ("NumpyDtypePromotion", ("standard", "strict")),
               "jax_numpy_rank_promotion": ("NumpyRankPromotion", ("allow", "warn", "raise"))}


class State:
    """A flag as JAX exposes it at top level: `jax.enable_x64(True)` is a context manager that
    sets `jax_enable_x64` inside the `with` block and restores it after; `.value` reads it."""

    def __init__(self, flag: str):
        self.flag = flag

    @property
    def value(self):
        return config.read(self.flag)

    def __call__(self, new_value=True):
        if self.flag in _ENUM_FLAGS:
            enum_name, allowed = _ENUM_FLAGS[self.flag]
            if new_value not in allowed:
                raise ValueError(f"{new_value!r} is not a valid {enum_name}")
        return _StateContext(self.flag, new_value)

    def __repr__(self):
        return f"State({self.flag}={self.value!r})"


class _StateContext:
    def __init__(self, flag, value):
        self.flag, self.new = flag, value

    def __enter__(self):
        self.prev = config.read(self.flag)
        config.update(self.flag, self.new)

    def __exit__(self, *exc):
        config.update(self.flag, self.prev)
        return False

    def __call__(self, fn):  # also a decorator, as JAX's are
        import functools

        @functools.wraps(fn)
        def wrapped(*a, **k):
            with _StateContext(self.flag, self.new):
                return fn(*a, **k)
        return wrapped


# jax.<name>: the flag it scopes
STATE_FLAGS = {
    "enable_x64": "jax_enable_x64", "debug_nans": "jax_debug_nans", "debug_infs": "jax_debug_infs",
    "log_compiles": "jax_log_compiles", "default_matmul_precision": "jax_default_matmul_precision",
    "threefry_partitionable": "jax_threefry_partitionable", "check_tracer_leaks": "jax_check_tracer_leaks",
    "checking_leaks": "jax_check_tracer_leaks", "enable_checks": "jax_enable_checks",
    "explain_cache_misses": "jax_explain_cache_misses", "legacy_prng_key": "jax_legacy_prng_key",
    "default_prng_impl": "jax_default_prng_impl", "numpy_rank_promotion": "jax_numpy_rank_promotion",
    "numpy_dtype_promotion": "jax_numpy_dtype_promotion",
    # special2 area (issue 11)
    "allow_f16_reductions": "jax_allow_f16_reductions",
    "array_garbage_collection_guard": "jax_array_garbage_collection_guard", "auto_pcast": "jax_auto_pcast",
    "debug_key_reuse": "jax_debug_key_reuse", "enable_custom_prng": "jax_enable_custom_prng",
    "jax2tf_associative_scan_reductions": "jax2tf_associative_scan_reductions",
    "no_execution": "jax_no_execution", "no_tracing": "jax_no_tracing",
    "remove_size_one_mesh_axis_from_type": "jax_remove_size_one_mesh_axis_from_type",
    "softmax_custom_jvp": "jax_softmax_custom_jvp", "thread_guard": "jax_thread_guard",
    "transfer_guard_host_to_device": "jax_transfer_guard_host_to_device",
    "transfer_guard_device_to_host": "jax_transfer_guard_device_to_host",
    "transfer_guard_device_to_device": "jax_transfer_guard_device_to_device",
}


class _ConfigModule(types.ModuleType):
    """`from jax.config import config` is the old spelling (the module is gone in current JAX):
    it still works, with a one-time warning naming `jax.config`."""

    @property
    def config(self):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        package = __name__.partition(".")[0]   # the engine's own imports (core.*) do not warn
        if not (caller == package or caller.startswith(package + ".")):
            from .compat import warn_legacy
            warn_legacy("from jax.config import config", "import jax; jax.config.update(...)", stacklevel=2)
        return _CONFIG


_CONFIG = config
sys.modules[__name__].__class__ = _ConfigModule


# ---- special2 area (issue 11): jax.transfer_guard -------------------------------------------------
class transfer_guard:  # noqa: N801  (JAX's name: a context manager)
    """`with jax.transfer_guard('disallow'):` sets the level of every kind of transfer. gradpad keeps
    every array in one memory space, so no transfer ever happens and no guard ever fires."""

    def __init__(self, new_val):
        self.new = new_val

    def __enter__(self):
        self.prev = [config.read(f) for f in _TRANSFER_GUARDS]
        for f in _TRANSFER_GUARDS:
            config.update(f, self.new)

    def __exit__(self, *exc):
        for f, v in zip(_TRANSFER_GUARDS, self.prev):
            config.update(f, v)
        return False
