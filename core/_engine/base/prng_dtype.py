"""The typed PRNG key dtype (`key<fry>`): a pair of uint32 words per key, and how a concrete key
array prints. It sits with the dtypes, below arrays, so that `Array.__repr__` can print a key
without importing jax.random (which sits above arrays)."""
from __future__ import annotations

import numpy as np

from . import dtypes

KEY_DTYPE = np.dtype([("k0", "<u4"), ("k1", "<u4")])
KEY_NAME = "key<fry>"
dtypes._SHORT[KEY_DTYPE] = KEY_NAME  # jaxpr text: `key<fry>[2]`


# What a key-dtype array's `.dtype` shows (`key<fry>`): core._engine.libraries.random's KeyDType, which registers it
# here (it sits above arrays). Every key array has it, not only those made by jax.random: jit
# outputs, jnp.where(..., key, key), tree_map results.
KEY_DTYPE_FACE = [None]


def is_key_dtype(dtype) -> bool:
    try:
        return np.dtype(dtype) == KEY_DTYPE
    except TypeError:
        return False


def wrap_words(words: np.ndarray) -> np.ndarray:
    """uint32[..., 2] -> key[...]."""
    words = np.asarray(words, dtype=np.uint32)
    return np.array(words, order="C").reshape(-1).view(KEY_DTYPE).reshape(words.shape[:-1])


def unwrap_words(keys: np.ndarray) -> np.ndarray:
    """key[...] -> uint32[..., 2]."""
    keys = np.asarray(keys)
    return np.array(keys, order="C").reshape(-1).view(np.uint32).reshape(keys.shape + (2,))


def key_repr(keys) -> str:
    """JAX's text for a concrete key array: its shape, `key<fry>`, and the words it overlays."""
    data = np.array2string(unwrap_words(keys._value), separator=" ")
    return f"Array({keys.shape}, dtype={KEY_NAME}) overlaying:\n{data}"
