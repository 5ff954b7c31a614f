"""`jax.sharding` for one process: meshes, partition specs and shardings.

gradpad runs every array on one device (pmap has its own virtual devices), so a sharding here
only describes placement: any spec is legal on a mesh whose axes all have size 1, and a
NamedSharding on a bigger mesh can be built and placed (`device_put`, `out_sharding=`): the array's
values stay whole in one numpy buffer, but it carries the sharding it was given, so `x.sharding`,
`x.addressable_shards` (each device's slice and index) and `jax.debug.visualize_array_sharding` say
what JAX says. Results of operations on it are not re-sharded (see Array.sharding).
"""
from __future__ import annotations

import collections
import contextlib
import enum
import math

import numpy as np

from .devices import devices as all_devices

MEMORY_KIND = "device"


class AxisType(enum.Enum):
    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self):
        return self.name


class ManualAxisType(enum.Enum):
    Varying = enum.auto()
    Invariant = enum.auto()

    def __repr__(self):
        return self.name


class _Unconstrained:
    def __repr__(self):
        return "UNCONSTRAINED"


class PartitionSpec:
    """Which mesh axes each array dimension is split over (`P('x', None)`); not a tuple, as in JAX."""
    UNCONSTRAINED = _Unconstrained()
    __slots__ = ("_partitions", "unreduced", "reduced")

    def __init__(self, *partitions, unreduced=frozenset(), reduced=frozenset()):
        self._partitions = tuple(tuple(p) if isinstance(p, list) else p for p in partitions)
        self.unreduced = frozenset(unreduced)
        self.reduced = frozenset(reduced)

    def __iter__(self):
        return iter(self._partitions)

    def __len__(self):
        return len(self._partitions)

    def __getitem__(self, i):
        return self._partitions[i]

    def __eq__(self, other):
        return (isinstance(other, PartitionSpec) and self._partitions == other._partitions
                and self.unreduced == other.unreduced and self.reduced == other.reduced)

    def __hash__(self):
        return hash((self._partitions, self.unreduced, self.reduced))

    def __repr__(self):
        extra = "".join(f", {name}={{{', '.join(map(repr, sorted(axes)))}}}"
                        for name, axes in (("unreduced", self.unreduced), ("reduced", self.reduced)) if axes)
        if not extra:
            return f"P{self._partitions!r}"
        return f"P({', '.join(map(repr, self._partitions))}{extra})"

    def _normalized_spec_for_aval(self, ndim: int) -> "PartitionSpec":
        return PartitionSpec(*self._partitions, *([None] * (ndim - len(self._partitions))))


P = PartitionSpec


def _axes_of(entry) -> tuple:
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return ()
    return entry if isinstance(entry, tuple) else (entry,)


