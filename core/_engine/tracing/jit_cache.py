"""jit's trace cache belongs to the function, not to the wrapper `jax.jit` returns.

As in JAX, `jax.jit(f)(4.)` followed by `jax.jit(f)(5.)` traces `f` once: the traces (and their
compiled code) hang off `f` itself in a weak table, keyed by the jit options, so they live
exactly as long as `f` does. This is what makes JAX's "stale global" gotcha happen here too.
Every key also carries the trace context: the config flags that change what a trace produces.
"""
from __future__ import annotations

import weakref

from ..base.config import config

# flags whose value changes the jaxpr a function traces to
_CONTEXT_FLAGS = ("jax_enable_x64", "jax_threefry_partitionable", "jax_numpy_rank_promotion",
                  "jax_default_matmul_precision", "jax_default_prng_impl")


def _read_context():
    return tuple(config.read(k) for k in _CONTEXT_FLAGS)


context = [_read_context()]   # context[0]: the current trace context (kept current by config)


def _on_config(name, value) -> None:
    if name in _CONTEXT_FLAGS:
        context[0] = _read_context()


config.on_change(_on_config)


class TraceCache:
    """One function's traces under one set of jit options: signature -> trace, and the eager
    fast path's argument key -> compiled code."""
    __slots__ = ("traces", "fast")

    def __init__(self):
        self.traces: dict = {}
        self.fast: dict = {}

    def clear(self):
        self.traces.clear()
        self.fast.clear()


_by_function: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def cache_for(fun, options) -> TraceCache:
    """The cache shared by every jit of `fun` with these options (a private one when `fun` can
    be neither weakly referenced nor hashed, e.g. an unhashable callable object)."""
    try:
        per_options = _by_function.get(fun)
        if per_options is None:
            per_options = _by_function[fun] = {}
    except TypeError:
        return TraceCache()
    cache = per_options.get(options)
    if cache is None:
        cache = per_options[options] = TraceCache()
    return cache
