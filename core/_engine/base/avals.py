"""Abstract values: what tracing knows about an array (shape, dtype, weak type), not its contents."""
from __future__ import annotations

import math

import numpy as np

from . import dtypes


class ShapedArray:
    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, weak_type: bool = False, sharding=None):
        # `sharding`: accepted as JAX's constructor does; on one device every aval is unsharded
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.weak_type = bool(weak_type)

    @property
    def sharding(self):
        """JAX's sharding of an abstract value: no mesh axes, no dimension split."""
        from .sharding import AbstractMesh, NamedSharding, PartitionSpec  # a leaf module, imported on use
        return NamedSharding(AbstractMesh((), ()), PartitionSpec(*[None] * len(self.shape)))

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))  # shape holds Python ints

    def update(self, shape=None, dtype=None, weak_type=None) -> "ShapedArray":
        return ShapedArray(self.shape if shape is None else shape,
                           self.dtype if dtype is None else dtype,
                           self.weak_type if weak_type is None else weak_type)

    def to_tangent_aval(self) -> "ShapedArray":
        """The aval of this value's tangents: the same for inexact dtypes, float0 for integers and bools."""
        inexact = np.issubdtype(self.dtype, np.inexact)
        return ShapedArray(self.shape, self.dtype if inexact else dtypes.float0, self.weak_type)

    at_least_vspace = to_tangent_aval  # JAX's older name, still on its avals (equinox, distrax call it)

    def strip_weak_type(self) -> "ShapedArray":
        return ShapedArray(self.shape, self.dtype, False) if self.weak_type else self

    def str_short(self, short_dtypes: bool = True) -> str:
        """`f32[2,3]` as in jaxpr text."""
        name = dtypes.short_name(self.dtype) if short_dtypes else dtypes.dtype_name(self.dtype)
        return f"{name}[{','.join(map(str, self.shape))}]"

    def str_long(self) -> str:
        """`float32[2,3]` as in error messages and tracer reprs (`~` marks a weak type)."""
        return f"{'~' if self.weak_type else ''}{dtypes.dtype_name(self.dtype)}[{','.join(map(str, self.shape))}]"

    def __eq__(self, other):
        return (type(other) is ShapedArray and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))

    def __repr__(self):  # JAX's: ShapedArray(float32[2]) / ShapedArray(float32[], weak_type=True)
        return (f"ShapedArray({dtypes.dtype_name(self.dtype)}[{','.join(map(str, self.shape))}]"
                f"{', weak_type=True' if self.weak_type else ''})")

    def __str__(self):
        return self.str_long()


def shaped_array_unchecked(shape: tuple, dtype: np.dtype, weak_type: bool) -> ShapedArray:
    """A ShapedArray from parts that are already canonical (a tuple of ints, an np.dtype, a bool),
    skipping the constructor's normalisation: shape rules and tracers make one per traced op."""
    a = _new_shaped(ShapedArray)
    a.shape, a.dtype, a.weak_type = shape, dtype, weak_type
    return a


_new_shaped = object.__new__


def aval_of_value(x) -> ShapedArray:
    """The aval of a concrete value (numpy array, python scalar, Array)."""
    aval = getattr(x, "aval", None)
    if aval is not None:
        return aval
    dt, weak = dtypes.dtype_and_weak(x)
    return ShapedArray(np.shape(x), dt, weak)
