"""`jax.ref`: JAX's mutable array references (`jax.ref.new_ref`, `get`, `set`, ...). gradpad has
none (see core/_engine/api/refs.py): every name exists, so code that only mentions them imports, and each
call raises NotImplementedError naming why and what to write instead."""
from __future__ import annotations

from .refs import Ref, _no_refs, empty_ref, freeze, new_ref


class AbstractRef:
    """The abstract value of a Ref (never instantiated in gradpad)."""

    def __init__(self, *args, **kwargs):
        raise _no_refs("jax.ref.AbstractRef")


def get(ref, idx=()):
    raise _no_refs("jax.ref.get")


def set(ref, idx, value):  # noqa: A001  (JAX's name)
    raise _no_refs("jax.ref.set")


def swap(ref, idx, value, _function_name="ref_swap"):
    raise _no_refs("jax.ref.swap")


def addupdate(ref, idx, x):
    raise _no_refs("jax.ref.addupdate")


def free_ref(ref):
    raise _no_refs("jax.ref.free_ref")


__all__ = ["AbstractRef", "Ref", "addupdate", "empty_ref", "free_ref", "freeze", "get", "new_ref", "set", "swap"]
