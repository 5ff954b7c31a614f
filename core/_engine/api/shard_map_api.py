"""`jax.shard_map` and `jax.smap` over a mesh of one device (gradpad's CPU backend runs one
device per process; `jax.pmap` covers virtual multi-device meshes).

On a one-device mesh every block is the whole array, so the body runs once on its arguments
with each mesh axis bound as a named axis of size 1: collectives see one participant
(`psum(x, 'x')` is x, `axis_index('x')` is 0, `all_gather(x, 'x')` stacks one block), which is
what JAX's shard_map over such a mesh computes. The binding is a vmap of size 1 per axis, so the
body traces, jits, differentiates and vmaps like any function.
"""
from __future__ import annotations

import functools

from ..base.sharding import PartitionSpec, Shard, get_mesh  # noqa: F401  (jax.Shard, re-exported)
from ..base.tree_util import tree_flatten, tree_map


class _Infer:
    def __repr__(self):
        return "jax.sharding.Infer"


Infer = _Infer()


def _spec_axes(spec):
    axes = []
    for entry in spec:
        if entry is None or entry is PartitionSpec.UNCONSTRAINED:
            continue
        axes.extend(entry if isinstance(entry, tuple) else (entry,))
    return axes


def _check_specs(kind, specs, values, mesh):
    """Each spec names mesh axes and fits its value's rank (specs may be a tree prefix)."""
    flat_specs, _ = tree_flatten(specs, is_leaf=lambda s: s is None or isinstance(s, PartitionSpec))
    for spec in flat_specs:
        if spec is None:
            continue
        if not isinstance(spec, PartitionSpec):
            raise TypeError(f"shard_map {kind} must be PartitionSpecs (jax.P(...)) or None, got {spec!r}")
        for name in _spec_axes(spec):
            if name not in mesh.axis_names:
                raise ValueError(f"shard_map {kind} {spec} refers to axis {name!r}, which is not in the mesh "
                                 f"axes {mesh.axis_names}")


def _run_on_one_device(f, mesh, names, args, out_specs):
    from .api import vmap
    from ..libraries import numpy as jnp
    body = f
    for name in reversed(names):
        body = vmap(body, axis_name=name)
    lift = tree_map(lambda x: jnp.asarray(x).reshape((1,) * len(names) + jnp.shape(x)), list(args))
    outs = body(*lift)
    drop = tuple(range(len(names)))
    outs = tree_map(lambda o: o.reshape(o.shape[len(drop):]), outs)
    _check_specs("out_specs", out_specs, outs, mesh)
    return outs


def _resolve_mesh(mesh):
    m = mesh if mesh is not None else get_mesh()
    if m.empty:
        raise ValueError("The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh context")
    if m.size != 1:
        raise NotImplementedError(
            f"jax.shard_map over a mesh of {m.size} devices is not available in gradpad: its CPU backend runs "
            "one device. Use a one-device mesh (jax.make_mesh((1,), ('x',))), or jax.pmap, which runs "
            "virtual devices (GRADPAD_DEVICES=8).")
    return m


def shard_map(f=None, /, *, out_specs, in_specs=Infer, mesh=None, axis_names=frozenset(), check_vma=True):
    """f mapped over the blocks of its arguments on `mesh` (one device here: see the module doc)."""
    if f is None:
        return lambda g: shard_map(g, out_specs=out_specs, in_specs=in_specs, mesh=mesh,
                                   axis_names=axis_names, check_vma=check_vma)
    if not callable(f):
        raise TypeError(f"shard_map requires a callable for its first argument, but got {f!r} of type {type(f)}.")

    @functools.wraps(f)
    def mapped(*args):
        m = _resolve_mesh(mesh)
        names = tuple(n for n in m.axis_names if not axis_names or n in axis_names)
        if in_specs is not Infer:
            _check_specs("in_specs", in_specs, args, m)
        return _run_on_one_device(f, m, names, args, out_specs)
    return mapped


def smap(f=None, /, *, in_axes=Infer, out_axes, axis_name):
    """shard_map over the single mesh axis `axis_name` of the context mesh (one device here)."""
    if f is None:
        return lambda g: smap(g, in_axes=in_axes, out_axes=out_axes, axis_name=axis_name)

    @functools.wraps(f)
    def mapped(*args):
        m = _resolve_mesh(None)
        if axis_name not in m.axis_names:
            raise ValueError(f"smap's axis_name {axis_name!r} is not an axis of the context mesh {m.axis_names}")
        return _run_on_one_device(f, m, (axis_name,), args, None)
    return mapped
