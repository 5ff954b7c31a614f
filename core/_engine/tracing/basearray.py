"""`jax.Array`: the abstract type of every JAX array. As in JAX, a concrete array (`ArrayImpl`)
and a tracer (inside jit, grad, vmap, ...) are both instances of it, so code that checks
`isinstance(x, jax.Array)` behaves the same under a transformation. Internally the engine
tells concrete arrays from tracers with `core._engine.tracing.array.Array` and `core._engine.tracing.tracing.Tracer`."""
from __future__ import annotations

from .array import Array as _ArrayImpl
from .tracing import Tracer as _Tracer


class _ArrayMeta(type):
    def __instancecheck__(cls, x):
        return isinstance(x, (_ArrayImpl, _Tracer))

    def __subclasscheck__(cls, sub):
        return issubclass(sub, (_ArrayImpl, _Tracer)) or type.__subclasscheck__(cls, sub)


class Array(metaclass=_ArrayMeta):
    """The abstract base of every array: use it in isinstance checks and annotations."""
    __slots__ = ()

    def __init__(self, *args, **kwargs):
        raise TypeError("jaxlib._jax.Array() takes no arguments")  # JAX's words; build arrays with jnp.asarray


Array.__module__, Array.__qualname__ = "jax", "jaxlib._jax.Array"  # repr as JAX's
