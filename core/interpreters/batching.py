"""`jax.interpreters.batching`: vmap rules of primitives.

`fancy_primitive_batchers` IS the engine's batch table (`rule(axis_data, vals, dims, **params)`);
`primitive_batchers` and `axis_primitive_batchers` take JAX's two older rule signatures and write
adapted rules into that same table.
"""
from __future__ import annotations

from .._engine.tracing.rules import batch_rules as fancy_primitive_batchers
from .._engine.transforms.batching import (AxisData, BatchTrace, BatchTracer, bdim_at_front, broadcast_batched,
                                   defbroadcasting, defvectorized)


class _BatchersTable:
    """A write-through view: `table[prim] = rule` stores an adapted rule in the engine's table."""

    def __init__(self, adapt):
        self._adapt = adapt
        self._rules: dict = {}

    def __setitem__(self, prim, rule):
        self._rules[prim] = rule
        fancy_primitive_batchers[prim] = self._adapt(prim, rule)

    def __getitem__(self, prim):
        return self._rules[prim]

    def __contains__(self, prim):
        return prim in self._rules

    def get(self, prim, default=None):
        return self._rules.get(prim, default)

    def __delitem__(self, prim):
        del self._rules[prim]
        del fancy_primitive_batchers[prim]


def _plain(prim, rule):
    """`rule(vals, dims, **params) -> (out, out_dims)`; unbatched calls just bind. Like JAX, the rule
    gets `vals` and `dims` as tuples (equinox's vprim passes `dims` on as a vmap out_axes prefix of
    a tuple of outputs, where a list would not match)."""
    def adapted(axis_data, vals, dims, **params):
        if all(d is None for d in dims):
            out = prim.bind(*vals, **params)
            return (out, [None] * len(out)) if prim.multiple_results else (out, None)
        return rule(tuple(vals), tuple(dims), **params)
    return adapted


def _with_axis(prim, rule):
    """`rule(axis_size, axis_name, trace_type, vals, dims, **params) -> (out, out_dims)`."""
    def adapted(axis_data, vals, dims, **params):
        return rule(axis_data.size, axis_data.name, None, tuple(vals), tuple(dims), **params)
    return adapted


primitive_batchers = _BatchersTable(_plain)
axis_primitive_batchers = _BatchersTable(_with_axis)


def broadcast(x, sz, axis, mesh_axis=None):
    """`x` with a new axis of size `sz` at `axis`."""
    return broadcast_batched(x, sz, axis)


__all__ = ["AxisData", "BatchTrace", "BatchTracer", "axis_primitive_batchers", "bdim_at_front", "broadcast",
           "defbroadcasting", "defvectorized", "fancy_primitive_batchers", "primitive_batchers"]
