"""Collectives over named axes: `psum`, `pmean`, `pmax`, `pmin`, `all_gather`, `axis_index`.

A named axis is introduced by `vmap(..., axis_name=)` or `pmap(..., axis_name=)` (pmap maps over
virtual devices the same way). The batch trace whose axis carries the name performs the
collective: a reduction over its batch dimension (the result is the same for every example, so
it comes out unbatched), or a broadcast of the whole batch for `all_gather`. Traces of other
names pass the primitive down unchanged.
"""
from __future__ import annotations

import numpy as np

from contextlib import contextmanager

from ..base import dtypes
from ..tracing.array import Array
from ..base.avals import ShapedArray
from ..tracing.rules import abstract_eval_rules, batch_rules, impl_rules, transpose_rules
from ..tracing.tracing import Primitive, Tracer, get_aval, trace_stack
from ..transforms import ad
from ..base.tree_util import tree_map


class _ManualAxis:
    """A named axis bound while tracing a shard_map body: collectives are recorded by name."""
    level = -1

    def __init__(self, name, size):
        from ..transforms.batching import AxisData
        self.global_data = AxisData(size, name)


_manual_axes: list = []


@contextmanager
def manual_axis(name, size):
    _manual_axes.append(_ManualAxis(name, size))
    try:
        yield
    finally:
        _manual_axes.pop()


def _axis_mains():
    """Active named batch axes, innermost last: [(name, main)]."""
    from ..transforms.batching import BatchTrace
    return [(m.global_data.name, m) for m in trace_stack
            if m.trace_type is BatchTrace and m.active and m.global_data.name is not None]


def _find_axis(name, prim_name):
    for n, m in reversed(_axis_mains()):
        if n == name:
            return m
    for m in reversed(_manual_axes):
        if m.global_data.name == name:
            return m
    raise NameError(f"Found an unbound axis name: {name}. To fix this, please call {prim_name} under "
                    f"`jax.shard_map`.")


def _names(axis_name):
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def axis_size(axis_name) -> int:
    return int(np.prod([_find_axis(n, "axis_size").global_data.size for n in _names(axis_name)]))


def _raise_to_axis(x, main):
    """Lift a value living below the named axis' trace into it (unbatched there)."""
    from ..transforms.batching import BatchTrace
    if isinstance(x, Tracer) and x._trace.main.level >= main.level:
        return x
    return BatchTrace(main).full_raise(x if isinstance(x, Tracer) else _as_array(x))


def _as_array(x):
    if isinstance(x, (Array, Tracer)):
        return x
    dt, weak = dtypes.dtype_and_weak(x)  # a Python scalar stays weak, as jnp.asarray keeps it
    return Array(np.asarray(x, dt), weak)


def _unbound(prim):
    def impl(*args, axis_name=None, **params):
        raise NameError(f"Found an unbound axis name: {axis_name}. To fix this, please call "
                        f"{prim.name} under `jax.shard_map`.")
    return impl


# ---- psum / pmax / pmin ---------------------------------------------------------------------
# `axes` holds axis names and, once a batch trace has taken over, positional axes (ints) of the
# value, as JAX prints them: `psum[axes=(0,) axis_index_groups=None]`.

def _pos(axes):
    return tuple(a for a in axes if isinstance(a, int))


def _named(axes):
    return tuple(a for a in axes if not isinstance(a, int))


def _reducer(name, np_fn):
    p = Primitive(name)
    p.batch_always = True

    def abstract(x, axes):
        pos = _pos(axes)
        return x.update(shape=tuple(d for i, d in enumerate(x.shape) if i not in pos))
    abstract_eval_rules[p] = abstract

    def impl(x, axes):
        if _named(axes):
            raise NameError(f"Found an unbound axis name: {_named(axes)[0]}. To fix this, please call "
                            f"{name} under `jax.shard_map`.")
        return np_fn(x, axis=_pos(axes)).astype(x.dtype) if _pos(axes) else x
    impl_rules[p] = impl

    def batch(axis_data, vals, dims, axes):
        (x,), (d,) = vals, dims
        pos = _pos(axes)
        here = axis_data.name in axes
        rest = tuple(a for a in _named(axes) if a != axis_data.name)
        if d is None:
            out = p.bind(x, axes=rest + pos) if rest or pos else x
            if here and name == "psum":  # the same value in every example
                from ..lax import lax  # INHERENT: up to lax
                out = lax.mul(out, lax._const(out, axis_data.size))
            return out, None
        # positional axes of the unbatched value, seen in the batched value
        moved = tuple(a + (a >= d) for a in pos)
        new_pos = moved + ((d,) if here else ())
        out = p.bind(x, axes=rest + tuple(sorted(new_pos))) if rest or new_pos else x
        if here:
            return out, None
        return out, d - sum(a < d for a in moved)
    batch_rules[p] = batch
    p.pp_params = lambda params: [("axes", params["axes"]), ("axis_index_groups", None)]
    return p


