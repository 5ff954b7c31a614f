"""Users reach the engine's modules as `jax.*` (`core._engine.libraries.numpy` is `jax.numpy`): a missing name
must say so in JAX's words, "module 'jax.numpy' has no attribute 'X'", not name `core`."""
from __future__ import annotations


def public_name(module_name: str) -> str:
    """'core._engine.libraries.numpy.linalg' -> 'jax.numpy.linalg' (the package's own name is replaced)."""
    return "jax" + module_name[module_name.find("."):] if "." in module_name else "jax"


def set_public_module(module: str, *classes: type) -> None:
    """Name JAX's public module as the classes' home, as JAX's set_module does: tracebacks and reprs
    print `jax.errors.ConcretizationTypeError`, not this engine's file. Only where real JAX's class
    says a public module (tests/test_public_class_modules.py checks each against JAX 0.10.2)."""
    for cls in classes:
        cls.__module__ = module


def missing_attribute(module_name: str, public: str | None = None):
    """A module-level `__getattr__` that raises AttributeError naming the public module (`public`
    where the file's name is not the public one, e.g. lax_linalg is jax.lax.linalg)."""
    public = public or public_name(module_name)

    def __getattr__(name):
        raise AttributeError(f"module '{public}' has no attribute '{name}'")
    return __getattr__
