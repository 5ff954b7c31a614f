"""`jax.interpreters.xla`: the few names libraries still read (TensorFlow Probability's JAX
substrate registers its types in `canonicalize_dtype_handlers`). gradpad has no XLA: a primitive
is applied by binding it, which evaluates it with the engine's numpy rules."""
from __future__ import annotations

# type -> function giving the canonical value of an instance (its dtype canonicalized: float64 to
# float32 without x64), as JAX's table; TensorFlow Probability reads the numpy.ndarray entry back for
# its own variable type. Registering a type is accepted and kept.
canonicalize_dtype_handlers: dict = {}


def _canonicalize_ndarray(x):
    import numpy as np
    from ..dtypes import canonicalize_dtype
    x = np.asarray(x)
    return x.astype(canonicalize_dtype(x.dtype), copy=False)


def _canonicalize_python_scalar(x):
    import numpy as np
    from .._engine.base.dtypes import python_scalar_dtype
    return np.asarray(x, python_scalar_dtype(x))  # as JAX: a 0-d array of the scalar's default dtype


def _fill_canonicalize_dtype_handlers():
    import numpy as np
    for t in (np.ndarray, *{type(np.dtype(c).type(0)) for c in "?bhilqBHILQefdgFDG"}):
        canonicalize_dtype_handlers.setdefault(t, _canonicalize_ndarray)
    for t in (bool, int, float, complex):
        canonicalize_dtype_handlers.setdefault(t, _canonicalize_python_scalar)


_fill_canonicalize_dtype_handlers()


def apply_primitive(prim, *args, **params):
    """Evaluate `prim` on concrete arguments (JAX compiles and runs it; here it is bound)."""
    return prim.bind(*args, **params)


class Backend:
    """Stands for XLA's client type in annotations; gradpad's devices are in jax.devices()."""
