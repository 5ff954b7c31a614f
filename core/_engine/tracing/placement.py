"""jax.device_put / device_get: placing arrays (and pytrees of them) on a device and reading them
back. They sit with the arrays, below the transformations, so that `Array.to_device` can use them
without importing the api (which re-exports them)."""
from __future__ import annotations

import numpy as np

from ..base import dtypes
from .array import Array, to_numpy
from .tracing import Tracer
from ..base.tree_util import tree_flatten, tree_map, tree_unflatten


def device_put(x, device=None, *, src=None, donate=False, may_alias=None):
    from ..base.sharding import PartitionSpec, Sharding, SingleDeviceSharding, check_divisible, concrete_sharding, \
        get_abstract_mesh
    if isinstance(device, PartitionSpec) and get_abstract_mesh().empty:
        raise ValueError("Please set a mesh via `jax.set_mesh` if a PartitionSpec is passed to device_put")
    named = concrete_sharding("jax.device_put", device)   # values stay whole; the array carries the sharding
    if isinstance(device, SingleDeviceSharding):
        device = next(iter(device.device_set))
    elif named is not None:
        device = named
    elif isinstance(device, (PartitionSpec, Sharding)):  # another placement object: the default device
        device = None

    def put(v):
        if isinstance(v, Tracer):
            return v
        if named is not None:
            check_divisible("One of device_put args", named, np.shape(v))
        elif type(v) is Array and device is None:
            return v
        if hasattr(device, "put"):  # an accelerator device (WebGPU): upload into its memory
            return device.put(v, dtypes.dtype_and_weak(v)[1])
        dt, weak = dtypes.dtype_and_weak(v)
        return Array(np.array(to_numpy(v)), weak, device if named is not None or not hasattr(device, "device_set")
                     else None)
    return tree_map(put, x)


def device_get(x):
    def get(v):
        if isinstance(v, Array):
            return np.asarray(v._value)
        return v
    return tree_map(get, x)


async def device_get_async(x):
    """`await jax.device_get_async(x)`: like device_get, without blocking on device readback
    (the only way to read WebGPU arrays on a browser's main thread)."""
    async def get(v):
        if hasattr(v, "_value_async"):
            return np.asarray(await v._value_async())
        return np.asarray(v._value) if isinstance(v, Array) else v
    leaves, treedef = tree_flatten(x)
    return tree_unflatten(treedef, [await get(v) for v in leaves])
