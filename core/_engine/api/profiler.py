"""jax.profiler. The annotations (TraceAnnotation, StepTraceAnnotation, annotate_function) work: on
a CPU without a profiler they mark nothing and change nothing, as in JAX when no trace is being
taken. Taking a trace or a device memory profile needs XLA's profiler, which gradpad does not
have: those raise NotImplementedError saying so (docs/compatibility.md lists them)."""
from __future__ import annotations

import contextlib
import functools

from ..base._public import missing_attribute

_WHY = ("gradpad has no XLA profiler (there is no compiled device program to profile). Time Python code "
        "with time.perf_counter(), or look at what jit runs with GRADPAD_DEBUG=2 and jax.make_jaxpr.")


def _unavailable(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(f"jax.profiler.{name}: {_WHY}")
    fn.__name__ = fn.__qualname__ = name
    return fn


class TraceAnnotation:
    """`with TraceAnnotation(name, **kwargs):` names a region in a profiler trace (none is taken here)."""

    def __init__(self, name: str = "", **kwargs):
        self.name, self.kwargs = name, kwargs

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class StepTraceAnnotation(TraceAnnotation):
    """A TraceAnnotation marking one training step (`step_num=`)."""

    def __init__(self, name: str, **kwargs):
        super().__init__(name, **kwargs)


def annotate_function(func, name=None, **decorator_kwargs):
    """`func` wrapped in a TraceAnnotation named `name` (default: the function's name)."""
    label = name or getattr(func, "__qualname__", getattr(func, "__name__", "function"))

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with TraceAnnotation(label, **decorator_kwargs):
            return func(*args, **kwargs)
    return wrapper


start_trace = _unavailable("start_trace")
stop_trace = _unavailable("stop_trace")
start_server = _unavailable("start_server")
stop_server = _unavailable("stop_server")
device_memory_profile = _unavailable("device_memory_profile")
save_device_memory_profile = _unavailable("save_device_memory_profile")
register_subprocess = _unavailable("register_subprocess")


@contextlib.contextmanager
def trace(log_dir, create_perfetto_link=False, create_perfetto_trace=False, profiler_options=None):
    """Taking a profiler trace needs XLA's profiler: NotImplementedError (see the module doc)."""
    raise NotImplementedError(f"jax.profiler.trace: {_WHY}")
    yield  # (a generator, so `with jax.profiler.trace(...)` raises on entry)


class _ProfilerData:
    """ProfileData / ProfileEvent / ProfilePlane / ProfileOptions read XLA profiler output."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"jax.profiler.{type(self).__name__}: {_WHY}")


ProfileData = type("ProfileData", (_ProfilerData,), {})
ProfileEvent = type("ProfileEvent", (_ProfilerData,), {})
ProfilePlane = type("ProfilePlane", (_ProfilerData,), {})
ProfileOptions = type("ProfileOptions", (_ProfilerData,), {})

__getattr__ = missing_attribute(__name__)
