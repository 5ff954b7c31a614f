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


# Names JAX 0.10.2 removed but still answers with a message naming the replacement (its modules'
# `_deprecations` tables, recorded from real JAX): the same AttributeError here, not Python's bare one.
_PMAP_MIGRATION = "https://docs.jax.dev/en/latest/migrate_pmap.html#drop-in-replacements"
REMOVED_NAMES: dict[tuple[str, str], str] = {
    ("jax", "device_put_replicated"): "jax.device_put_replicated is deprecated; use jax.device_put instead. "
                                      f"See {_PMAP_MIGRATION} for a drop-in replacement.",
    ("jax", "device_put_sharded"): "jax.device_put_sharded is deprecated; use jax.device_put instead. "
                                   f"See {_PMAP_MIGRATION} for a drop-in replacement.",
    ("jax.numpy", "fix"): "jax.numpy.fix was deprecated in JAX v0.9.0, and will be removed in JAX v0.10.0. "
                          "Use jax.numpy.trunc instead.",
    ("jax.lax", "pvary"): "jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0; use "
                          "`jax.lax.pcast(..., to='varying')",
    ("jax.scipy.special", "sph_harm"): "jax.scipy.special.sph_harm was deprecated in v0.7.0 and removed in "
                                       "v0.10.0. Use jax.scipy.special.sph_harm_y instead.",
}


def no_attribute(public: str, name: str) -> AttributeError:
    """The AttributeError JAX raises for `public.name`: its removal message, or Python's."""
    msg = REMOVED_NAMES.get((public, name))
    return AttributeError(msg if msg is not None else f"module '{public}' has no attribute '{name}'")


def missing_attribute(module_name: str, public: str | None = None):
    """A module-level `__getattr__` that raises AttributeError naming the public module (`public`
    where the file's name is not the public one, e.g. lax_linalg is jax.lax.linalg)."""
    public = public or public_name(module_name)

    def __getattr__(name):
        raise no_attribute(public, name)
    return __getattr__