psum_p = _reducer("psum", np.sum)
pmax_p = _reducer("pmax", np.max)
pmin_p = _reducer("pmin", np.min)


def _bind_named(prim, x, axes):
    """Bind a collective, first lifting x into the trace of the innermost named axis (so that
    constants and values from outside the map take part)."""
    names = _named(axes)
    if names:
        inner = max((_find_axis(n, prim.name) for n in names), key=lambda m: m.level)
        if not isinstance(inner, _ManualAxis):
            x = _raise_to_axis(x, inner)
    return prim.bind(x, axes=axes)


def _psum_jvp(primals, tangents, axes):
    (x,), (t,) = primals, tangents
    return _bind_named(psum_p, x, axes), _bind_named(psum_p, ad.instantiate(t), axes)


def _psum_transpose(ct, x, axes):
    """Named axes: every device's cotangent flows to every device (psum again, as JAX). Positional
    axes: the transpose of a sum, a broadcast."""
    from ..lax import lax  # INHERENT: up to lax
    ct = ad.instantiate(ct)
    pos, names = _pos(axes), _named(axes)
    if names:
        ct = _bind_named(psum_p, ct, names)
    if pos:
        shape = x.aval.shape
        ct = lax.broadcast_in_dim(ct, shape, tuple(i for i in range(len(shape)) if i not in pos))
    return [ct]


from ..tracing.rules import jvp_rules  # noqa: E402

jvp_rules[psum_p] = _psum_jvp
transpose_rules[psum_p] = _psum_transpose


# pmax / pmin have no jvp rule, as in JAX: differentiating them raises
# NotImplementedError("Differentiation rule for 'pmax' not implemented").


def _no_groups(axis_index_groups):
    if axis_index_groups is not None:
        raise NotImplementedError("axis_index_groups is not supported by gradpad's collectives; "
                                  "reshape the mapped axis into two named axes (nested vmap/pmap) instead.")


def _collective(prim, x, axis_name, axis_index_groups=None):
    _no_groups(axis_index_groups)
    names = _names(axis_name)
    return tree_map(lambda v: _bind_named(prim, v, names), x)


def psum(x, axis_name, *, axis_index_groups=None):
    """Sum of x over every example/device of the named axis."""
    return _collective(psum_p, x, axis_name, axis_index_groups)


def pmax(x, axis_name, *, axis_index_groups=None):
    return _collective(pmax_p, x, axis_name, axis_index_groups)


def pmin(x, axis_name, *, axis_index_groups=None):
    return _collective(pmin_p, x, axis_name, axis_index_groups)


def pmean(x, axis_name, *, axis_index_groups=None):
    """Mean over the named axis: psum(x) / axis size."""
    n = axis_size(axis_name)
    return tree_map(lambda s: s / n, psum(x, axis_name, axis_index_groups=axis_index_groups))


# ---- all_gather ---------------------------------------------------------------------------

all_gather_p = Primitive("all_gather")
all_gather_p.batch_always = True


def _all_gather_abstract(x, axis_name, axis, tiled, size):
    shape = list(x.shape)
    if tiled:
        shape[axis] *= size
    else:
        shape.insert(axis, size)
    return x.update(shape=tuple(shape))


abstract_eval_rules[all_gather_p] = _all_gather_abstract
impl_rules[all_gather_p] = _unbound(all_gather_p)


