# face: re-exports core._engine.base.sharding (written by tools/move_to_layers.py; no logic here)
"""`jax.sharding` for one process: meshes, partition specs and shardings.

`jax.sharding`'s public face: the implementation is core/_engine/base/sharding.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.sharding import (AbstractDevice as AbstractDevice, AbstractMesh as AbstractMesh,
    AxisType as AxisType, ManualAxisType as ManualAxisType, Mesh as Mesh, NamedSharding as NamedSharding,
    PartitionSpec as PartitionSpec, Sharding as Sharding, SingleDeviceSharding as SingleDeviceSharding,
    auto_axes as auto_axes, explicit_axes as explicit_axes, get_abstract_mesh as get_abstract_mesh,
    get_mesh as get_mesh, make_single_device_sharding as make_single_device_sharding, reshard as reshard,
    set_mesh as set_mesh, use_abstract_mesh as use_abstract_mesh)
