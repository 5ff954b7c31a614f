"""`jax.Ref` / `jax.new_ref`: JAX's mutable array references. gradpad's arrays are immutable values
and its transformations have no state effects, so refs cannot be created here; the class exists
so that `isinstance(x, jax.Ref)` (which flax.nnx asks) is simply False."""
from __future__ import annotations


class Ref:
    """A mutable array reference (never instantiated in gradpad)."""

    def __init__(self, *args, **kwargs):
        raise _no_refs("jax.Ref")


def _no_refs(what: str) -> NotImplementedError:
    return NotImplementedError(f"{what}: gradpad has no mutable array references (its arrays are immutable "
                               "values); use functional updates such as x.at[i].set(v)")


def new_ref(init_val, *, memory_space=None, kind=None):
    raise _no_refs("jax.new_ref")


def empty_ref(ty, *, memory_space=None):
    raise _no_refs("jax.empty_ref")


def freeze(ref):
    raise _no_refs("jax.freeze")
