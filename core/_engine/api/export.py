"""jax.export serializes a jitted function as StableHLO for XLA to run elsewhere. gradpad compiles
jaxprs to Python/numpy and WGSL, never to StableHLO, so there is nothing to export: each name
exists and raises NotImplementedError saying why and what to do instead (docs/compatibility.md).
The constants and the symbolic-dimension test answer as JAX's do."""
from __future__ import annotations

from ..base._public import missing_attribute

_WHY = ("jax.export produces StableHLO for XLA; gradpad compiles jaxprs to Python/numpy and WGSL, not to "
        "StableHLO, so there is nothing to serialize. Keep the Python function and re-trace it (jax.jit), or "
        "inspect it with jax.make_jaxpr.")

minimum_supported_calling_convention_version = 9
maximum_supported_calling_convention_version = 10


def _unavailable(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(f"jax.export.{name}: {_WHY}")
    fn.__name__ = fn.__qualname__ = name
    return fn


export = _unavailable("export")
deserialize = _unavailable("deserialize")
symbolic_shape = _unavailable("symbolic_shape")
symbolic_args_specs = _unavailable("symbolic_args_specs")
register_pytree_node_serialization = _unavailable("register_pytree_node_serialization")
register_namedtuple_serialization = _unavailable("register_namedtuple_serialization")


def default_export_platform() -> str:
    return "cpu"


def is_symbolic_dim(p) -> bool:
    """No dimension is symbolic here (symbolic shapes come from jax.export.symbolic_shape)."""
    return False


class _Unavailable:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"jax.export.{type(self).__name__}: {_WHY}")


Exported = type("Exported", (_Unavailable,), {})
SymbolicScope = type("SymbolicScope", (_Unavailable,), {})
DisabledSafetyCheck = type("DisabledSafetyCheck", (_Unavailable,), {})

__getattr__ = missing_attribute(__name__)
