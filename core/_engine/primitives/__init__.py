"""Primitive definitions, one family per module. Importing this package registers every rule."""
from __future__ import annotations

import numpy as np

from ..base.avals import ShapedArray
from ..tracing.rules import abstract_eval_rules, impl_rules, wgsl_rules
from ..tracing.tracing import Primitive


def define(name, *, abstract_eval, impl, multiple_results=False, wgsl=None, weak_type_rule=None,
           pp_params=None) -> Primitive:
    """Create a primitive and register its shape rule, numpy impl and WGSL (if any)."""
    p = Primitive(name, multiple_results)
    abstract_eval_rules[p] = abstract_eval
    impl_rules[p] = impl
    if wgsl is not None:
        wgsl_rules[p] = wgsl
    if weak_type_rule is not None:
        p.weak_type_rule = weak_type_rule
    if pp_params is not None:
        p.pp_params = pp_params
    return p


def never_weak(weak_flags, **params):
    return False


def _load_all():
    from . import elementwise, complex_parts, structural, reductions, dot, call  # noqa: F401
    import importlib
    for mod in ("control_flow", "random_bits", "collectives", "indexing", "misc", "linalg",
                # lax area (issue 11)
                "convolution", "windowed", "generic_reduce", "solves", "elementwise_extra", "shaping", "fft",
                "staging_ops", "lax_types", "ragged", "tridiagonal", "ormqr", "call_family",
                # transforms area
                "remat"):
        try:
            importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{mod}":
                raise
