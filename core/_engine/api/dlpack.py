"""`jax.dlpack`: arrays from other libraries through the DLPack protocol (numpy does the exchange)."""
from __future__ import annotations

import numpy as np

from ..libraries import numpy as jnp

_SUPPORTED = {np.dtype(t) for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                    "float16", "float32", "float64", "complex64", "complex128", "bool")}


def from_dlpack(external_array, device=None, copy=None):
    """A jax array holding the data of any object with `__dlpack__` (copied into the engine)."""
    return jnp.asarray(np.from_dlpack(external_array))


def is_supported_dtype(dtype) -> bool:
    return np.dtype(dtype) in _SUPPORTED or str(dtype) == "bfloat16"
