"""lax.ragged_dot / ragged_dot_general: dots whose lhs is cut into consecutive groups along one
dimension (group_sizes), each group meeting its own rhs slice (or, when the ragged dimension is
contracted, giving its own output slice). Written as a group mask and one dot_general, so jvp,
grad, vmap and jit come from those primitives."""
from __future__ import annotations

from ..tracing.tracing import get_aval


def _lax():
    from ..lax import lax  # INHERENT: up to lax; built from lax's dot_general and masks (a layer above)
    return lax


def _group_mask(group_sizes, length, dtype):
    """(g, length) mask: row i is 1 on group i's positions (groups laid end to end from 0)."""
    lax = _lax()
    gs = get_aval(group_sizes)
    if gs.ndim != 1:
        raise NotImplementedError("ragged_dot: group_sizes of shape [g] only (broadcast forms are not supported)")
    ends = lax.cumsum(group_sizes, 0)
    starts = lax.sub(ends, group_sizes)
    g = gs.shape[0]
    pos = lax.broadcasted_iota(gs.dtype, (g, length), 1)
    inside = lax.bitwise_and(lax.ge(pos, lax.broadcast_in_dim(starts, (g, length), (0,))),
                             lax.lt(pos, lax.broadcast_in_dim(ends, (g, length), (0,))))
    return lax.convert_element_type(inside, dtype)


def _masked_by_group(lhs, group_sizes, ragged_dim):
    """lhs stacked once per group, (g, *lhs.shape), zero outside each group's slice."""
    lax = _lax()
    la = get_aval(lhs)
    mask = _group_mask(group_sizes, la.shape[ragged_dim], la.dtype)
    g = get_aval(mask).shape[0]
    shape = (g,) + la.shape
    return lax.mul(lax.broadcast_in_dim(lhs, shape, tuple(range(1, la.ndim + 1))),
                   lax.broadcast_in_dim(mask, shape, (0, 1 + ragged_dim)))


def ragged_dot_general(lhs, rhs, group_sizes, ragged_dot_dimension_numbers, precision=None,
                       preferred_element_type=None, group_offset=None, out_sharding=None):
    lax = _lax()
    if group_offset is not None:
        raise NotImplementedError("ragged_dot_general: group_offset is not supported")
    dn = ragged_dot_dimension_numbers
    (lc, rc), (lb, rb) = dn.dot_dimension_numbers
    (ragged,) = dn.lhs_ragged_dimensions
    kw = dict(precision=precision, preferred_element_type=preferred_element_type)
    shift = lambda t: tuple(i + 1 for i in t)
    if ragged in lc:  # mode 2: each group contracts its own slice of k -> a leading group axis
        if dn.rhs_group_dimensions:
            raise TypeError("ragged_dot_general: rhs must have no group dimension when the ragged dimension is "
                            "contracting")
        stacked = _masked_by_group(lhs, group_sizes, ragged)
        out = lax.dot_general(stacked, rhs, ((shift(lc), tuple(rc)), (shift(lb), tuple(rb))), **kw)
        nb = len(lb)
        perm = (nb,) + tuple(range(nb)) + tuple(range(nb + 1, get_aval(out).ndim))
        return lax.transpose(out, perm)
    if ragged in lb:  # mode 3: each batch element already meets its own rhs: a plain dot (as JAX's)
        return lax.dot_general(lhs, rhs, ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb))), **kw)
    # mode 1: a ragged non-contracting dimension: group i meets rhs's group slice i
    (rg,) = dn.rhs_group_dimensions
    stacked = _masked_by_group(lhs, group_sizes, ragged)
    out = lax.dot_general(stacked, rhs, ((shift(lc), tuple(rc)), ((0,) + shift(lb), (rg,) + tuple(rb))), **kw)
    return lax.reduce_sum(out, (0,))


def ragged_dot(lhs, rhs, group_sizes, precision=None, preferred_element_type=None, group_offset=None,
               out_sharding=None):
    """lhs [m, k] cut into consecutive row groups of `group_sizes`; group i times rhs[i] ([g, k, n])."""
    from .lax_types import RaggedDotDimensionNumbers
    la, ra = get_aval(lhs), get_aval(rhs)
    if la.ndim != 2 or ra.ndim != 3:
        raise TypeError(f"ragged_dot expects lhs of rank 2 and rhs of rank 3, got shapes {la.shape} and {ra.shape}")
    dn = RaggedDotDimensionNumbers(dot_dimension_numbers=(([1], [1]), ([], [])), lhs_ragged_dimensions=[0],
                                   rhs_group_dimensions=[0])
    return ragged_dot_general(lhs, rhs, group_sizes, dn, precision, preferred_element_type, group_offset)


LAX_EXPORTS = {"ragged_dot": ragged_dot, "ragged_dot_general": ragged_dot_general}
