"""`jax.typing`: the annotations JAX's own signatures use (ArrayLike, DTypeLike).

They are plain `typing.Union`s, so `isinstance(x, ArrayLike)` works as it does in JAX.
"""
from __future__ import annotations

from typing import Any, Protocol, Union

import numpy as np

from .array import Array


class SupportsDType(Protocol):
    @property
    def dtype(self) -> np.dtype: ...


ArrayLike = Union[Array, np.ndarray, np.bool_, np.number, bool, int, float, complex]
DTypeLike = Union[str, type[Any], np.dtype, SupportsDType]

__all__ = ["ArrayLike", "DTypeLike"]
