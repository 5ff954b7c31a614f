"""Shared helpers of the distributions: promotion to inexact, and loc/scale standardisation."""
from __future__ import annotations

import numpy as np

from ... import numpy as jnp
from ....tracing.tracing import get_aval


def args(name, *xs):
    return jnp._promote_args_inexact(name, *xs)


def standardize(x, loc, scale):
    return (x - loc) / scale



_SCALAR_TYPE = {"b": bool, "i": int, "u": int, "f": float, "c": complex}


def const(x, v):
    """v typed like x, as JAX's lax._const makes it (unlike this engine's lax._const, which keeps x's
    weak type whatever its shape): for a weakly typed 0-d x, a Python scalar (weak) when x has the
    default dtype of its kind, else a numpy scalar of x's dtype (strong). So `lax.sub(x, const(x, 1))`
    is weakly typed exactly where JAX's is."""
    aval = get_aval(x)
    dtype = np.dtype(aval.dtype)
    if aval.weak_type and len(aval.shape) == 0:
        typ = _SCALAR_TYPE.get(dtype.kind, float)
        if jnp.result_type(typ) == dtype:
            return typ(v)
    return np.array(v, dtype=dtype)
