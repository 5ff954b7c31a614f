"""`WebGpuDevice` and `WebGpuArray`: a jax Array whose data lives in a GPU buffer.

`WebGpuArray` is an `Array` subclass, so every CPU code path still works: reading `_value`
copies the data back (synchronously where the host allows it) and caches it.
"""
from __future__ import annotations

import numpy as np

from ...tracing.array import Array, rebuild
from ...base.avals import ShapedArray
from ...base.devices import Device
from .runtime import runtime


class WebGpuDevice(Device):
    """Equality, hashing and `x.device()`'s TypeError come from the CPU device class."""
    platform = "webgpu"
    device_kind = "webgpu"

    def __init__(self, id: int = 0):
        super().__init__(id)

    def __repr__(self):
        return f"WebGpuDevice(id={self.id})"

    @property
    def description(self):
        return runtime().info["description"]

    def put(self, value, weak_type=False):
        """device_put onto this device."""
        from .dispatch import to_device
        return to_device(value, weak_type)


DEVICE = WebGpuDevice(0)


class WebGpuArray(Array):
    __slots__ = ("_buf", "_aval", "_host")

    def __init__(self, buf, aval: ShapedArray, host_value=None):
        self._buf = buf
        self._aval = aval
        self._host = host_value
        self.weak_type = aval.weak_type
        self._device = DEVICE

    @property
    def _value(self) -> np.ndarray:
        if self._host is None:
            a = self._aval
            self._host = runtime().read(self._buf, a.dtype, a.shape)
        return self._host

    @property
    def aval(self):
        return self._aval

    shape = property(lambda self: self._aval.shape)

    @property
    def dtype(self):
        dt = self._aval.dtype
        if dt.names is not None:  # typed PRNG keys: `key<fry>`, as on the CPU
            from ...libraries.random import KeyDType
            return KeyDType()
        return dt

    ndim = property(lambda self: len(self._aval.shape))
    size = property(lambda self: int(np.prod(self._aval.shape, dtype=np.int64)))
    nbytes = property(lambda self: self.size * self._aval.dtype.itemsize)
    itemsize = property(lambda self: self._aval.dtype.itemsize)

    def __len__(self):
        if not self._aval.shape:
            raise TypeError("len() of unsized object")
        return self._aval.shape[0]

    def delete(self):  # (docs3) as Array.delete; dispatch refuses a deleted array's missing buffer
        if self._buf is not None:
            from ...tracing.array import _DeletedBuffer
            self._host = _DeletedBuffer(self)
            self._buf = None

    def is_deleted(self):
        return self._buf is None

    def block_until_ready(self):
        runtime().wait()
        return self

    async def block_until_ready_async(self):
        await runtime().wait_async()
        return self

    async def _value_async(self) -> np.ndarray:
        if self._host is None:
            a = self._aval
            self._host = await runtime().read_async(self._buf, a.dtype, a.shape)
        return self._host

    def __reduce__(self):
        return (rebuild, (np.asarray(self._value), self.weak_type))

    # typed PRNG keys compare by their key words (JAX: key == key -> Array(True, dtype=bool))
    def __eq__(self, other):
        if self._aval.dtype.names is None:
            return super().__eq__(other)
        from ...libraries import random
        from ...libraries.numpy import all as all_
        if not isinstance(other, Array) or getattr(other, "_aval", other.aval).dtype.names is None:
            return NotImplemented
        return all_(random.key_data(self) == random.key_data(other), axis=-1)

    def __ne__(self, other):
        if self._aval.dtype.names is None:
            return super().__ne__(other)
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else ~eq

    __hash__ = Array.__hash__

    def __deepcopy__(self, memo):
        return self


# JAX arrays are `ArrayImpl` whatever their device (see core/_engine/tracing/array.py)
WebGpuArray.__name__ = WebGpuArray.__qualname__ = "ArrayImpl"
WebGpuArray.__module__ = "jaxlib._jax"