def _all_gather_batch(axis_data, vals, dims, axis_name, axis, tiled, size):
    from ..lax import lax  # INHERENT: up to lax
    from ..transforms.batching import bdim_at_front
    (x,), (d,) = vals, dims
    if axis_data.name != axis_name:
        return all_gather_p.bind(x, axis_name=axis_name, axis=axis, tiled=tiled, size=size), d
    whole = bdim_at_front(x, d, axis_data.size)      # (n, ...): every example sees all of it
    if axis:
        whole = lax.transpose(whole, tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, whole.ndim)))
    if tiled:
        shape = list(get_aval(whole).shape)
        shape[axis:axis + 2] = [shape[axis] * shape[axis + 1]]
        whole = lax.reshape(whole, tuple(shape))
    return whole, None


batch_rules[all_gather_p] = _all_gather_batch


def _all_gather_jvp(primals, tangents, **params):
    (x,), (t,) = primals, tangents
    return all_gather_p.bind(x, **params), all_gather_p.bind(ad.instantiate(t), **params)


def _all_gather_transpose(ct, x, axis_name, axis, tiled, size):
    """Each device's input received every device's cotangent slot for it: sum them (psum), then
    keep this device's slot (JAX's psum_scatter)."""
    from ..lax import lax  # INHERENT: up to lax
    ct = psum(ad.instantiate(ct), axis_name)
    i = axis_index(axis_name)
    block = x.aval.shape[axis] if tiled else 1
    start = lax.mul(i, lax._const(i, block)) if tiled else i
    out = lax.dynamic_slice_in_dim(ct, start, block, axis)
    return [out if tiled else lax.squeeze(out, (axis,))]


jvp_rules[all_gather_p] = _all_gather_jvp
transpose_rules[all_gather_p] = _all_gather_transpose


def all_gather(x, axis_name, *, axis_index_groups=None, axis=0, tiled=False):
    """Every example/device gets the stacked values of all of them (along `axis`)."""
    main = _find_axis(axis_name, "all_gather")
    n = main.global_data.size
    lift = (lambda v: v) if isinstance(main, _ManualAxis) else (lambda v: _raise_to_axis(v, main))
    return tree_map(lambda v: all_gather_p.bind(lift(v), axis_name=axis_name, axis=int(axis),
                                                tiled=bool(tiled), size=n), x)


# ---- all_to_all ---------------------------------------------------------------------------
# Example j receives chunk j of every example's `split_axis`, stacked (or, tiled, concatenated)
# along `concat_axis`. In batched form: the batch axis and the chunk axis trade places.

all_to_all_p = Primitive("all_to_all")
all_to_all_p.batch_always = True


def _all_to_all_abstract(x, axis_name, split_axis, concat_axis, tiled, size):
    shape = list(x.shape)
    if tiled:
        shape[split_axis] //= size
        shape[concat_axis] *= size
    else:
        del shape[split_axis]
        shape.insert(concat_axis, size)
    return x.update(shape=tuple(shape))


abstract_eval_rules[all_to_all_p] = _all_to_all_abstract
impl_rules[all_to_all_p] = _unbound(all_to_all_p)


def _moveaxis(x, src, dst):
    from ..lax import lax  # INHERENT: up to lax
    perm = list(range(get_aval(x).ndim))
    perm.insert(dst, perm.pop(src))
    return lax.transpose(x, tuple(perm))


