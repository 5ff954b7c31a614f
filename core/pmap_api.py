"""`jax.pmap` over the CPU backend's virtual devices.

The numpy backend runs every device in one process, so pmap is `jit(vmap(f))` over the leading
(device) axis, with the same named-axis collectives, plus pmap's own rules: the mapped size may
not exceed the device count, `static_broadcasted_argnums` are compile-time constants, and every
output carries the leading device axis. The device count is `jax_num_cpu_devices` (default 1,
`GRADPAD_DEVICES=8` or `jax.config.update('jax_num_cpu_devices', 8)`).
"""
from __future__ import annotations

import functools

from .api import jit, vmap
from .devices import device_count
from .tree_util import tree_flatten, tree_leaves

__all__ = ["pmap"]


def _too_many_devices(n: int, available: int) -> ValueError:
    return ValueError(
        f"compiling computation that requires {n} logical devices, but only {available} XLA devices are "
        f"available (num_replicas={n})\nHint: the leading axis of pmap's mapped inputs is the device axis; "
        f"reshape your data to ({available}, -1, ...) or raise the device count with "
        f"jax.config.update('jax_num_cpu_devices', {n}) (or GRADPAD_DEVICES={n}) before first use.")


def pmap(fun=None, axis_name=None, *, in_axes=0, out_axes=0, static_broadcasted_argnums=(), devices=None,
         backend=None, axis_size=None, donate_argnums=(), global_arg_shapes=None):
    """Map `fun` over the leading axis of its inputs, one slice per (virtual) device."""
    if fun is None:
        return functools.partial(pmap, axis_name=axis_name, in_axes=in_axes, out_axes=out_axes,
                                 static_broadcasted_argnums=static_broadcasted_argnums, devices=devices,
                                 backend=backend, axis_size=axis_size, donate_argnums=donate_argnums)
    if isinstance(static_broadcasted_argnums, int):
        static_broadcasted_argnums = (static_broadcasted_argnums,)
    static = tuple(sorted(int(i) for i in static_broadcasted_argnums))
    cache: dict = {}

    @functools.wraps(fun)
    def pmapped(*args, **kwargs):
        statics = tuple(args[i] for i in static if i < len(args))
        dyn = [a for i, a in enumerate(args) if i not in static]
        axes = in_axes
        if isinstance(axes, list):
            axes = tuple(axes)
        if isinstance(axes, tuple) and static and len(axes) == len(args):
            axes = tuple(a for i, a in enumerate(axes) if i not in static)
        _check_size(dyn, axes, axis_size, devices)
        key = (statics, len(args), tuple(sorted(kwargs)))
        f = cache.get(key)
        if f is None:
            def _fun(*dyn_args, **kw):  # the name JAX gives the jitted pmap body
                it = iter(dyn_args)
                full = [statics[static.index(i)] if i in static else next(it) for i in range(len(args))]
                return fun(*full, **kw)
            f = cache[key] = jit(vmap(_fun, in_axes=axes, out_axes=out_axes, axis_name=axis_name,
                                      axis_size=axis_size))
        return f(*dyn, **kwargs)
    pmapped.lower = None
    return pmapped


def _check_size(dyn_args, axes, axis_size, devices):
    """pmap maps one slice per device: refuse sizes the device set cannot hold, as XLA does."""
    if isinstance(axes, tuple):
        leaves = [x for a, arg in zip(axes, dyn_args) if a is not None for x in tree_leaves(arg)]
        axis = next((a for a in axes if isinstance(a, int)), 0)
    elif axes is None:
        leaves, axis = [], 0
    else:
        leaves, axis = tree_leaves(dyn_args), axes
    sizes = {getattr(x, "shape", ())[axis] for x in leaves if len(getattr(x, "shape", ())) > axis}
    n = axis_size if axis_size is not None else (max(sizes) if sizes else None)
    if n is None:
        return
    available = len(devices) if devices is not None else device_count()
    if n > available:
        raise _too_many_devices(n, available)
