"""`jax.typeof` of an array placed with a NamedSharding: JAX's aval names the Explicit mesh axes
that split each dimension (`float32[8@x,4]`) and carries the sharding on the abstract mesh.

Only concrete arrays carry a sharding in gradpad (values stay whole in one numpy buffer); traced
values and the results of operations are unsharded (see Array.sharding)."""
from __future__ import annotations

from ..base import dtypes
from ..base.avals import ShapedArray
from ..base.sharding import AxisType, NamedSharding, PartitionSpec, _axes_of


class ShardedShapedArray(ShapedArray):
    """A ShapedArray with an Explicit-axes spec per dimension (only the axes JAX's type shows)."""

    def __init__(self, shape, dtype, weak_type, mesh, spec: tuple):
        super().__init__(shape, dtype, weak_type)
        self._mesh, self._spec = mesh, spec

    @property
    def sharding(self):
        return NamedSharding(self._mesh, PartitionSpec(*self._spec))

    def _dims(self) -> str:
        out = []
        for size, entry in zip(self.shape, self._spec):
            axes = _axes_of(entry)
            where = "" if not axes else "@" + (axes[0] if len(axes) == 1 else f"({','.join(axes)})")
            out.append(f"{size}{where}")
        return ",".join(out)

    def str_short(self, short_dtypes: bool = True) -> str:
        name = dtypes.short_name(self.dtype) if short_dtypes else dtypes.dtype_name(self.dtype)
        return f"{name}[{self._dims()}]"

    def str_long(self) -> str:
        return f"{'~' if self.weak_type else ''}{dtypes.dtype_name(self.dtype)}[{self._dims()}]"

    def __repr__(self):
        return f"ShapedArray({self.str_long().lstrip('~')}{', weak_type=True' if self.weak_type else ''})"

    def __eq__(self, other):
        return (isinstance(other, ShardedShapedArray) and self.shape == other.shape and self.dtype == other.dtype
                and self.weak_type == other.weak_type and self._spec == other._spec and self._mesh == other._mesh)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type, self._spec))


def typeof(x):
    from .tracing import get_aval
    aval = get_aval(x)
    sharding = getattr(x, "_device", None)
    if not isinstance(sharding, NamedSharding) or type(aval) is not ShapedArray:
        return aval
    mesh = sharding.mesh.abstract_mesh
    explicit = {n for n, t in zip(mesh.axis_names, mesh.axis_types) if t == AxisType.Explicit}
    spec = []
    for dim in range(len(aval.shape)):
        entry = sharding.spec[dim] if dim < len(sharding.spec) else None
        axes = tuple(n for n in _axes_of(entry) if n in explicit)
        spec.append(None if not axes else axes[0] if len(axes) == 1 and not isinstance(entry, tuple) else axes)
    return ShardedShapedArray(aval.shape, aval.dtype, aval.weak_type, mesh, tuple(spec))
