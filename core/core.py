"""`jax.core`: the public names of JAX's core (tracers, abstract values, jaxpr evaluation)."""
from __future__ import annotations

import abc
from typing import Any, Union

from ._engine.api.api import ensure_compile_time_eval
from ._engine.base.avals import ShapedArray
from ._engine.tracing.jaxpr import Literal, Var
from ._engine.tracing.tracing import Trace, Tracer
from ._engine.transforms.staging import eval_jaxpr
from .extend.core import find_top_trace, get_opaque_trace_state, jaxprs_in_params  # noqa: F401 (deprecated here in JAX, still present)


class AbstractValue(abc.ABC):
    """Base of abstract values; ShapedArray counts as one (`isinstance(aval, AbstractValue)`)."""


AbstractValue.register(ShapedArray)
Value = Any
Atom = Union[Var, Literal]
ParamDict = dict[str, Any]
eval_context = ensure_compile_time_eval


# Python type -> function giving an instance's abstract value, as JAX's table: the types the engine
# takes as array values map to its own get_aval (TensorFlow Probability's JAX substrate reads the
# numpy.ndarray entry back for its variable type and registers that); entries added are kept
pytype_aval_mappings: dict = {}


def _fill_pytype_aval_mappings():
    import numpy as np
    from ._engine.tracing.array import Array
    from ._engine.tracing.tracing import get_aval
    for t in (np.ndarray, Array, Tracer, bool, int, float, complex, *{type(np.dtype(c).type(0)) for c in "?bhilqBHILQefdgFDG"}):
        pytype_aval_mappings.setdefault(t, get_aval)


_fill_pytype_aval_mappings()


def min_dim(d1, d2):
    """The smaller of two dimension sizes."""
    return min(d1, d2)


def max_dim(d1, d2):
    return max(d1, d2)


__all__ = ["AbstractValue", "Atom", "ParamDict", "ShapedArray", "Trace", "Tracer", "Value",
           "ensure_compile_time_eval", "eval_context", "eval_jaxpr", "max_dim", "min_dim",
           "pytype_aval_mappings"]
