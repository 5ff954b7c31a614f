"""`jax.experimental.control_deps`: ordering hints for XLA's scheduler (`control_dep(src, dst)`: run
src before dst; `schedule([a, b, c])`: in that order). gradpad evaluates a jaxpr's equations in
program order, one after another, so the order is already the written one: both return what JAX's
return (an empty tuple and None) and add nothing to a jaxpr (JAX adds an effectful ffi_call)."""
from __future__ import annotations

__all__ = ["control_dep", "schedule"]


def control_dep(src, dst):
    """Adds a control dependency from src to dst (a no-op here: equations run in program order)."""
    return ()


def schedule(ops):
    """Adds control dependencies to schedule `ops` in the given order (a no-op here)."""
    for a, b in zip(ops[:-1], ops[1:]):
        control_dep(a, b)
