"""`jax.ops`: segment reductions, as a scatter of `data` into `num_segments` rows that start at
the reduction's identity (ids out of range are dropped, JAX's FILL_OR_DROP)."""
from __future__ import annotations

import operator

import numpy as _np

from . import numpy as jnp
from ..tracing.tracing import get_aval


def _identity(kind, dtype):
    """The value an empty segment holds: 0, 1, or the dtype's lowest / highest value."""
    if kind == "add":
        return 0
    if kind == "mul":
        return 1
    if dtype.kind == "f":
        return -_np.inf if kind == "max" else _np.inf
    if dtype.kind == "b":
        return kind != "max"
    info = _np.iinfo(dtype)
    return info.min if kind == "max" else info.max


def _segment(kind, name):
    def reduce(data, segment_ids, num_segments=None, indices_are_sorted=False, unique_indices=False,
               bucket_size=None, mode=None):
        jnp._check_arraylike(name, data, segment_ids)
        data, segment_ids = jnp.asarray(data), jnp.asarray(segment_ids)
        if num_segments is None:
            num_segments = int(jnp._concrete(jnp.max(segment_ids), name)) + 1
        num_segments = operator.index(num_segments)
        dtype = get_aval(data).dtype
        out = jnp.full((num_segments,) + get_aval(data).shape[1:], _identity(kind, dtype), dtype)
        # a negative id is out of range (dropped), not counted from the end as an index would be
        segment_ids = jnp.where(segment_ids < 0, num_segments, segment_ids)
        at = out.at[segment_ids]
        update = {"add": at.add, "mul": at.multiply, "max": at.max, "min": at.min}[kind]
        return update(data, indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                      mode="drop" if mode is None else mode)
    reduce.__name__ = name
    return reduce


segment_sum = _segment("add", "segment_sum")
segment_prod = _segment("mul", "segment_prod")
segment_max = _segment("max", "segment_max")
segment_min = _segment("min", "segment_min")
