"""`jax.extend.core.primitives`: the engine's own primitive objects under JAX's `<name>_p` names.

Built from the rule tables, so every registered primitive is here and each name is the very object
that jaxprs hold (`jax.extend.core.primitives.sin_p is` the primitive in `make_jaxpr(jnp.sin)`).
"""
from __future__ import annotations

from .. import lax as _lax  # noqa: F401  (registers every primitive of lax and its libraries)
from .. import random as _random  # noqa: F401
from .._engine.tracing.rules import abstract_eval_rules as _abstract_eval_rules

# engine names whose JAX `_p` name is not `<name>_p`
_JAX_NAMES = {"remat2": "remat_p", "add_any": "add_jaxvals_p", "while": "while_p"}


def _collect() -> dict:
    found = {}
    for prim in list(_abstract_eval_rules):
        name = getattr(prim, "name", None)
        if not isinstance(name, str):
            continue
        attr = _JAX_NAMES.get(name, name.replace("-", "_") + "_p")
        found.setdefault(attr, prim)
    return found


globals().update(_collect())
