"""Seed-era names: spellings from the older JAX the tutorials were written for.

Current JAX removed `jax.tree_map`, `jax.tree_multimap`, `jax.tree_leaves`, ... and the
`jax.config` module. The playground teaches from those tutorials, so it accepts the old names,
does what old JAX did, and warns once per name with the modern spelling
(see docs/compatibility.md).
"""
from __future__ import annotations

import warnings

from . import tree_util


class LegacyNameWarning(UserWarning):
    """An old JAX spelling was used; the message names the modern one."""


# old name -> (modern spelling, implementation)
_TREE = {
    "tree_map": ("jax.tree.map (or jax.tree_util.tree_map)", tree_util.tree_map),
    # tree_multimap(f, tree, *rest) was merged into tree_map in JAX 0.3.5: same call, same result.
    "tree_multimap": ("jax.tree.map (tree_multimap was merged into tree_map)", tree_util.tree_map),
    "tree_leaves": ("jax.tree.leaves (or jax.tree_util.tree_leaves)", tree_util.tree_leaves),
    "tree_flatten": ("jax.tree.flatten (or jax.tree_util.tree_flatten)", tree_util.tree_flatten),
    "tree_unflatten": ("jax.tree.unflatten (or jax.tree_util.tree_unflatten)", tree_util.tree_unflatten),
    "tree_structure": ("jax.tree.structure (or jax.tree_util.tree_structure)", tree_util.tree_structure),
}

_OTHER = {
    # core._engine.tracing.array (above this module, which config imports) fills in the class: register_old_name
    "DeviceArray": ("jax.Array (isinstance(x, jax.Array))", None),
    "config_module": ("jax.config (import jax; jax.config.update(...))", None),
}

_warned: set = set()


def warn_legacy(old: str, modern: str, stacklevel: int = 3) -> None:
    """Warn once per old name that it is a seed-era spelling."""
    if old in _warned:
        return
    _warned.add(old)
    warnings.warn(f"`{old}` is an old JAX name (removed in current JAX); gradpad accepts it for the "
                  f"tutorials. Use `{modern}` instead.", LegacyNameWarning, stacklevel=stacklevel + 1)


def legacy(name: str, old_spelling: str | None = None, stacklevel: int = 3):
    """The object behind a seed-era name, after warning. `old_spelling` is how the user wrote it
    (e.g. 'jax.numpy.DeviceArray'); by default 'jax.<name>'."""
    modern, obj = _TREE.get(name) or _OTHER[name]
    warn_legacy(old_spelling or f"jax.{name}", modern, stacklevel + 1)
    return obj


def register_old_name(name: str, obj) -> None:
    """A module above this one hands over the object behind an old name (core._engine.tracing.array: DeviceArray)."""
    modern, _ = _OTHER[name]
    _OTHER[name] = (modern, obj)


def __getattr__(name):
    if name in _TREE or name in _OTHER:
        return legacy(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def reset_warnings() -> None:
    """Forget which names already warned (tests)."""
    _warned.clear()
