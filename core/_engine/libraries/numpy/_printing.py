"""jnp.array_repr and jnp.array_str: NumPy's, as in JAX (a concrete jax array prints under its
class name, ArrayImpl; a traced one cannot be printed this way)."""
from __future__ import annotations

import numpy as _np


class ArrayImpl(_np.ndarray):
    """A numpy view named as JAX's concrete array class, for numpy's repr to print."""


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    from ...tracing.array import Array
    if isinstance(arr, Array):
        arr = _np.asarray(arr).view(ArrayImpl)
    return _np.array_repr(arr, max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return _np.array_str(_np.asarray(a), max_line_width, precision, suppress_small)
