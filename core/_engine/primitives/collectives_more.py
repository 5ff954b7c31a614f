"""The last shard_map collectives of jax.lax (issue 11, area "special2"): pcast and pbroadcast,
which work under any named axis; psend, precv and ragged_all_to_all, which JAX's CPU backend
cannot run (no lowering for psend/precv; XLA:CPU has no ragged-all-to-all), raise
NotImplementedError here too, saying so."""
from __future__ import annotations

from ..base.avals import ShapedArray
from ..tracing.rules import abstract_eval_rules, impl_rules
from ..tracing.tracing import Primitive
from ..base.tree_util import tree_map

_PCAST_TO = ("unreduced", "reduced", "varying")


def _axes(axis_name):
    if isinstance(axis_name, (set, frozenset)):
        raise TypeError(f"axis_name={axis_name!r} must be a tuple or a str. Got {axis_name}")
    return axis_name if isinstance(axis_name, tuple) else (axis_name,)


def pcast(x, axis_name, *, to):
    """Changes how x varies over the named axes (JAX's varying-manual-axes types). gradpad does
    not track those types, so the values pass through unchanged, as they do in JAX."""
    from .collectives import _find_axis
    axes = _axes(axis_name)
    if not axis_name:
        return x
    if to not in _PCAST_TO:
        raise ValueError(f"Got unexpected `to` value. Allowed `to` values are: {set(_PCAST_TO)}")
    for name in axes:
        _find_axis(name, "jax.lax.pcast")
    return x


def pbroadcast(x, axis_name, source):
    """Every participant along axis_name gets source's x (JAX's definition:
    psum(where(axis_index == source, x, 0)))."""
    from ..lax import lax  # INHERENT: up to lax; lax is built on these primitives
    from .collectives import axis_index, psum

    def one(leaf):
        is_source = lax.broadcast_in_dim(axis_index(axis_name) == source, lax.full_like(leaf, 0).shape, ())
        return psum(lax.select(is_source, leaf, lax.zeros_like_array(leaf)), axis_name)
    return tree_map(one, x)


def _no_cpu(what, why):
    def fail(*args, **kwargs):
        raise NotImplementedError(f"{what} is not available in gradpad: {why}, as on JAX's CPU backend. "
                                  f"Use lax.ppermute / lax.all_to_all instead.")
    return fail


psend = _no_cpu("jax.lax.psend", "point-to-point sends need real devices")
precv = _no_cpu("jax.lax.precv", "point-to-point receives need real devices")

ragged_all_to_all_p = Primitive("ragged_all_to_all")
abstract_eval_rules[ragged_all_to_all_p] = lambda operand, output, *offsets, **p: ShapedArray(output.shape, output.dtype)
impl_rules[ragged_all_to_all_p] = _no_cpu("ragged_all_to_all", "XLA:CPU has no ragged-all-to-all")


def ragged_all_to_all(operand, output, input_offsets, send_sizes, output_offsets, recv_sizes, *, axis_name,
                      axis_index_groups=None):
    _no_cpu("jax.lax.ragged_all_to_all", "XLA:CPU has no ragged-all-to-all")()
