"""`jax.experimental.layout`: memory layouts. gradpad's arrays are numpy arrays in C order; a
Layout is accepted and recorded, and `with_layout_constraint` returns its input unchanged."""
from __future__ import annotations

from ..sharding import Sharding


class _Auto:
    def __repr__(self):
        return "AUTO"


class Layout:
    AUTO = _Auto()

    def __init__(self, major_to_minor, tiling=None, sub_byte_element_size_in_bits: int = 0):
        self.major_to_minor = tuple(major_to_minor)
        self.tiling = None if tiling is None else tuple(tuple(t) for t in tiling)
        self.sub_byte_element_size_in_bits = sub_byte_element_size_in_bits

    def _key(self):
        return (self.major_to_minor, self.tiling, self.sub_byte_element_size_in_bits)

    def __eq__(self, other):
        return type(other) is Layout and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return (f"Layout(major_to_minor={self.major_to_minor}, tiling={self.tiling}, "
                f"sub_byte_element_size_in_bits={self.sub_byte_element_size_in_bits})")


class Format:
    """A layout together with a sharding."""

    def __init__(self, layout=None, sharding=None):
        if isinstance(layout, Layout) and not isinstance(sharding, Sharding):
            raise ValueError(
                f"Sharding has to be concrete when layout is of type {type(layout)}. Please pass a "
                "`jax.sharding.NamedSharding` or `jax.sharding.SingleDeviceSharding` to the sharding "
                f"argument. Got sharding {sharding}")
        self.layout = layout
        self.sharding = sharding

    def __eq__(self, other):
        return type(other) is Format and (self.layout, self.sharding) == (other.layout, other.sharding)

    def __hash__(self):
        return hash((self.layout, self.sharding))

    def __repr__(self):
        return f"Format(layout={self.layout!r}, sharding={self.sharding!r})"


def with_layout_constraint(x, layouts):
    return x
