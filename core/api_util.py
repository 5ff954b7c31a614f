"""`jax.api_util`: helpers for building transformations out of linear_util functions (flax.linen's
scan and partial evaluation use them)."""
from __future__ import annotations

from .extend.core import DebugInfo
from .extend.linear_util import Store, WrappedFun
from ._engine.tracing.tracing import get_aval
from .tree_util import tree_flatten, tree_unflatten


def debug_info(traced_for: str, fun, args, kwargs, *, static_argnums=(), static_argnames=(),
               result_paths_thunk=None, sourceinfo=None, signature=None) -> DebugInfo:
    name = getattr(fun, "__name__", type(fun).__name__)
    return DebugInfo(traced_for, name, None, None)


def _flat_wrapped(f: WrappedFun, in_tree, takes_kwargs: bool):
    store = Store()

    def flat(*leaves):
        if takes_kwargs:
            args, kwargs = tree_unflatten(in_tree, leaves)
        else:
            args, kwargs = tree_unflatten(in_tree, leaves), {}
        out = f.f(*args, **kwargs, **dict(f.params))
        out_leaves, out_tree = tree_flatten(out)
        store.store(out_tree)
        return out_leaves
    return WrappedFun(flat, {}, f.debug_info), store


def flatten_fun_nokwargs(f: WrappedFun, in_tree):
    """(flat_f, out_tree): flat_f takes and returns flat leaves; out_tree() is the output's
    structure once flat_f has run. `in_tree` describes the positional-argument tuple."""
    return _flat_wrapped(f, in_tree, takes_kwargs=False)


def flatten_fun(f: WrappedFun, in_tree):
    """Like flatten_fun_nokwargs, with `in_tree` describing (args, kwargs)."""
    return _flat_wrapped(f, in_tree, takes_kwargs=True)


def shaped_abstractify(x):
    return get_aval(x)


def safe_map(f, *args):
    lengths = {len(a) for a in args}
    if len(lengths) > 1:
        raise ValueError(f"length mismatch: {[len(a) for a in args]}")
    return list(map(f, *args))


__all__ = ["debug_info", "flatten_fun", "flatten_fun_nokwargs", "safe_map", "shaped_abstractify"]
