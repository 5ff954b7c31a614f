"""lax operations that steer compilation rather than compute: optimization_barrier, dce_sink,
stage, tokens (create_token, after_all), with_sharding_constraint, shape_as_value,
platform_dependent and composite. On one CPU-like device most are identities; each keeps
JAX's values, tree structure and errors."""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import abstract_eval_rules, batch_rules, impl_rules, transpose_rules
from ..tracing.tracing import Primitive, get_aval
from ..transforms import ad
from . import define


def _flat(x):
    from ..base.tree_util import tree_flatten
    return tree_flatten(x)


def _as_operand(x):
    from .shaping import _as_array
    return _as_array(x)


# ---- optimization_barrier: an identity the compiler may not move work across --------------

optimization_barrier_p = define("optimization_barrier", multiple_results=True,
                                abstract_eval=lambda *xs: [ShapedArray(x.shape, x.dtype, x.weak_type) for x in xs],
                                impl=lambda *xs: [np.asarray(x) for x in xs],
                                weak_type_rule=lambda w: list(w))


def _barrier_jvp(primals, tangents):
    outs = optimization_barrier_p.bind(*primals)
    live = [t for t in tangents if type(t) is not ad.Zero]
    moved = iter(optimization_barrier_p.bind(*live) if live else [])
    return outs, [t if type(t) is ad.Zero else next(moved) for t in tangents]


ad.jvp_rules[optimization_barrier_p] = _barrier_jvp
transpose_rules[optimization_barrier_p] = lambda cts, *xs: [None if type(c) is ad.Zero else c for c in cts]
batch_rules[optimization_barrier_p] = lambda axis_data, vals, dims: (optimization_barrier_p.bind(*vals), list(dims))


def optimization_barrier(operand, /):
    from ..base.tree_util import tree_unflatten
    leaves, tree = _flat(operand)
    return tree_unflatten(tree, optimization_barrier_p.bind(*[_as_operand(x) for x in leaves]))


# ---- dce_sink: consumes a value so that dead-code elimination keeps it ----------------------

dce_sink_p = define("dce_sink", multiple_results=True, abstract_eval=lambda x, prevent_mlir_dce: [],
                    impl=lambda x, prevent_mlir_dce: [])
dce_sink_p.effectful = True
ad.jvp_rules[dce_sink_p] = lambda primals, tangents, prevent_mlir_dce: (
    dce_sink_p.bind(*primals, prevent_mlir_dce=prevent_mlir_dce), [])
batch_rules[dce_sink_p] = lambda axis_data, vals, dims, prevent_mlir_dce: (
    dce_sink_p.bind(*vals, prevent_mlir_dce=prevent_mlir_dce), [])


def dce_sink(val, *, prevent_mlir_dce=False):
    for x in _flat(val)[0]:
        dce_sink_p.bind(_as_operand(x), prevent_mlir_dce=bool(prevent_mlir_dce))
    return None


# ---- stage: a value as an array (traced values pass through) -------------------------------

stage_p = define("stage", abstract_eval=lambda x: ShapedArray(x.shape, x.dtype, x.weak_type),
                 impl=lambda x: np.asarray(x))
ad.deflinear(stage_p, lambda ct, x: [None if type(ct) is ad.Zero else ct])
batch_rules[stage_p] = lambda axis_data, vals, dims: (stage_p.bind(vals[0]), dims[0])


def stage(x, /):
    return _as_operand(x)  # JAX stages nothing for it: `{ lambda ; a. let  in (a,) }`


# ---- tokens -------------------------------------------------------------------------------

class Token:
    """An ordering token (JAX threads them through side-effecting operations; values never
    depend on them here, so any token is as good as another)."""
    __slots__ = ()

    def block_until_ready(self):
        return self


def _token_prim(name):
    p = Primitive(name)

    def no_aval(*args, **params):
        raise NotImplementedError(f"{name}: tokens are not staged into gradpad's jaxprs; call lax.{name}() "
                                  "directly (it returns a Token)")
    abstract_eval_rules[p] = no_aval
    impl_rules[p] = lambda *args, **params: Token()
    return p


create_token_p = _token_prim("create_token")
after_all_p = _token_prim("after_all")


def create_token(_=None):
    return Token()


def after_all(*operands):
    for t in operands:
        if not isinstance(t, Token):
            raise TypeError(f"after_all operands must be tokens, got {type(t).__name__}")
    return Token()


# ---- with_sharding_constraint -------------------------------------------------------------

sharding_constraint_p = define("sharding_constraint", abstract_eval=lambda x, sharding: ShapedArray(
    x.shape, x.dtype, x.weak_type), impl=lambda x, sharding: np.asarray(x))
ad.deflinear(sharding_constraint_p, lambda ct, x, sharding: [None if type(ct) is ad.Zero else ct])
batch_rules[sharding_constraint_p] = lambda axis_data, vals, dims, sharding: (vals[0], dims[0])


