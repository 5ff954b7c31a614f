"""Collectives over named axes: `psum`, `pmean`, `pmax`, `pmin`, `all_gather`, `axis_index`.

A named axis is introduced by `vmap(..., axis_name=)` or `pmap(..., axis_name=)` (pmap maps over
virtual devices the same way). The batch trace whose axis carries the name performs the
collective: a reduction over its batch dimension (the result is the same for every example, so
it comes out unbatched), or a broadcast of the whole batch for `all_gather`. Traces of other
names pass the primitive down unchanged.
"""
from __future__ import annotations

import numpy as np

from ..array import Array
from ..rules import abstract_eval_rules, batch_rules, impl_rules, transpose_rules
from ..tracing import Primitive, Tracer, get_aval, trace_stack
from ..transforms import ad
from ..tree_util import tree_map


def _axis_mains():
    """Active named batch axes, innermost last: [(name, main)]."""
    from ..transforms.batching import BatchTrace
    return [(m.global_data.name, m) for m in trace_stack
            if m.trace_type is BatchTrace and m.active and m.global_data.name is not None]


def _find_axis(name, prim_name):
    for n, m in reversed(_axis_mains()):
        if n == name:
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
    if isinstance(x, Array):
        return x
    from .. import numpy as jnp
    return jnp.asarray(x)


def _unbound(prim):
    def impl(*args, axes=None, axis_name=None, **params):
        raise NameError(f"Found an unbound axis name: {_names(axes or axis_name)[0]}. To fix this, please call "
                        f"{prim.name} under `jax.shard_map`.")
    return impl


# ---- psum / pmax / pmin ---------------------------------------------------------------------

def _reducer(name, reduce_fn_name):
    p = Primitive(name)
    p.batch_always = True
    abstract_eval_rules[p] = lambda x, axes: x
    impl_rules[p] = _unbound(p)

    def batch(axis_data, vals, dims, axes):
        from .. import lax
        (x,), (d,) = vals, dims
        here = axis_data.name in axes
        rest = tuple(a for a in axes if a != axis_data.name)
        if rest:
            x = p.bind(x, axes=rest)
        if not here:
            return x, d
        if d is None:  # the same value in every example
            if name == "psum":
                return lax.mul(x, lax._const(x, axis_data.size)), None
            return x, None
        return getattr(lax, reduce_fn_name)(x, (d,)), None
    batch_rules[p] = batch
    p.pp_params = lambda params: [("axes", params["axes"]), ("axis_index_groups", None)]
    return p


psum_p = _reducer("psum", "reduce_sum")
pmax_p = _reducer("pmax", "reduce_max")
pmin_p = _reducer("pmin", "reduce_min")


def _psum_jvp(primals, tangents, axes):
    (x,), (t,) = primals, tangents
    return psum_p.bind(x, axes=axes), psum_p.bind(ad.instantiate(t), axes=axes)


from ..rules import jvp_rules  # noqa: E402

jvp_rules[psum_p] = _psum_jvp
transpose_rules[psum_p] = lambda ct, x, axes: [psum_p.bind(ad.instantiate(ct), axes=axes)]


def _pmax_jvp(prim):
    def jvp(primals, tangents, axes):
        from .. import lax
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axes=axes)
        # tangent of the winning example(s), averaged over ties, as JAX's balanced rule
        winners = lax.convert_element_type(lax.eq(x, out), get_aval(x).dtype)
        count = psum_p.bind(winners, axes=axes)
        return out, lax.div(psum_p.bind(lax.mul(ad.instantiate(t), winners), axes=axes), count)
    return jvp


jvp_rules[pmax_p] = _pmax_jvp(pmax_p)
jvp_rules[pmin_p] = _pmax_jvp(pmin_p)


def _collective(prim, x, axis_name):
    names = _names(axis_name)
    mains = [_find_axis(n, prim.name) for n in names]
    inner = max(mains, key=lambda m: m.level)

    def one(v):
        return prim.bind(_raise_to_axis(v, inner), axes=names)
    return tree_map(one, x)


def psum(x, axis_name, *, axis_index_groups=None):
    """Sum of x over every example/device of the named axis."""
    return _collective(psum_p, x, axis_name)


def pmax(x, axis_name, *, axis_index_groups=None):
    return _collective(pmax_p, x, axis_name)


def pmin(x, axis_name, *, axis_index_groups=None):
    return _collective(pmin_p, x, axis_name)


def pmean(x, axis_name, *, axis_index_groups=None):
    """Mean over the named axis: psum(x) / axis size."""
    n = axis_size(axis_name)
    from .. import lax
    return tree_map(lambda s: lax.div(s, lax._const(s, n)), psum(x, axis_name))


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
    from .. import lax
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


def all_gather(x, axis_name, *, axis_index_groups=None, axis=0, tiled=False):
    """Every example/device gets the stacked values of all of them (along `axis`)."""
    main = _find_axis(axis_name, "all_gather")
    n = main.global_data.size
    return tree_map(lambda v: all_gather_p.bind(_raise_to_axis(v, main), axis_name=axis_name, axis=int(axis),
                                                tiled=bool(tiled), size=n), x)


# ---- axis_index ---------------------------------------------------------------------------

def axis_index(axis_name):
    """The position (int32) of the current example/device along the named axis."""
    from .. import lax
    from ..transforms.batching import BatchTrace, BatchTracer
    if isinstance(axis_name, (tuple, list)):
        out = None
        for n in axis_name:
            i = axis_index(n)
            out = i if out is None else lax.add(lax.mul(out, lax._const(out, axis_size(n))), i)
        return out
    main = _find_axis(axis_name, "axis_index")
    return BatchTracer(BatchTrace(main), lax.iota(np.int32, main.global_data.size), 0)


LAX_EXPORTS = {
    "psum": psum, "pmean": pmean, "pmax": pmax, "pmin": pmin, "all_gather": all_gather,
    "axis_index": axis_index, "axis_size": axis_size,
}
