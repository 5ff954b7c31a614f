# face: re-exports core._engine.api.profiler (written by tools/move_to_layers.py; no logic here)
"""jax.profiler. The annotations (TraceAnnotation, StepTraceAnnotation, annotate_function) work: on
a CPU without a profiler they mark nothing and change nothing, as in JAX when no trace is being
taken. Taking a trace or a device memory profile needs XLA's profiler, which gradpad does not
have: those raise NotImplementedError saying so (docs/compatibility.md lists them).

`jax.profiler`'s public face: the implementation is core/_engine/api/profiler.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.api.profiler import (ProfileData as ProfileData, ProfileEvent as ProfileEvent,
    ProfileOptions as ProfileOptions, ProfilePlane as ProfilePlane,
    StepTraceAnnotation as StepTraceAnnotation, TraceAnnotation as TraceAnnotation,
    annotate_function as annotate_function, device_memory_profile as device_memory_profile,
    register_subprocess as register_subprocess, save_device_memory_profile as save_device_memory_profile,
    start_server as start_server, start_trace as start_trace, stop_server as stop_server,
    stop_trace as stop_trace, trace as trace)
from core._engine.base._public import missing_attribute as _missing_attribute
__getattr__ = _missing_attribute(__name__)
