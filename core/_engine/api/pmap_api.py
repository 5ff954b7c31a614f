"""`jax.pmap` over the CPU backend's virtual devices, staged as JAX 0.10.2 stages it: a jitted
`_fun` whose body is a `shard_map` over a one-axis mesh.

`shard_map`'s body sees one device's block (leading axis of size 1 for mapped arguments) and
may use named collectives (`psum[axes=('i',)]`, `axis_index[axis_name=i]`). The numpy backend
runs every device in one process: executing a shard_map evaluates its body for all devices at
once as a vmap over the device axis, where the named collectives become reductions. Devices come
from `jax_num_cpu_devices` (default 1; `GRADPAD_DEVICES=8` or
`jax.config.update('jax_num_cpu_devices', 8)`); the mapped size may not exceed them.
"""
from __future__ import annotations

import functools
import weakref

from ..base.avals import ShapedArray
from ..base.devices import device_count
from ..tracing.jaxpr import ClosedJaxpr, Jaxpr, Literal
from ..tracing.rules import abstract_eval_rules, batch_rules, impl_rules, jaxpr_compiler, jvp_rules, linearize_rules, transpose_rules
from ..tracing.tracing import Primitive, get_aval
from ..transforms import ad
from ..base.tree_util import tree_flatten, tree_unflatten

__all__ = ["pmap"]

_DEFAULT_AXIS = "_internal_pmap_axis_name"


# ---- mesh and partition specs (printed as JAX prints them) ----------------------------------

class PartitionSpec:
    """P('i',): the leading axis is split over mesh axis 'i'; P(): replicated."""
    __slots__ = ("names",)

    def __init__(self, *names):
        self.names = names

    def __bool__(self):
        return bool(self.names)

    def __eq__(self, other):
        return isinstance(other, PartitionSpec) and other.names == self.names

    def __hash__(self):
        return hash(self.names)

    def __repr__(self):
        return "P(" + "".join(f"{n!r}," for n in self.names) + ")"

    __str__ = __repr__


class Mesh:
    __slots__ = ("name", "size")

    def __init__(self, name, size):
        self.name, self.size = name, int(size)

    def __repr__(self):
        return f"Mesh({self.name!r}: {self.size}, axis_types=(Auto,))"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, Mesh) and (other.name, other.size) == (self.name, self.size)

    def __hash__(self):
        return hash((self.name, self.size))


# ---- the shard_map primitive ------------------------------------------------------------

shard_map_p = Primitive("shard_map", multiple_results=True)


def _full_aval(a: ShapedArray, spec, n) -> ShapedArray:
    return a.update(shape=(a.shape[0] * n,) + a.shape[1:]) if spec else a