class _MeshBase:
    axis_names: tuple
    axis_sizes: tuple
    axis_types: tuple

    @property
    def shape(self):
        return collections.OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def shape_tuple(self):
        return tuple(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        return math.prod(self.axis_sizes)

    @property
    def empty(self) -> bool:
        return not self.axis_names

    def _short(self, extra: str = "") -> str:
        axes = ", ".join(f"{n!r}: {s}" for n, s in zip(self.axis_names, self.axis_sizes))
        body = f"{axes}, " if axes else "(), "
        return f"{type(self).__name__}({body}axis_types={self.axis_types!r}{extra})"


def _axis_types(axis_types, n: int, default=AxisType.Auto) -> tuple:
    if axis_types is None:
        return (default,) * n
    if isinstance(axis_types, AxisType):
        return (axis_types,) * n
    types = tuple(axis_types)
    if len(types) != n:
        raise ValueError(f"Number of axis names should match the number of axis_types. Got axis_names={n} "
                         f"and axis_types={types}")
    return types


class AbstractMesh(_MeshBase):
    """A mesh's axis names, sizes and types, without devices."""

    def __init__(self, axis_sizes, axis_names, axis_types=None, *, abstract_device=None):
        self._device_kind = abstract_device  # a concrete mesh's device kind ("cpu"): JAX prints it
        self.axis_sizes = tuple(int(s) for s in axis_sizes)
        self.axis_names = tuple(axis_names)
        if len(self.axis_sizes) != len(self.axis_names):
            raise ValueError(f"Number of axis names should match the number of axis sizes. Got "
                             f"axis_sizes={self.axis_sizes} and axis_names={self.axis_names}")
        self.axis_types = _axis_types(axis_types, len(self.axis_names))

    def __eq__(self, other):
        return (type(other) is AbstractMesh and self.axis_sizes == other.axis_sizes
                and self.axis_names == other.axis_names and self.axis_types == other.axis_types)

    def __hash__(self):
        return hash((self.axis_sizes, self.axis_names, self.axis_types))

    @property
    def abstract_mesh(self):
        return self

    def __repr__(self):
        if self._device_kind is None:
            return self._short()
        kind = self._device_kind
        return self._short(f", device_kind={kind}, num_cores=None, platform={kind}")


class Mesh(_MeshBase):
    """An n-d array of devices with named axes (`Mesh(np.array(jax.devices()), ('x',))`)."""

    def __init__(self, devices, axis_names, axis_types=None):
        if isinstance(axis_names, str):
            axis_names = (axis_names,)
        self.devices = np.asarray(devices, dtype=object) if not isinstance(devices, np.ndarray) else devices
        self.axis_names = tuple(axis_names)
        if self.devices.ndim != len(self.axis_names):
            raise ValueError(f"Mesh requires the ndim of its first argument (`devices`) to equal the length "
                             f"of its second argument (`axis_names`), but got devices.ndim == "
                             f"{self.devices.ndim} and len(axis_names) == {len(self.axis_names)}.")
        self.axis_sizes = tuple(self.devices.shape)
        self.axis_types = _axis_types(axis_types, len(self.axis_names))

    @property
    def device_ids(self):
        return np.vectorize(lambda d: d.id, otypes=[int])(self.devices)

    @property
    def devices_flat(self):
        return list(self.devices.flat)

    @property
    def device_set(self):
        return set(self.devices.flat)

    local_devices = property(lambda self: list(self.devices.flat))
    abstract_mesh = property(lambda self: AbstractMesh(
        self.axis_sizes, self.axis_names, self.axis_types,
        abstract_device=getattr(next(iter(self.devices.flat), None), "device_kind", None)))

    def __eq__(self, other):
        return (type(other) is Mesh and self.axis_names == other.axis_names and self.axis_types == other.axis_types
                and self.devices.shape == other.devices.shape and list(self.devices.flat) == list(other.devices.flat))

    def __hash__(self):
        return hash((self.axis_names, self.axis_types, self.axis_sizes, tuple(self.devices.flat)))

    def __enter__(self):
        _mesh_stack.append(self)
        return self

    def __exit__(self, *exc):
        _mesh_stack.pop()
        return False

    def __repr__(self):
        return (f"Mesh(axis_sizes={self.axis_sizes!r}, axis_names={self.axis_names!r}, "
                f"axis_types={self.axis_types!r})")

    def __str__(self):  # print(mesh): JAX's short form, `Mesh('X': 4, 'Y': 2, axis_types=(Explicit, Explicit))`
        return self._short() if self.axis_names else "Mesh()"


class Sharding:
    """Base of every sharding: the set of devices an array lives on and how it is split."""
    memory_kind = MEMORY_KIND

    @property
    def addressable_devices(self):
        return self.device_set

    is_fully_addressable = property(lambda self: True)
    num_devices = property(lambda self: len(self.device_set))

    def shard_shape(self, global_shape) -> tuple:
        return tuple(global_shape)

    def is_equivalent_to(self, other, ndim: int) -> bool:
        return self == other or (self.is_fully_replicated and getattr(other, "is_fully_replicated", False)
                                 and self.device_set == other.device_set)

    def with_memory_kind(self, kind):
        return self


class SingleDeviceSharding(Sharding):
    """Everything on one device (what `x.sharding` is for every gradpad array)."""

    def __init__(self, device, *, memory_kind=None):
        self._device = device

    device_set = property(lambda self: {self._device})
    is_fully_replicated = property(lambda self: True)

    def devices_indices_map(self, global_shape):
        return {self._device: (slice(None),) * len(global_shape)}

    def __eq__(self, other):
        return type(other) is SingleDeviceSharding and other._device == self._device

    def __hash__(self):
        return hash(("SingleDeviceSharding", self._device))

    def __repr__(self):
        return f"SingleDeviceSharding(device={self._device!r}, memory_kind={self.memory_kind})"


class NamedSharding(Sharding):
    """A mesh plus a PartitionSpec saying which mesh axes split which array dimensions."""

    def __init__(self, mesh, spec, *, memory_kind=None):
        if not isinstance(spec, PartitionSpec):
            # JAX fails with this AttributeError; the tail says what to pass instead
            raise AttributeError(f"'{type(spec).__name__}' object has no attribute 'partitions': the spec of a "
                                 "NamedSharding must be a PartitionSpec, e.g. jax.P('x', None)")
        for entry in spec:
            for name in _axes_of(entry):
                if name not in mesh.axis_names:
                    raise ValueError(f"Resource axis: {name} of {spec} is not found in mesh: "
                                     f"{tuple(mesh.axis_names)}.")
        self.mesh = mesh
        self.spec = spec

    @property
    def device_set(self):
        return self.mesh.device_set if isinstance(self.mesh, Mesh) else set()

    @property
    def is_fully_replicated(self) -> bool:
        return all(self.mesh.shape[n] == 1 for e in self.spec for n in _axes_of(e))

    def shard_shape(self, global_shape) -> tuple:
        out = list(global_shape)
        for i, entry in enumerate(self.spec):
            out[i] //= math.prod(self.mesh.shape[n] for n in _axes_of(entry))
        return tuple(out)

    def devices_indices_map(self, global_shape) -> dict:
        """Each device's slice of the global array: a split dimension is cut into equal pieces in the
        row-major order of the mesh axes naming it; an unsplit one is whole (`slice(None)`)."""
        if not isinstance(self.mesh, Mesh):
            raise ValueError("devices_indices_map needs a concrete mesh (an abstract mesh names no devices)")
        out = {}
        axis_at = {n: k for k, n in enumerate(self.mesh.axis_names)}
        for coords in np.ndindex(*self.mesh.devices.shape):
            index = []
            for dim, size in enumerate(global_shape):
                axes = _axes_of(self.spec[dim]) if dim < len(self.spec) else ()
                if not axes:
                    index.append(slice(None))
                    continue
                piece = 0
                for n in axes:
                    piece = piece * self.mesh.shape[n] + coords[axis_at[n]]
                step = size // math.prod(self.mesh.shape[n] for n in axes)
                index.append(slice(piece * step, (piece + 1) * step, None))
            out[self.mesh.devices[coords]] = tuple(index)
        return out

    def __eq__(self, other):
        return type(other) is NamedSharding and self.mesh == other.mesh and self.spec == other.spec

    def __hash__(self):
        return hash((self.mesh, self.spec))

    def update(self, *, mesh=None, spec=None, memory_kind=None):
        return NamedSharding(self.mesh if mesh is None else mesh, self.spec if spec is None else spec)

    def __repr__(self):
        if isinstance(self.mesh, AbstractMesh):  # an aval's sharding: JAX prints no memory kind
            return f"NamedSharding(mesh={self.mesh!r}, spec={self.spec!r})"
        return f"NamedSharding(mesh={self.mesh._short()}, spec={self.spec!r}, memory_kind={self.memory_kind})"


from ._public import set_public_module  # noqa: E402
set_public_module("jax.sharding", SingleDeviceSharding, NamedSharding)
set_public_module("jax", PartitionSpec)  # (JAX's jax.P)


class AbstractDevice:
    def __init__(self, device_kind: str, num_cores=None):
        self.device_kind = device_kind
        self.num_cores = num_cores


# ---- the current mesh (`jax.set_mesh`) ---------------------------------------------------------

_mesh_stack: list = []


def get_mesh():
    return _mesh_stack[-1] if _mesh_stack else Mesh(np.empty((), dtype=object), ())


def get_abstract_mesh():
    return _mesh_stack[-1].abstract_mesh if _mesh_stack else AbstractMesh((), ())


class _MeshContext:
    """`jax.set_mesh(mesh)` sets the mesh; used as `with jax.set_mesh(mesh):` it restores it after."""

    def __init__(self, mesh):
        self._prev = list(_mesh_stack)
        _mesh_stack[:] = [mesh]

    def __enter__(self):
        return _mesh_stack[-1]

    def __exit__(self, *exc):
        _mesh_stack[:] = self._prev
        return False


def set_mesh(mesh):
    return _MeshContext(mesh)


@contextlib.contextmanager
def use_abstract_mesh(mesh):
    _mesh_stack.append(mesh)
    try:
        yield mesh
    finally:
        _mesh_stack.pop()


def make_single_device_sharding(device, *, memory_kind=None):
    return SingleDeviceSharding(device, memory_kind=memory_kind)


def make_mesh(axis_shapes, axis_names, axis_types=None, *, devices=None):
    """`jax.make_mesh`: axes are Explicit unless told otherwise (JAX 0.10's default)."""
    devs = list(all_devices() if devices is None else devices)
    n = math.prod(axis_shapes)
    if n > len(devs):
        raise ValueError(f"Number of devices {len(devs)} must be >= the product of mesh_shape {tuple(axis_shapes)}")
    devs = devs[:n]   # JAX takes the first n of the devices (the machine's or those given)
    return Mesh(np.array(devs, dtype=object).reshape(tuple(axis_shapes)), axis_names,
                _axis_types(axis_types, len(axis_names), AxisType.Explicit))


def reshard(xs, out_shardings):
    """One device holds everything, so resharding leaves the values where they are."""
    return xs


def _axes_decorator(fun=None, *, axes=None, out_sharding=None):
    if fun is None:
        return lambda f: f
    return fun


auto_axes = _axes_decorator
explicit_axes = _axes_decorator


# ---- conf2 area: `out_sharding=` of the array-creation functions -------------------------------

def check_out_sharding(fun_name: str, out_sharding) -> None:
    """JAX's checks of `jnp.zeros(..., out_sharding=...)` and its siblings; the result is then placed
    with `device_put` (values whole, the array carrying the sharding)."""
    if out_sharding is None:
        return
    if isinstance(out_sharding, PartitionSpec):
        if get_abstract_mesh().empty:
            raise ValueError("Using PartitionSpec when you are not under a mesh context is not allowed. Please pass "
                             "a NamedSharding instance or enter into a mesh context via `jax.set_mesh`. "
                             f"Got {out_sharding!r}")
        return
    if not isinstance(out_sharding, NamedSharding):
        raise TypeError(f"`out_sharding` argument of jnp.{fun_name} only supports instances of `NamedSharding` or "
                        f"`PartitionSpec`. Got {out_sharding!r} of type: {type(out_sharding)}")


def check_divisible(where: str, sharding, shape) -> None:
    """JAX splits a dimension only into equal pieces: a size the devices do not divide is an error."""
    for i, entry in enumerate(sharding.spec):
        parts = math.prod(sharding.mesh.shape[n] for n in _axes_of(entry))
        if i < len(shape) and shape[i] % parts:
            raise ValueError(f"{where} was given the sharding of {sharding!r}, which implies that the global size "
                             f"of its dimension {i} should be divisible by {parts}, but it is equal to {shape[i]} "
                             f"(full shape: {tuple(shape)})")
    if len(sharding.spec) > len(shape):
        raise ValueError(f"Sharding {sharding!r} is only valid for values of rank at least {len(sharding.spec)}, "
                         f"but was applied to a value of rank {len(shape)}")


def concrete_sharding(where: str, spec_or_sharding):
    """The NamedSharding a `device_put` / `out_sharding=` asks for (a PartitionSpec takes the context mesh),
    or None for a plain device. An abstract mesh has no devices to hold the pieces, so it is refused."""
    if isinstance(spec_or_sharding, PartitionSpec):
        if not _mesh_stack:
            return None
        spec_or_sharding = NamedSharding(_mesh_stack[-1], spec_or_sharding)
    if not isinstance(spec_or_sharding, NamedSharding):
        return None
    partial = [n for n in (*spec_or_sharding.spec.unreduced, *spec_or_sharding.spec.reduced)
               if spec_or_sharding.mesh.shape[n] > 1]
    if partial:   # each device would hold a partial sum, not a slice of the values gradpad keeps whole
        raise NotImplementedError(
            f"{where}: gradpad keeps an array's values whole, so it cannot place it unreduced/reduced over mesh "
            f"axis {partial[0]!r} (each device would hold a partial sum); drop unreduced=/reduced= from the spec")
    if not isinstance(spec_or_sharding.mesh, Mesh):
        raise ValueError(f"{where}: the sharding's mesh is abstract (it names no devices); use a concrete mesh "
                         "such as jax.make_mesh((n,), ('x',)) or jax.sharding.Mesh(jax.devices(), ('x',))")
    return spec_or_sharding


# jax.Shard sits with the shardings, below arrays (whose addressable_shards build them)
class Shard:
    """One addressable piece of an Array (`x.addressable_shards` in JAX): the device, the index of its
    slice in the global array, and that slice's data."""

    def __init__(self, device, sharding, global_shape, data=None, index=None):
        self.device, self.sharding, self._global_shape, self._data = device, sharding, tuple(global_shape), data
        self._index = tuple(slice(None) for _ in self._global_shape) if index is None else tuple(index)

    @property
    def index(self):
        return self._index

    @property
    def replica_id(self):
        """Which copy of its slice this is: devices holding the same slice count 0, 1, ... in mesh order."""
        same = [d for d, i in self.sharding.devices_indices_map(self._global_shape).items()
                if _index_key(i) == _index_key(self._index)]
        return same.index(self.device) if self.device in same else 0

    @property
    def data(self):
        return self._data

    def __repr__(self):
        return f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, data={self._data})"


def _index_key(index) -> tuple:
    return tuple((s.start, s.stop, s.step) for s in index)
