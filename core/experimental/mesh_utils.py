"""`jax.experimental.mesh_utils`: device arrays shaped as a mesh."""
from __future__ import annotations

import numpy as np

from .._engine.base.devices import devices as _devices


def create_device_mesh(mesh_shape, devices=None, *, contiguous_submeshes=False, allow_split_physical_axes=False):
    """The devices (all of them by default) as an array of shape `mesh_shape`."""
    devs = list(_devices() if devices is None else devices)
    need = int(np.prod(mesh_shape))
    if need != len(devs):
        raise ValueError(f"Number of devices {len(devs)} must equal the product of mesh_shape {tuple(mesh_shape)}")
    out = np.empty(len(devs), dtype=object)
    out[:] = devs
    return out.reshape(tuple(mesh_shape))


def create_hybrid_device_mesh(mesh_shape, dcn_mesh_shape, devices=None, **kw):
    """One process, one slice: the DCN mesh must be all ones, and this is create_device_mesh."""
    if int(np.prod(dcn_mesh_shape)) != 1:
        raise ValueError("gradpad runs one process on one host: dcn_mesh_shape must be all ones")
    shape = [a * b for a, b in zip(mesh_shape, dcn_mesh_shape)]
    return create_device_mesh(shape, devices)