def _block_aval(a: ShapedArray, spec, n) -> ShapedArray:
    return a.update(shape=(a.shape[0] // n,) + a.shape[1:]) if spec else a


def _abstract(*args, jaxpr, mesh, in_specs, out_specs, check_vma, newly_manual_axes):
    return [_full_aval(a, s, mesh.size) for a, s in zip(jaxpr.out_avals, out_specs)]


abstract_eval_rules[shard_map_p] = _abstract
shard_map_p.weak_type_rule = lambda weak, jaxpr, **_: [a.weak_type for a in jaxpr.out_avals]


def _bind(args, jaxpr, mesh, in_specs, out_specs):
    return shard_map_p.bind(*args, jaxpr=jaxpr, mesh=mesh, in_specs=tuple(in_specs), out_specs=tuple(out_specs),
                            check_vma=False, newly_manual_axes=frozenset({mesh.name}))


def _manual(mesh):
    from ..primitives.collectives import manual_axis
    return manual_axis(mesh.name, mesh.size)


def _eval_body(jaxpr: Jaxpr, args):
    """Evaluate a block body; named collectives are bound through their axis (a constant operand,
    or none for `axis_index`, would otherwise never reach the vmap that performs them)."""
    from ..primitives import collectives as col
    from ..tracing.tracing import bind
    from ..transforms.staging import literal_array
    env = dict(zip(jaxpr.invars, args))
    reducers = (col.psum_p, col.pmax_p, col.pmin_p)

    def read(v):
        return literal_array(v) if isinstance(v, Literal) else env[v]
    for eqn in jaxpr.eqns:
        if eqn.primitive is col.axis_index_p:
            outs = [col.axis_index(eqn.params["axis_name"])]
        elif eqn.primitive in reducers:
            outs = [col._bind_named(eqn.primitive, read(eqn.invars[0]), eqn.params["axes"])]
        else:
            outs = bind(eqn.primitive, *[read(v) for v in eqn.invars], **eqn.params)
            outs = outs if eqn.primitive.multiple_results else [outs]
        env.update(zip(eqn.outvars, outs))
    return [read(v) for v in jaxpr.outvars]


_programs: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _device_program(jaxpr: ClosedJaxpr, mesh, in_specs, out_specs):
    """All devices at once: the body vmapped over the device axis (named collectives reduce)."""
    key = (mesh, in_specs, out_specs)
    cached = _programs.get(jaxpr, {}).get(key)
    if cached is not None:
        return cached
    from ..lax import lax
    from ..primitives.control_flow import _trace
    from ..transforms.batching import batch_flat
    n = mesh.size
    in_avals = [_full_aval(a, s, n) for a, s in zip(jaxpr.in_avals, in_specs)]

    def run(*full):
        blocks = [lax.reshape(x, (n,) + a.shape) if s else x for x, a, s in zip(full, jaxpr.in_avals, in_specs)]
        outs = batch_flat(lambda *b: _eval_body(jaxpr.jaxpr, b), n, mesh.name, blocks,
                          [0 if s else None for s in in_specs], lambda k: [0] * k)
        return [lax.reshape(o, (n * get_aval(o).shape[1],) + get_aval(o).shape[2:]) if s
                else lax.index_in_dim(o, 0, 0, keepdims=False) for o, s in zip(outs, out_specs)]
    program = _trace(run, in_avals)
    _programs.setdefault(jaxpr, {})[key] = program
    return program


def _impl(*args, jaxpr, mesh, in_specs, out_specs, check_vma, newly_manual_axes):
    cpu = jaxpr_compiler[0]
    program, consts = _device_program(jaxpr, mesh, in_specs, out_specs)
    from ..tracing.array import to_numpy
    return cpu.compiled(program)(*[to_numpy(c) for c in consts], *args)


impl_rules[shard_map_p] = _impl


def _jvp(primals, tangents, jaxpr, mesh, in_specs, out_specs, **_):
    from ..primitives.control_flow import _jvp_jaxpr
    nz = [type(t) is not ad.Zero for t in tangents]
    with _manual(mesh):
        jj, consts, out_nz = _jvp_jaxpr(jaxpr, nz, False)
    specs_in = [PartitionSpec()] * len(consts) + list(in_specs) + [s for s, z in zip(in_specs, nz) if z]
    specs_out = list(out_specs) + [s for s, z in zip(out_specs, out_nz) if z]
    outs = _bind([*consts, *primals, *[t for t in tangents if type(t) is not ad.Zero]], jj, mesh, specs_in, specs_out)
    k = len(out_specs)
    it = iter(outs[k:])
    return outs[:k], [next(it) if z else ad.Zero(get_aval(p)) for p, z in zip(outs[:k], out_nz)]


jvp_rules[shard_map_p] = _jvp


def _linearize(trace, tracers, jaxpr, mesh, in_specs, out_specs, **_):
    """Primal shard_map returning per-device residuals (as blocks) + a linear shard_map."""
    from ..lax import lax
    from ..primitives.control_flow import _linearize_jaxpr, _trace
    from ..transforms.staging import eval_jaxpr
    primals = [t.primal for t in tracers]
    tangents = [t.tangent for t in tracers]
    nz = [type(t) is not ad.Zero for t in tangents]
    with _manual(mesh):
        known, kconsts, lin, n_out = _linearize_jaxpr(jaxpr, nz)

        def known_blocks(*xs):  # residuals leave each device as a block of one
            outs = eval_jaxpr(known.jaxpr, [], *xs)
            return outs[:n_out] + [lax.broadcast_in_dim(r, (1,) + get_aval(r).shape,
                                                        tuple(range(1, get_aval(r).ndim + 1))) for r in outs[n_out:]]
        kb, kb_consts = _trace(known_blocks, known.in_avals)
        n_res = len(lin.constvars)
        res_avals = [v.aval for v in lin.constvars]
        lin_j = Jaxpr([], lin.constvars + lin.invars, lin.outvars, lin.eqns)

        def linear_blocks(*xs):
            return eval_jaxpr(lin_j, [], *[lax.squeeze(r, (0,)) for r in xs[:n_res]], *xs[n_res:])
        lb, lb_consts = _trace(linear_blocks, [a.update(shape=(1,) + a.shape) for a in res_avals]
                               + [ad.tangent_aval(a) for a, z in zip(jaxpr.in_avals, nz) if z])
    rep = PartitionSpec(mesh.name)
    known_out = _bind([*kb_consts, *kconsts, *primals], kb, mesh,
                      [PartitionSpec()] * (len(kb_consts) + len(kconsts)) + list(in_specs),
                      list(out_specs) + [rep] * n_res)
    tan_out = _bind([*lb_consts, *known_out[n_out:], *[t for t in tangents if type(t) is not ad.Zero]], lb, mesh,
                    [PartitionSpec()] * len(lb_consts) + [rep] * n_res + [s for s, z in zip(in_specs, nz) if z],
                    list(out_specs))
    return [trace.tracer_type(trace, p, t) for p, t in zip(known_out[:n_out], tan_out)]


linearize_rules[shard_map_p] = _linearize


def _transpose(cts, *args, jaxpr, mesh, in_specs, out_specs, **_):
    """Each device transposes its block; a replicated input's cotangent is summed over devices."""
    from ..primitives.call import _backward_with_residuals
    from ..primitives.collectives import psum_p
    from ..primitives.control_flow import _trace
    n = mesh.size
    lin = [ad.is_undefined(a) for a in args]
    res = [a for a in args if not ad.is_undefined(a)]
    res_specs = [s for s, l in zip(in_specs, lin) if not l]
    out_full = [_full_aval(a, s, n) for a, s in zip(jaxpr.out_avals, out_specs)]
    cts = [ad.zeros_like_aval(a) if type(c) is ad.Zero else c for c, a in zip(cts, out_full)]
    lin_specs = [s for s, l in zip(in_specs, lin) if l]

    def body(*xs):
        r_it = iter(xs[:len(res)])
        env = [None if l else next(r_it) for l in lin]
        outs = [ad.instantiate(o) for o in _backward_with_residuals(jaxpr, env, lin, list(xs[len(res):]))]
        return [o if s else psum_p.bind(o, axes=(mesh.name,)) for o, s in zip(outs, lin_specs)]
    with _manual(mesh):
        tj, tconsts = _trace(body, [_block_aval(get_aval(r), s, n) for r, s in zip(res, res_specs)]
                             + [_block_aval(get_aval(c), s, n) for c, s in zip(cts, out_specs)])
    outs = _bind([*tconsts, *res, *cts], tj, mesh, [PartitionSpec()] * len(tconsts) + res_specs + list(out_specs),
                 lin_specs)
    it = iter(outs)
    return [next(it) if l else None for l in lin]


transpose_rules[shard_map_p] = _transpose


def _batch(axis_data, vals, dims, jaxpr, mesh, in_specs, out_specs, **_):
    """vmap of a shard_map: the batch axis rides inside each block, right after the device axis."""
    from ..primitives.control_flow import _trace
    from ..transforms.batching import batched_body, moveaxis
    args, body_dims = [], []
    for x, d, s in zip(vals, dims, in_specs):
        if d is not None and s:
            x, d = moveaxis(x, d, 1), 1
        args.append(x)
        body_dims.append(d)
    fun, in_avals, out_bat = batched_body(jaxpr, axis_data, body_dims)

    def body(*xs):  # a mapped output keeps its device axis first, the batch axis after it
        return [moveaxis(o, 0, 1) if b and s else o for o, b, s in zip(fun(*xs), out_bat, out_specs)]
    with _manual(mesh):
        bj, bconsts = _trace(body, in_avals)
    outs = _bind([*bconsts, *args], bj, mesh, [PartitionSpec()] * len(bconsts) + list(in_specs), list(out_specs))
    return outs, [(1 if s else 0) if b else None for b, s in zip(out_bat, out_specs)]


batch_rules[shard_map_p] = _batch


# ---- pmap ---------------------------------------------------------------------------------

def _too_many_devices(n: int, available: int) -> ValueError:
    return ValueError(
        f"compiling computation that requires {n} logical devices, but only {available} XLA devices are "
        f"available (num_replicas={n})\nHint: the leading axis of pmap's mapped inputs is the device axis; "
        f"reshape your data to ({available}, -1, ...) or raise the device count with "
        f"jax.config.update('jax_num_cpu_devices', {n}) (or GRADPAD_DEVICES={n}) before first use.")


def pmap(fun=None, axis_name=None, *, in_axes=0, out_axes=0, static_broadcasted_argnums=(), devices=None,
         backend=None, axis_size=None, donate_argnums=(), global_arg_shapes=None):
    """Map `fun` over the leading axis of its inputs, one slice per (virtual) device."""
    if fun is None:
        return functools.partial(pmap, axis_name=axis_name, in_axes=in_axes, out_axes=out_axes,
                                 static_broadcasted_argnums=static_broadcasted_argnums, devices=devices,
                                 backend=backend, axis_size=axis_size, donate_argnums=donate_argnums)
    if isinstance(static_broadcasted_argnums, int):
        static_broadcasted_argnums = (static_broadcasted_argnums,)
    static = tuple(sorted(int(i) for i in static_broadcasted_argnums))
    name = _DEFAULT_AXIS if axis_name is None else axis_name
    cache: dict = {}

    @functools.wraps(fun)
    def pmapped(*args, **kwargs):
        from .api import _as_array, _prefix_leaves, jit
        statics = tuple(args[i] for i in static if i < len(args))
        dyn = tuple(a for i, a in enumerate(args) if i not in static)
        axes = tuple(in_axes) if isinstance(in_axes, list) else in_axes
        if isinstance(axes, tuple) and static and len(axes) == len(args):
            axes = tuple(a for i, a in enumerate(axes) if i not in static)
        flat, in_tree = tree_flatten((dyn, kwargs))
        flat = [_as_array(x) for x in flat]
        leaf_axes = _prefix_leaves(axes if isinstance(axes, tuple) else (axes,) * len(dyn), dyn, "pmap in_axes")
        leaf_axes = leaf_axes + [0] * (len(flat) - len(leaf_axes))
        for i, (x, a) in enumerate(zip(flat, leaf_axes)):
            rank = len(get_aval(x).shape)
            if a is not None and not -rank <= a < rank:  # JAX 0.10.2 raises ValueError (a sharding rank error)
                raise ValueError(
                    f"pmap was asked to map flat_args[{i}] (rank {rank}) along axis {a}: its rank must be at "
                    f"least {a + 1 if a >= 0 else -a}. Give it a mapped axis, or pass in_axes=None for it (or "
                    f"static_broadcasted_argnums for a Python value).")
        sizes = {get_aval(x).shape[a] for x, a in zip(flat, leaf_axes) if a is not None}
        if len(sizes) > 1:
            raise ValueError(f"pmap got inconsistent sizes for array axes to be mapped: {sorted(sizes)}")
        n = axis_size if axis_size is not None else (sizes.pop() if sizes else None)
        if n is None:
            raise ValueError("pmap requires at least one argument with a mapped axis.")
        available = len(devices) if devices is not None else device_count()
        if n > available:
            raise _too_many_devices(n, available)
        key = (statics, in_tree, tuple(leaf_axes), n)
        entry = cache.get(key)
        if entry is None:
            out_tree = []

            def _fun(*xs):  # the name JAX gives the jitted pmap body
                outs, tree = _pmap_body(fun, xs, leaf_axes, in_tree, statics, static, len(args), name, n, out_axes)
                out_tree[:] = [tree]
                return outs
            entry = cache[key] = (jit(_fun), out_tree)
        f, out_tree = entry
        out_flat = f(*flat)
        return tree_unflatten(out_tree[0], out_flat)
    return pmapped


def _pmap_body(fun, xs, leaf_axes, in_tree, statics, static, n_args, name, n, out_axes):
    from ..lax import lax
    from ..primitives.control_flow import _trace
    from ..transforms.batching import moveaxis
    mesh = Mesh(name, n)
    xs = [moveaxis(x, a, 0) if a not in (None, 0) else x for x, a in zip(xs, leaf_axes)]
    specs = [PartitionSpec(name) if a is not None else PartitionSpec() for a in leaf_axes]
    box = []

    def body(*blocks):
        leaves = [lax.squeeze(b, (0,)) if s else b for b, s in zip(blocks, specs)]
        dyn, kwargs = tree_unflatten(in_tree, leaves)
        it = iter(dyn)
        full = [statics[static.index(i)] if i in static else next(it) for i in range(n_args)]
        out = fun(*full, **kwargs)
        leaves, tree = tree_flatten(out)
        box[:] = [tree, out]
        from .api import _as_array
        leaves = [_as_array(o) for o in leaves]
        return [lax.broadcast_in_dim(o, (1,) + get_aval(o).shape, tuple(range(1, get_aval(o).ndim + 1)))
                for o in leaves]
    block_avals = [get_aval(x).update(shape=(1,) + get_aval(x).shape[1:]) if s else get_aval(x)
                   for x, s in zip(xs, specs)]
    with _manual(mesh):
        body_jaxpr, consts = _trace(body, block_avals)
    tree, out = box
    out_specs = [PartitionSpec(name)] * len(body_jaxpr.out_avals)
    outs = _bind([*consts, *xs], body_jaxpr, mesh, [PartitionSpec()] * len(consts) + specs, out_specs)
    from .api import _prefix_leaves
    o_axes = _prefix_leaves(out_axes, out, "pmap out_axes") if not isinstance(out_axes, int) else [out_axes] * len(outs)
    outs = [lax.index_in_dim(o, 0, 0, keepdims=False) if a is None else moveaxis(o, 0, a) if a else o
            for o, a in zip(outs, o_axes)]
    return outs, tree
