# face: re-exports core._engine.base.sharding (written by tools/move_to_layers.py; no logic here)
"""`jax.sharding` for one process: meshes, partition specs and shardings.

`jax.sharding`'s public face: the implementation is core/_engine/base/sharding.py (docs/layers.md)."""
# ruff: noqa: F401
from __future__ import annotations

from core._engine.base.sharding import (AbstractDevice as AbstractDevice, AbstractMesh as AbstractMesh,
    AxisType as AxisType, MEMORY_KIND as MEMORY_KIND, ManualAxisType as ManualAxisType, Mesh as Mesh,
    NamedSharding as NamedSharding, P as P, PartitionSpec as PartitionSpec, Shard as Shard,
    Sharding as Sharding, SingleDeviceSharding as SingleDeviceSharding, all_devices as all_devices,
    auto_axes as auto_axes, check_divisible as check_divisible, check_out_sharding as check_out_sharding,
    concrete_sharding as concrete_sharding, explicit_axes as explicit_axes,
    get_abstract_mesh as get_abstract_mesh, get_mesh as get_mesh, make_mesh as make_mesh,
    make_single_device_sharding as make_single_device_sharding, reshard as reshard, set_mesh as set_mesh,
    use_abstract_mesh as use_abstract_mesh)