def with_sharding_constraint(x, shardings):
    """One device holds everything: the constraint is checked, then x is returned unchanged."""
    from ..base.sharding import PartitionSpec, get_mesh
    from ..base.tree_util import tree_leaves, tree_map
    specs = tree_leaves(shardings, is_leaf=lambda s: isinstance(s, PartitionSpec) or s is None)
    if any(isinstance(s, PartitionSpec) for s in specs):
        mesh = get_mesh()
        if mesh is None or getattr(mesh, "empty", False) or not getattr(mesh, "shape", True):
            raise RuntimeError("with_sharding_constraint requires a non-empty mesh in context if you are passing "
                               "`PartitionSpec`s to shardings. You can define a context mesh via "
                               "`jax.set_mesh(mesh)`. Alternatively, provide `Sharding`s to shardings and then the "
                               "mesh context manager is not required.")
    return tree_map(_as_operand, x)


# ---- device_put_p: the primitive jax.device_put stages (one device: values pass through) ---

device_put_p = define("device_put", multiple_results=True,
                      abstract_eval=lambda *xs, devices, srcs, copy_semantics: [
                          ShapedArray(x.shape, x.dtype, x.weak_type) for x in xs],
                      impl=lambda *xs, devices, srcs, copy_semantics: [np.asarray(x) for x in xs],
                      weak_type_rule=lambda w, **p: list(w))
ad.deflinear(device_put_p, lambda cts, *xs, **p: [None if type(c) is ad.Zero else c for c in cts])
batch_rules[device_put_p] = lambda axis_data, vals, dims, **p: (device_put_p.bind(*vals, **p), list(dims))


# ---- shape_as_value, platform_dependent ---------------------------------------------------

def shape_as_value(shape):
    """A static shape as an int32 numpy array (JAX returns numpy here too)."""
    return np.asarray([int(d) for d in shape], np.int32)


_PLATFORM = "cpu"  # where gradpad's lax runs (the WebGPU backend lowers the same jaxprs)


def platform_dependent(*args, default=None, **per_platform):
    """Call the branch for this platform (cpu), else `default`."""
    branch = per_platform.get(_PLATFORM, default)
    if branch is None:
        names = tuple((p,) for p in per_platform)
        raise NotImplementedError(f"MLIR translation rule for primitive 'platform_index(platforms={names})' not "
                                  f"found for platform {_PLATFORM}")
    return branch(*args)


# ---- composite: a named decomposition, staged as one equation -----------------------------

composite_p = Primitive("composite")
composite_p.multiple_results = True


def _composite_abstract(*avals, name, attributes, version, jaxpr):
    return [v.aval for v in jaxpr.jaxpr.outvars]


def _composite_impl(*args, name, attributes, version, jaxpr):
    from ..tracing.array import Array, to_numpy
    from ..transforms.staging import eval_closed_jaxpr
    return [to_numpy(o) for o in eval_closed_jaxpr(jaxpr, *[Array(np.asarray(a)) for a in args])]


def _composite_jvp(primals, tangents, **params):
    raise ValueError("JVP rule for composite not implemented. You can use `jax.custom_jvp` to add support. See "
                     "https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html")


def _composite_batch(axis_data, vals, dims, **params):
    raise NotImplementedError("Batching rule for 'composite' not implemented")  # (JAX has none either)


abstract_eval_rules[composite_p] = _composite_abstract
impl_rules[composite_p] = _composite_impl
ad.jvp_rules[composite_p] = _composite_jvp
batch_rules[composite_p] = _composite_batch


def composite(decomposition, name, version=0):
    """Wrap `decomposition` so that it stages as one `composite` equation named `name`;
    keyword arguments become static attributes."""
    import functools

    @functools.wraps(decomposition)
    def call(*args, **kwargs):
        from ..transforms.staging import trace_to_closed_jaxpr
        from ..base.tree_util import tree_unflatten
        leaves, tree = _flat(args)
        leaves = [_as_operand(x) for x in leaves]
        avals = [ShapedArray(get_aval(x).shape, get_aval(x).dtype, get_aval(x).weak_type) for x in leaves]
        out_tree = []

        def flat_fun(*xs):
            out, t = _flat(decomposition(*tree_unflatten(tree, list(xs)), **kwargs))
            out_tree[:] = [t]
            return out
        cj = trace_to_closed_jaxpr(flat_fun, avals)
        outs = composite_p.bind(*leaves, name=name, attributes=tuple(sorted(kwargs.items())), version=int(version),
                                jaxpr=cj)
        return tree_unflatten(out_tree[0], outs)
    return call


LAX_EXPORTS = {
    "optimization_barrier": optimization_barrier, "optimization_barrier_p": optimization_barrier_p,
    "dce_sink": dce_sink, "dce_sink_p": dce_sink_p, "stage": stage, "stage_p": stage_p,
    "create_token": create_token, "create_token_p": create_token_p, "after_all": after_all,
    "after_all_p": after_all_p, "with_sharding_constraint": with_sharding_constraint,
    "sharding_constraint_p": sharding_constraint_p, "shape_as_value": shape_as_value,
    "platform_dependent": platform_dependent, "composite": composite, "device_put_p": device_put_p,
}