def _all_to_all_batch(axis_data, vals, dims, axis_name, split_axis, concat_axis, tiled, size):
    from ..lax import lax  # INHERENT: up to lax
    from ..transforms.batching import bdim_at_front
    (x,), (d,) = vals, dims
    if axis_data.name != axis_name:
        x = bdim_at_front(x, d, axis_data.size)
        out = all_to_all_p.bind(x, axis_name=axis_name, split_axis=split_axis + 1, concat_axis=concat_axis + 1,
                                tiled=tiled, size=size)
        return out, 0
    whole = bdim_at_front(x, d, axis_data.size)       # [i, ...]: example i's value
    n = axis_data.size
    if not tiled:                                     # [j, i, rest] -> i moved to the concat position
        return _moveaxis(_moveaxis(whole, 1 + split_axis, 0), 1, 1 + concat_axis), 0
    shape = list(get_aval(whole).shape)
    shape[1 + split_axis:2 + split_axis] = [n, shape[1 + split_axis] // n]
    chunks = _moveaxis(lax.reshape(whole, tuple(shape)), 1 + split_axis, 0)   # [j, i, ..., c, ...]
    placed = _moveaxis(chunks, 1, 1 + concat_axis)                              # i just before concat dim
    out_shape = list(get_aval(placed).shape)
    out_shape[1 + concat_axis:3 + concat_axis] = [out_shape[1 + concat_axis] * out_shape[2 + concat_axis]]
    return lax.reshape(placed, tuple(out_shape)), 0


batch_rules[all_to_all_p] = _all_to_all_batch


def _all_to_all_jvp(primals, tangents, **params):
    (x,), (t,) = primals, tangents
    return all_to_all_p.bind(x, **params), all_to_all_p.bind(ad.instantiate(t), **params)


def _all_to_all_transpose(ct, x, axis_name, split_axis, concat_axis, tiled, size):
    """The exchange is a permutation of chunks: undo it by exchanging back."""
    return [all_to_all_p.bind(ad.instantiate(ct), axis_name=axis_name, split_axis=concat_axis,
                              concat_axis=split_axis, tiled=tiled, size=size)]


jvp_rules[all_to_all_p] = _all_to_all_jvp
transpose_rules[all_to_all_p] = _all_to_all_transpose


def all_to_all(x, axis_name, split_axis, concat_axis, *, axis_index_groups=None, tiled=False):
    """Exchange chunks of `split_axis` between the examples/devices of the named axis."""
    if axis_index_groups is not None:
        raise NotImplementedError("all_to_all: axis_index_groups is not supported in gradpad")
    main = _find_axis(axis_name, "all_to_all")
    n = main.global_data.size
    lift = (lambda v: v) if isinstance(main, _ManualAxis) else (lambda v: _raise_to_axis(v, main))

    def one(v):
        v = lift(v)
        nd = get_aval(v).ndim
        split, concat = int(split_axis) % nd, int(concat_axis) % nd
        size_split = get_aval(v).shape[split]
        if not tiled and size_split != n:
            raise ValueError(f"all_to_all requires the size of the mapped axis axis_name to equal "
                             f"x.shape[split_axis], but they are {n} and {size_split} respectively.")
        if tiled and size_split % n:
            raise ValueError(f"all_to_all: the split axis {split} has size {size_split}, which is not divisible "
                             f"by the size {n} of axis '{axis_name}'")
        return all_to_all_p.bind(v, axis_name=axis_name, split_axis=split, concat_axis=concat, tiled=bool(tiled),
                                 size=n)
    return tree_map(one, x)


def pswapaxes(x, axis_name, axis, *, axis_index_groups=None):
    """Swap the named (mapped) axis with positional `axis` of x: an all_to_all on `axis`."""
    return all_to_all(x, axis_name, axis, axis, axis_index_groups=axis_index_groups)


# ---- axis_index ---------------------------------------------------------------------------

axis_index_p = Primitive("axis_index")   # only in shard_map bodies: `axis_index[axis_name=i]`
abstract_eval_rules[axis_index_p] = lambda *, axis_name: ShapedArray((), np.dtype(np.int32))
axis_index_p.weak_type_rule = lambda weak, **_: False
impl_rules[axis_index_p] = lambda *, axis_name: _unbound(axis_index_p)(axis_name=axis_name)

def axis_index(axis_name):
    """The position (int32) of the current example/device along the named axis."""
    from ..lax import lax  # INHERENT: up to lax
    from ..transforms.batching import BatchTrace, BatchTracer
    if isinstance(axis_name, (tuple, list)):
        out = None
        for n in axis_name:
            i = axis_index(n)
            out = i if out is None else lax.add(lax.mul(out, lax._const(out, axis_size(n))), i)
        return out
    main = _find_axis(axis_name, "axis_index")
    if isinstance(main, _ManualAxis):
        return axis_index_p.bind(axis_name=axis_name)
    from ..tracing import tracing
    n = main.global_data.size
    if tracing.dynamic_trace is not None and tracing.dynamic_trace.level > main.level:
        # traced by a jit inside the map: the positions are a constant that the jit captures
        # (and the map then batches), as for any value closed over from outside the jit
        return BatchTracer(BatchTrace(main), Array(np.arange(n, dtype=np.int32)), 0)
    return BatchTracer(BatchTrace(main), lax.iota(np.int32, n), 0)


LAX_EXPORTS = {
    "psum": psum, "pmean": pmean, "pmax": pmax, "pmin": pmin, "all_gather": all_gather,
    "axis_index": axis_index, "axis_size": axis_size, "all_to_all": all_to_all,
    "pswapaxes": pswapaxes,
}


# ---- lax area (issue 11): ppermute, pshuffle, psum_scatter -----------------------------------
# ppermute: example/device `dst` receives the value of `src` for each (src, dst) pair (zeros where
# nothing arrives). Batched along its own axis it is a gather of the batch axis.

ppermute_p = Primitive("ppermute")
ppermute_p.batch_always = True
abstract_eval_rules[ppermute_p] = lambda x, axis_name, perm: x
impl_rules[ppermute_p] = _unbound(ppermute_p)


def _check_perm(perm, size):
    srcs, dsts = [s for s, _ in perm], [d for _, d in perm]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(f"ppermute sources and destinations must be unique, got {perm}.")
    if any(not 0 <= i < size for i in srcs + dsts):
        raise ValueError(f"ppermute indices must lie in [0, {size}) for an axis of size {size}, got {perm}.")


def _ppermute_batch(axis_data, vals, dims, axis_name, perm):
    from ..lax import lax  # INHERENT: up to lax
    from ..transforms.batching import bdim_at_front
    (x,), (d,) = vals, dims
    if axis_data.name != axis_name:
        return ppermute_p.bind(x, axis_name=axis_name, perm=perm), d
    n = axis_data.size
    if len(perm) != n:  # (JAX asserts the same under vmap)
        raise ValueError(f"ppermute under vmap needs a full permutation of the axis of size {n}, got {perm}.")
    x = bdim_at_front(x, d, n)
    source = [0] * n
    for s, t in perm:
        source[t] = s
    rows = [lax.index_in_dim(x, s, 0, True) for s in source]
    return lax.concatenate(rows, 0), 0


batch_rules[ppermute_p] = _ppermute_batch
ad.deflinear(ppermute_p, lambda ct, x, axis_name, perm: [
    None if type(ct) is ad.Zero else ppermute_p.bind(ct, axis_name=axis_name, perm=tuple((d, s) for s, d in perm))])


def ppermute(x, axis_name, perm):
    """Send each example's/device's x along the (source, destination) pairs of `perm`."""
    perm = tuple((int(s), int(d)) for s, d in perm)
    try:
        main = _find_axis(axis_name, "ppermute")
    except NameError:  # outside any map, JAX finds no way to evaluate it (its message)
        raise NotImplementedError("Evaluation rule for 'ppermute' not implemented") from None
    _check_perm(perm, main.global_data.size)
    lift = (lambda v: v) if isinstance(main, _ManualAxis) else (lambda v: _raise_to_axis(v, main))
    return tree_map(lambda v: ppermute_p.bind(lift(v), axis_name=axis_name, perm=perm), x)


def pshuffle(x, axis_name, perm):
    """Example/device i receives the value of perm[i]."""
    if sorted(perm) != list(range(len(perm))):
        raise ValueError(f"`perm` does not represent a permutation: {perm}")
    return ppermute(x, axis_name, [(int(src), dst) for dst, src in enumerate(perm)])


def psum_scatter(x, axis_name, *, scatter_dimension=0, axis_index_groups=None, tiled=False):
    """psum, of which each example/device keeps its own chunk of `scatter_dimension` (a block
    of size/n when tiled; one index, dropped, otherwise)."""
    from ..lax import lax  # INHERENT: up to lax
    _no_groups(axis_index_groups)
    n = axis_size(axis_name)

    def one(v):
        v = _as_array(v)
        size = get_aval(v).shape[scatter_dimension]
        if (tiled and size % n) or (not tiled and size != n):
            raise ValueError(f"psum_scatter: dimension {scatter_dimension} of size {size} does not split over "
                             f"axis {axis_name!r} of size {n}" + ("" if tiled else " (untiled needs equal sizes)"))
        total = psum(v, axis_name)
        i = axis_index(axis_name)
        block = size // n if tiled else 1
        start = lax.mul(i, lax._const(i, block)) if block != 1 else i
        out = lax.dynamic_slice_in_dim(total, start, block, scatter_dimension)
        return out if tiled else lax.squeeze(out, (scatter_dimension,))
    return tree_map(one, x)


LAX_EXPORTS.update({"ppermute": ppermute, "ppermute_p": ppermute_p, "pshuffle": pshuffle,
                    "psum_scatter": psum_scatter})
